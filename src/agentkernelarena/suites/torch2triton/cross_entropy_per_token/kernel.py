"""torch2triton/cross_entropy_per_token: per-token cross-entropy with ignore_index -100, the
Triton starting point.

Simple and correct: one program per row walks the row twice in blocks of 1024 (the max, then
the sum of exponentials) and subtracts the target's logit.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_kernel(x_ptr, t_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        s += tl.exp(x - row_max)
    lse = row_max + tl.log(tl.sum(s, axis=0))
    t = tl.load(t_ptr + row)
    valid = t != -100
    picked = tl.load(x_ptr + base + tl.where(valid, t, 0)).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(valid, lse - picked, 0.0))


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty((M,), device=logits.device, dtype=torch.float32)
    _ce_kernel[(M,)](logits, targets, loss, V, BLOCK=1024)
    return loss
