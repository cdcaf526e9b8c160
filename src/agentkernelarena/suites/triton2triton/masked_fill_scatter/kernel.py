"""Masked scatter of feature rows into token rows, in four kernels: count the masked tokens of
every block of tokens; one program scans the block counts; every block writes the source row
(the rank among masked tokens) of each of its tokens; then a flat kernel gives every output
element its own lane, which finds its token and channel and copies from src or x."""

import torch
import triton
import triton.language as tl


@triton.jit
def _count_kernel(mask_ptr, counts_ptr, T, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    t = pid * BLOCK + tl.arange(0, BLOCK)
    m = tl.load(mask_ptr + t, mask=t < T, other=0).to(tl.int32)
    tl.store(counts_ptr + pid, tl.sum(m, axis=0))


@triton.jit
def _scan_counts_kernel(counts_ptr, n_blocks, BLOCK: tl.constexpr):
    carry = tl.zeros((), dtype=tl.int32)
    for start in range(0, n_blocks, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        c = tl.load(counts_ptr + offs, mask=offs < n_blocks, other=0)
        tl.store(counts_ptr + offs, tl.cumsum(c, axis=0) - c + carry, mask=offs < n_blocks)
        carry += tl.sum(c, axis=0)


@triton.jit
def _rank_kernel(mask_ptr, counts_ptr, rank_ptr, T, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    t = pid * BLOCK + tl.arange(0, BLOCK)
    m = tl.load(mask_ptr + t, mask=t < T, other=0).to(tl.int32)
    rank = tl.load(counts_ptr + pid) + tl.cumsum(m, axis=0) - m
    tl.store(rank_ptr + t, rank, mask=t < T)


@triton.jit
def _merge_kernel(x_ptr, mask_ptr, rank_ptr, src_ptr, out_ptr, n, D, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    t = offs // D
    d = offs % D
    m = tl.load(mask_ptr + t, mask=inb, other=0) != 0
    r = tl.load(rank_ptr + t, mask=inb, other=0).to(tl.int64)
    from_src = tl.load(src_ptr + r * D + d, mask=inb & m)
    from_x = tl.load(x_ptr + offs, mask=inb & (~m))
    tl.store(out_ptr + offs, tl.where(m, from_src, from_x), mask=inb)


def forward(x: torch.Tensor, mask: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    T, D = x.shape
    BLOCK_T = 1024
    n_blocks = triton.cdiv(T, BLOCK_T)
    counts = torch.empty((n_blocks,), device=x.device, dtype=torch.int32)
    rank = torch.empty((T,), device=x.device, dtype=torch.int32)
    out = torch.empty_like(x)
    m8 = mask.view(torch.uint8)
    _count_kernel[(n_blocks,)](m8, counts, T, BLOCK=BLOCK_T)
    _scan_counts_kernel[(1,)](counts, n_blocks, BLOCK=1024)
    _rank_kernel[(n_blocks,)](m8, counts, rank, T, BLOCK=BLOCK_T)
    BLOCK = 4096 if x.device.type == "cpu" else 1024  # CPU: the Triton interpreter
    _merge_kernel[(triton.cdiv(T * D, BLOCK),)](x, m8, rank, src, out, T * D, D, BLOCK=BLOCK)
    return out
