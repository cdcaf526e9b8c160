"""im2col, one output element per lane: the (N, C*K*K, L) output is flattened and every lane
recovers (n, c, kh, kw, ho, wo) with a chain of int64 divisions before copying its input
element (zero in the padding)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _im2col_kernel(x_ptr, out_ptr, total, C, H, W, HO, WO,
                   K: tl.constexpr, STRIDE: tl.constexpr, PAD: tl.constexpr,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    L = HO * WO
    sp = offs % L
    row = (offs // L) % (C * K * K)
    n = offs // (L * C * K * K)
    c = row // (K * K)
    kh = (row // K) % K
    kw = row % K
    ho = sp // WO
    wo = sp % WO
    hi = ho * STRIDE + kh - PAD
    wi = wo * STRIDE + kw - PAD
    ok = mask & (hi >= 0) & (hi < H) & (wi >= 0) & (wi < W)
    v = tl.load(x_ptr + ((n * C + c) * H + hi) * W + wi, mask=ok, other=0.0)
    tl.store(out_ptr + offs, v, mask=mask)


def forward(x: torch.Tensor, k: int, stride: int, padding: int) -> torch.Tensor:
    N, C, H, W = x.shape
    HO = (H + 2 * padding - k) // stride + 1
    WO = (W + 2 * padding - k) // stride + 1
    out = torch.empty((N, C * k * k, HO * WO), device=x.device, dtype=x.dtype)
    total = out.numel()
    BLOCK = 256
    _im2col_kernel[(triton.cdiv(total, BLOCK),)](x, out, total, C, H, W, HO, WO, K=k,
                                                 STRIDE=stride, PAD=padding, BLOCK=BLOCK)
    return out
