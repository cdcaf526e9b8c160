"""Per-row KL divergence in two kernels: an elementwise kernel writes every term
exp(logp) * (logp - logq) to a float32 M x V buffer, then a row kernel sums each row of it."""

import torch
import triton
import triton.language as tl


@triton.jit
def _terms_kernel(p_ptr, q_ptr, t_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    lp = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    lq = tl.load(q_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(t_ptr + offs, tl.exp(lp) * (lp - lq), mask=mask)


@triton.jit
def _row_sum_kernel(t_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(t_ptr + row * V + cols, mask=cols < V, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def forward(logp: torch.Tensor, logq: torch.Tensor) -> torch.Tensor:
    M, V = logp.shape
    terms = torch.empty((M, V), device=logp.device, dtype=torch.float32)
    out = torch.empty((M,), device=logp.device, dtype=torch.float32)
    BLOCK = 1024
    _terms_kernel[(triton.cdiv(M * V, BLOCK),)](logp, logq, terms, M * V, BLOCK=BLOCK)
    _row_sum_kernel[(M,)](terms, out, V, BLOCK=BLOCK)
    return out
