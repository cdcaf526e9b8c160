"""Pairwise Euclidean distances computed directly: each program takes a tile of x rows and a
tile of y rows and accumulates the squared differences over D in float32 on the CUDA cores
(a broadcast over a small chunk of coordinates at a time), then takes the square root."""

import torch
import triton
import triton.language as tl


@triton.jit
def _cdist_kernel(x_ptr, y_ptr, out_ptr, M, N, D,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        ds = d0 + offs_d
        xs = tl.load(x_ptr + offs_m[:, None].to(tl.int64) * D + ds[None, :],
                     mask=(offs_m[:, None] < M) & (ds[None, :] < D), other=0.0).to(tl.float32)
        ys = tl.load(y_ptr + offs_n[:, None].to(tl.int64) * D + ds[None, :],
                     mask=(offs_n[:, None] < N) & (ds[None, :] < D), other=0.0).to(tl.float32)
        diff = xs[:, None, :] - ys[None, :, :]
        acc += tl.sum(diff * diff, axis=2)
    out = tl.sqrt(acc)
    tl.store(out_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :],
             out.to(out_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def forward(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    M, D = x.shape
    N = y.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_N, BLOCK_D = 32, 32, 8
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _cdist_kernel[grid](x, y, out, M, N, D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D)
    return out
