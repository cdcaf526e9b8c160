"""Pixel shuffle, one output element per lane: the flat output offset is split into (b, c, oh,
ow) and then (h, i, w, j) by integer division and modulo, and the source element gathered."""

import torch
import triton
import triton.language as tl


@triton.jit
def _pixel_shuffle_kernel(x_ptr, out_ptr, n_elements, C, H, W, r, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    Wr = W * r
    Hr = H * r
    ow = offs % Wr
    t = offs // Wr
    oh = t % Hr
    bc = t // Hr
    h = oh // r
    i = oh % r
    w = ow // r
    j = ow % r
    src = ((bc * r + i) * r + j) * (H * W) + h * W + w
    v = tl.load(x_ptr + src, mask=mask)
    tl.store(out_ptr + offs, v, mask=mask)


def forward(x: torch.Tensor, r: int) -> torch.Tensor:
    B, CRR, H, W = x.shape
    C = CRR // (r * r)
    out = torch.empty((B, C, H * r, W * r), device=x.device, dtype=x.dtype)
    n = out.numel()
    BLOCK = 1024
    _pixel_shuffle_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, C, H, W, r, BLOCK=BLOCK)
    return out
