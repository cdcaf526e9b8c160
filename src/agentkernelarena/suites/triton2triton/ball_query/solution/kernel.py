"""Ball query on tiles of centers: each program owns BLOCK_S centers of one batch and streams
the points in blocks shared by all of them (a point's coordinates are loaded once per tile of
centers, not once per center), numbering the points inside each center's radius with a prefix
count along the block; it stops as soon as every center of the tile has k points."""

import torch
import triton
import triton.language as tl


@triton.jit
def _ball_query_tile_kernel(c_ptr, x_ptr, idx_ptr, N, S, radius,
                            K: tl.constexpr, KP: tl.constexpr,
                            BLOCK_S: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(1).to(tl.int64)
    offs_s = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    ms = offs_s < S
    cb = c_ptr + (b * S + offs_s) * 3
    cx = tl.load(cb + 0, mask=ms, other=0.0)
    cy = tl.load(cb + 1, mask=ms, other=0.0)
    cz = tl.load(cb + 2, mask=ms, other=0.0)
    r2 = radius * radius
    xb = x_ptr + b * N * 3
    out = idx_ptr + (b * S + offs_s) * K
    # Centers past S count as full, so they never keep the loop going.
    cnt = tl.where(ms, 0, K)
    first = tl.full((BLOCK_S,), 0, dtype=tl.int32) + N
    n0 = 0
    while (n0 < N) & (tl.min(cnt, axis=0) < K):
        offs = n0 + tl.arange(0, BLOCK_N)
        m = offs < N
        px = tl.load(xb + offs * 3 + 0, mask=m, other=0.0)
        py = tl.load(xb + offs * 3 + 1, mask=m, other=0.0)
        pz = tl.load(xb + offs * 3 + 2, mask=m, other=0.0)
        dx = px[None, :] - cx[:, None]
        dy = py[None, :] - cy[:, None]
        dz = pz[None, :] - cz[:, None]
        inside = m[None, :] & ms[:, None] & (dx * dx + dy * dy + dz * dz < r2)
        ins = inside.to(tl.int32)
        pos = cnt[:, None] + tl.cumsum(ins, 1) - 1
        tl.store(out[:, None] + pos, offs.to(tl.int64)[None, :], mask=inside & (pos < K))
        first = tl.minimum(first, tl.min(tl.where(inside, offs[None, :], N), axis=1))
        cnt += tl.sum(ins, axis=1)
        n0 += BLOCK_N
    first = tl.where(first < N, first, 0)
    slots = tl.arange(0, KP)
    pad = tl.zeros((BLOCK_S, KP), dtype=tl.int64) + first.to(tl.int64)[:, None]
    tl.store(out[:, None] + slots[None, :], pad,
             mask=ms[:, None] & (slots[None, :] >= cnt[:, None]) & (slots[None, :] < K))


def forward(centers: torch.Tensor, xyz: torch.Tensor, radius: float, k: int) -> torch.Tensor:
    B, S, _ = centers.shape
    N = xyz.shape[1]
    idx = torch.empty((B, S, k), device=xyz.device, dtype=torch.int64)
    BLOCK_S, BLOCK_N = 32, 128
    grid = (triton.cdiv(S, BLOCK_S), B)
    _ball_query_tile_kernel[grid](centers, xyz, idx, N, S, radius, K=k,
                                  KP=triton.next_power_of_2(k), BLOCK_S=BLOCK_S,
                                  BLOCK_N=BLOCK_N, num_warps=4)
    return idx
