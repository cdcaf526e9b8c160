"""Log-cumsum-exp along rows as a four-pass scan with a global row-max shift.

1. the maximum of every row;
2. every BLOCK-element block of a row scans exp(x - rowmax) locally into a float32 buffer and
   writes its total;
3. the block totals of each row are scanned;
4. every block adds the total of the blocks before it and writes rowmax + log(...).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_max_kernel(x_ptr, max_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * N + cols, mask=cols < N, other=float("-inf"))
        acc = tl.maximum(acc, v.to(tl.float32))
    tl.store(max_ptr + row, tl.max(acc, axis=0))


@triton.jit
def _block_scan_kernel(x_ptr, max_ptr, tmp_ptr, tot_ptr, N, n_blocks, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = (pid // n_blocks).to(tl.int64)
    blk = pid % n_blocks
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    m = tl.load(max_ptr + row)
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - m)
    tl.store(tmp_ptr + row * N + cols, tl.cumsum(e, axis=0), mask=mask)
    tl.store(tot_ptr + row * n_blocks + blk, tl.sum(e, axis=0))


@triton.jit
def _scan_totals_kernel(tot_ptr, n_blocks, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, n_blocks, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_blocks
        t = tl.load(tot_ptr + row * n_blocks + offs, mask=mask, other=0.0)
        tl.store(tot_ptr + row * n_blocks + offs, tl.cumsum(t, axis=0) + carry, mask=mask)
        carry += tl.sum(t, axis=0)


@triton.jit
def _finish_kernel(tmp_ptr, tot_ptr, max_ptr, out_ptr, N, n_blocks, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = (pid // n_blocks).to(tl.int64)
    blk = pid % n_blocks
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    s = tl.load(tmp_ptr + row * N + cols, mask=mask, other=1.0)
    if blk > 0:
        s += tl.load(tot_ptr + row * n_blocks + blk - 1)
    y = tl.load(max_ptr + row) + tl.log(s)
    tl.store(out_ptr + row * N + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK = 1024 if x.device.type == "cpu" else 256  # CPU: the Triton interpreter
    n_blocks = triton.cdiv(N, BLOCK)
    row_max = torch.empty((M,), device=x.device, dtype=torch.float32)
    tmp = torch.empty((M, N), device=x.device, dtype=torch.float32)
    totals = torch.empty((M, n_blocks), device=x.device, dtype=torch.float32)
    _row_max_kernel[(M,)](x, row_max, N, BLOCK=1024)
    _block_scan_kernel[(M * n_blocks,)](x, row_max, tmp, totals, N, n_blocks, BLOCK=BLOCK)
    _scan_totals_kernel[(M,)](totals, n_blocks, BLOCK=BLOCK)
    _finish_kernel[(M * n_blocks,)](tmp, totals, row_max, out, N, n_blocks, BLOCK=BLOCK)
    return out
