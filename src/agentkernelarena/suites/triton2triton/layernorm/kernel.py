"""LayerNorm with weight and bias over the last dimension: mean, variance, normalize passes."""

import torch
import triton
import triton.language as tl

EPS = 1e-5


@triton.jit
def _row_mean_kernel(x_ptr, mean_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(mean_ptr + row, tl.sum(acc, axis=0) / N)


@triton.jit
def _row_rstd_kernel(x_ptr, mean_ptr, rstd_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    mean = tl.load(mean_ptr + row)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        v = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, v - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / N
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(var + eps))


@triton.jit
def _normalize_kernel(x_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        v = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        y = (v - mean) * rstd * w + b
        tl.store(out_ptr + row * N + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    mean = torch.empty((M,), device=x.device, dtype=torch.float32)
    rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 256
    grid = (M,)
    _row_mean_kernel[grid](x, mean, N, BLOCK=BLOCK)
    _row_rstd_kernel[grid](x, mean, rstd, N, EPS, BLOCK=BLOCK)
    _normalize_kernel[grid](x, weight, bias, mean, rstd, out, N, BLOCK=BLOCK)
    return out
