"""torch2triton/masked_mean_pool: masked mean over the sequence, the Triton starting point.

Simple and correct: one program per (sequence, block of 128 features) walks the sequence one
token at a time, adding mask * hidden to a float32 accumulator and counting the real tokens.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _pool_kernel(h_ptr, m_ptr, out_ptr, S, H, BLOCK_H: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    cmask = cols < H
    acc = tl.zeros((BLOCK_H,), dtype=tl.float32)
    count = 0.0
    for s in range(0, S):
        m = tl.load(m_ptr + b * S + s).to(tl.float32)
        x = tl.load(h_ptr + (b * S + s) * H + cols, mask=cmask, other=0.0).to(tl.float32)
        acc += x * m
        count += m
    out = acc / tl.maximum(count, 1e-9)
    tl.store(out_ptr + b * H + cols, out.to(out_ptr.dtype.element_ty), mask=cmask)


def forward(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    B, S, H = hidden.shape
    out = torch.empty((B, H), device=hidden.device, dtype=hidden.dtype)
    _pool_kernel[(B, triton.cdiv(H, 128))](hidden, attention_mask, out, S, H, BLOCK_H=128)
    return out
