"""Causal sliding-window attention as a flash-attention kernel: one program per (query block,
head) streams the key blocks from 0 to the end of its query block, masking every block to the
window (j <= i and j > i - window)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _swa_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, S, window, scale,
    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    base = bh * S * D
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < S,
                other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    hi = tl.minimum((pid_m + 1) * BLOCK_M, S)
    for start_n in range(0, hi, BLOCK_N):
        ns = start_n + offs_n
        kt = tl.load(k_ptr + base + ns[None, :] * D + offs_d[:, None], mask=ns[None, :] < S,
                     other=0.0)
        v = tl.load(v_ptr + base + ns[:, None] * D + offs_d[None, :], mask=ns[:, None] < S,
                    other=0.0)
        s = tl.dot(q, kt) * scale
        ok = ((ns[None, :] <= offs_m[:, None]) & (ns[None, :] > offs_m[:, None] - window)
              & (ns[None, :] < S))
        s = tl.where(ok, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        # Rows that have seen no allowed key yet keep m = -inf: guard exp(-inf - -inf).
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        alpha = tl.exp(m_i - m_safe)
        p = tl.exp(s - m_safe[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, window: int) -> torch.Tensor:
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    BLOCK_M, BLOCK_N = 64, (64 if q.device.type == "cpu" else 32)
    _swa_kernel[(triton.cdiv(S, BLOCK_M), B * H)](
        q, k, v, out, S, window, D**-0.5, D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
    )
    return out
