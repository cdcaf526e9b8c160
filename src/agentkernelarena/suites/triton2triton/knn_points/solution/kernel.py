"""K nearest neighbours in one fused, streaming kernel: each program owns BLOCK_N queries and
keeps their K best (distance, index) pairs in registers (unsorted, padded to a power of two);
it streams the reference points in tiles, computes the tile's squared distances in registers
and, while some query has a tile distance below its current K-th best, replaces that worst
entry with the tile's minimum. After the first tiles the K-th best is tight and few tile
entries survive, so the distance matrix is never written and each tile costs a few rounds."""

import torch
import triton
import triton.language as tl


@triton.jit
def _knn_stream_kernel(q_ptr, p_ptr, dist_ptr, idx_ptr, N, M,
                       K: tl.constexpr, KP: tl.constexpr,
                       BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr):
    b = tl.program_id(1).to(tl.int64)
    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mn = offs_n < N
    qb = q_ptr + b * N * 3 + offs_n * 3
    qx = tl.load(qb + 0, mask=mn, other=0.0)
    qy = tl.load(qb + 1, mask=mn, other=0.0)
    qz = tl.load(qb + 2, mask=mn, other=0.0)
    slot = tl.arange(0, KP)
    # Padding slots (>= K) hold -inf: never the worst, never replaced.
    best = tl.where(slot[None, :] < K, float("inf"), float("-inf")) + tl.zeros(
        (BLOCK_N, KP), dtype=tl.float32)
    best_i = tl.zeros((BLOCK_N, KP), dtype=tl.int32)
    cols = tl.arange(0, BLOCK_M)
    for m0 in range(0, M, BLOCK_M):
        offs_m = m0 + cols
        mm = offs_m < M
        pb = p_ptr + b * M * 3 + offs_m * 3
        dx = qx[:, None] - tl.load(pb + 0, mask=mm, other=0.0)[None, :]
        d = dx * dx
        dy = qy[:, None] - tl.load(pb + 1, mask=mm, other=0.0)[None, :]
        d += dy * dy
        dz = qz[:, None] - tl.load(pb + 2, mask=mm, other=0.0)[None, :]
        d += dz * dz
        d = tl.where(mm[None, :], d, float("inf"))
        worst = tl.max(best, axis=1)
        tmin = tl.min(d, axis=1)
        need = tl.max((tmin < worst).to(tl.int32), axis=0)
        while need > 0:
            targ = tl.min(tl.where(d == tmin[:, None], cols[None, :], BLOCK_M), axis=1)
            warg = tl.min(tl.where(best == worst[:, None], slot[None, :], KP), axis=1)
            put = (tmin < worst)[:, None] & (slot[None, :] == warg[:, None])
            best = tl.where(put, tmin[:, None], best)
            best_i = tl.where(put, (m0 + targ)[:, None], best_i)
            d = tl.where(cols[None, :] == targ[:, None], float("inf"), d)
            worst = tl.max(best, axis=1)
            tmin = tl.min(d, axis=1)
            need = tl.max((tmin < worst).to(tl.int32), axis=0)
    # Emit the K entries in ascending order.
    best = tl.where(slot[None, :] < K, best, float("inf"))
    out = (b * N + offs_n) * K
    for j in range(0, K):
        v = tl.min(best, axis=1)
        a = tl.min(tl.where(best == v[:, None], slot[None, :], KP), axis=1)
        sel = slot[None, :] == a[:, None]
        i = tl.sum(tl.where(sel, best_i, 0), axis=1)
        tl.store(dist_ptr + out + j, v, mask=mn)
        tl.store(idx_ptr + out + j, i.to(tl.int64), mask=mn)
        best = tl.where(sel, float("inf"), best)


def forward(q: torch.Tensor, p: torch.Tensor, k: int):
    B, N, _ = q.shape
    M = p.shape[1]
    dists = torch.empty((B, N, k), device=q.device, dtype=torch.float32)
    idx = torch.empty((B, N, k), device=q.device, dtype=torch.int64)
    KP = max(2, triton.next_power_of_2(k))
    BLOCK_N, BLOCK_M = 32, 128
    grid = (triton.cdiv(N, BLOCK_N), B)
    _knn_stream_kernel[grid](q, p, dists, idx, N, M, K=k, KP=KP, BLOCK_N=BLOCK_N,
                             BLOCK_M=BLOCK_M, num_warps=4)
    return (dists, idx)
