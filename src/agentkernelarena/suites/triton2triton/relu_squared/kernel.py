"""Bias-add + squared ReLU, written as two separate elementwise passes with a float32
intermediate."""

import torch
import triton
import triton.language as tl


@triton.jit
def _add_bias_kernel(x_ptr, bias_ptr, tmp_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(bias_ptr + offs % N, mask=mask).to(tl.float32)
    tl.store(tmp_ptr + offs, x + b, mask=mask)


@triton.jit
def _relu_squared_kernel(tmp_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    v = tl.maximum(tl.load(tmp_ptr + offs, mask=mask), 0.0)
    tl.store(out_ptr + offs, (v * v).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    n = M * N
    tmp = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 256
    grid = (triton.cdiv(n, BLOCK),)
    _add_bias_kernel[grid](x, bias, tmp, n, N, BLOCK=BLOCK)
    _relu_squared_kernel[grid](tmp, out, n, BLOCK=BLOCK)
    return out
