"""Per-row softmax entropy, materializing the softmax: a row kernel computes the row's maximum and
sum of exponentials (two passes) and writes p = softmax(logits) to a float32 M x V buffer (a third
pass), then a second row kernel sums -p * log(p) over it."""

import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, p_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    mx = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        mx = tl.maximum(mx, v)
    m = tl.max(mx, axis=0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        acc += tl.exp(v - m)
    inv = 1.0 / tl.sum(acc, axis=0)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        v = tl.load(x_ptr + base + cols, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(p_ptr + base + cols, tl.exp(v - m) * inv, mask=mask)


@triton.jit
def _entropy_kernel(p_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        p = tl.load(p_ptr + row * V + cols, mask=cols < V, other=0.0)
        acc += tl.where(p > 0.0, -p * tl.log(tl.where(p > 0.0, p, 1.0)), 0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def forward(logits: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    probs = torch.empty((M, V), device=logits.device, dtype=torch.float32)
    out = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = 1024
    _softmax_kernel[(M,)](logits, probs, V, BLOCK=BLOCK)
    _entropy_kernel[(M,)](probs, out, V, BLOCK=BLOCK)
    return out
