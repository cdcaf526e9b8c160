"""Decode attention over a paged KV cache, split-KV (flash-decoding) with grouped query heads.

Faster than the baseline because: one program serves all query heads that share a key/value
head (padded to 16 rows for the tensor cores), so each K/V page is read once instead of
HQ / HKV times; it gathers BLOCK_N tokens (several pages) per step and scores them with tl.dot;
and each sequence's keys are split over several programs (partial outputs with their
log-sum-exp, merged by a second small kernel), so short batches with long contexts still fill
the GPU instead of leaving one long serial loop per (sequence, head).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _split_kernel(
    q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, po_ptr, plse_ptr,
    HQ, GROUP, qk_scale, max_pages, split_len, NUM_SPLITS,
    stride_kb, stride_kp, stride_kh,
    D: tl.constexpr, PAGE: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_G: tl.constexpr,
):
    b = tl.program_id(0)
    hk = tl.program_id(1)
    split = tl.program_id(2)
    seq_len = tl.load(lens_ptr + b)
    start = split * split_len
    end = tl.minimum(start + split_len, seq_len)
    offs_g = tl.arange(0, BLOCK_G)
    offs_d = tl.arange(0, D)
    g_mask = offs_g < GROUP
    rows = b.to(tl.int64) * HQ + hk * GROUP + offs_g
    q = tl.load(q_ptr + rows[:, None] * D + offs_d[None, :], mask=g_mask[:, None], other=0.0)
    m_i = tl.full((BLOCK_G,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_G,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_G, D), dtype=tl.float32)
    for n0 in range(start, end, BLOCK_N):
        pos = n0 + tl.arange(0, BLOCK_N)
        valid = pos < end
        blk = tl.load(table_ptr + b * max_pages + pos // PAGE, mask=valid, other=0).to(tl.int64)
        off = blk * stride_kb + (pos % PAGE) * stride_kp + hk * stride_kh
        kt = tl.load(k_ptr + off[None, :] + offs_d[:, None], mask=valid[None, :], other=0.0)
        s = tl.dot(q, kt) * qk_scale
        s = tl.where(valid[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new[:, None])
        v = tl.load(v_ptr + off[:, None] + offs_d[None, :], mask=valid[:, None], other=0.0)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    nonempty = l_i > 0
    out = acc / tl.where(nonempty, l_i, 1.0)[:, None]
    lse = tl.where(nonempty, m_i + tl.log2(tl.where(nonempty, l_i, 1.0)), float("-inf"))
    prow = rows * NUM_SPLITS + split
    tl.store(po_ptr + prow[:, None] * D + offs_d[None, :], out, mask=g_mask[:, None])
    tl.store(plse_ptr + prow, lse, mask=g_mask)


@triton.jit
def _merge_kernel(po_ptr, plse_ptr, o_ptr, NUM_SPLITS, D: tl.constexpr, BLOCK_S: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs_s = tl.arange(0, BLOCK_S)
    offs_d = tl.arange(0, D)
    s_mask = offs_s < NUM_SPLITS
    lse = tl.load(plse_ptr + row * NUM_SPLITS + offs_s, mask=s_mask, other=float("-inf"))
    w = tl.exp2(lse - tl.max(lse, axis=0))
    po = tl.load(po_ptr + (row * NUM_SPLITS + offs_s)[:, None] * D + offs_d[None, :],
                 mask=s_mask[:, None], other=0.0)
    out = tl.sum(w[:, None] * po, axis=0) / tl.sum(w, axis=0)
    tl.store(o_ptr + row * D + offs_d, out.to(o_ptr.dtype.element_ty))


def forward(q, k_cache, v_cache, block_table, seq_lens):
    B, HQ, D = q.shape
    PAGE, HKV = k_cache.shape[1], k_cache.shape[2]
    group = HQ // HKV
    max_pages = block_table.shape[1]
    max_len = max_pages * PAGE
    BLOCK_N = 64
    BLOCK_G = max(16, triton.next_power_of_2(group))
    if q.device.type == "cpu":
        num_splits = min(2, triton.cdiv(max_len, BLOCK_N))
    else:
        num_splits = max(1, min(triton.cdiv(max_len, 256), triton.cdiv(4 * 132, B * HKV)))
    split_len = triton.cdiv(triton.cdiv(max_len, num_splits), BLOCK_N) * BLOCK_N
    num_splits = triton.cdiv(max_len, split_len)
    po = torch.empty((B * HQ * num_splits, D), device=q.device, dtype=torch.float32)
    plse = torch.empty((B * HQ * num_splits,), device=q.device, dtype=torch.float32)
    _split_kernel[(B, HKV, num_splits)](
        q, k_cache, v_cache, block_table, seq_lens, po, plse,
        HQ, group, D**-0.5 * 1.4426950408889634, max_pages, split_len, num_splits,
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        D=D, PAGE=PAGE, BLOCK_N=BLOCK_N, BLOCK_G=BLOCK_G, num_warps=4,
    )
    out = torch.empty_like(q)
    _merge_kernel[(B * HQ,)](po, plse, out, num_splits, D=D,
                             BLOCK_S=max(2, triton.next_power_of_2(num_splits)))
    return out
