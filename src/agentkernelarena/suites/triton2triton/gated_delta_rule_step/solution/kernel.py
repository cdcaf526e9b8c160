"""Gated delta rule decode step in one pass over the state: columns of S are independent, so
each program loads a (DK, BLOCK_V) tile once, decays it, forms the delta, applies the rank-1
update, reduces the output and stores the tile."""

import torch
import triton
import triton.language as tl


@triton.jit
def _gdr_step_kernel(q_ptr, k_ptr, v_ptr, alpha_ptr, beta_ptr, s_ptr, o_ptr, scale,
                     DK: tl.constexpr, DV, BLOCK_V: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BLOCK_V + tl.arange(0, BLOCK_V)
    i = tl.arange(0, DK)
    jm = j < DV
    offs = bh * DK * DV + i[:, None] * DV + j[None, :]
    s = tl.load(s_ptr + offs, mask=jm[None, :], other=0.0)
    q = tl.load(q_ptr + bh * DK + i).to(tl.float32)
    k = tl.load(k_ptr + bh * DK + i).to(tl.float32)
    v = tl.load(v_ptr + bh * DV + j, mask=jm, other=0.0).to(tl.float32)
    s = tl.load(alpha_ptr + bh) * s
    u = v - tl.sum(s * k[:, None], axis=0)
    s = s + tl.load(beta_ptr + bh) * k[:, None] * u[None, :]
    tl.store(s_ptr + offs, s, mask=jm[None, :])
    o = tl.sum(s * q[:, None], axis=0) * scale
    tl.store(o_ptr + bh * DV + j, o.to(o_ptr.dtype.element_ty), mask=jm)


def forward(q, k, v, alpha, beta, S):
    B, H, DK = q.shape
    DV = v.shape[-1]
    o = torch.empty_like(v)
    BLOCK_V = 32
    grid = (B * H, triton.cdiv(DV, BLOCK_V))
    _gdr_step_kernel[grid](q, k, v, alpha, beta, S, o, DK ** -0.5, DK=DK, DV=DV,
                           BLOCK_V=BLOCK_V, num_warps=4)
    return (o, S)
