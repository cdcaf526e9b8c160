"""RoIAlign with one lane per output element: each lane splits its flat (roi, channel, bin row,
bin column) index, loads its roi, recomputes the roi's geometry and its bin's four sample
points, and bilinearly interpolates each sample from the channel's plane."""

import torch
import triton
import triton.language as tl


@triton.jit
def _sample(plane, y, x, H, W, mask):
    valid = mask & (y >= -1.0) & (y <= H) & (x >= -1.0) & (x <= W)
    y = tl.maximum(y, 0.0)
    x = tl.maximum(x, 0.0)
    y0 = tl.floor(y).to(tl.int32)
    x0 = tl.floor(x).to(tl.int32)
    ytop = y0 >= H - 1
    xtop = x0 >= W - 1
    y0 = tl.where(ytop, H - 1, y0)
    x0 = tl.where(xtop, W - 1, x0)
    y1 = tl.where(ytop, y0, y0 + 1)
    x1 = tl.where(xtop, x0, x0 + 1)
    ly = tl.where(ytop, 0.0, y - y0.to(tl.float32))
    lx = tl.where(xtop, 0.0, x - x0.to(tl.float32))
    v00 = tl.load(plane + y0 * W + x0, mask=valid, other=0.0).to(tl.float32)
    v01 = tl.load(plane + y0 * W + x1, mask=valid, other=0.0).to(tl.float32)
    v10 = tl.load(plane + y1 * W + x0, mask=valid, other=0.0).to(tl.float32)
    v11 = tl.load(plane + y1 * W + x1, mask=valid, other=0.0).to(tl.float32)
    return (1.0 - ly) * ((1.0 - lx) * v00 + lx * v01) + ly * ((1.0 - lx) * v10 + lx * v11)


@triton.jit
def _roi_align_kernel(feat_ptr, rois_ptr, out_ptr, total, C, H, W, P, scale,
                      BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    pw = offs % P
    t = offs // P
    ph = t % P
    t = t // P
    c = t % C
    r = t // C
    b = tl.load(rois_ptr + r * 5, mask=mask, other=0.0).to(tl.int64)
    x1 = tl.load(rois_ptr + r * 5 + 1, mask=mask, other=0.0)
    y1 = tl.load(rois_ptr + r * 5 + 2, mask=mask, other=0.0)
    x2 = tl.load(rois_ptr + r * 5 + 3, mask=mask, other=0.0)
    y2 = tl.load(rois_ptr + r * 5 + 4, mask=mask, other=0.0)
    sx = x1 * scale - 0.5
    sy = y1 * scale - 0.5
    bw = (x2 * scale - 0.5 - sx) / P
    bh = (y2 * scale - 0.5 - sy) / P
    plane = feat_ptr + (b * C + c) * H * W
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for a in tl.static_range(2):
        y = sy + ph.to(tl.float32) * bh + (a + 0.5) * bh * 0.5
        for e in tl.static_range(2):
            x = sx + pw.to(tl.float32) * bw + (e + 0.5) * bw * 0.5
            acc += _sample(plane, y, x, H, W, mask)
    tl.store(out_ptr + offs, (acc * 0.25).to(out_ptr.dtype.element_ty), mask=mask)


def forward(features, rois, spatial_scale, P):
    N, C, H, W = features.shape
    R = rois.shape[0]
    out = torch.empty((R, C, P, P), device=features.device, dtype=features.dtype)
    total = R * C * P * P
    BLOCK = 512
    _roi_align_kernel[(triton.cdiv(total, BLOCK),)](features, rois, out, total, C, H, W, P,
                                                    spatial_scale, BLOCK=BLOCK)
    return out
