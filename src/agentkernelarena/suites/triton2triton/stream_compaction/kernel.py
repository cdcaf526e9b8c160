"""Stream compaction in four kernels: zero the output; count the kept elements of every block;
one program scans the block counts into block offsets (and the total count); every block then
ranks its kept elements with a local prefix sum and scatters them to its offset."""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(out_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < N)


@triton.jit
def _count_kernel(mask_ptr, counts_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = tl.load(mask_ptr + offs, mask=offs < N, other=0).to(tl.int32)
    tl.store(counts_ptr + pid, tl.sum(m, axis=0))


@triton.jit
def _scan_counts_kernel(counts_ptr, offsets_ptr, total_ptr, n_blocks, BLOCK: tl.constexpr):
    carry = tl.zeros((), dtype=tl.int64)
    for start in range(0, n_blocks, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        c = tl.load(counts_ptr + offs, mask=offs < n_blocks, other=0).to(tl.int64)
        tl.store(offsets_ptr + offs, tl.cumsum(c, axis=0) - c + carry, mask=offs < n_blocks)
        carry += tl.sum(c, axis=0)
    tl.store(total_ptr, carry)


@triton.jit
def _scatter_kernel(x_ptr, mask_ptr, offsets_ptr, out_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = tl.load(mask_ptr + offs, mask=offs < N, other=0).to(tl.int32)
    keep = m != 0
    x = tl.load(x_ptr + offs, mask=keep)
    rank = tl.cumsum(m, axis=0) - m
    base = tl.load(offsets_ptr + pid)
    tl.store(out_ptr + base + rank, x, mask=keep)


def forward(x: torch.Tensor, mask: torch.Tensor):
    N = x.shape[0]
    BLOCK = 4096 if x.device.type == "cpu" else 1024  # CPU: the Triton interpreter
    n_blocks = triton.cdiv(N, BLOCK)
    out = torch.empty_like(x)
    count = torch.empty((1,), device=x.device, dtype=torch.int64)
    counts = torch.empty((n_blocks,), device=x.device, dtype=torch.int32)
    offsets = torch.empty((n_blocks,), device=x.device, dtype=torch.int64)
    m8 = mask.view(torch.uint8)
    _zero_kernel[(n_blocks,)](out, N, BLOCK=BLOCK)
    _count_kernel[(n_blocks,)](m8, counts, N, BLOCK=BLOCK)
    _scan_counts_kernel[(1,)](counts, offsets, count, n_blocks, BLOCK=1024)
    _scatter_kernel[(n_blocks,)](x, m8, offsets, out, N, BLOCK=BLOCK)
    return (out, count)
