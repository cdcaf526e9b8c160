"""Causal varlen attention as a flash-attention kernel (online softmax, one pass).

One program per (query block of a sequence, head, sequence); programs whose block starts past
their sequence's end return at once. Each streams its sequence's key/value blocks from the
start up to the end of its query block, applying the causal and the sequence-end masks on every
block, with 64-query x 32-key tiles."""

import torch
import triton
import triton.language as tl


@triton.jit
def _varlen_attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, cu_ptr, H, scale,
                        D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    h = tl.program_id(1)
    b = tl.program_id(2)
    start = tl.load(cu_ptr + b)
    end = tl.load(cu_ptr + b + 1)
    L = end - start
    if pid_m * BLOCK_M >= L:
        return
    row_stride = H * D
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    base = start.to(tl.int64) * row_stride + h * D
    q = tl.load(q_ptr + base + offs_m[:, None] * row_stride + offs_d[None, :],
                mask=offs_m[:, None] < L, other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    hi = tl.minimum((pid_m + 1) * BLOCK_M, L)
    for start_n in range(0, hi, BLOCK_N):
        ns = start_n + offs_n
        kt = tl.load(k_ptr + base + ns[None, :] * row_stride + offs_d[:, None],
                     mask=ns[None, :] < L, other=0.0)
        v = tl.load(v_ptr + base + ns[:, None] * row_stride + offs_d[None, :],
                    mask=ns[:, None] < L, other=0.0)
        s = tl.dot(q, kt) * scale
        s = tl.where((ns[None, :] <= offs_m[:, None]) & (ns[None, :] < L), s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * row_stride + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < L)


def forward(q, k, v, cu_seqlens, max_seqlen):
    T, H, D = q.shape
    B = cu_seqlens.shape[0] - 1
    out = torch.empty_like(q)
    if q.device.type == "cpu":
        BLOCK_M = BLOCK_N = 64  # CPU: the Triton interpreter
    else:
        BLOCK_M, BLOCK_N = 64, 32
    grid = (triton.cdiv(max_seqlen, BLOCK_M), H, B)
    _varlen_attn_kernel[grid](q, k, v, out, cu_seqlens, H, D**-0.5, D=D, BLOCK_M=BLOCK_M,
                              BLOCK_N=BLOCK_N)
    return out
