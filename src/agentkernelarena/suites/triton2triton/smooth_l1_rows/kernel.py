"""Per-row smooth L1 loss in two kernels: an elementwise kernel writes every term to a float32
M x N buffer, then a row kernel sums each row of it."""

import torch
import triton
import triton.language as tl


@triton.jit
def _terms_kernel(p_ptr, t_ptr, l_ptr, n, beta, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = tl.abs(p - t)
    loss = tl.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    tl.store(l_ptr + offs, loss, mask=mask)


@triton.jit
def _row_sum_kernel(l_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(l_ptr + row * N + cols, mask=cols < N, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def forward(pred: torch.Tensor, target: torch.Tensor, beta: float) -> torch.Tensor:
    M, N = pred.shape
    terms = torch.empty((M, N), device=pred.device, dtype=torch.float32)
    out = torch.empty((M,), device=pred.device, dtype=torch.float32)
    BLOCK = 1024
    _terms_kernel[(triton.cdiv(M * N, BLOCK),)](pred, target, terms, M * N, beta, BLOCK=BLOCK)
    _row_sum_kernel[(M,)](terms, out, N, BLOCK=BLOCK)
    return out
