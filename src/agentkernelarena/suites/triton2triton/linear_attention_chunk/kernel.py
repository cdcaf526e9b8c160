"""Causal linear attention in its recurrent form: one program per (batch, head, block of v
columns) keeps the DK x BLOCK_V state in registers and steps through time one token at a time
(a rank-1 update, then a state-vector product)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _recurrent_kernel(q_ptr, k_ptr, v_ptr, o_ptr, T, DV, scale, DK: tl.constexpr,
                      BLOCK_V: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BLOCK_V + tl.arange(0, BLOCK_V)
    i = tl.arange(0, DK)
    jm = j < DV
    qk_base = bh * T * DK
    v_base = bh * T * DV
    S = tl.zeros((DK, BLOCK_V), dtype=tl.float32)
    for t in range(0, T):
        k = tl.load(k_ptr + qk_base + t * DK + i).to(tl.float32)
        q = tl.load(q_ptr + qk_base + t * DK + i).to(tl.float32)
        v = tl.load(v_ptr + v_base + t * DV + j, mask=jm, other=0.0).to(tl.float32)
        S += k[:, None] * v[None, :]
        o = tl.sum(S * q[:, None], axis=0) * scale
        tl.store(o_ptr + v_base + t * DV + j, o.to(o_ptr.dtype.element_ty), mask=jm)


def forward(q, k, v):
    B, H, T, DK = q.shape
    DV = v.shape[-1]
    o = torch.empty_like(v)
    BLOCK_V = 32
    grid = (B * H, triton.cdiv(DV, BLOCK_V))
    _recurrent_kernel[grid](q, k, v, o, T, DV, DK ** -0.5, DK=DK, BLOCK_V=BLOCK_V)
    return o
