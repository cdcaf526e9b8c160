"""Decode attention over a paged KV cache: one program per (sequence, query head).

Each program walks its sequence's block table one page at a time, computes the page's scores
with a multiply and a row sum, and keeps an online softmax (running max and sum).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _paged_decode_kernel(
    q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, o_ptr, HQ, GROUP, scale, max_pages,
    stride_kb, stride_kp, stride_kh,
    D: tl.constexpr, PAGE: tl.constexpr,
):
    b = tl.program_id(0)
    h = tl.program_id(1)
    hk = h // GROUP
    seq_len = tl.load(lens_ptr + b)
    offs_d = tl.arange(0, D)
    offs_p = tl.arange(0, PAGE)
    row = b.to(tl.int64) * HQ + h
    q = tl.load(q_ptr + row * D + offs_d).to(tl.float32)
    m_i = tl.full((1,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((1,), dtype=tl.float32)
    acc = tl.zeros((D,), dtype=tl.float32)
    for i in range(0, tl.cdiv(seq_len, PAGE)):
        blk = tl.load(table_ptr + b * max_pages + i).to(tl.int64)
        valid = i * PAGE + offs_p < seq_len
        kv = blk * stride_kb + offs_p[:, None] * stride_kp + hk * stride_kh + offs_d[None, :]
        k = tl.load(k_ptr + kv, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1) * scale
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        v = tl.load(v_ptr + kv, mask=valid[:, None], other=0.0).to(tl.float32)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        m_i = m_new
    tl.store(o_ptr + row * D + offs_d, (acc / l_i).to(o_ptr.dtype.element_ty))


def forward(q, k_cache, v_cache, block_table, seq_lens):
    B, HQ, D = q.shape
    PAGE, HKV = k_cache.shape[1], k_cache.shape[2]
    out = torch.empty_like(q)
    _paged_decode_kernel[(B, HQ)](
        q, k_cache, v_cache, block_table, seq_lens, out, HQ, HQ // HKV, D**-0.5,
        block_table.shape[1], k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        D=D, PAGE=PAGE,
    )
    return out
