"""Row-wise top-k: one program per row; k passes over the row, pass j finding the largest value
below the one pass j - 1 found."""

import torch
import triton
import triton.language as tl


@triton.jit
def _topk_kernel(x_ptr, val_ptr, idx_ptr, V, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    prev = float("inf")
    for j in range(0, K):
        best = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
        best_i = tl.zeros((BLOCK,), dtype=tl.int32)
        for v0 in range(0, V, BLOCK):
            offs = v0 + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + base + offs, mask=offs < V, other=float("-inf"))
            x = tl.where(x < prev, x, float("-inf"))
            better = x > best
            best = tl.where(better, x, best)
            best_i = tl.where(better, offs, best_i)
        top = tl.max(best, axis=0)
        top_i = tl.min(tl.where(best == top, best_i, V), axis=0)
        tl.store(val_ptr + row * K + j, top)
        tl.store(idx_ptr + row * K + j, top_i.to(tl.int64))
        prev = top


def forward(logits: torch.Tensor, k: int):
    B, V = logits.shape
    values = torch.empty((B, k), device=logits.device, dtype=logits.dtype)
    indices = torch.empty((B, k), device=logits.device, dtype=torch.int64)
    _topk_kernel[(B,)](logits, values, indices, V, K=k,
                       BLOCK=min(2048, triton.next_power_of_2(V)))
    return (values, indices)
