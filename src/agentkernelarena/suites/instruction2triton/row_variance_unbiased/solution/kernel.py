"""instruction2triton/row_variance_unbiased: one read of x, exact two-pass statistics on chip.

Rows of up to 8192 elements: BLOCK_M rows per program, held in registers between the mean and
the sum of squared deviations. Longer rows are cut into CHUNK-element pieces (so that even a
few rows fill the GPU): each program writes its piece's mean and sum of squared deviations
(two passes over the piece, the second one served from cache), and a second kernel merges a
row's pieces exactly: M2 = sum(M2_i) + sum(n_i * (mean_i - mean)^2).
"""

import torch
import triton
import triton.language as tl

RESIDENT_MAX = 8192
CHUNK = 16384


@triton.jit
def _var_rows_resident(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None].to(tl.int64) * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    d = tl.where(mask, x - mean[:, None], 0.0)
    tl.store(out_ptr + rows, tl.sum(d * d, axis=1) / (N - 1), mask=rows < M)


@triton.jit
def _piece_stats(x_ptr, mean_ptr, m2_ptr, N, S, CHUNK: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    piece = tl.program_id(1)
    base = row.to(tl.int64) * N
    start = piece * CHUNK
    count = tl.minimum(N - start, CHUNK).to(tl.float32)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, CHUNK, BLOCK):
        cols = start + k + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / count
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, CHUNK, BLOCK):
        cols = start + k + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    tl.store(mean_ptr + row * S + piece, mean)
    tl.store(m2_ptr + row * S + piece, tl.sum(acc, axis=0))


@triton.jit
def _merge_pieces(mean_ptr, m2_ptr, out_ptr, N, S, CHUNK: tl.constexpr, BLOCK_S: tl.constexpr):
    row = tl.program_id(0)
    s = tl.arange(0, BLOCK_S)
    valid = s < S
    count = tl.where(valid, tl.minimum(N - s * CHUNK, CHUNK), 0).to(tl.float32)
    means = tl.load(mean_ptr + row * S + s, mask=valid, other=0.0)
    m2s = tl.load(m2_ptr + row * S + s, mask=valid, other=0.0)
    mean = tl.sum(count * means, axis=0) / N
    dm = means - mean
    m2 = tl.sum(m2s, axis=0) + tl.sum(count * dm * dm, axis=0)
    tl.store(out_ptr + row, m2 / (N - 1))


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, device=x.device, dtype=torch.float32)
    if N <= RESIDENT_MAX:
        BLOCK_N = triton.next_power_of_2(N)
        BLOCK_M = max(1, min(64, 4096 // BLOCK_N))
        tile = BLOCK_N * BLOCK_M
        warps = 4 if tile <= 2048 else 8
        _var_rows_resident[(triton.cdiv(M, BLOCK_M),)](x, out, M, N, BLOCK_M=BLOCK_M,
                                                       BLOCK_N=BLOCK_N, num_warps=warps)
        return out
    S = triton.cdiv(N, CHUNK)
    means = torch.empty(M, S, device=x.device, dtype=torch.float32)
    m2s = torch.empty(M, S, device=x.device, dtype=torch.float32)
    _piece_stats[(M, S)](x, means, m2s, N, S, CHUNK=CHUNK, BLOCK=4096, num_warps=8)
    _merge_pieces[(M,)](means, m2s, out, N, S, CHUNK=CHUNK, BLOCK_S=triton.next_power_of_2(S))
    return out
