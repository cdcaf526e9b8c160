"""Dense 3x3 NHWC convolution, direct form: each program owns a tile of output pixels x output
channels and accumulates outer products on the CUDA cores, one input channel at a time, for
each of the nine filter taps (no tensor cores, no reuse of a loaded input tile across taps)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv_direct_kernel(x_ptr, w_ptr, out_ptr, NPIX, H, W, C, K,
                        BLOCK_P: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    mask_p = offs_p < NPIX
    mask_k = offs_k < K
    n = offs_p // (H * W)
    hw = offs_p % (H * W)
    h = hw // W
    v = hw % W
    acc = tl.zeros((BLOCK_P, BLOCK_K), dtype=tl.float32)
    for r in range(0, 3):
        for s in range(0, 3):
            hi = h + r - 1
            wi = v + s - 1
            ok = mask_p & (hi >= 0) & (hi < H) & (wi >= 0) & (wi < W)
            x_base = ((n * H + hi) * W + wi).to(tl.int64) * C
            w_base = offs_k.to(tl.int64) * (9 * C) + (r * 3 + s) * C
            for c in range(0, C):
                xv = tl.load(x_ptr + x_base + c, mask=ok, other=0.0).to(tl.float32)
                wv = tl.load(w_ptr + w_base + c, mask=mask_k, other=0.0).to(tl.float32)
                acc += xv[:, None] * wv[None, :]
    out_offs = offs_p.to(tl.int64)[:, None] * K + offs_k[None, :]
    tl.store(out_ptr + out_offs, acc.to(out_ptr.dtype.element_ty),
             mask=mask_p[:, None] & mask_k[None, :])


def forward(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    N, H, W, C = x.shape
    K = w.shape[0]
    out = torch.empty((N, H, W, K), device=x.device, dtype=x.dtype)
    npix = N * H * W
    BLOCK_P, BLOCK_K = 64, 32
    grid = (triton.cdiv(npix, BLOCK_P), triton.cdiv(K, BLOCK_K))
    _conv_direct_kernel[grid](x, w, out, npix, H, W, C, K, BLOCK_P=BLOCK_P, BLOCK_K=BLOCK_K)
    return out
