"""Top-p (nucleus) filtering of sorted probabilities, reading only the kept head of each row.

Faster than the baseline because the rows are sorted in descending order: one program per row
scans blocks only until the running sum reaches top_p (a while loop, so nothing past the cut
is read or computed), recording how many tokens are kept and the reciprocal of their sum; then a
wide elementwise kernel writes every row, reading probabilities only for the kept prefix and
storing zeros elsewhere. No prefix-sum buffer, and the tail of each row is never read.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _cut_kernel(p_ptr, top_p_ptr, n_ptr, inv_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    top_p = tl.load(top_p_ptr + row)
    carry = tl.zeros((), dtype=tl.float32)
    kept = tl.zeros((), dtype=tl.float32)
    n_keep = tl.zeros((), dtype=tl.int32)
    start = tl.zeros((), dtype=tl.int32)
    go = top_p > -1.0
    while go:
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(p_ptr + row * V + cols, mask=cols < V, other=0.0)
        excl = tl.cumsum(x, axis=0) + carry - x
        keep = (excl < top_p) & (cols < V)
        kept += tl.sum(tl.where(keep, x, 0.0), axis=0)
        n_keep += tl.sum(keep.to(tl.int32), axis=0)
        carry += tl.sum(x, axis=0)
        start += BLOCK
        go = (start < V) & (carry < top_p)
    tl.store(n_ptr + row, n_keep)
    tl.store(inv_ptr + row, 1.0 / kept)


@triton.jit
def _write_kernel(p_ptr, n_ptr, inv_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    n_keep = tl.load(n_ptr + row)
    inv = tl.load(inv_ptr + row)
    keep = cols < n_keep
    x = tl.load(p_ptr + row * V + cols, mask=keep, other=0.0)
    tl.store(out_ptr + row * V + cols, tl.where(keep, x * inv, 0.0), mask=cols < V)


def forward(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    B, V = probs.shape
    n_keep = torch.empty((B,), device=probs.device, dtype=torch.int32)
    inv = torch.empty((B,), device=probs.device, dtype=torch.float32)
    out = torch.empty_like(probs)
    _cut_kernel[(B,)](probs, top_p, n_keep, inv, V, BLOCK=256)
    BLOCK = min(4096, triton.next_power_of_2(V))
    _write_kernel[(B, triton.cdiv(V, BLOCK))](probs, n_keep, inv, out, V, BLOCK=BLOCK,
                                              num_warps=8 if BLOCK >= 2048 else 4)
    return out
