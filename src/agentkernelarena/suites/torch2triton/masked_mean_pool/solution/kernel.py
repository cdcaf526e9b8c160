"""torch2triton/masked_mean_pool: masked mean over the sequence, split over the sequence.

A first kernel gives each (sequence, feature block, sequence chunk) a program that loads
[BLOCK_S, BLOCK_H] tiles of hidden with the padding rows predicated off (padding is never read
from memory) and writes float32 partial sums; a second kernel adds the chunks, counts the real
tokens and divides. The chunks keep the GPU busy when B * H is small.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _partial_kernel(h_ptr, m_ptr, part_ptr, S, H, chunk, SPLIT,
                    BLOCK_S: tl.constexpr, BLOCK_H: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    split = tl.program_id(2)
    cmask = cols < H
    acc = tl.zeros((BLOCK_S, BLOCK_H), dtype=tl.float32)
    start = split * chunk
    for s0 in range(start, start + chunk, BLOCK_S):
        toks = s0 + tl.arange(0, BLOCK_S)
        tmask = toks < S
        m = tl.load(m_ptr + b * S + toks, mask=tmask, other=0)
        keep = (m != 0) & tmask
        x = tl.load(h_ptr + (b * S + toks)[:, None] * H + cols[None, :],
                    mask=keep[:, None] & cmask[None, :], other=0.0).to(tl.float32)
        acc += x * m.to(tl.float32)[:, None]
    tl.store(part_ptr + (b * SPLIT + split) * H + cols, tl.sum(acc, axis=0), mask=cmask)


@triton.jit
def _finish_kernel(part_ptr, m_ptr, out_ptr, S, H, SPLIT,
                   BLOCK_S: tl.constexpr, BLOCK_H: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    cmask = cols < H
    cnt = tl.zeros((BLOCK_S,), dtype=tl.float32)
    for s0 in range(0, S, BLOCK_S):
        toks = s0 + tl.arange(0, BLOCK_S)
        cnt += tl.load(m_ptr + b * S + toks, mask=toks < S, other=0).to(tl.float32)
    count = tl.sum(cnt, axis=0)
    acc = tl.zeros((BLOCK_H,), dtype=tl.float32)
    for i in range(0, SPLIT):
        acc += tl.load(part_ptr + (b * SPLIT + i) * H + cols, mask=cmask, other=0.0)
    out = acc / tl.maximum(count, 1e-9)
    tl.store(out_ptr + b * H + cols, out.to(out_ptr.dtype.element_ty), mask=cmask)


def forward(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    B, S, H = hidden.shape
    out = torch.empty((B, H), device=hidden.device, dtype=hidden.dtype)
    block_h = min(256, triton.next_power_of_2(H))
    block_s = 16
    h_blocks = triton.cdiv(H, block_h)
    # Enough programs for ~8 per SM, chunks of at least 64 tokens.
    want = triton.cdiv(1024, B * h_blocks)
    split = max(1, min(want, triton.cdiv(S, 64)))
    chunk = triton.cdiv(triton.cdiv(S, split), block_s) * block_s
    split = triton.cdiv(S, chunk)
    part = torch.empty((B, split, H), device=hidden.device, dtype=torch.float32)
    _partial_kernel[(B, h_blocks, split)](hidden, attention_mask, part, S, H, chunk, split,
                                          BLOCK_S=block_s, BLOCK_H=block_h, num_warps=4)
    _finish_kernel[(B, h_blocks)](part, attention_mask, out, S, H, split,
                                  BLOCK_S=256, BLOCK_H=block_h, num_warps=4)
    return out
