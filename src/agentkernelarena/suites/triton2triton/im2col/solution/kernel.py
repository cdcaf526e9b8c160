"""im2col on tiles of output rows: the output, (N, C*K*K, HO*WO), is N*C*K*K*HO rows of WO
contiguous elements in exactly the order of (n, c, kh, kw, ho); each program owns BR such rows
x BW columns, decodes (n, c, kh, kw, ho) once per row (not per element) and copies an input row
segment (stride S, zero in the padding) into each, with contiguous stores."""

import torch
import triton
import triton.language as tl


@triton.jit
def _im2col_rows_kernel(x_ptr, out_ptr, ROWS, H, W, HO, WO,
                        K: tl.constexpr, STRIDE: tl.constexpr, PAD: tl.constexpr,
                        BR: tl.constexpr, BW: tl.constexpr):
    rows = tl.program_id(1) * BR + tl.arange(0, BR)
    wo = tl.program_id(0) * BW + tl.arange(0, BW)
    row_mask = rows < ROWS
    ho = rows % HO
    t = rows // HO
    kw = t % K
    kh = (t // K) % K
    nc = (t // (K * K)).to(tl.int64)
    hi = ho * STRIDE + kh - PAD
    row_ok = row_mask & (hi >= 0) & (hi < H)
    wi = (wo * STRIDE)[None, :] + (kw - PAD)[:, None]
    ok = row_ok[:, None] & (wi >= 0) & (wi < W)
    v = tl.load(x_ptr + ((nc * H + hi) * W)[:, None] + wi, mask=ok, other=0.0)
    out_mask = row_mask[:, None] & (wo < WO)[None, :]
    tl.store(out_ptr + rows.to(tl.int64)[:, None] * WO + wo[None, :], v, mask=out_mask)


def forward(x: torch.Tensor, k: int, stride: int, padding: int) -> torch.Tensor:
    N, C, H, W = x.shape
    HO = (H + 2 * padding - k) // stride + 1
    WO = (W + 2 * padding - k) // stride + 1
    out = torch.empty((N, C * k * k, HO * WO), device=x.device, dtype=x.dtype)
    rows = N * C * k * k * HO
    BW = max(8, min(128, triton.next_power_of_2(WO)))
    BR = max(1, 2048 // BW)
    grid = (triton.cdiv(WO, BW), triton.cdiv(rows, BR))
    _im2col_rows_kernel[grid](x, out, rows, H, W, HO, WO, K=k, STRIDE=stride, PAD=padding,
                              BR=BR, BW=BW, num_warps=8)
    return out
