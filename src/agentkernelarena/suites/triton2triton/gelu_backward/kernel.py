"""Exact GELU backward in two elementwise passes: gelu'(x) into a float32 buffer, then
dx = dy * gelu'(x)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _gelu_grad_kernel(x_ptr, g_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    cdf = 0.5 * (1.0 + tl.erf(x * 0.7071067811865476))
    pdf = tl.exp(-0.5 * x * x) * 0.3989422804014327
    tl.store(g_ptr + offs, cdf + x * pdf, mask=mask)


@triton.jit
def _mul_kernel(g_ptr, dy_ptr, dx_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    g = tl.load(g_ptr + offs, mask=mask, other=0.0)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(dx_ptr + offs, (dy * g).to(dx_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    grad = torch.empty(x.shape, device=x.device, dtype=torch.float32)
    dx = torch.empty_like(x)
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    _gelu_grad_kernel[grid](x, grad, n, BLOCK=BLOCK)
    _mul_kernel[grid](grad, dy, dx, n, BLOCK=BLOCK)
    return dx
