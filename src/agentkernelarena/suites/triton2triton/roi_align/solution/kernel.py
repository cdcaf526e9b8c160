"""RoIAlign with the geometry computed once per roi and bin: each program takes one roi and all
its P x P bins (the columns of a 2-D tile, contiguous in the output) for a block of channels
(the rows). The 2 x 2 sample points,
their clamped neighbour offsets, validity and bilinear weights are computed once per bin, as
1-D vectors, and reused across the channel block; only the gathers and the blend are per
channel."""

import torch
import triton
import triton.language as tl


@triton.jit
def _axis(v, size):
    valid = (v >= -1.0) & (v <= size)
    v = tl.maximum(v, 0.0)
    lo = tl.floor(v).to(tl.int32)
    top = lo >= size - 1
    lo = tl.where(top, size - 1, lo)
    hi = tl.where(top, lo, lo + 1)
    frac = tl.where(top, 0.0, v - lo.to(tl.float32))
    return lo, hi, frac, valid


@triton.jit
def _roi_align_kernel(feat_ptr, rois_ptr, out_ptr, C, H, W, P, scale,
                      BLOCK_B: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0).to(tl.int64)
    offs_b = tl.arange(0, BLOCK_B)  # bin index ph * P + pw
    offs_c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    bmask = offs_b < P * P
    cmask = offs_c < C
    b = tl.load(rois_ptr + r * 5).to(tl.int64)
    x1 = tl.load(rois_ptr + r * 5 + 1)
    y1 = tl.load(rois_ptr + r * 5 + 2)
    x2 = tl.load(rois_ptr + r * 5 + 3)
    y2 = tl.load(rois_ptr + r * 5 + 4)
    sx = x1 * scale - 0.5
    sy = y1 * scale - 0.5
    bw = (x2 * scale - 0.5 - sx) / P
    bh = (y2 * scale - 0.5 - sy) / P
    ph = (offs_b // P).to(tl.float32)
    pw = (offs_b % P).to(tl.float32)
    planes = feat_ptr + (b * C + offs_c.to(tl.int64)) * H * W  # one per channel
    m2 = cmask[:, None] & bmask[None, :]
    acc = tl.zeros((BLOCK_C, BLOCK_B), dtype=tl.float32)
    for a in tl.static_range(2):
        y0, y1i, ly, vy = _axis(sy + ph * bh + (a + 0.5) * bh * 0.5, H)
        for e in tl.static_range(2):
            x0, x1i, lx, vx = _axis(sx + pw * bw + (e + 0.5) * bw * 0.5, W)
            ok = (vy & vx)[None, :] & m2
            w00 = ((1.0 - ly) * (1.0 - lx))[None, :]
            w01 = ((1.0 - ly) * lx)[None, :]
            w10 = (ly * (1.0 - lx))[None, :]
            w11 = (ly * lx)[None, :]
            p = planes[:, None]
            v00 = tl.load(p + (y0 * W + x0)[None, :], mask=ok, other=0.0).to(tl.float32)
            v01 = tl.load(p + (y0 * W + x1i)[None, :], mask=ok, other=0.0).to(tl.float32)
            v10 = tl.load(p + (y1i * W + x0)[None, :], mask=ok, other=0.0).to(tl.float32)
            v11 = tl.load(p + (y1i * W + x1i)[None, :], mask=ok, other=0.0).to(tl.float32)
            acc += w00 * v00 + w01 * v01 + w10 * v10 + w11 * v11
    PP = P * P
    dst = out_ptr + (r * C + offs_c[:, None]) * PP + offs_b[None, :]
    tl.store(dst, (acc * 0.25).to(out_ptr.dtype.element_ty), mask=m2)


def forward(features, rois, spatial_scale, P):
    N, C, H, W = features.shape
    R = rois.shape[0]
    out = torch.empty((R, C, P, P), device=features.device, dtype=features.dtype)
    BLOCK_B = max(16, triton.next_power_of_2(P * P))
    BLOCK_C = max(1, min(triton.next_power_of_2(C), 2048 // BLOCK_B))
    _roi_align_kernel[(R, triton.cdiv(C, BLOCK_C))](features, rois, out, C, H, W, P,
                                                    spatial_scale, BLOCK_B=BLOCK_B,
                                                    BLOCK_C=BLOCK_C, num_warps=4)
    return out
