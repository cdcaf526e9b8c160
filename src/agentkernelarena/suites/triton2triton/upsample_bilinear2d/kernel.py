"""Bilinear resampling (align_corners=False), one output element per lane: the output is
flattened, every lane recovers (plane, row, column) with divisions, computes both source
coordinates and their weights itself and gathers its four taps from global memory."""

import torch
import triton
import triton.language as tl


@triton.jit
def _bilinear_kernel(x_ptr, out_ptr, total, H, W, OH, OW, scale_h, scale_w,
                     BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ow = offs % OW
    oh = (offs // OW) % OH
    plane = offs // (OW * OH)
    sh = tl.maximum((oh.to(tl.float32) + 0.5) * scale_h - 0.5, 0.0)
    sw = tl.maximum((ow.to(tl.float32) + 0.5) * scale_w - 0.5, 0.0)
    h0 = sh.to(tl.int32)
    w0 = sw.to(tl.int32)
    lh = sh - h0.to(tl.float32)
    lw = sw - w0.to(tl.float32)
    h1 = tl.minimum(h0 + 1, H - 1)
    w1 = tl.minimum(w0 + 1, W - 1)
    base = plane * H * W
    v00 = tl.load(x_ptr + base + h0 * W + w0, mask=mask, other=0.0).to(tl.float32)
    v01 = tl.load(x_ptr + base + h0 * W + w1, mask=mask, other=0.0).to(tl.float32)
    v10 = tl.load(x_ptr + base + h1 * W + w0, mask=mask, other=0.0).to(tl.float32)
    v11 = tl.load(x_ptr + base + h1 * W + w1, mask=mask, other=0.0).to(tl.float32)
    top = v00 * (1.0 - lw) + v01 * lw
    bot = v10 * (1.0 - lw) + v11 * lw
    out = top * (1.0 - lh) + bot * lh
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    N, C, H, W = x.shape
    out = torch.empty((N, C, out_h, out_w), device=x.device, dtype=x.dtype)
    total = N * C * out_h * out_w
    BLOCK = 256
    _bilinear_kernel[(triton.cdiv(total, BLOCK),)](x, out, total, H, W, out_h, out_w,
                                                   H / out_h, W / out_w, BLOCK=BLOCK)
    return out
