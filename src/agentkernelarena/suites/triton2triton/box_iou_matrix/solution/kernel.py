"""Pairwise box IoU in one 2-D tiled kernel: each program loads a column of boxes1 and a row
of boxes2 once, computes their areas in registers and writes a BLOCK_M x BLOCK_N tile of IoUs
with contiguous, vectorizable stores (no per-element index division or gathers)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _iou_tile_kernel(b1_ptr, b2_ptr, out_ptr, M, N,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mm = offs_m < M
    mn = offs_n < N
    ax1 = tl.load(b1_ptr + offs_m * 4 + 0, mask=mm, other=0.0)
    ay1 = tl.load(b1_ptr + offs_m * 4 + 1, mask=mm, other=0.0)
    ax2 = tl.load(b1_ptr + offs_m * 4 + 2, mask=mm, other=1.0)
    ay2 = tl.load(b1_ptr + offs_m * 4 + 3, mask=mm, other=1.0)
    bx1 = tl.load(b2_ptr + offs_n * 4 + 0, mask=mn, other=0.0)
    by1 = tl.load(b2_ptr + offs_n * 4 + 1, mask=mn, other=0.0)
    bx2 = tl.load(b2_ptr + offs_n * 4 + 2, mask=mn, other=1.0)
    by2 = tl.load(b2_ptr + offs_n * 4 + 3, mask=mn, other=1.0)
    a1 = (ax2 - ax1) * (ay2 - ay1)
    a2 = (bx2 - bx1) * (by2 - by1)
    w = tl.maximum(tl.minimum(ax2[:, None], bx2[None, :]) - tl.maximum(ax1[:, None], bx1[None, :]),
                   0.0)
    h = tl.maximum(tl.minimum(ay2[:, None], by2[None, :]) - tl.maximum(ay1[:, None], by1[None, :]),
                   0.0)
    inter = w * h
    iou = inter / (a1[:, None] + a2[None, :] - inter)
    tl.store(out_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :], iou,
             mask=mm[:, None] & mn[None, :])


def forward(boxes1: torch.Tensor, boxes2: torch.Tensor) -> torch.Tensor:
    M, N = boxes1.shape[0], boxes2.shape[0]
    out = torch.empty((M, N), device=boxes1.device, dtype=torch.float32)
    BLOCK_M = min(16, triton.next_power_of_2(M))
    BLOCK_N = 4096 // BLOCK_M if N >= 4096 // BLOCK_M else max(16, triton.next_power_of_2(N))
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(M, BLOCK_M))
    _iou_tile_kernel[grid](boxes1, boxes2, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                           num_warps=8 if BLOCK_M * BLOCK_N >= 4096 else 4)
    return out
