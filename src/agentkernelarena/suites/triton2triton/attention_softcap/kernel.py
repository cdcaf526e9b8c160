"""Soft-capped causal attention in three kernels with the logits materialized: a tiled
q @ k^T kernel writes the scaled, capped logits of every head as an S x S float32 matrix; a row
kernel applies the causal mask and the softmax and writes the probabilities in the input dtype;
a tiled kernel multiplies them by v."""

import torch
import triton
import triton.language as tl


@triton.jit
def _logits_kernel(q_ptr, k_ptr, s_ptr, S, scale, softcap,
                   D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    bh = tl.program_id(2).to(tl.int64)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + bh * S * D + offs_m[:, None] * D + offs_d[None, :],
                mask=offs_m[:, None] < S, other=0.0)
    kt = tl.load(k_ptr + bh * S * D + offs_n[None, :] * D + offs_d[:, None],
                 mask=offs_n[None, :] < S, other=0.0)
    x = tl.dot(q, kt) * scale / softcap
    t = 1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0)  # tanh(x)
    tl.store(s_ptr + bh * S * S + offs_m[:, None] * S + offs_n[None, :], softcap * t,
             mask=(offs_m[:, None] < S) & (offs_n[None, :] < S))


@triton.jit
def _causal_softmax_kernel(s_ptr, p_ptr, S, BLOCK_S: tl.constexpr):
    row = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    cols = tl.arange(0, BLOCK_S)
    base = bh * S * S + row * S
    s = tl.load(s_ptr + base + cols, mask=cols <= row, other=float("-inf"))
    e = tl.exp(s - tl.max(s, axis=0))
    p = e / tl.sum(e, axis=0)
    tl.store(p_ptr + base + cols, p.to(p_ptr.dtype.element_ty), mask=cols < S)


@triton.jit
def _pv_kernel(p_ptr, v_ptr, o_ptr, S, D: tl.constexpr, BLOCK_M: tl.constexpr,
               BLOCK_K: tl.constexpr):
    bh = tl.program_id(1).to(tl.int64)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    offs_d = tl.arange(0, D)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    for k0 in range(0, S, BLOCK_K):
        ks = k0 + offs_k
        p = tl.load(p_ptr + bh * S * S + offs_m[:, None] * S + ks[None, :],
                    mask=(offs_m[:, None] < S) & (ks[None, :] < S), other=0.0)
        v = tl.load(v_ptr + bh * S * D + ks[:, None] * D + offs_d[None, :],
                    mask=ks[:, None] < S, other=0.0)
        acc += tl.dot(p, v)
    tl.store(o_ptr + bh * S * D + offs_m[:, None] * D + offs_d[None, :],
             acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def forward(q, k, v, softcap):
    B, H, S, D = q.shape
    logits = torch.empty((B * H, S, S), device=q.device, dtype=torch.float32)
    probs = torch.empty((B * H, S, S), device=q.device, dtype=q.dtype)
    out = torch.empty_like(q)
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(S, BLOCK_M), triton.cdiv(S, BLOCK_N), B * H)
    _logits_kernel[grid](q, k, logits, S, D**-0.5, softcap, D=D, BLOCK_M=BLOCK_M,
                         BLOCK_N=BLOCK_N)
    _causal_softmax_kernel[(S, B * H)](logits, probs, S, BLOCK_S=triton.next_power_of_2(S),
                                       num_warps=8 if S >= 2048 else 4)
    _pv_kernel[(triton.cdiv(S, BLOCK_M), B * H)](probs, v, out, S, D=D, BLOCK_M=BLOCK_M,
                                                 BLOCK_K=32)
    return out
