"""Pixel shuffle by output rows: one program per ROWS consecutive output rows (row =
(b * C + c) * H * r + h * r + i) and block of BLOCK_W input columns. It loads a
[ROWS * R, BLOCK_W] tile (for each row, the r source planes c * r * r + i * r + j at row h:
coalesced row reads), transposes it on chip, and stores each row's contiguous span
out[b, c, oh, w0 * r : (w0 + BLOCK_W) * r]. Division happens on per-row vectors only; short
rows are packed several to a program."""

import torch
import triton
import triton.language as tl


@triton.jit
def _pixel_shuffle_rows_kernel(x_ptr, out_ptr, n_rows, H, W, r, ROWS: tl.constexpr,
                               R: tl.constexpr, BLOCK_W: tl.constexpr):
    k = tl.arange(0, ROWS * R)
    row = tl.program_id(0) * ROWS + k // R
    j = k % R
    Hr = H * r
    bc = row // Hr
    oh = row % Hr
    h = oh // r
    i = oh % r
    w = tl.program_id(1) * BLOCK_W + tl.arange(0, BLOCK_W)
    kmask = (j < r) & (row < n_rows)
    wmask = w < W
    mask = kmask[:, None] & wmask[None, :]
    plane = ((bc.to(tl.int64) * r + i) * r + j) * (H * W) + h * W
    v = tl.load(x_ptr + plane[:, None] + w[None, :], mask=mask)
    dst = row.to(tl.int64) * (W * r) + j
    tl.store(out_ptr + dst[None, :] + w[:, None] * r, tl.trans(v),
             mask=wmask[:, None] & kmask[None, :])


def forward(x: torch.Tensor, r: int) -> torch.Tensor:
    B, CRR, H, W = x.shape
    C = CRR // (r * r)
    out = torch.empty((B, C, H * r, W * r), device=x.device, dtype=x.dtype)
    R = triton.next_power_of_2(r)
    BLOCK_W = min(triton.next_power_of_2(W), 2048 // R)
    ROWS = max(1, 2048 // (R * BLOCK_W))
    n_rows = B * C * H * r
    grid = (triton.cdiv(n_rows, ROWS), triton.cdiv(W, BLOCK_W))
    _pixel_shuffle_rows_kernel[grid](x, out, n_rows, H, W, r, ROWS=ROWS, R=R, BLOCK_W=BLOCK_W,
                                     num_warps=4)
    return out
