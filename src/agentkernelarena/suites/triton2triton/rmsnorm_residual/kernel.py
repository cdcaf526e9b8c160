"""Residual add followed by RMSNorm with a weight: an add pass, then a per-row RMSNorm pass."""

import torch
import triton
import triton.language as tl

EPS = 1e-6


@triton.jit
def _residual_add_kernel(x_ptr, r_ptr, h_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    r = tl.load(r_ptr + offs, mask=mask).to(tl.float32)
    tl.store(h_ptr + offs, x + r, mask=mask)


@triton.jit
def _rmsnorm_kernel(h_ptr, w_ptr, out_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        h = tl.load(h_ptr + row * N + cols, mask=cols < N, other=0.0)
        acc += h * h
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        h = tl.load(h_ptr + row * N + cols, mask=mask, other=0.0)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + row * N + cols, (h * rstd * w).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    h = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 256
    _residual_add_kernel[(triton.cdiv(M * N, BLOCK),)](x, residual, h, M * N, BLOCK=BLOCK)
    _rmsnorm_kernel[(M,)](h, weight, out, N, EPS, BLOCK=BLOCK)
    return out
