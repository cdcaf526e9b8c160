"""Chunked causal linear attention: per chunk of C tokens, the output is the inter-chunk term
q_c S (the state of all earlier chunks) plus the intra-chunk term tril(q_c k_c^T) v_c, both on
tensor cores; then S += k_c^T v_c. The float32 state and the float32 intra-chunk scores enter
the 16-bit dots as a high and a low part, so the result keeps float32 accuracy."""

import torch
import triton
import triton.language as tl


@triton.jit
def _chunk_kernel(q_ptr, k_ptr, v_ptr, o_ptr, T, DV, scale, DK: tl.constexpr,
                  BLOCK_V: tl.constexpr, C: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    j = tl.program_id(1) * BLOCK_V + tl.arange(0, BLOCK_V)
    i = tl.arange(0, DK)
    r = tl.arange(0, C)
    jm = j < DV
    qk_base = bh * T * DK
    v_base = bh * T * DV
    causal = r[:, None] >= r[None, :]
    S = tl.zeros((DK, BLOCK_V), dtype=tl.float32)
    for t0 in range(0, T, C):
        t = t0 + r
        tm = t < T
        qc = tl.load(q_ptr + qk_base + t[:, None] * DK + i[None, :], mask=tm[:, None], other=0.0)
        kc = tl.load(k_ptr + qk_base + t[:, None] * DK + i[None, :], mask=tm[:, None], other=0.0)
        vm = tm[:, None] & jm[None, :]
        vc = tl.load(v_ptr + v_base + t[:, None] * DV + j[None, :], mask=vm, other=0.0)
        s_hi = S.to(qc.dtype)
        s_lo = (S - s_hi.to(tl.float32)).to(qc.dtype)
        acc = tl.dot(qc, s_hi) + tl.dot(qc, s_lo)
        p = tl.where(causal, tl.dot(qc, tl.trans(kc)), 0.0)
        p_hi = p.to(qc.dtype)
        p_lo = (p - p_hi.to(tl.float32)).to(qc.dtype)
        acc += tl.dot(p_hi, vc) + tl.dot(p_lo, vc)
        tl.store(o_ptr + v_base + t[:, None] * DV + j[None, :],
                 (acc * scale).to(o_ptr.dtype.element_ty), mask=vm)
        S += tl.dot(tl.trans(kc), vc)


def forward(q, k, v):
    B, H, T, DK = q.shape
    DV = v.shape[-1]
    o = torch.empty_like(v)
    if q.device.type == "cpu":
        BLOCK_V, C, warps = 16, 16, 4
    else:
        BLOCK_V, C, warps = 64, 64, 4
    grid = (B * H, triton.cdiv(DV, BLOCK_V))
    _chunk_kernel[grid](q, k, v, o, T, DV, DK ** -0.5, DK=DK, BLOCK_V=BLOCK_V, C=C,
                        num_warps=warps)
    return o
