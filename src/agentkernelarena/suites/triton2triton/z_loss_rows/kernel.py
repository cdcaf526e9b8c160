"""PaLM z-loss per row in three kernels: the row maximum, then a second pass for the sum of
exp(x - max), then coef * (max + log(sum))^2 from the two float32 vectors."""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_max_kernel(x_ptr, max_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * V + cols, mask=cols < V, other=float("-inf"))
        acc = tl.maximum(acc, v.to(tl.float32))
    tl.store(max_ptr + row, tl.max(acc, axis=0))


@triton.jit
def _row_sum_exp_kernel(x_ptr, max_ptr, sum_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.load(max_ptr + row)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * V + cols, mask=cols < V, other=float("-inf"))
        acc += tl.exp(v.to(tl.float32) - m)
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _z_kernel(max_ptr, sum_ptr, out_ptr, M, coef, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    m = tl.load(max_ptr + rows, mask=mask, other=0.0)
    s = tl.load(sum_ptr + rows, mask=mask, other=1.0)
    lse = m + tl.log(s)
    tl.store(out_ptr + rows, coef * lse * lse, mask=mask)


def forward(logits: torch.Tensor, coef: float) -> torch.Tensor:
    M, V = logits.shape
    row_max = torch.empty((M,), device=logits.device, dtype=torch.float32)
    row_sum = torch.empty((M,), device=logits.device, dtype=torch.float32)
    out = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = 1024
    _row_max_kernel[(M,)](logits, row_max, V, BLOCK=BLOCK)
    _row_sum_exp_kernel[(M,)](logits, row_max, row_sum, V, BLOCK=BLOCK)
    _z_kernel[(triton.cdiv(M, 256),)](row_max, row_sum, out, M, coef, BLOCK=256)
    return out
