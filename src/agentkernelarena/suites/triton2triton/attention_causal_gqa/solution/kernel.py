"""Causal grouped-query attention, tuned flash-attention forward.

Faster than the baseline because: key blocks strictly below the diagonal are processed without
any mask arithmetic (only the BLOCK_M / BLOCK_N diagonal blocks of each query block are
masked); larger query tiles (128 rows) halve the number of times each K/V tile is streamed; the
softmax works in base 2 with the 1/sqrt(D) scale and log2(e) folded into one multiply (exp2 is
the native instruction); and the query blocks are scheduled longest-first (the last query block
has the most keys) so the tail of the grid is not one long program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale, stride_ks,
           D: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    ns = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    if MASKED:
        kt = tl.load(k_base + ns[None, :] * stride_ks + offs_d[:, None],
                     mask=ns[None, :] < S, other=0.0)
        v = tl.load(v_base + ns[:, None] * stride_ks + offs_d[None, :],
                    mask=ns[:, None] < S, other=0.0)
    else:
        kt = tl.load(k_base + ns[None, :] * stride_ks + offs_d[:, None])
        v = tl.load(v_base + ns[:, None] * stride_ks + offs_d[None, :])
    s = tl.dot(q, kt) * qk_scale
    if MASKED:
        s = tl.where(ns[None, :] <= offs_m[:, None], s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    alpha = tl.exp2(m_i - m_new)
    p = tl.exp2(s - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, l_i, m_new


@triton.jit
def _causal_attn_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, S, HQ, GROUP, qk_scale,
    stride_qb, stride_qh, stride_qs, stride_kb, stride_kh, stride_ks,
    stride_ob, stride_oh, stride_os,
    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.num_programs(0) - 1 - tl.program_id(0)  # longest query blocks first
    bh = tl.program_id(1)
    b = (bh // HQ).to(tl.int64)
    h = bh % HQ
    hk = (h // GROUP).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + b * stride_qb + h.to(tl.int64) * stride_qh + offs_m[:, None] * stride_qs
                + offs_d[None, :], mask=offs_m[:, None] < S, other=0.0)
    k_base = k_ptr + b * stride_kb + hk * stride_kh
    v_base = v_ptr + b * stride_kb + hk * stride_kh
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    lo = pid_m * BLOCK_M
    for start_n in range(0, lo, BLOCK_N):
        acc, l_i, m_i = _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale,
                               stride_ks, D=D, BLOCK_N=BLOCK_N, MASKED=False)
    hi = tl.minimum(lo + BLOCK_M, S)
    for start_n in range(lo, hi, BLOCK_N):
        acc, l_i, m_i = _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale,
                               stride_ks, D=D, BLOCK_N=BLOCK_N, MASKED=True)
    out = acc / l_i[:, None]
    tl.store(o_ptr + b * stride_ob + h.to(tl.int64) * stride_oh + offs_m[:, None] * stride_os
             + offs_d[None, :], out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, HQ, S, D = q.shape
    HKV = k.shape[1]
    out = torch.empty_like(q)
    if q.device.type == "cpu":
        BLOCK_M, BLOCK_N, num_warps, num_stages = 64, 64, 4, 1
    else:
        BLOCK_M, BLOCK_N = 128, 64
        num_warps, num_stages = (8 if D > 64 else 4), 3
    grid = (triton.cdiv(S, BLOCK_M), B * HQ)
    _causal_attn_kernel[grid](
        q, k, v, out, S, HQ, HQ // HKV, D**-0.5 * 1.4426950408889634,
        q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        out.stride(0), out.stride(1), out.stride(2),
        D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=num_warps, num_stages=num_stages,
    )
    return out
