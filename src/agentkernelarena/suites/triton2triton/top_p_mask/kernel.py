"""Top-p (nucleus) filtering of sorted probabilities in three passes over full rows:
1. a row scan writes every token's exclusive prefix sum to a float32 buffer;
2. a row reduction sums the probabilities of the kept tokens (prefix sum below top_p);
3. an elementwise kernel writes kept / kept_sum, or 0 for the dropped tokens.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _excl_scan_kernel(p_ptr, excl_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(p_ptr + row * V + cols, mask=mask, other=0.0)
        incl = tl.cumsum(x, axis=0) + carry
        tl.store(excl_ptr + row * V + cols, incl - x, mask=mask)
        carry += tl.sum(x, axis=0)


@triton.jit
def _kept_sum_kernel(p_ptr, excl_ptr, top_p_ptr, sum_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    top_p = tl.load(top_p_ptr + row)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(p_ptr + row * V + cols, mask=mask, other=0.0)
        e = tl.load(excl_ptr + row * V + cols, mask=mask, other=float("inf"))
        acc += tl.where(e < top_p, x, 0.0)
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _write_kernel(p_ptr, excl_ptr, top_p_ptr, sum_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    top_p = tl.load(top_p_ptr + row)
    s = tl.load(sum_ptr + row)
    x = tl.load(p_ptr + row * V + cols, mask=mask, other=0.0)
    e = tl.load(excl_ptr + row * V + cols, mask=mask, other=float("inf"))
    tl.store(out_ptr + row * V + cols, tl.where(e < top_p, x / s, 0.0), mask=mask)


def forward(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    B, V = probs.shape
    excl = torch.empty((B, V), device=probs.device, dtype=torch.float32)
    sums = torch.empty((B,), device=probs.device, dtype=torch.float32)
    out = torch.empty_like(probs)
    BLOCK = 1024
    _excl_scan_kernel[(B,)](probs, excl, V, BLOCK=BLOCK)
    _kept_sum_kernel[(B,)](probs, excl, top_p, sums, V, BLOCK=BLOCK)
    _write_kernel[(B, triton.cdiv(V, BLOCK))](probs, excl, top_p, sums, out, V, BLOCK=BLOCK)
    return out
