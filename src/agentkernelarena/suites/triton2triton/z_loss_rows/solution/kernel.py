"""PaLM z-loss per row in one pass with an online logsumexp: each program streams its row once,
keeping the running maximum (per tile) and per-lane sums of exponentials rescaled when it grows,
then writes coef * lse^2."""

import torch
import triton
import triton.language as tl


@triton.jit
def _z_loss_kernel(x_ptr, out_ptr, V, coef, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    cols = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
    m = tl.max(v, axis=0)
    acc = tl.exp(v - m)
    for start in range(BLOCK, V, BLOCK):
        c = start + cols
        v = tl.load(x_ptr + base + c, mask=c < V, other=float("-inf")).to(tl.float32)
        new_m = tl.maximum(m, tl.max(v, axis=0))
        acc = acc * tl.exp(m - new_m) + tl.exp(v - new_m)
        m = new_m
    lse = m + tl.log(tl.sum(acc, axis=0))
    tl.store(out_ptr + row, coef * lse * lse)


def forward(logits: torch.Tensor, coef: float) -> torch.Tensor:
    M, V = logits.shape
    out = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = min(4096, triton.next_power_of_2(V))
    _z_loss_kernel[(M,)](logits, out, V, coef, BLOCK=BLOCK, num_warps=8 if BLOCK >= 2048 else 4)
    return out
