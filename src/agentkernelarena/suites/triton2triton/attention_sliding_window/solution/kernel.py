"""Causal sliding-window attention that only visits the key blocks inside the window.

Faster than the baseline because each query block starts its key loop at the first block that
can hold a key inside the window of its first query (max(0, start_m - window + 1), rounded
down to a block), instead of at 0: with a window much shorter than the sequence the work drops
from O(S^2) to O(S * window). Only the blocks that straddle the window's edges or the
diagonal are masked; the fully-inside blocks run without mask arithmetic. Larger query tiles,
exp2 with the scale folded in, and longest-first scheduling do the rest.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, window, qk_scale,
           D: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    ns = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    kt = tl.load(k_base + ns[None, :] * D + offs_d[:, None], mask=ns[None, :] < S, other=0.0)
    v = tl.load(v_base + ns[:, None] * D + offs_d[None, :], mask=ns[:, None] < S, other=0.0)
    s = tl.dot(q, kt) * qk_scale
    if MASKED:
        ok = (ns[None, :] <= offs_m[:, None]) & (ns[None, :] > offs_m[:, None] - window)
        s = tl.where(ok, s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
    alpha = tl.exp2(m_i - m_safe)
    p = tl.exp2(s - m_safe[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, l_i, m_new


@triton.jit
def _swa_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, S, window, qk_scale,
    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.num_programs(0) - 1 - tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    base = bh * S * D
    start_m = pid_m * BLOCK_M
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < S,
                other=0.0)
    k_base = k_ptr + base
    v_base = v_ptr + base
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    # Keys j with start_m + BLOCK_M - 1 - window < j < start_m are inside every row's window.
    lo = tl.maximum(start_m - window + 1, 0) // BLOCK_N * BLOCK_N
    full_lo = tl.cdiv(tl.maximum(start_m + BLOCK_M - window, 0), BLOCK_N) * BLOCK_N
    full_lo = tl.minimum(tl.maximum(full_lo, lo), start_m)
    for start_n in range(lo, full_lo, BLOCK_N):
        acc, l_i, m_i = _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, window,
                               qk_scale, D=D, BLOCK_N=BLOCK_N, MASKED=True)
    for start_n in range(full_lo, start_m, BLOCK_N):
        acc, l_i, m_i = _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, window,
                               qk_scale, D=D, BLOCK_N=BLOCK_N, MASKED=False)
    hi = tl.minimum(start_m + BLOCK_M, S)
    for start_n in range(start_m, hi, BLOCK_N):
        acc, l_i, m_i = _block(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, window,
                               qk_scale, D=D, BLOCK_N=BLOCK_N, MASKED=True)
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, window: int) -> torch.Tensor:
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    if q.device.type == "cpu":
        BLOCK_M, BLOCK_N, num_warps, num_stages = 64, 32, 4, 1
    else:
        BLOCK_M, BLOCK_N = 128, 64
        num_warps, num_stages = (8 if D > 64 else 4), 3
    _swa_kernel[(triton.cdiv(S, BLOCK_M), B * H)](
        q, k, v, out, S, window, D**-0.5 * 1.4426950408889634,
        D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=num_warps, num_stages=num_stages,
    )
    return out
