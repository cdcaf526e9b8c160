"""Label-smoothed cross-entropy: one program per row, a max pass, then a pass for the sum of
exponentials and the sum of the logits."""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_smooth_kernel(x_ptr, t_ptr, loss_ptr, V, eps, IGNORE: tl.constexpr,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    target = tl.load(t_ptr + row)
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < V, other=float("-inf")).to(tl.float32)
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    sx = tl.zeros((BLOCK,), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        mask = offs < V
        x = tl.load(x_ptr + base + offs, mask=mask, other=float("-inf")).to(tl.float32)
        s += tl.exp(x - row_max)
        sx += tl.where(mask, x, 0.0)
    lse = row_max + tl.log(tl.sum(s, axis=0))
    safe_t = tl.where(target == IGNORE, 0, target)
    x_t = tl.load(x_ptr + base + safe_t).to(tl.float32)
    loss = (1.0 - eps) * (lse - x_t) + eps * (lse - tl.sum(sx, axis=0) / V)
    tl.store(loss_ptr + row, tl.where(target == IGNORE, 0.0, loss))


def forward(logits: torch.Tensor, targets: torch.Tensor, eps: float) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = min(4096, triton.next_power_of_2(V))
    _ce_smooth_kernel[(M,)](logits, targets, loss, V, eps, IGNORE=-100, BLOCK=BLOCK)
    return loss
