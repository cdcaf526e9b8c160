"""Reflection padding, one output element per lane: the flat output offset is split into
(plane, row, column) by integer division and modulo, both indices are reflected, and the
source element is loaded."""

import torch
import triton
import triton.language as tl


@triton.jit
def _pad_reflect_kernel(x_ptr, out_ptr, n_elements, H, W, Ho, Wo, pl, pt, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    ow = offs % Wo
    t = offs // Wo
    oh = t % Ho
    plane = t // Ho
    iw = ow - pl
    iw = tl.where(iw < 0, -iw, iw)
    iw = tl.where(iw >= W, 2 * (W - 1) - iw, iw)
    ih = oh - pt
    ih = tl.where(ih < 0, -ih, ih)
    ih = tl.where(ih >= H, 2 * (H - 1) - ih, ih)
    v = tl.load(x_ptr + (plane * H + ih) * W + iw, mask=mask)
    tl.store(out_ptr + offs, v, mask=mask)


def forward(x: torch.Tensor, pl: int, pr: int, pt: int, pb: int) -> torch.Tensor:
    B, C, H, W = x.shape
    Ho, Wo = H + pt + pb, W + pl + pr
    out = torch.empty((B, C, Ho, Wo), device=x.device, dtype=x.dtype)
    n = out.numel()
    BLOCK = 1024
    _pad_reflect_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, H, W, Ho, Wo, pl, pt, BLOCK=BLOCK)
    return out
