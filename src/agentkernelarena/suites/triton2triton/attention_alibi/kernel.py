"""Causal ALiBi attention, unfused: a QK^T kernel writes the full S x S float32 score matrix
(scaled, biased and masked), a row softmax kernel turns it into probabilities in the input
dtype, and a third kernel multiplies them by V."""

import torch
import triton
import triton.language as tl


@triton.jit
def _scores_kernel(
    q_ptr, k_ptr, slopes_ptr, s_ptr, S, H, scale,
    stride_qbh, stride_qs, stride_sbh, stride_si,
    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bh = tl.program_id(2).to(tl.int64)
    slope = tl.load(slopes_ptr + bh % H)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + bh * stride_qbh + offs_m[:, None] * stride_qs + offs_d[None, :],
                mask=offs_m[:, None] < S, other=0.0)
    kt = tl.load(k_ptr + bh * stride_qbh + offs_n[None, :] * stride_qs + offs_d[:, None],
                 mask=offs_n[None, :] < S, other=0.0)
    s = tl.dot(q, kt) * scale - slope * (offs_m[:, None] - offs_n[None, :]).to(tl.float32)
    s = tl.where(offs_n[None, :] <= offs_m[:, None], s, float("-inf"))
    tl.store(s_ptr + bh * stride_sbh + offs_m[:, None] * stride_si + offs_n[None, :], s,
             mask=(offs_m[:, None] < S) & (offs_n[None, :] < S))


@triton.jit
def _softmax_kernel(s_ptr, p_ptr, n_rows, S, BLOCK_R: tl.constexpr, BLOCK_S: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    offs = tl.arange(0, BLOCK_S)
    mask = (rows[:, None] < n_rows) & (offs[None, :] < S)
    ptrs = rows.to(tl.int64)[:, None] * S + offs[None, :]
    s = tl.load(s_ptr + ptrs, mask=mask, other=float("-inf"))
    e = tl.exp(s - tl.max(s, axis=1)[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(p_ptr + ptrs, p.to(p_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _pv_kernel(
    p_ptr, v_ptr, o_ptr, S, stride_pbh, stride_pi, stride_vbh, stride_vs,
    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    offs_d = tl.arange(0, D)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    for k0 in range(0, S, BLOCK_K):
        ks = k0 + offs_k
        p = tl.load(p_ptr + bh * stride_pbh + offs_m[:, None] * stride_pi + ks[None, :],
                    mask=(offs_m[:, None] < S) & (ks[None, :] < S), other=0.0)
        v = tl.load(v_ptr + bh * stride_vbh + ks[:, None] * stride_vs + offs_d[None, :],
                    mask=ks[:, None] < S, other=0.0)
        acc += tl.dot(p, v)
    tl.store(o_ptr + bh * stride_vbh + offs_m[:, None] * stride_vs + offs_d[None, :],
             acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
            slopes: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    scores = torch.empty((B * H, S, S), device=q.device, dtype=torch.float32)
    probs = torch.empty((B * H, S, S), device=q.device, dtype=q.dtype)
    out = torch.empty_like(q)
    cpu = q.device.type == "cpu"
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(S, BLOCK_M), triton.cdiv(S, BLOCK_N), B * H)
    _scores_kernel[grid](
        q, k, slopes, scores, S, H, D**-0.5, S * D, D, S * S, S,
        D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
    )
    BLOCK_R = 16 if cpu else 1  # CPU: the Triton interpreter
    n_rows = B * H * S
    _softmax_kernel[(triton.cdiv(n_rows, BLOCK_R),)](
        scores, probs, n_rows, S, BLOCK_R=BLOCK_R, BLOCK_S=triton.next_power_of_2(S),
    )
    BLOCK_K = 64 if cpu else 32
    _pv_kernel[(triton.cdiv(S, BLOCK_M), B * H)](
        probs, v, out, S, S * S, S, S * D, D, D=D, BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K,
    )
    return out
