"""Causal grouped-query attention as a flash-attention kernel (online softmax, one pass).

One program per (query block, query head). It streams the key/value blocks from 0 up to the end
of its query block, applies the causal mask on every block and keeps a running max and sum.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _causal_attn_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, S, HQ, GROUP, scale,
    stride_qb, stride_qh, stride_qs, stride_kb, stride_kh, stride_ks,
    stride_ob, stride_oh, stride_os,
    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = (bh // HQ).to(tl.int64)
    h = bh % HQ
    hk = (h // GROUP).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + b * stride_qb + h.to(tl.int64) * stride_qh + offs_m[:, None] * stride_qs
                + offs_d[None, :], mask=offs_m[:, None] < S, other=0.0)
    k_base = k_ptr + b * stride_kb + hk * stride_kh
    v_base = v_ptr + b * stride_kb + hk * stride_kh
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    hi = tl.minimum((pid_m + 1) * BLOCK_M, S)
    for start_n in range(0, hi, BLOCK_N):
        ns = start_n + offs_n
        kt = tl.load(k_base + ns[None, :] * stride_ks + offs_d[:, None],
                     mask=ns[None, :] < S, other=0.0)
        v = tl.load(v_base + ns[:, None] * stride_ks + offs_d[None, :],
                    mask=ns[:, None] < S, other=0.0)
        s = tl.dot(q, kt) * scale
        s = tl.where((ns[None, :] <= offs_m[:, None]) & (ns[None, :] < S), s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + b * stride_ob + h.to(tl.int64) * stride_oh + offs_m[:, None] * stride_os
             + offs_d[None, :], out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, HQ, S, D = q.shape
    HKV = k.shape[1]
    out = torch.empty_like(q)
    if q.device.type == "cpu":
        BLOCK_M = BLOCK_N = 64  # CPU: the Triton interpreter
    else:
        BLOCK_M, BLOCK_N = 64, 32
    grid = (triton.cdiv(S, BLOCK_M), B * HQ)
    _causal_attn_kernel[grid](
        q, k, v, out, S, HQ, HQ // HKV, D**-0.5,
        q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        out.stride(0), out.stride(1), out.stride(2),
        D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
    )
    return out
