"""Dense 3x3x3 channels-last convolution, direct form: each program owns a tile of output voxels
x output channels and accumulates outer products on the CUDA cores, one input channel at a
time, for each of the 27 filter taps (no tensor cores)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv3d_direct_kernel(x_ptr, w_ptr, out_ptr, NVOX, D, H, W, C, K,
                          BLOCK_P: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    mask_p = offs_p < NVOX
    mask_k = offs_k < K
    v = offs_p % W
    h = (offs_p // W) % H
    d = (offs_p // (W * H)) % D
    n = offs_p // (W * H * D)
    acc = tl.zeros((BLOCK_P, BLOCK_K), dtype=tl.float32)
    for tap in range(0, 27):
        di = d + tap // 9 - 1
        hi = h + (tap // 3) % 3 - 1
        wi = v + tap % 3 - 1
        ok = mask_p & (di >= 0) & (di < D) & (hi >= 0) & (hi < H) & (wi >= 0) & (wi < W)
        x_base = (((n * D + di) * H + hi) * W + wi).to(tl.int64) * C
        w_base = offs_k.to(tl.int64) * (27 * C) + tap * C
        for c in range(0, C):
            xv = tl.load(x_ptr + x_base + c, mask=ok, other=0.0).to(tl.float32)
            wv = tl.load(w_ptr + w_base + c, mask=mask_k, other=0.0).to(tl.float32)
            acc += xv[:, None] * wv[None, :]
    out_offs = offs_p.to(tl.int64)[:, None] * K + offs_k[None, :]
    tl.store(out_ptr + out_offs, acc.to(out_ptr.dtype.element_ty),
             mask=mask_p[:, None] & mask_k[None, :])


def forward(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    N, D, H, W, C = x.shape
    K = w.shape[0]
    out = torch.empty((N, D, H, W, K), device=x.device, dtype=x.dtype)
    nvox = N * D * H * W
    BLOCK_P, BLOCK_K = 64, 32
    grid = (triton.cdiv(nvox, BLOCK_P), triton.cdiv(K, BLOCK_K))
    _conv3d_direct_kernel[grid](x, w, out, nvox, D, H, W, C, K, BLOCK_P=BLOCK_P, BLOCK_K=BLOCK_K)
    return out
