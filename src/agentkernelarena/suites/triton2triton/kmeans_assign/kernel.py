"""k-means assignment in two passes: a tiled GEMM kernel writes the full N x K matrix of squared
distances |x|^2 + |c|^2 - 2 x . c in float32, then a row kernel scans each row for its first
minimum."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dist_kernel(x_ptr, c_ptr, d_ptr, N, K, D,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    xx = tl.zeros((BLOCK_M,), dtype=tl.float32)
    cc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k0 in range(0, D, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(x_ptr + offs_m[:, None].to(tl.int64) * D + ks[None, :],
                    mask=(offs_m[:, None] < N) & (ks[None, :] < D), other=0.0)
        bt = tl.load(c_ptr + offs_n[None, :] * D + ks[:, None],
                     mask=(offs_n[None, :] < K) & (ks[:, None] < D), other=0.0)
        acc += tl.dot(a, bt)
        af = a.to(tl.float32)
        bf = bt.to(tl.float32)
        xx += tl.sum(af * af, axis=1)
        cc += tl.sum(bf * bf, axis=0)
    d2 = xx[:, None] + cc[None, :] - 2.0 * acc
    tl.store(d_ptr + offs_m[:, None].to(tl.int64) * K + offs_n[None, :], d2,
             mask=(offs_m[:, None] < N) & (offs_n[None, :] < K))


@triton.jit
def _argmin_kernel(d_ptr, out_ptr, K, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    best = float("inf")
    best_idx = 0
    for k0 in range(0, K, BLOCK):
        ks = k0 + cols
        v = tl.load(d_ptr + row * K + ks, mask=ks < K, other=float("inf"))
        vmin = tl.min(v, axis=0)
        imin = tl.min(tl.where(v == vmin, ks, 2147483647), axis=0)
        better = vmin < best
        best_idx = tl.where(better, imin, best_idx)
        best = tl.where(better, vmin, best)
    tl.store(out_ptr + row, best_idx.to(tl.int64))


def forward(x: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    K = c.shape[0]
    dist = torch.empty((N, K), device=x.device, dtype=torch.float32)
    out = torch.empty((N,), device=x.device, dtype=torch.int64)
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(N, BLOCK_M), triton.cdiv(K, BLOCK_N))
    _dist_kernel[grid](x, c, dist, N, K, D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    _argmin_kernel[(N,)](dist, out, K, BLOCK=min(1024, triton.next_power_of_2(K)))
    return out
