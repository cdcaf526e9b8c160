"""Stride-2 transposed convolution as a gather, one lane per output element: each lane splits
its flat NCHW output index and, for every input channel, tests all 16 kernel taps, keeping the
ones whose source pixel (oy + 1 - ky) / 2, (ox + 1 - kx) / 2 is whole and inside the input."""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv_t_kernel(x_ptr, w_ptr, b_ptr, out_ptr, total, Cin, Cout, H, W,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    Wo = 2 * W
    Ho = 2 * H
    ox = (offs % Wo).to(tl.int32)
    t = offs // Wo
    oy = (t % Ho).to(tl.int32)
    t = t // Ho
    co = (t % Cout).to(tl.int32)
    n = t // Cout
    acc = tl.load(b_ptr + co, mask=mask, other=0.0).to(tl.float32)
    for ci in range(Cin):
        x_plane = x_ptr + (n * Cin + ci) * H * W
        w_base = w_ptr + (ci * Cout + co) * 16
        for ky in tl.static_range(4):
            ty = oy + 1 - ky
            iy = ty // 2
            vy = (ty >= 0) & (ty % 2 == 0) & (iy < H)
            for kx in tl.static_range(4):
                tx = ox + 1 - kx
                ix = tx // 2
                ok = mask & vy & (tx >= 0) & (tx % 2 == 0) & (ix < W)
                xv = tl.load(x_plane + iy * W + ix, mask=ok, other=0.0).to(tl.float32)
                wv = tl.load(w_base + ky * 4 + kx, mask=ok, other=0.0).to(tl.float32)
                acc += xv * wv
    tl.store(out_ptr + offs, acc.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    N, Cin, H, W = x.shape
    Cout = w.shape[1]
    out = torch.empty((N, Cout, 2 * H, 2 * W), device=x.device, dtype=x.dtype)
    total = out.numel()
    BLOCK = 256
    _conv_t_kernel[(triton.cdiv(total, BLOCK),)](x, w, bias, out, total, Cin, Cout, H, W,
                                                 BLOCK=BLOCK)
    return out
