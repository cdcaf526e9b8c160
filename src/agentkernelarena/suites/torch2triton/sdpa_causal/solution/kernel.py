"""torch2triton/sdpa_causal: causal flash attention in one kernel.

Each program keeps a block of BLOCK_M queries in registers and streams the key/value blocks
with an online softmax in base 2 (1 / sqrt(D) and log2(e) folded into one scale). It stops at
the diagonal: the key blocks wholly before the query block run without any mask, only the
BLOCK_M / BLOCK_N blocks that cross the diagonal (and the sequence's end) are masked, and the
blocks above it are never loaded. The query blocks with the most work start first, so the
short ones fill the tail of the grid.
"""

import torch
import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def _step(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale,
          D: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    if MASKED:
        kt = tl.load(k_base + offs_n[None, :] * D + offs_d[:, None], mask=offs_n[None, :] < S,
                     other=0.0)
        v = tl.load(v_base + offs_n[:, None] * D + offs_d[None, :], mask=offs_n[:, None] < S,
                    other=0.0)
    else:
        kt = tl.load(k_base + offs_n[None, :] * D + offs_d[:, None])
        v = tl.load(v_base + offs_n[:, None] * D + offs_d[None, :])
    s = tl.dot(q, kt) * qk_scale
    if MASKED:
        keep = (offs_n[None, :] <= offs_m[:, None]) & (offs_n[None, :] < S)
        s = tl.where(keep, s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    alpha = tl.exp2(m_i - m_new)
    p = tl.exp2(s - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, l_i, m_new


@triton.jit
def _causal_attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, qk_scale, D: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.num_programs(0) - 1 - tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    base = bh * S * D
    start_m = pid_m * BLOCK_M
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :],
                mask=offs_m[:, None] < S, other=0.0)
    k_base = k_ptr + base
    v_base = v_ptr + base
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    # Key 0 is unmasked for every row, so the first step (masked or not) makes m finite.
    for start_n in range(0, start_m, BLOCK_N):
        acc, l_i, m_i = _step(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale,
                              D, BLOCK_N, False)
    end = tl.minimum(start_m + BLOCK_M, S)
    for start_n in range(start_m, end, BLOCK_N):
        acc, l_i, m_i = _step(acc, l_i, m_i, q, k_base, v_base, start_n, offs_m, S, qk_scale,
                              D, BLOCK_N, True)
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    if q.device.type == "cpu":
        BLOCK_M, BLOCK_N, num_warps, num_stages = 64, 32, 4, 1
    else:
        BLOCK_M, BLOCK_N = 128, 64
        num_warps, num_stages = (8, 3) if D == 128 else (4, 3)
    grid = (triton.cdiv(S, BLOCK_M), B * H)
    _causal_attn_kernel[grid](q, k, v, out, S, D ** -0.5 * LOG2E, D=D, BLOCK_M=BLOCK_M,
                              BLOCK_N=BLOCK_N, num_warps=num_warps, num_stages=num_stages)
    return out
