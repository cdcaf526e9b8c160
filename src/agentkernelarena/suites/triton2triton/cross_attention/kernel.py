"""Cross-attention with padded keys, unfused: a QK^T kernel writes the full LQ x LK float32
score matrix (scaled, padding set to -inf), a row softmax kernel turns it into probabilities in
the input dtype, and a third kernel multiplies them by V over all LK keys."""

import torch
import triton
import triton.language as tl


@triton.jit
def _scores_kernel(
    q_ptr, k_ptr, lens_ptr, s_ptr, LQ, LK, H, scale,
    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bh = tl.program_id(2).to(tl.int64)
    kv_len = tl.load(lens_ptr + bh // H)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + bh * LQ * D + offs_m[:, None] * D + offs_d[None, :],
                mask=offs_m[:, None] < LQ, other=0.0)
    kt = tl.load(k_ptr + bh * LK * D + offs_n[None, :] * D + offs_d[:, None],
                 mask=offs_n[None, :] < LK, other=0.0)
    s = tl.dot(q, kt) * scale
    s = tl.where(offs_n[None, :] < kv_len, s, float("-inf"))
    tl.store(s_ptr + bh * LQ * LK + offs_m[:, None] * LK + offs_n[None, :], s,
             mask=(offs_m[:, None] < LQ) & (offs_n[None, :] < LK))


@triton.jit
def _softmax_kernel(s_ptr, p_ptr, n_rows, LK, BLOCK_R: tl.constexpr, BLOCK_S: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    offs = tl.arange(0, BLOCK_S)
    row_ok = rows < n_rows
    mask = row_ok[:, None] & (offs[None, :] < LK)
    ptrs = rows.to(tl.int64)[:, None] * LK + offs[None, :]
    s = tl.load(s_ptr + ptrs, mask=mask, other=float("-inf"))
    m = tl.where(row_ok, tl.max(s, axis=1), 0.0)
    e = tl.exp(s - m[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(p_ptr + ptrs, p.to(p_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _pv_kernel(p_ptr, v_ptr, o_ptr, LQ, LK, D: tl.constexpr, BLOCK_M: tl.constexpr,
               BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    offs_d = tl.arange(0, D)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    for k0 in range(0, LK, BLOCK_K):
        ks = k0 + offs_k
        p = tl.load(p_ptr + bh * LQ * LK + offs_m[:, None] * LK + ks[None, :],
                    mask=(offs_m[:, None] < LQ) & (ks[None, :] < LK), other=0.0)
        v = tl.load(v_ptr + bh * LK * D + ks[:, None] * D + offs_d[None, :],
                    mask=ks[:, None] < LK, other=0.0)
        acc += tl.dot(p, v)
    tl.store(o_ptr + bh * LQ * D + offs_m[:, None] * D + offs_d[None, :],
             acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < LQ)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
            kv_lens: torch.Tensor) -> torch.Tensor:
    B, H, LQ, D = q.shape
    LK = k.shape[2]
    scores = torch.empty((B * H, LQ, LK), device=q.device, dtype=torch.float32)
    probs = torch.empty((B * H, LQ, LK), device=q.device, dtype=q.dtype)
    out = torch.empty_like(q)
    cpu = q.device.type == "cpu"
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(LQ, BLOCK_M), triton.cdiv(LK, BLOCK_N), B * H)
    _scores_kernel[grid](q, k, kv_lens, scores, LQ, LK, H, D**-0.5,
                         D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    BLOCK_R = 16 if cpu else 1  # CPU: the Triton interpreter
    n_rows = B * H * LQ
    _softmax_kernel[(triton.cdiv(n_rows, BLOCK_R),)](
        scores, probs, n_rows, LK, BLOCK_R=BLOCK_R, BLOCK_S=triton.next_power_of_2(LK),
    )
    BLOCK_K = 64 if cpu else 32
    _pv_kernel[(triton.cdiv(LQ, BLOCK_M), B * H)](probs, v, out, LQ, LK, D=D,
                                                  BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K)
    return out
