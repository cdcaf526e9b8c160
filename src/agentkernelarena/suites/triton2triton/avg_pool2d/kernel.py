"""K x K average pooling (padding K // 2, count_include_pad=False), one output element per
lane: the output is flattened, every lane recovers its (plane, row, column) with divisions,
gathers its K x K taps from global memory and counts the ones inside the image."""

import torch
import triton
import triton.language as tl


@triton.jit
def _avgpool_kernel(x_ptr, out_ptr, total, H, W, HO, WO,
                    K: tl.constexpr, STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    wo = offs % WO
    ho = (offs // WO) % HO
    plane = offs // (WO * HO)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    cnt = tl.zeros((BLOCK,), dtype=tl.float32)
    for dy in tl.static_range(K):
        for dx in tl.static_range(K):
            hi = ho * STRIDE + dy - K // 2
            wi = wo * STRIDE + dx - K // 2
            ok = mask & (hi >= 0) & (hi < H) & (wi >= 0) & (wi < W)
            v = tl.load(x_ptr + (plane * H + hi) * W + wi, mask=ok, other=0.0)
            acc += v.to(tl.float32)
            cnt += ok.to(tl.float32)
    out = acc / tl.maximum(cnt, 1.0)
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, k: int, stride: int) -> torch.Tensor:
    N, C, H, W = x.shape
    pad = k // 2
    HO = (H + 2 * pad - k) // stride + 1
    WO = (W + 2 * pad - k) // stride + 1
    out = torch.empty((N, C, HO, WO), device=x.device, dtype=x.dtype)
    total = N * C * HO * WO
    BLOCK = 256
    _avgpool_kernel[(triton.cdiv(total, BLOCK),)](x, out, total, H, W, HO, WO,
                                                  K=k, STRIDE=stride, BLOCK=BLOCK)
    return out
