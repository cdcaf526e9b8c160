"""Label-smoothed cross-entropy in one streaming pass per row.

Faster than the baseline because each logits row is read once instead of twice: every loaded
block updates a running maximum, the running sum of exponentials (rescaled by one scalar
exponential when the maximum grows) and the running sum of the logits (online softmax, block
by block); ignored rows read nothing but their target; exponentials use exp2 with log2(e)
folded in. The running state is three scalars, not three block-wide vectors, so a block costs
one exponential per element and no registers spill on long rows.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_smooth_kernel(x_ptr, t_ptr, loss_ptr, V, eps, IGNORE: tl.constexpr,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    target = tl.load(t_ptr + row)
    LOG2E: tl.constexpr = 1.4426950408889634
    if target == IGNORE:
        tl.store(loss_ptr + row, 0.0)
    else:
        m = float("-inf")
        s = 0.0
        sx = 0.0
        for v0 in range(0, V, BLOCK):
            offs = v0 + tl.arange(0, BLOCK)
            mask = offs < V
            x = tl.load(x_ptr + base + offs, mask=mask, other=float("-inf")).to(tl.float32)
            sx += tl.sum(tl.where(mask, x, 0.0), axis=0)
            x2 = x * LOG2E
            m_new = tl.maximum(m, tl.max(x2, axis=0))
            s = s * tl.exp2(m - m_new) + tl.sum(tl.exp2(x2 - m_new), axis=0)
            m = m_new
        lse = (m + tl.log2(s)) / LOG2E
        x_t = tl.load(x_ptr + base + target).to(tl.float32)
        loss = (1.0 - eps) * (lse - x_t) + eps * (lse - sx / V)
        tl.store(loss_ptr + row, loss)


def forward(logits: torch.Tensor, targets: torch.Tensor, eps: float) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = min(4096, triton.next_power_of_2(V))
    _ce_smooth_kernel[(M,)](logits, targets, loss, V, eps, IGNORE=-100, BLOCK=BLOCK,
                            num_warps=8)
    return loss
