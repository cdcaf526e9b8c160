"""LayerNorm (no affine) with saved statistics in three kernels: a per-row mean pass, a per-row
variance pass that reads x again, and a flat elementwise normalization pass that reads x a
third time and looks up its row's statistics by division."""

import torch
import triton
import triton.language as tl

EPS = 1e-5


@triton.jit
def _mean_kernel(x_ptr, mean_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * N + offs, mask=offs < N, other=0.0).to(tl.float32)
    tl.store(mean_ptr + row, tl.sum(acc, axis=0) / N)


@triton.jit
def _rstd_kernel(x_ptr, mean_ptr, rstd_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    mean = tl.load(mean_ptr + row)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps))


@triton.jit
def _normalize_kernel(x_ptr, mean_ptr, rstd_ptr, y_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    row = offs // N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.load(mean_ptr + row, mask=mask, other=0.0)
    rstd = tl.load(rstd_ptr + row, mask=mask, other=0.0)
    tl.store(y_ptr + offs, ((x - mean) * rstd).to(y_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor):
    M, N = x.shape
    y = torch.empty_like(x)
    mean = torch.empty((M,), device=x.device, dtype=torch.float32)
    rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
    BLOCK_ROW = min(1024, triton.next_power_of_2(N))
    _mean_kernel[(M,)](x, mean, N, BLOCK=BLOCK_ROW)
    _rstd_kernel[(M,)](x, mean, rstd, N, EPS, BLOCK=BLOCK_ROW)
    n = M * N
    BLOCK = 4096 if x.device.type == "cpu" else 1024
    _normalize_kernel[(triton.cdiv(n, BLOCK),)](x, mean, rstd, y, n, N, BLOCK=BLOCK)
    return (y, mean, rstd)
