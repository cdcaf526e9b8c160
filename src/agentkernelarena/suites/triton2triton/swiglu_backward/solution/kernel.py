"""SwiGLU backward fused: g, u and dy read once, dg and du written in the same pass."""

import torch
import triton
import triton.language as tl


@triton.jit
def _swiglu_backward_kernel(g_ptr, u_ptr, dy_ptr, dg_ptr, du_ptr, n_elements,
                            BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(u_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = 1.0 / (1.0 + tl.exp(-g))
    silu = g * s
    tl.store(du_ptr + offs, (dy * silu).to(du_ptr.dtype.element_ty), mask=mask)
    dg = dy * u * (s + silu * (1.0 - s))
    tl.store(dg_ptr + offs, dg.to(dg_ptr.dtype.element_ty), mask=mask)


def forward(g: torch.Tensor, u: torch.Tensor, dy: torch.Tensor):
    n = g.numel()
    dg = torch.empty_like(g)
    du = torch.empty_like(g)
    BLOCK = 2048
    _swiglu_backward_kernel[(triton.cdiv(n, BLOCK),)](g, u, dy, dg, du, n, BLOCK=BLOCK,
                                                      num_warps=8)
    return (dg, du)
