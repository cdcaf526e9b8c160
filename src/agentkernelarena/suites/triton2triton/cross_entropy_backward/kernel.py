"""Cross-entropy backward: one program per row, three passes (max, sum of exp, write)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_backward_kernel(x_ptr, t_ptr, g_ptr, out_ptr, V, IGNORE: tl.constexpr,
                        BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    target = tl.load(t_ptr + row)
    g = tl.load(g_ptr + row)
    g = tl.where(target == IGNORE, 0.0, g)
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < V, other=float("-inf")).to(tl.float32)
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < V, other=float("-inf")).to(tl.float32)
        s += tl.exp(x - row_max)
    inv_sum = 1.0 / tl.sum(s, axis=0)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        mask = offs < V
        x = tl.load(x_ptr + base + offs, mask=mask, other=float("-inf")).to(tl.float32)
        p = tl.exp(x - row_max) * inv_sum
        grad = (p - tl.where(offs == target, 1.0, 0.0)) * g
        tl.store(out_ptr + base + offs, grad.to(out_ptr.dtype.element_ty), mask=mask)


def forward(logits: torch.Tensor, targets: torch.Tensor, grad_loss: torch.Tensor):
    M, V = logits.shape
    out = torch.empty_like(logits)
    BLOCK = min(4096, triton.next_power_of_2(V))
    _ce_backward_kernel[(M,)](logits, targets, grad_loss, out, V, IGNORE=-100, BLOCK=BLOCK)
    return out
