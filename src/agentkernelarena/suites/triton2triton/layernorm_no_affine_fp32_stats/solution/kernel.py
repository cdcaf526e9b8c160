"""LayerNorm (no affine) with saved statistics in one pass: each program holds ROWS whole rows
in registers ([ROWS, BLOCK_N] tile, N <= 16384), computes the mean and the two-pass variance
there, and writes y, mean and rstd. x is read once; short rows are packed several to a
program."""

import torch
import triton
import triton.language as tl

EPS = 1e-5


@triton.jit
def _layernorm_stats_kernel(x_ptr, y_ptr, mean_ptr, rstd_ptr, M, N, eps, ROWS: tl.constexpr,
                            BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    mask = rmask[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    d = tl.where(mask, x - mean[:, None], 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=1) / N + eps)
    tl.store(y_ptr + offs, (d * rstd[:, None]).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(mean_ptr + rows, mean, mask=rmask)
    tl.store(rstd_ptr + rows, rstd, mask=rmask)


def forward(x: torch.Tensor):
    M, N = x.shape
    y = torch.empty_like(x)
    mean = torch.empty((M,), device=x.device, dtype=torch.float32)
    rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
    BLOCK_N = triton.next_power_of_2(N)
    ROWS = max(1, 2048 // BLOCK_N)
    num_warps = 4 if ROWS * BLOCK_N <= 2048 else min(16, BLOCK_N // 512)
    _layernorm_stats_kernel[(triton.cdiv(M, ROWS),)](x, y, mean, rstd, M, N, EPS, ROWS=ROWS,
                                                     BLOCK_N=BLOCK_N, num_warps=num_warps)
    return (y, mean, rstd)
