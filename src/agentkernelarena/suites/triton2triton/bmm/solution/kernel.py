"""Batched matmul with large pipelined tiles.

Faster than the baseline because 128 x 128 output tiles with a K-step of 64 and a 3-4 stage
software pipeline (num_stages) double the arithmetic per loaded byte compared with 64 x 64 x 32
tiles and overlap the global loads with the tensor-core work; tiles of one batch entry are
ordered in groups of GROUP_M tile-rows so that neighbouring programs share A and B tiles in L2.
Tile sizes shrink for small matrices so that the grid still fills the GPU.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _bmm_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K,
    stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
    stride_cb, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):
    pid = tl.program_id(0)
    bid = tl.program_id(1).to(tl.int64)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m < M
    mask_n = offs_n < N
    a_ptrs = a_ptr + bid * stride_ab + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + bid * stride_bb + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = offs_k < K - k0
        a = tl.load(a_ptrs, mask=mask_m[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=k_mask[:, None] & mask_n[None, :], other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + bid * stride_cb + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])


def forward(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    BATCH, M, K = a.shape
    N = b.shape[2]
    c = torch.empty((BATCH, M, N), device=a.device, dtype=a.dtype)
    if a.device.type == "cpu":
        BLOCK_M = max(16, min(128, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(128, triton.next_power_of_2(N)))
        BLOCK_K = max(16, min(128, triton.next_power_of_2(K)))
        num_stages, num_warps = 1, 4
    elif K <= 512:
        # A few K steps: a deep pipeline only adds prologue, and 4 stages of 128-wide tiles
        # leave one block per SM (0.92x the baseline at BATCH256-M512-K256 on an H200).
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 128, 64, 2, 4
    elif BATCH * triton.cdiv(M, 128) * triton.cdiv(N, 128) >= 132:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 128, 64, 4, 8
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 64, 128, 64, 4, 4
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N), BATCH)
    _bmm_kernel[grid](
        a, b, c, M, N, K, a.stride(0), a.stride(1), a.stride(2), b.stride(0), b.stride(1),
        b.stride(2), c.stride(0), c.stride(1), c.stride(2),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
        num_stages=num_stages, num_warps=num_warps,
    )
    return c
