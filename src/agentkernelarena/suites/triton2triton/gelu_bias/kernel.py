"""Bias-add + GELU, written as two separate elementwise passes."""

import torch
import triton
import triton.language as tl


@triton.jit
def _add_bias_kernel(x_ptr, bias_ptr, tmp_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(bias_ptr + offs % N, mask=mask).to(tl.float32)
    tl.store(tmp_ptr + offs, x + b, mask=mask)


@triton.jit
def _gelu_kernel(tmp_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    v = tl.load(tmp_ptr + offs, mask=mask)
    y = 0.5 * v * (1.0 + tl.erf(v * 0.7071067811865476))
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    n = M * N
    tmp = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 256
    grid = (triton.cdiv(n, BLOCK),)
    _add_bias_kernel[grid](x, bias, tmp, n, N, BLOCK=BLOCK)
    _gelu_kernel[grid](tmp, out, n, BLOCK=BLOCK)
    return out
