"""Grouped GEMM for MoE experts: one launch over an upper bound of the (expert, row block)
tiles; each program finds its expert by walking the offsets, then runs a 64 x 64 x 32 tiled
matmul of its rows against that expert's weights."""

import torch
import triton
import triton.language as tl


@triton.jit
def _grouped_gemm_kernel(
    x_ptr, w_ptr, off_ptr, out_ptr, N, K, E,
    stride_we, stride_wn, stride_wk,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    tile = tl.program_id(0)
    pid_n = tl.program_id(1)
    # Which expert and which of its row blocks this tile is: walk the experts' tile counts.
    expert = -1
    row_start = 0
    row_end = 0
    seen = 0
    for e in range(0, E):
        lo = tl.load(off_ptr + e)
        hi = tl.load(off_ptr + e + 1)
        n_tiles = tl.cdiv(hi - lo, BLOCK_M)
        hit = (tile >= seen) & (tile < seen + n_tiles)
        expert = tl.where(hit, e, expert)
        row_start = tl.where(hit, lo + (tile - seen) * BLOCK_M, row_start)
        row_end = tl.where(hit, hi, row_end)
        seen += n_tiles
    if expert >= 0:
        offs_m = row_start + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        w_base = w_ptr + expert.to(tl.int64) * stride_we
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            ks = k0 + offs_k
            a = tl.load(x_ptr + offs_m[:, None].to(tl.int64) * K + ks[None, :],
                        mask=(offs_m[:, None] < row_end) & (ks[None, :] < K), other=0.0)
            wt = tl.load(w_base + offs_n[None, :] * stride_wn + ks[:, None] * stride_wk,
                         mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
            acc += tl.dot(a, wt)
        tl.store(out_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :],
                 acc.to(out_ptr.dtype.element_ty),
                 mask=(offs_m[:, None] < row_end) & (offs_n[None, :] < N))


def forward(x: torch.Tensor, w: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    T, K = x.shape
    E, N = w.shape[0], w.shape[1]
    out = torch.empty((T, N), device=x.device, dtype=x.dtype)
    if x.device.type == "cpu":
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 64, 64  # CPU: the Triton interpreter
    else:
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    max_tiles = triton.cdiv(T, BLOCK_M) + E  # every expert adds at most one partial tile
    grid = (max_tiles, triton.cdiv(N, BLOCK_N))
    _grouped_gemm_kernel[grid](
        x, w, offsets, out, N, K, E, w.stride(0), w.stride(1), w.stride(2),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
    )
    return out
