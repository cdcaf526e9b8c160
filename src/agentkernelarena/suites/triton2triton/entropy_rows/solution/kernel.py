"""Per-row softmax entropy in one pass over the logits, without materializing the softmax.

With m the row maximum, s = sum exp(x - m) and t = sum exp(x - m) * (x - m) (t <= 0),
H = log(s) - t / s: two non-negative parts, no cancellation. The row maximum is tracked per tile
and the per-lane sums s and t are rescaled when it grows; they are summed at the end of the row.
"""

import torch
import triton
import triton.language as tl

_NEG = tl.constexpr(-1.0e30)


@triton.jit
def _entropy_kernel(x_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    # Running row maximum, a scalar: one rescaling exp per tile, not one per element.
    m = tl.max(tl.full([BLOCK], _NEG, tl.float32), axis=0)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    t = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        v = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        v = tl.where(mask, v, _NEG)
        new_m = tl.maximum(m, tl.max(v, axis=0))
        a = tl.exp(m - new_m)
        d = v - new_m
        e = tl.exp(d)
        # t relative to new_m: a * (t + (m - new_m) * s) + e * d; padding lanes add e = 0.
        t = a * (t + (m - new_m) * s) + e * d
        s = a * s + e
        m = new_m
    S = tl.sum(s, axis=0)
    T = tl.sum(t, axis=0)
    tl.store(out_ptr + row, tl.log(S) - T / S)


def forward(logits: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    out = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = min(2048, triton.next_power_of_2(V))
    _entropy_kernel[(M,)](logits, out, V, BLOCK=BLOCK, num_warps=8 if BLOCK >= 2048 else 4)
    return out
