"""Batched Sinkhorn normalization, one kernel launch per half-iteration: a row pass divides
every row of every matrix by its sum, then a column pass divides every column by its sum. Each
pass reads and writes the whole batch in global memory, 2 * K passes in all."""

import torch
import triton
import triton.language as tl

EPS = 1e-8


@triton.jit
def _row_normalize_kernel(src_ptr, dst_ptr, n_rows, N, eps,
                          ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    # The batch seen as (B * N) rows of length N; each program normalizes ROWS of them.
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < N)
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    x = tl.load(src_ptr + offs, mask=mask, other=0.0)
    s = tl.sum(x, axis=1)
    tl.store(dst_ptr + offs, x / (s[:, None] + eps), mask=mask)


@triton.jit
def _col_normalize_kernel(x_ptr, N, eps, BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr):
    # One program per (matrix, block of BLOCK_C columns): the whole column height is loaded.
    b = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    rows = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < N) & (cols[None, :] < N)
    offs = b * N * N + rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = tl.sum(x, axis=0)
    tl.store(x_ptr + offs, x / (s[None, :] + eps), mask=mask)


def forward(x: torch.Tensor, K: int) -> torch.Tensor:
    B, N, _ = x.shape
    out = torch.empty_like(x)
    BLOCK_N = triton.next_power_of_2(N)
    ROWS = max(1, 1024 // BLOCK_N)
    BLOCK_C = min(32, BLOCK_N)
    n_rows = B * N
    row_grid = (triton.cdiv(n_rows, ROWS),)
    col_grid = (B, triton.cdiv(N, BLOCK_C))
    src = x
    for _ in range(K):
        _row_normalize_kernel[row_grid](src, out, n_rows, N, EPS, ROWS=ROWS, BLOCK_N=BLOCK_N)
        _col_normalize_kernel[col_grid](out, N, EPS, BLOCK_N=BLOCK_N, BLOCK_C=BLOCK_C)
        src = out
    return out
