"""torch2triton/softmax_temperature: softmax(logits / T) over the last dimension, the Triton
starting point.

Simple and correct: one program per row walks the row three times in blocks of 1024 (the max,
the sum of exponentials, then the normalized values).

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, V, inv_t, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * V
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m = tl.maximum(m, x * inv_t)
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        s += tl.exp(x * inv_t - row_max)
    inv_sum = 1.0 / tl.sum(s, axis=0)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(x_ptr + base + cols, mask=mask, other=float("-inf")).to(tl.float32)
        p = tl.exp(x * inv_t - row_max) * inv_sum
        tl.store(y_ptr + base + cols, p.to(y_ptr.dtype.element_ty), mask=mask)


def forward(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    M, V = logits.shape
    out = torch.empty_like(logits)
    _softmax_kernel[(M,)](logits, out, V, 1.0 / temperature, BLOCK=1024)
    return out
