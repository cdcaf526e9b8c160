"""Depthwise 2-D convolution on 2-D output tiles: each program owns a BH x BW tile of one
(n, c) plane, loads that channel's K x K weights once as scalars, and accumulates the K x K
shifted input tiles (the tile plus its halo, zero outside the image), coalesced along rows."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dwconv_tile_kernel(x_ptr, w_ptr, out_ptr, C, H, W, HO, WO,
                        K: tl.constexpr, STRIDE: tl.constexpr,
                        BH: tl.constexpr, BW: tl.constexpr):
    pid_w = tl.program_id(0)
    pid_h = tl.program_id(1)
    nc = tl.program_id(2).to(tl.int64)
    c = nc % C
    ho = pid_h * BH + tl.arange(0, BH)
    wo = pid_w * BW + tl.arange(0, BW)
    out_mask = (ho[:, None] < HO) & (wo[None, :] < WO)
    x_plane = x_ptr + nc * H * W
    acc = tl.zeros((BH, BW), dtype=tl.float32)
    for dy in tl.static_range(K):
        hi = ho * STRIDE + dy - K // 2
        row_ok = (hi >= 0) & (hi < H)
        for dx in tl.static_range(K):
            wv = tl.load(w_ptr + c * (K * K) + dy * K + dx).to(tl.float32)
            wi = wo * STRIDE + dx - K // 2
            ok = row_ok[:, None] & ((wi >= 0) & (wi < W))[None, :]
            xv = tl.load(x_plane + hi[:, None] * W + wi[None, :], mask=ok, other=0.0)
            acc += xv.to(tl.float32) * wv
    out_offs = nc * HO * WO + ho[:, None] * WO + wo[None, :]
    tl.store(out_ptr + out_offs, acc.to(out_ptr.dtype.element_ty), mask=out_mask)


def forward(x: torch.Tensor, w: torch.Tensor, stride: int) -> torch.Tensor:
    N, C, H, W = x.shape
    K = w.shape[-1]
    pad = K // 2
    HO = (H + 2 * pad - K) // stride + 1
    WO = (W + 2 * pad - K) // stride + 1
    out = torch.empty((N, C, HO, WO), device=x.device, dtype=x.dtype)
    BW = max(8, min(64, triton.next_power_of_2(WO)))
    BH = max(1, min(triton.next_power_of_2(HO), 1024 // BW))
    num_warps = 4 if BH * BW >= 512 else 2
    grid = (triton.cdiv(WO, BW), triton.cdiv(HO, BH), N * C)
    _dwconv_tile_kernel[grid](x, w, out, C, H, W, HO, WO, K=K, STRIDE=stride, BH=BH, BW=BW,
                              num_warps=num_warps)
    return out
