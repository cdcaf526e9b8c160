"""instruction2triton/reverse_rows: one pass over 2-D tiles, reversed-index loads.

Each program owns a BLOCK_M x BLOCK_N tile of the output: it reads the mirrored source span of
every row (one contiguous span per row, walked backwards, so each warp's loads still fall in
one contiguous range) and stores the tile contiguously. Wide rows get 1-D tiles along the row,
short rows several rows per tile, so every program moves ~4096 elements.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _reverse(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    base = rows[:, None].to(tl.int64) * N
    tile = tl.load(x_ptr + base + (N - 1 - cols)[None, :], mask=mask)
    tl.store(out_ptr + base + cols[None, :], tile, mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK_N = min(2048, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(4096 // BLOCK_N, triton.next_power_of_2(M)))
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _reverse[grid](x, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=8)
    return out
