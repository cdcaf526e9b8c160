"""SwiGLU backward as two elementwise kernels: du = dy * silu(g), then dg, which reads g and dy
a second time."""

import torch
import triton
import triton.language as tl


@triton.jit
def _du_kernel(g_ptr, dy_ptr, du_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = 1.0 / (1.0 + tl.exp(-g))
    tl.store(du_ptr + offs, (dy * g * s).to(du_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _dg_kernel(g_ptr, u_ptr, dy_ptr, dg_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(u_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = 1.0 / (1.0 + tl.exp(-g))
    dg = dy * u * s * (1.0 + g * (1.0 - s))
    tl.store(dg_ptr + offs, dg.to(dg_ptr.dtype.element_ty), mask=mask)


def forward(g: torch.Tensor, u: torch.Tensor, dy: torch.Tensor):
    n = g.numel()
    dg = torch.empty_like(g)
    du = torch.empty_like(g)
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    _du_kernel[grid](g, dy, du, n, BLOCK=BLOCK)
    _dg_kernel[grid](g, u, dy, dg, n, BLOCK=BLOCK)
    return (dg, du)
