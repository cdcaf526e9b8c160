"""Gated delta rule decode step written as the math reads, one kernel per step: the decay
(elementwise, in place), the delta u = v - S^T k, then the rank-1 update with the output.
Each kernel passes over the float32 state again."""

import torch
import triton
import triton.language as tl


@triton.jit
def _decay_kernel(s_ptr, alpha_ptr, DKV, BLOCK: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < DKV
    a = tl.load(alpha_ptr + bh)
    s = tl.load(s_ptr + bh * DKV + offs, mask=mask, other=0.0)
    tl.store(s_ptr + bh * DKV + offs, a * s, mask=mask)


@triton.jit
def _delta_kernel(s_ptr, k_ptr, v_ptr, u_ptr, DK: tl.constexpr, DV, BLOCK_V: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BLOCK_V + tl.arange(0, BLOCK_V)
    i = tl.arange(0, DK)
    jm = j < DV
    s = tl.load(s_ptr + bh * DK * DV + i[:, None] * DV + j[None, :], mask=jm[None, :],
                other=0.0)
    k = tl.load(k_ptr + bh * DK + i).to(tl.float32)
    v = tl.load(v_ptr + bh * DV + j, mask=jm, other=0.0).to(tl.float32)
    tl.store(u_ptr + bh * DV + j, v - tl.sum(s * k[:, None], axis=0), mask=jm)


@triton.jit
def _update_out_kernel(s_ptr, k_ptr, q_ptr, u_ptr, beta_ptr, o_ptr, scale, DK: tl.constexpr,
                       DV, BLOCK_V: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BLOCK_V + tl.arange(0, BLOCK_V)
    i = tl.arange(0, DK)
    jm = j < DV
    offs = bh * DK * DV + i[:, None] * DV + j[None, :]
    s = tl.load(s_ptr + offs, mask=jm[None, :], other=0.0)
    k = tl.load(k_ptr + bh * DK + i).to(tl.float32)
    q = tl.load(q_ptr + bh * DK + i).to(tl.float32)
    u = tl.load(u_ptr + bh * DV + j, mask=jm, other=0.0)
    beta = tl.load(beta_ptr + bh)
    s = s + beta * k[:, None] * u[None, :]
    tl.store(s_ptr + offs, s, mask=jm[None, :])
    o = tl.sum(s * q[:, None], axis=0) * scale
    tl.store(o_ptr + bh * DV + j, o.to(o_ptr.dtype.element_ty), mask=jm)


def forward(q, k, v, alpha, beta, S):
    B, H, DK = q.shape
    DV = v.shape[-1]
    o = torch.empty_like(v)
    u = torch.empty((B, H, DV), device=q.device, dtype=torch.float32)
    BLOCK = 1024
    _decay_kernel[(B * H, triton.cdiv(DK * DV, BLOCK))](S, alpha, DK * DV, BLOCK=BLOCK)
    BLOCK_V = 32
    grid = (B * H, triton.cdiv(DV, BLOCK_V))
    _delta_kernel[grid](S, k, v, u, DK=DK, DV=DV, BLOCK_V=BLOCK_V)
    _update_out_kernel[grid](S, k, q, u, beta, o, DK ** -0.5, DK=DK, DV=DV, BLOCK_V=BLOCK_V)
    return (o, S)
