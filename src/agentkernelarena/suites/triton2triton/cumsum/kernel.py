"""Inclusive prefix sum along the last dimension of an (M, N) tensor, as a three-pass scan.

1. every block of BLOCK elements of a row is scanned locally (into a float32, or int32, buffer)
   and its total is written out;
2. the block totals of each row are scanned;
3. every block adds the total of the blocks before it and writes the result in x's dtype.
Floating inputs are accumulated in float32, int32 inputs in int32.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _block_scan_kernel(x_ptr, tmp_ptr, tot_ptr, N, n_blocks, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = (pid // n_blocks).to(tl.int64)
    blk = pid % n_blocks
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0).to(tmp_ptr.dtype.element_ty)
    tl.store(tmp_ptr + row * N + cols, tl.cumsum(x, axis=0), mask=mask)
    tl.store(tot_ptr + row * n_blocks + blk, tl.sum(x, axis=0))


@triton.jit
def _scan_totals_kernel(tot_ptr, n_blocks, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros((), dtype=tot_ptr.dtype.element_ty)
    for start in range(0, n_blocks, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_blocks
        t = tl.load(tot_ptr + row * n_blocks + offs, mask=mask, other=0)
        s = tl.cumsum(t, axis=0) + carry
        tl.store(tot_ptr + row * n_blocks + offs, s, mask=mask)
        carry += tl.sum(t, axis=0)


@triton.jit
def _add_offsets_kernel(tmp_ptr, tot_ptr, out_ptr, N, n_blocks, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = (pid // n_blocks).to(tl.int64)
    blk = pid % n_blocks
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    y = tl.load(tmp_ptr + row * N + cols, mask=mask, other=0)
    if blk > 0:
        y += tl.load(tot_ptr + row * n_blocks + blk - 1)
    tl.store(out_ptr + row * N + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    acc_dtype = torch.float32 if x.dtype.is_floating_point else torch.int32
    out = torch.empty_like(x)
    BLOCK = 1024 if x.device.type == "cpu" else 256  # CPU: the Triton interpreter
    n_blocks = triton.cdiv(N, BLOCK)
    tmp = torch.empty((M, N), device=x.device, dtype=acc_dtype)
    totals = torch.empty((M, n_blocks), device=x.device, dtype=acc_dtype)
    _block_scan_kernel[(M * n_blocks,)](x, tmp, totals, N, n_blocks, BLOCK=BLOCK)
    _scan_totals_kernel[(M,)](totals, n_blocks, BLOCK=BLOCK)
    _add_offsets_kernel[(M * n_blocks,)](tmp, totals, out, N, n_blocks, BLOCK=BLOCK)
    return out
