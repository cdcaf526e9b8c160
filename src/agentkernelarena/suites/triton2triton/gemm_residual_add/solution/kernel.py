"""out = x @ w^T + bias + residual in one kernel.

Faster than the baseline because: the bias and residual are added to the float32 accumulator in
registers and the sum is cast and stored once, so the float32 M x N intermediate is never
written and re-read (8 bytes per output element less traffic) and there is a single launch;
larger 128x128/128x256 tiles with a K-step of 64 and software pipelining (num_stages) raise the
arithmetic intensity so the tensor cores stay busy; and grouped program ordering (GROUP_M
tile-rows at a time) keeps the active slices of x and w in L2.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _linear_residual_kernel(
    x_ptr, w_ptr, bias_ptr, res_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_rm, stride_rn, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):
    pid = tl.program_id(0)
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
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_n[None, :] * stride_wn + offs_k[:, None] * stride_wk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = offs_k < K - k0
        a = tl.load(x_ptrs, mask=mask_m[:, None] & k_mask[None, :], other=0.0)
        wt = tl.load(w_ptrs, mask=k_mask[:, None] & mask_n[None, :], other=0.0)
        acc += tl.dot(a, wt)
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk

    mask = mask_m[:, None] & mask_n[None, :]
    bias = tl.load(bias_ptr + offs_n, mask=mask_n, other=0.0).to(tl.float32)
    res = tl.load(res_ptr + offs_m[:, None] * stride_rm + offs_n[None, :] * stride_rn,
                  mask=mask, other=0.0).to(tl.float32)
    y = acc + bias[None, :] + res
    out_ptrs = out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on
    tl.store(out_ptrs, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor,
            residual: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if x.device.type == "cpu":
        BLOCK_M = max(16, min(128, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(128, triton.next_power_of_2(N)))
        BLOCK_K = max(16, min(128, triton.next_power_of_2(K)))
        num_stages, num_warps = 1, 4
    elif x.stride(0) % 8 or w.stride(0) % 8:
        # Rows not 16-byte aligned (K = 2047, say): no wide or asynchronous loads, and large
        # tiles of scalar loads ran at 0.33x the baseline on an H200; the fused epilogue on
        # the baseline's tile shape still saves the float32 round trip.
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 64, 64, 32, 3, 4
    elif triton.cdiv(M, 128) * triton.cdiv(N, 256) >= 264:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 256, 64, 3, 8
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 128, 64, 4, 8
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _linear_residual_kernel[grid](
        x, w, bias, residual, out, M, N, K,
        x.stride(0), x.stride(1), w.stride(0), w.stride(1),
        residual.stride(0), residual.stride(1), out.stride(0), out.stride(1),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
        num_stages=num_stages, num_warps=num_warps,
    )
    return out
