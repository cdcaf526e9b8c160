"""K nearest neighbours, in two passes: a tiled kernel writes the full B x N x M matrix of
squared distances to memory, then a selection kernel (one program per query) makes K passes
over the query's row, pass j finding the smallest distance above the one pass j - 1 found."""

import torch
import triton
import triton.language as tl


@triton.jit
def _sq_dist_kernel(q_ptr, p_ptr, d_ptr, N, M, BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr):
    b = tl.program_id(2).to(tl.int64)
    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    mn = offs_n < N
    mm = offs_m < M
    qb = q_ptr + b * N * 3 + offs_n * 3
    pb = p_ptr + b * M * 3 + offs_m * 3
    d = tl.zeros((BLOCK_N, BLOCK_M), dtype=tl.float32)
    for c in tl.static_range(3):
        qc = tl.load(qb + c, mask=mn, other=0.0)
        pc = tl.load(pb + c, mask=mm, other=0.0)
        diff = qc[:, None] - pc[None, :]
        d += diff * diff
    out = d_ptr + (b * N + offs_n[:, None]) * M + offs_m[None, :]
    tl.store(out, d, mask=mn[:, None] & mm[None, :])


@triton.jit
def _select_kernel(d_ptr, dist_ptr, idx_ptr, M, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = d_ptr + row * M
    prev = -1.0
    for j in range(0, K):
        best = tl.full((BLOCK,), float("inf"), dtype=tl.float32)
        best_i = tl.zeros((BLOCK,), dtype=tl.int32)
        for m0 in range(0, M, BLOCK):
            offs = m0 + tl.arange(0, BLOCK)
            x = tl.load(base + offs, mask=offs < M, other=float("inf"))
            x = tl.where(x > prev, x, float("inf"))
            better = x < best
            best = tl.where(better, x, best)
            best_i = tl.where(better, offs, best_i)
        top = tl.min(best, axis=0)
        top_i = tl.min(tl.where(best == top, best_i, M), axis=0)
        tl.store(dist_ptr + row * K + j, top)
        tl.store(idx_ptr + row * K + j, top_i.to(tl.int64))
        prev = top


def forward(q: torch.Tensor, p: torch.Tensor, k: int):
    B, N, _ = q.shape
    M = p.shape[1]
    d = torch.empty((B, N, M), device=q.device, dtype=torch.float32)
    dists = torch.empty((B, N, k), device=q.device, dtype=torch.float32)
    idx = torch.empty((B, N, k), device=q.device, dtype=torch.int64)
    BLOCK_N, BLOCK_M = 32, 128
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(M, BLOCK_M), B)
    _sq_dist_kernel[grid](q, p, d, N, M, BLOCK_N=BLOCK_N, BLOCK_M=BLOCK_M)
    _select_kernel[(B * N,)](d, dists, idx, M, K=k, BLOCK=min(1024, triton.next_power_of_2(M)))
    return (dists, idx)
