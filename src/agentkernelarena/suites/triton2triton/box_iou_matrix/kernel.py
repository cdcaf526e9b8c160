"""Pairwise box IoU in two kernels: the areas of both sets into buffers, then a flat kernel over
the M x N outputs that recovers (i, j) from each output's index and gathers both boxes'
coordinates and areas for every output element."""

import torch
import triton
import triton.language as tl


@triton.jit
def _area_kernel(b_ptr, area_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x1 = tl.load(b_ptr + offs * 4 + 0, mask=mask)
    y1 = tl.load(b_ptr + offs * 4 + 1, mask=mask)
    x2 = tl.load(b_ptr + offs * 4 + 2, mask=mask)
    y2 = tl.load(b_ptr + offs * 4 + 3, mask=mask)
    tl.store(area_ptr + offs, (x2 - x1) * (y2 - y1), mask=mask)


@triton.jit
def _iou_kernel(b1_ptr, b2_ptr, a1_ptr, a2_ptr, out_ptr, total, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    i = offs // N
    j = offs % N
    ax1 = tl.load(b1_ptr + i * 4 + 0, mask=mask)
    ay1 = tl.load(b1_ptr + i * 4 + 1, mask=mask)
    ax2 = tl.load(b1_ptr + i * 4 + 2, mask=mask)
    ay2 = tl.load(b1_ptr + i * 4 + 3, mask=mask)
    bx1 = tl.load(b2_ptr + j * 4 + 0, mask=mask)
    by1 = tl.load(b2_ptr + j * 4 + 1, mask=mask)
    bx2 = tl.load(b2_ptr + j * 4 + 2, mask=mask)
    by2 = tl.load(b2_ptr + j * 4 + 3, mask=mask)
    a1 = tl.load(a1_ptr + i, mask=mask)
    a2 = tl.load(a2_ptr + j, mask=mask)
    w = tl.maximum(tl.minimum(ax2, bx2) - tl.maximum(ax1, bx1), 0.0)
    h = tl.maximum(tl.minimum(ay2, by2) - tl.maximum(ay1, by1), 0.0)
    inter = w * h
    tl.store(out_ptr + offs, inter / (a1 + a2 - inter), mask=mask)


def forward(boxes1: torch.Tensor, boxes2: torch.Tensor) -> torch.Tensor:
    M, N = boxes1.shape[0], boxes2.shape[0]
    area1 = torch.empty((M,), device=boxes1.device, dtype=torch.float32)
    area2 = torch.empty((N,), device=boxes1.device, dtype=torch.float32)
    out = torch.empty((M, N), device=boxes1.device, dtype=torch.float32)
    BLOCK = 1024
    _area_kernel[(triton.cdiv(M, BLOCK),)](boxes1, area1, M, BLOCK=BLOCK)
    _area_kernel[(triton.cdiv(N, BLOCK),)](boxes2, area2, N, BLOCK=BLOCK)
    total = M * N
    _iou_kernel[(triton.cdiv(total, BLOCK),)](boxes1, boxes2, area1, area2, out, total, N,
                                              BLOCK=BLOCK)
    return out
