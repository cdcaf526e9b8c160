"""Depthwise 2-D convolution, one output element per lane: the output is flattened, every lane
recovers its (n, c, h, w) with divisions and gathers its K x K taps and its channel's K x K
weights from global memory, with no reuse between neighbouring outputs beyond the caches."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dwconv_kernel(x_ptr, w_ptr, out_ptr, total, C, H, W, HO, WO,
                   K: tl.constexpr, STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    wo = offs % WO
    ho = (offs // WO) % HO
    nc = offs // (WO * HO)
    c = nc % C
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for dy in tl.static_range(K):
        for dx in tl.static_range(K):
            hi = ho * STRIDE + dy - K // 2
            wi = wo * STRIDE + dx - K // 2
            ok = mask & (hi >= 0) & (hi < H) & (wi >= 0) & (wi < W)
            xv = tl.load(x_ptr + (nc * H + hi) * W + wi, mask=ok, other=0.0).to(tl.float32)
            wv = tl.load(w_ptr + c * (K * K) + dy * K + dx, mask=mask, other=0.0).to(tl.float32)
            acc += xv * wv
    tl.store(out_ptr + offs, acc.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, w: torch.Tensor, stride: int) -> torch.Tensor:
    N, C, H, W = x.shape
    K = w.shape[-1]
    pad = K // 2
    HO = (H + 2 * pad - K) // stride + 1
    WO = (W + 2 * pad - K) // stride + 1
    out = torch.empty((N, C, HO, WO), device=x.device, dtype=x.dtype)
    total = N * C * HO * WO
    BLOCK = 256
    _dwconv_kernel[(triton.cdiv(total, BLOCK),)](x, w, out, total, C, H, W, HO, WO,
                                                 K=K, STRIDE=stride, BLOCK=BLOCK)
    return out
