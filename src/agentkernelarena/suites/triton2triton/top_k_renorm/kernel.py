"""Top-k renormalization with one program per row. The k-th largest probability is found by
bisection on its float32 bit pattern (for non-negative floats the bit patterns order like the
values): 31 passes over the row each count the elements at or above a candidate threshold.
Then a pass sums the kept probabilities and a last pass writes the renormalized row."""

import torch
import triton
import triton.language as tl


@triton.jit
def _count_at_least(x_ptr, V, threshold, BLOCK: tl.constexpr):
    cnt = tl.zeros((BLOCK,), dtype=tl.int32)
    for v0 in range(0, V, BLOCK):
        cols = v0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < V, other=0.0)
        bits = x.to(tl.int32, bitcast=True)
        cnt += ((bits >= threshold) & (cols < V)).to(tl.int32)
    return tl.sum(cnt, axis=0)


@triton.jit
def _top_k_renorm_kernel(p_ptr, k_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = p_ptr + row * V
    k = tl.load(k_ptr + row)
    # Invariant: count(bits >= lo) >= k and count(bits >= hi) < k; 0x7F800000 is +inf.
    lo = 0
    hi = 0x7F800000
    for _ in range(31):
        mid = lo + (hi - lo) // 2
        if _count_at_least(x_row, V, mid, BLOCK) >= k:
            lo = mid
        else:
            hi = mid
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        cols = v0 + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < V, other=0.0)
        s += tl.where(x.to(tl.int32, bitcast=True) >= lo, x, 0.0)
    inv = 1.0 / tl.sum(s, axis=0)
    for v0 in range(0, V, BLOCK):
        cols = v0 + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        y = tl.where(x.to(tl.int32, bitcast=True) >= lo, x * inv, 0.0)
        tl.store(out_ptr + row * V + cols, y, mask=mask)


def forward(probs: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    B, V = probs.shape
    out = torch.empty_like(probs)
    BLOCK = min(2048, triton.next_power_of_2(V))
    _top_k_renorm_kernel[(B,)](probs, k, out, V, BLOCK=BLOCK)
    return out
