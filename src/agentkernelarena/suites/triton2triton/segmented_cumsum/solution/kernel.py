"""Prefix sums restarting at segment boundaries, as a load-balanced segmented scan.

Faster than the baseline, where one program scans each segment (the eighth-of-T segment
alone, block after block): here the work is split into equal blocks of the flat vector.
1. a head-flag byte per element: 1 where a non-empty segment starts;
2. every block runs a segmented scan (tl.associative_scan over (value, flag) pairs, the
   running sum restarting at a flag) and writes its summary: the last running sum and
   whether it holds a flag;
3. one program scans the block summaries with the same operator (the carry into each block);
4. every block repeats its local scan and adds the carry to the elements before its first
   flag.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _combine(av, af, bv, bf):
    return tl.where(bf != 0, bv, av + bv), af | bf


@triton.jit
def _zero_flags_kernel(f_ptr, T, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(f_ptr + offs, tl.zeros((BLOCK,), dtype=tl.int8), mask=offs < T)


@triton.jit
def _set_flags_kernel(offsets_ptr, f_ptr, B, T, BLOCK: tl.constexpr):
    b = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    start = tl.load(offsets_ptr + b, mask=b < B, other=T)
    tl.store(f_ptr + start, tl.full((BLOCK,), 1, dtype=tl.int8), mask=(b < B) & (start < T))


@triton.jit
def _block_summary_kernel(x_ptr, f_ptr, tot_ptr, flag_ptr, T, BLOCK: tl.constexpr):
    blk = tl.program_id(0)
    offs = blk.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < T
    v = tl.load(x_ptr + offs, mask=m, other=0.0)
    f = tl.load(f_ptr + offs, mask=m, other=0).to(tl.int32)
    sv, sf = tl.associative_scan((v, f), 0, _combine)
    last = tl.arange(0, BLOCK) == BLOCK - 1
    tl.store(tot_ptr + blk, tl.sum(tl.where(last, sv, 0.0), axis=0))
    tl.store(flag_ptr + blk, tl.max(f, axis=0))


@triton.jit
def _scan_summaries_kernel(tot_ptr, flag_ptr, n_blocks, BLOCK: tl.constexpr):
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, n_blocks, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n_blocks
        v = tl.load(tot_ptr + offs, mask=m, other=0.0)
        f = tl.load(flag_ptr + offs, mask=m, other=0)
        sv, sf = tl.associative_scan((v, f), 0, _combine)
        sv = tl.where(sf != 0, sv, sv + carry)
        tl.store(tot_ptr + offs, sv, mask=m)
        last = offs == tl.minimum(start + BLOCK, n_blocks) - 1
        carry = tl.sum(tl.where(last, sv, 0.0), axis=0)


@triton.jit
def _apply_kernel(x_ptr, f_ptr, tot_ptr, out_ptr, T, BLOCK: tl.constexpr):
    blk = tl.program_id(0)
    offs = blk.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < T
    v = tl.load(x_ptr + offs, mask=m, other=0.0)
    f = tl.load(f_ptr + offs, mask=m, other=0).to(tl.int32)
    sv, sf = tl.associative_scan((v, f), 0, _combine)
    if blk > 0:
        carry = tl.load(tot_ptr + blk - 1)
        sv = tl.where(sf != 0, sv, sv + carry)
    tl.store(out_ptr + offs, sv, mask=m)


def forward(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    T = x.shape[0]
    B = offsets.shape[0] - 1
    out = torch.empty_like(x)
    BLOCK = 2048
    n_blocks = triton.cdiv(T, BLOCK)
    flags = torch.empty((T,), device=x.device, dtype=torch.int8)
    totals = torch.empty((n_blocks,), device=x.device, dtype=torch.float32)
    has_flag = torch.empty((n_blocks,), device=x.device, dtype=torch.int32)
    _zero_flags_kernel[(triton.cdiv(T, 4096),)](flags, T, BLOCK=4096)
    _set_flags_kernel[(triton.cdiv(B, 1024),)](offsets, flags, B, T, BLOCK=1024)
    _block_summary_kernel[(n_blocks,)](x, flags, totals, has_flag, T, BLOCK=BLOCK,
                                       num_warps=8)
    _scan_summaries_kernel[(1,)](totals, has_flag, n_blocks, BLOCK=1024, num_warps=8)
    _apply_kernel[(n_blocks,)](x, flags, totals, out, T, BLOCK=BLOCK, num_warps=8)
    return out
