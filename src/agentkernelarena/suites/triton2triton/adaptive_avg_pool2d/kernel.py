"""Adaptive average pooling, one output element per lane: the output is flattened, every lane
recovers (plane, i, j), computes its window [floor(i H / OH), ceil((i + 1) H / OH)) x (the same
for columns) and sums it element by element; neighbouring lanes read different windows, so the
loads of a warp are scattered."""

import torch
import triton
import triton.language as tl


@triton.jit
def _adaptive_avg_kernel(x_ptr, out_ptr, total, H, W, OH, OW, MAX_KH, MAX_KW,
                         BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    j = offs % OW
    i = (offs // OW) % OH
    plane = offs // (OW * OH)
    h0 = (i * H) // OH
    h1 = ((i + 1) * H + OH - 1) // OH
    w0 = (j * W) // OW
    w1 = ((j + 1) * W + OW - 1) // OW
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for dh in range(0, MAX_KH):
        for dw in range(0, MAX_KW):
            h = h0 + dh
            w = w0 + dw
            ok = mask & (h < h1) & (w < w1)
            v = tl.load(x_ptr + (plane * H + h) * W + w, mask=ok, other=0.0)
            acc += v.to(tl.float32)
    cnt = ((h1 - h0) * (w1 - w0)).to(tl.float32)
    tl.store(out_ptr + offs, (acc / cnt).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    N, C, H, W = x.shape
    out = torch.empty((N, C, out_h, out_w), device=x.device, dtype=x.dtype)
    total = N * C * out_h * out_w
    # Largest window: ceil(H / OH) + 1 rows covers every window (it is at most that).
    max_kh = -(-H // out_h) + 1
    max_kw = -(-W // out_w) + 1
    BLOCK = 128
    _adaptive_avg_kernel[(triton.cdiv(total, BLOCK),)](x, out, total, H, W, out_h, out_w,
                                                       max_kh, max_kw, BLOCK=BLOCK)
    return out
