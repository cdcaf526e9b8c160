"""Segment max using the sorted ids: no atomics, every output written once.

Faster than the baseline's T x D contended float atomics plus fill and conversion passes:
1. a binary search per segment (vectorized, BLOCK_S segments a program) finds where each
   segment starts in seg_ids (the first i with seg_ids[i] >= s);
2. one program per (segment, column block) reduces its rows ROWS at a time in registers and
   writes the max (0 for an empty segment) in x's dtype.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _starts_kernel(ids_ptr, starts_ptr, T, S, STEPS: tl.constexpr, BLOCK_S: tl.constexpr):
    s = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    lo = tl.zeros((BLOCK_S,), dtype=tl.int32)
    hi = tl.full((BLOCK_S,), T, dtype=tl.int32)
    for _ in range(STEPS):
        mid = (lo + hi) // 2
        v = tl.load(ids_ptr + mid, mask=lo < hi, other=0)
        go_right = (lo < hi) & (v < s)
        lo = tl.where(go_right, mid + 1, lo)
        hi = tl.where((lo < hi) & ~go_right, mid, hi)
    tl.store(starts_ptr + s, lo, mask=s <= S)


@triton.jit
def _segment_max_kernel(x_ptr, starts_ptr, out_ptr, D, ROWS: tl.constexpr,
                        BLOCK_D: tl.constexpr):
    seg = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    cmask = cols < D
    start = tl.load(starts_ptr + seg).to(tl.int64)
    end = tl.load(starts_ptr + seg + 1).to(tl.int64)
    acc = tl.full((ROWS, BLOCK_D), float("-inf"), dtype=tl.float32)
    for r in range(start, end, ROWS):
        rows = r + tl.arange(0, ROWS)
        m = (rows[:, None] < end) & cmask[None, :]
        v = tl.load(x_ptr + rows[:, None] * D + cols[None, :], mask=m, other=float("-inf"))
        acc = tl.maximum(acc, v.to(tl.float32))
    best = tl.max(acc, axis=0)
    best = tl.where(end > start, best, 0.0)
    tl.store(out_ptr + seg * D + cols, best.to(out_ptr.dtype.element_ty), mask=cmask)


def forward(x: torch.Tensor, seg_ids: torch.Tensor, num_segments: int) -> torch.Tensor:
    T, D = x.shape
    S = num_segments
    out = torch.empty((S, D), device=x.device, dtype=x.dtype)
    starts = torch.empty((S + 1,), device=x.device, dtype=torch.int32)
    BLOCK_S = 256
    steps = max(1, T.bit_length())
    _starts_kernel[(triton.cdiv(S + 1, BLOCK_S),)](seg_ids, starts, T, S, STEPS=steps,
                                                  BLOCK_S=BLOCK_S)
    BLOCK_D = min(256, triton.next_power_of_2(D))
    ROWS = max(1, 2048 // BLOCK_D) if x.device.type != "cpu" else 4
    _segment_max_kernel[(S, triton.cdiv(D, BLOCK_D))](x, starts, out, D, ROWS=ROWS,
                                                     BLOCK_D=BLOCK_D, num_warps=4)
    return out
