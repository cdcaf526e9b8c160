"""3x3 / stride 2 / padding 1 max pooling, one output element per lane: the output is
flattened, every lane recovers its (plane, row, column) with divisions and gathers its nine
taps from global memory."""

import torch
import triton
import triton.language as tl


@triton.jit
def _maxpool_kernel(x_ptr, out_ptr, total, H, W, HO, WO, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    wo = offs % WO
    ho = (offs // WO) % HO
    plane = offs // (WO * HO)
    best = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for dy in tl.static_range(3):
        for dx in tl.static_range(3):
            hi = ho * 2 + dy - 1
            wi = wo * 2 + dx - 1
            ok = mask & (hi >= 0) & (hi < H) & (wi >= 0) & (wi < W)
            v = tl.load(x_ptr + (plane * H + hi) * W + wi, mask=ok, other=float("-inf"))
            best = tl.maximum(best, v.to(tl.float32))
    tl.store(out_ptr + offs, best.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    HO = (H - 1) // 2 + 1
    WO = (W - 1) // 2 + 1
    out = torch.empty((N, C, HO, WO), device=x.device, dtype=x.dtype)
    total = N * C * HO * WO
    BLOCK = 256
    _maxpool_kernel[(triton.cdiv(total, BLOCK),)](x, out, total, H, W, HO, WO, BLOCK=BLOCK)
    return out
