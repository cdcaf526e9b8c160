"""Per-row cross-entropy (no reduction) in one kernel with an online logsumexp.

Faster than the four-kernel version because the logits, by far the largest tensor, are read from
global memory once instead of twice: each program streams its row in large tiles, keeping a
running maximum and a per-lane sum of exponentials rescaled whenever the maximum grows, then
gathers the target logit and writes the loss; no per-row intermediates go through global memory.
"""

import torch
import triton
import triton.language as tl

_MAX_BLOCK = 4096


@triton.jit
def _cross_entropy_kernel(logits_ptr, targets_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    cols = tl.arange(0, BLOCK)
    v = tl.load(logits_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
    m = tl.max(v, axis=0)
    acc = tl.exp(v - m)
    for start in range(BLOCK, V, BLOCK):
        c = start + cols
        v = tl.load(logits_ptr + base + c, mask=c < V, other=float("-inf")).to(tl.float32)
        new_m = tl.maximum(m, tl.max(v, axis=0))
        acc = acc * tl.exp(m - new_m) + tl.exp(v - new_m)
        m = new_m
    lse = m + tl.log(tl.sum(acc, axis=0))
    t = tl.load(targets_ptr + row)
    xt = tl.load(logits_ptr + base + t).to(tl.float32)
    tl.store(loss_ptr + row, lse - xt)


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = min(_MAX_BLOCK, triton.next_power_of_2(V))
    num_warps = 8 if BLOCK >= 2048 else 4
    _cross_entropy_kernel[(M,)](logits, targets, loss, V, BLOCK=BLOCK, num_warps=num_warps)
    return loss
