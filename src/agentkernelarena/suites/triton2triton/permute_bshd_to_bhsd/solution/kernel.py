"""(B, S, H, D) -> (B, H, S, D) permute as tiled 2D copies.

One program per (batch, head, block of BLOCK_S positions): it loads a [BLOCK_S, D] tile whose
rows are the D contiguous elements of x[b, s, h, :] (vectorized row loads, stride H * D between
rows) and stores it into out[b, h, s0:s0 + BLOCK_S, :], which is one contiguous span. No
per-element division: the only index math is one scalar div/mod per program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _permute_tile_kernel(x_ptr, out_ptr, S, H, D, BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_s = tl.program_id(0)
    pid_bh = tl.program_id(1)
    b = pid_bh // H
    h = pid_bh % H
    s = pid_s * BLOCK_S + tl.arange(0, BLOCK_S)
    d = tl.arange(0, BLOCK_D)
    mask = (s < S)[:, None] & (d < D)[None, :]
    src = (b.to(tl.int64) * S * H + h) * D + (s.to(tl.int64) * (H * D))[:, None] + d[None, :]
    v = tl.load(x_ptr + src, mask=mask)
    dst = out_ptr + pid_bh.to(tl.int64) * S * D + (s.to(tl.int64) * D)[:, None] + d[None, :]
    tl.store(dst, v, mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    out = torch.empty((B, H, S, D), device=x.device, dtype=x.dtype)
    BLOCK_D = triton.next_power_of_2(D)
    # About 8K elements per program (16-32 KB moved), at least one row.
    BLOCK_S = max(1, min(triton.next_power_of_2(S), 8192 // BLOCK_D))
    grid = (triton.cdiv(S, BLOCK_S), B * H)
    _permute_tile_kernel[grid](x, out, S, H, D, BLOCK_S=BLOCK_S, BLOCK_D=BLOCK_D, num_warps=8)
    return out
