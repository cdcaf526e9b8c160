"""Grouped GEMM for MoE experts, with a vectorized tile lookup and large pipelined tiles.

Faster than the baseline because: each program finds its (expert, row block) with one vector
load of the offsets and a cumulative sum of the per-expert tile counts (the baseline walks the
experts in a serial loop of scalar loads, E dependent steps before any math starts, in every
program); and the matmul uses 128 x 128 tiles (64 x 128 when experts get few tokens) with a
K-step of 64 and a 4-stage software pipeline, so the tensor cores are fed instead of waiting
on 64 x 64 x 32 tiles. Programs of the same weight tile run next to each other (row blocks
vary fastest), so an expert's weights are read from HBM about once per N tile.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _grouped_gemm_kernel(
    x_ptr, w_ptr, off_ptr, out_ptr, N, K, E,
    stride_we, stride_wn, stride_wk,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_E: tl.constexpr,
):
    tile = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_e = tl.arange(0, BLOCK_E)
    e_mask = offs_e < E
    lo = tl.load(off_ptr + offs_e, mask=e_mask, other=0)
    hi = tl.load(off_ptr + offs_e + 1, mask=e_mask, other=0)
    n_tiles = tl.where(e_mask, (hi - lo + BLOCK_M - 1) // BLOCK_M, 0)
    cum = tl.cumsum(n_tiles, axis=0)
    if tile < tl.max(cum, axis=0):
        expert = tl.sum((cum <= tile).to(tl.int32), axis=0)
        mine = offs_e == expert
        row_lo = tl.sum(tl.where(mine, lo, 0), axis=0)
        row_end = tl.sum(tl.where(mine, hi, 0), axis=0)
        first_tile = tl.sum(tl.where(mine, cum - n_tiles, 0), axis=0)
        offs_m = row_lo + (tile - first_tile) * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        mask_m = offs_m < row_end
        mask_n = offs_n < N
        x_ptrs = x_ptr + offs_m[:, None].to(tl.int64) * K + offs_k[None, :]
        w_ptrs = (w_ptr + expert.to(tl.int64) * stride_we + offs_n[None, :] * stride_wn
                  + offs_k[:, None] * stride_wk)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            k_mask = offs_k < K - k0
            a = tl.load(x_ptrs, mask=mask_m[:, None] & k_mask[None, :], other=0.0)
            wt = tl.load(w_ptrs, mask=k_mask[:, None] & mask_n[None, :], other=0.0)
            acc += tl.dot(a, wt)
            x_ptrs += BLOCK_K
            w_ptrs += BLOCK_K * stride_wk
        tl.store(out_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :],
                 acc.to(out_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])


def forward(x: torch.Tensor, w: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    T, K = x.shape
    E, N = w.shape[0], w.shape[1]
    out = torch.empty((T, N), device=x.device, dtype=x.dtype)
    if x.device.type == "cpu":
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 32, 64, 64, 1, 4
    elif T >= 256 * E:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 128, 64, 4, 8
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 64, 128, 64, 4, 4
    max_tiles = triton.cdiv(T, BLOCK_M) + E
    grid = (max_tiles, triton.cdiv(N, BLOCK_N))
    _grouped_gemm_kernel[grid](
        x, w, offsets, out, N, K, E, w.stride(0), w.stride(1), w.stride(2),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, BLOCK_E=triton.next_power_of_2(E),
        num_stages=num_stages, num_warps=num_warps,
    )
    return out
