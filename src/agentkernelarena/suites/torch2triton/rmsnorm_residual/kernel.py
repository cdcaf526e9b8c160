"""torch2triton/rmsnorm_residual: residual add + RMSNorm (LLaMA), the Triton starting point.

Simple and correct: one elementwise kernel writes residual = x + residual, then an RMSNorm
kernel with one program per row walks the row twice in blocks of 1024 (sum of squares, then
normalize), reading x and residual again each time and computing in float32 with one final
rounding.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-6


@triton.jit
def _add_kernel(x_ptr, r_ptr, h_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    r = tl.load(r_ptr + offs, mask=mask).to(tl.float32)
    tl.store(h_ptr + offs, (x + r).to(h_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _rmsnorm_kernel(x_ptr, r_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(r_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        h = x + r
        acc += h * h
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(r_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + cols, ((x + r) * rstd * w).to(y_ptr.dtype.element_ty),
                 mask=mask)


def forward(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor) -> tuple:
    M, N = x.shape
    h = torch.empty_like(x)
    y = torch.empty_like(x)
    n = M * N
    _add_kernel[(triton.cdiv(n, 1024),)](x, residual, h, n, BLOCK=1024)
    _rmsnorm_kernel[(M,)](x, residual, weight, y, N, EPS, BLOCK=1024)
    return (y, h)
