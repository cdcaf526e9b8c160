"""W8A8 linear in one kernel.

Faster than the baseline because: the scales are applied to the int32 accumulator in
registers (the product factors as x_scale[m] * w_scale[n] * sum_k xq * wq), so the M x N int32
intermediate is never written and re-read and there is one launch; and the int8 tiles are
larger (128 x 128 with a K-step of 128: the int8 tensor cores consume twice the K of 16-bit
ones per instruction) with a 4-stage software pipeline and grouped ordering for L2 reuse.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _w8a8_kernel(
    a_ptr, w_ptr, xs_ptr, ws_ptr, out_ptr, M, N, K,
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
    a_ptrs = a_ptr + offs_m[:, None].to(tl.int64) * K + offs_k[None, :]
    w_ptrs = w_ptr + offs_n[None, :].to(tl.int64) * K + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = offs_k < K - k0
        a = tl.load(a_ptrs, mask=mask_m[:, None] & k_mask[None, :], other=0)
        wt = tl.load(w_ptrs, mask=k_mask[:, None] & mask_n[None, :], other=0)
        acc += tl.dot(a, wt, out_dtype=tl.int32)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    xs = tl.load(xs_ptr + offs_m, mask=mask_m, other=0.0)
    ws = tl.load(ws_ptr + offs_n, mask=mask_n, other=0.0)
    y = acc.to(tl.float32) * xs[:, None] * ws[None, :]
    tl.store(out_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :],
             y.to(out_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])


def forward(xq, x_scale, wq, w_scale, out_dtype):
    M, K = xq.shape
    N = wq.shape[0]
    out = torch.empty((M, N), device=xq.device, dtype=out_dtype)
    if xq.device.type == "cpu":
        BLOCK_M = max(16, min(128, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(128, triton.next_power_of_2(N)))
        BLOCK_K = max(32, min(128, triton.next_power_of_2(K)))
        num_stages, num_warps = 1, 4
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 128, 128, 4, 8
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _w8a8_kernel[grid](xq, wq, x_scale, w_scale, out, M, N, K,
                       BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
                       num_stages=num_stages, num_warps=num_warps)
    return out
