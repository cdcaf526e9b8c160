"""out = silu(x @ w_gate^T) * (x @ w_up^T) in one kernel.

Faster than the baseline because: each program computes the gate and up tiles of the same output
block together, so every x tile is loaded once for both products (a third fewer bytes from the
K-loop); the SiLU-and-multiply runs on the two float32 accumulators in registers, so the two
float32 M x N intermediates are never written and re-read (4 + 4 + 4 bytes per output element
less traffic) and there is one launch instead of three; larger tiles with software pipelining
(num_stages) and grouped program ordering keep the tensor cores fed and the weight tiles in L2.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _swiglu_kernel(
    x_ptr, wg_ptr, wu_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_om, stride_on,
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
    w_off = offs_n[None, :] * stride_wn + offs_k[:, None] * stride_wk
    wg_ptrs = wg_ptr + w_off
    wu_ptrs = wu_ptr + w_off
    acc_g = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc_u = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = offs_k < K - k0
        a = tl.load(x_ptrs, mask=mask_m[:, None] & k_mask[None, :], other=0.0)
        wg = tl.load(wg_ptrs, mask=k_mask[:, None] & mask_n[None, :], other=0.0)
        wu = tl.load(wu_ptrs, mask=k_mask[:, None] & mask_n[None, :], other=0.0)
        acc_g += tl.dot(a, wg)
        acc_u += tl.dot(a, wu)
        x_ptrs += BLOCK_K * stride_xk
        wg_ptrs += BLOCK_K * stride_wk
        wu_ptrs += BLOCK_K * stride_wk
    y = acc_g / (1.0 + tl.exp(-acc_g)) * acc_u
    out_ptrs = out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on
    tl.store(out_ptrs, y.to(out_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])


def forward(x: torch.Tensor, w_gate: torch.Tensor, w_up: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w_gate.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if x.device.type == "cpu":
        BLOCK_M = max(16, min(128, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(128, triton.next_power_of_2(N)))
        BLOCK_K = max(16, min(128, triton.next_power_of_2(K)))
        num_stages, num_warps = 1, 4
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 128, 64, 3, 8
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _swiglu_kernel[grid](
        x, w_gate, w_up, out, M, N, K,
        x.stride(0), x.stride(1), w_gate.stride(0), w_gate.stride(1), out.stride(0), out.stride(1),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
        num_stages=num_stages, num_warps=num_warps,
    )
    return out
