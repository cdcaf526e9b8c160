"""instruction2triton/weighted_sum_rows: a tiled, split-N matrix-vector product.

Each program reduces a BLOCK_M x CHUNK slab of x against w in float32. When the rows alone do
not give enough programs to fill the GPU (few, long rows), N is split into S chunks whose
partial sums a second small kernel adds up; otherwise S = 1 and the first kernel writes out.
"""

import torch
import triton
import triton.language as tl

TARGET_PROGRAMS = 1024


@triton.jit
def _slab_dot(x_ptr, w_ptr, part_ptr, M, N, CHUNK, S,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    row_base = rows.to(tl.int64) * N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    start = pid_s * CHUNK
    for k in range(0, CHUNK, BLOCK_N):
        cols = start + k + tl.arange(0, BLOCK_N)
        col_ok = cols < N
        x = tl.load(x_ptr + row_base[:, None] + cols[None, :],
                    mask=row_ok[:, None] & col_ok[None, :], other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=col_ok, other=0.0)
        acc += x * w[None, :]
    tl.store(part_ptr + rows * S + pid_s, tl.sum(acc, axis=1), mask=row_ok)


@triton.jit
def _sum_parts(part_ptr, out_ptr, M, S, BLOCK_M: tl.constexpr, BLOCK_S: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_S)
    mask = (rows[:, None] < M) & (cols[None, :] < S)
    p = tl.load(part_ptr + rows[:, None] * S + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows, tl.sum(p, axis=1), mask=rows < M)


def forward(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, device=x.device, dtype=torch.float32)
    BLOCK_N = min(1024, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(4096 // BLOCK_N, triton.next_power_of_2(M)))
    grid_m = triton.cdiv(M, BLOCK_M)
    n_blocks = triton.cdiv(N, BLOCK_N)
    S = max(1, min(n_blocks, triton.cdiv(TARGET_PROGRAMS, grid_m)))
    CHUNK = triton.cdiv(n_blocks, S) * BLOCK_N
    S = triton.cdiv(N, CHUNK)
    if S == 1:
        _slab_dot[(grid_m, 1)](x, w, out, M, N, CHUNK, 1, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                               num_warps=4)
        return out
    part = torch.empty(M, S, device=x.device, dtype=torch.float32)
    _slab_dot[(grid_m, S)](x, w, part, M, N, CHUNK, S, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                           num_warps=4)
    BLOCK_S = triton.next_power_of_2(S)
    BM2 = max(1, 2048 // BLOCK_S)
    _sum_parts[(triton.cdiv(M, BM2),)](part, out, M, S, BLOCK_M=BM2, BLOCK_S=BLOCK_S)
    return out
