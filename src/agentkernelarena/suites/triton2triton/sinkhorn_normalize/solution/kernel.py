"""Batched Sinkhorn normalization with all K iterations fused into one kernel.

Faster than the baseline because each matrix is read from global memory once and written once:
one program holds a whole N x N matrix (N <= 128, padded to a power of two with zeros, which
never change a sum and stay zero) in registers and runs the K row/column normalizations there.
The baseline reads and writes the whole batch 2 * K times, with 2 * K kernel launches. Each
sum's reciprocal is taken once and multiplied in, instead of dividing every element.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-8


@triton.jit
def _sinkhorn_kernel(x_ptr, out_ptr, N, K, eps, BLOCK_N: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    rows = tl.arange(0, BLOCK_N)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < N) & (cols[None, :] < N)
    offs = b * N * N + rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    for _ in range(K):
        r = 1.0 / (tl.sum(x, axis=1) + eps)
        x = x * r[:, None]
        c = 1.0 / (tl.sum(x, axis=0) + eps)
        x = x * c[None, :]
    tl.store(out_ptr + offs, x, mask=mask)


def forward(x: torch.Tensor, K: int) -> torch.Tensor:
    B, N, _ = x.shape
    out = torch.empty_like(x)
    BLOCK_N = triton.next_power_of_2(N)
    num_warps = 8 if BLOCK_N >= 128 else (4 if BLOCK_N >= 64 else 2)
    _sinkhorn_kernel[(B,)](x, out, N, K, EPS, BLOCK_N=BLOCK_N, num_warps=num_warps)
    return out
