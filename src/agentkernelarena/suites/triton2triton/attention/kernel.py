"""Scaled dot-product attention, softmax(q k^T / sqrt(D)) v, in three kernels.

1. scores = q k^T / sqrt(D) for every (batch, head), stored as float32.
2. a row softmax over the scores, in place.
3. out = P v.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _scores_kernel(
    q_ptr, k_ptr, s_ptr, S, D, scale,
    stride_qh, stride_qs, stride_qd, stride_kh, stride_ks, stride_kd,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bh = tl.program_id(2).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    q = tl.load(
        q_ptr + bh * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd,
        mask=(offs_m[:, None] < S) & (offs_d[None, :] < D), other=0.0,
    )
    kt = tl.load(
        k_ptr + bh * stride_kh + offs_n[None, :] * stride_ks + offs_d[:, None] * stride_kd,
        mask=(offs_n[None, :] < S) & (offs_d[:, None] < D), other=0.0,
    )
    s = tl.dot(q, kt) * scale
    s_ptrs = s_ptr + bh * S * S + offs_m[:, None] * S + offs_n[None, :]
    tl.store(s_ptrs, s, mask=(offs_m[:, None] < S) & (offs_n[None, :] < S))


@triton.jit
def _softmax_kernel(s_ptr, n_rows, S, BLOCK_R: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    offs = tl.arange(0, BLOCK)
    col_mask = offs[None, :] < S
    # Rows past the end re-read the last row and are not stored.
    ptrs = s_ptr + tl.minimum(rows, n_rows - 1)[:, None] * S + offs[None, :]
    x = tl.load(ptrs, mask=col_mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=1)[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(ptrs, p, mask=(rows[:, None] < n_rows) & col_mask)


@triton.jit
def _pv_kernel(
    p_ptr, v_ptr, o_ptr, S, D,
    stride_vh, stride_vs, stride_vd, stride_oh, stride_os, stride_od,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    acc = tl.zeros((BLOCK_M, BLOCK_D), dtype=tl.float32)
    for n0 in range(0, S, BLOCK_N):
        ns = n0 + offs_n
        p = tl.load(
            p_ptr + bh * S * S + offs_m[:, None] * S + ns[None, :],
            mask=(offs_m[:, None] < S) & (ns[None, :] < S), other=0.0,
        )
        v = tl.load(
            v_ptr + bh * stride_vh + ns[:, None] * stride_vs + offs_d[None, :] * stride_vd,
            mask=(ns[:, None] < S) & (offs_d[None, :] < D), other=0.0,
        )
        acc += tl.dot(p.to(v.dtype), v)
    o_ptrs = o_ptr + bh * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    o_mask = (offs_m[:, None] < S) & (offs_d[None, :] < D)
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=o_mask)


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    BH = B * H
    q3 = q.reshape(BH, S, D)
    k3 = k.reshape(BH, S, D)
    v3 = v.reshape(BH, S, D)
    out = torch.empty((B, H, S, D), device=q.device, dtype=q.dtype)
    o3 = out.view(BH, S, D)
    scores = torch.empty((BH, S, S), device=q.device, dtype=torch.float32)
    BLOCK_M = BLOCK_N = 128 if q.device.type == "cpu" else 64  # CPU: the Triton interpreter
    BLOCK_D = triton.next_power_of_2(D)
    _scores_kernel[(triton.cdiv(S, BLOCK_M), triton.cdiv(S, BLOCK_N), BH)](
        q3, k3, scores, S, D, D**-0.5,
        q3.stride(0), q3.stride(1), q3.stride(2), k3.stride(0), k3.stride(1), k3.stride(2),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D,
    )
    n_rows = BH * S
    BLOCK = triton.next_power_of_2(S)
    # One row per program on the GPU; several rows per program in the CPU interpreter.
    BLOCK_R = max(1, 8192 // BLOCK) if q.device.type == "cpu" else 1
    _softmax_kernel[(triton.cdiv(n_rows, BLOCK_R),)](
        scores, n_rows, S, BLOCK_R=BLOCK_R, BLOCK=BLOCK
    )
    _pv_kernel[(triton.cdiv(S, BLOCK_M), BH)](
        scores, v3, o3, S, D,
        v3.stride(0), v3.stride(1), v3.stride(2), o3.stride(0), o3.stride(1), o3.stride(2),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D,
    )
    return out
