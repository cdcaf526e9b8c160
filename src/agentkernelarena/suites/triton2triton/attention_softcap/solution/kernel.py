"""Soft-capped causal attention as one flash-attention kernel: each program owns a block of
queries, streams the key/value blocks up to the diagonal, caps the logits tile in registers
and keeps a running maximum and sum (online softmax), so no S x S matrix reaches memory. Key
blocks strictly below the diagonal skip the mask arithmetic, and the longest query blocks are
scheduled first."""

import torch
import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale, softcap,
           D: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    ns = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    if MASKED:
        kt = tl.load(k_base + ns[None, :] * D + offs_d[:, None], mask=ns[None, :] < S, other=0.0)
        v = tl.load(v_base + ns[:, None] * D + offs_d[None, :], mask=ns[:, None] < S, other=0.0)
    else:
        kt = tl.load(k_base + ns[None, :] * D + offs_d[:, None])
        v = tl.load(v_base + ns[:, None] * D + offs_d[None, :])
    x = tl.dot(q, kt) * qk_scale  # q . k / (sqrt(D) * softcap)
    # softcap * tanh(x), in base-2 units for exp2 below.
    s = (softcap * 1.4426950408889634) * (1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0))
    if MASKED:
        s = tl.where(ns[None, :] <= offs_m[:, None], s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    alpha = tl.exp2(m_i - m_new)
    p = tl.exp2(s - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, l_i, m_new


@triton.jit
def _softcap_attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, qk_scale, softcap,
                         D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.num_programs(0) - 1 - tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + bh * S * D + offs_m[:, None] * D + offs_d[None, :],
                mask=offs_m[:, None] < S, other=0.0)
    k_base = k_ptr + bh * S * D
    v_base = v_ptr + bh * S * D
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    lo = pid_m * BLOCK_M
    for start_n in range(0, lo, BLOCK_N):
        acc, l_i, m_i = _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale,
                               softcap, D=D, BLOCK_N=BLOCK_N, MASKED=False)
    hi = tl.minimum(lo + BLOCK_M, S)
    for start_n in range(lo, hi, BLOCK_N):
        acc, l_i, m_i = _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale,
                               softcap, D=D, BLOCK_N=BLOCK_N, MASKED=True)
    out = acc / l_i[:, None]
    tl.store(o_ptr + bh * S * D + offs_m[:, None] * D + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q, k, v, softcap):
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    if q.device.type == "cpu":
        BLOCK_M, BLOCK_N, warps, stages = 64, 64, 4, 1  # CPU: the Triton interpreter
    elif D <= 128:
        BLOCK_M, BLOCK_N, warps, stages = 128, 64, 8, 2
    else:
        BLOCK_M, BLOCK_N, warps, stages = 64, 32, 8, 2
    grid = (triton.cdiv(S, BLOCK_M), B * H)
    _softcap_attn_kernel[grid](q, k, v, out, S, D**-0.5 / softcap, softcap, D=D,
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=warps,
                               num_stages=stages)
    return out
