"""W8A16 linear with the dequantization fused into the matmul.

Faster than the baseline because: the int8 weight tile is converted to x's dtype in registers
inside the K-loop and the per-channel scale is applied once to the float32 accumulator in the
epilogue (scale[n] factors out of the sum over k), so the N x K 16-bit weight copy is never
written and re-read (3 bytes per weight element less traffic, and one launch fewer), and the
weights stream at 1 byte per element, which is what decode-like small-M shapes are bound by;
larger tiles with pipelining and grouped ordering keep the tensor cores busy for large M.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _w8a16_kernel(
    x_ptr, wq_ptr, scale_ptr, out_ptr, M, N, K,
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
    w_ptrs = wq_ptr + offs_n[None, :] * stride_wn + offs_k[:, None] * stride_wk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = offs_k < K - k0
        a = tl.load(x_ptrs, mask=mask_m[:, None] & k_mask[None, :], other=0.0)
        w = tl.load(w_ptrs, mask=k_mask[:, None] & mask_n[None, :], other=0)
        acc += tl.dot(a, w.to(a.dtype))  # int8 values are exact in float16 and bfloat16
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    s = tl.load(scale_ptr + offs_n, mask=mask_n, other=0.0)
    out_ptrs = out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on
    tl.store(out_ptrs, (acc * s[None, :]).to(out_ptr.dtype.element_ty),
             mask=mask_m[:, None] & mask_n[None, :])


def forward(x: torch.Tensor, w_q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w_q.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if x.device.type == "cpu":
        BLOCK_M = max(16, min(128, triton.next_power_of_2(M)))
        BLOCK_N = max(16, min(128, triton.next_power_of_2(N)))
        BLOCK_K = max(16, min(128, triton.next_power_of_2(K)))
        num_stages, num_warps = 1, 4
    elif M <= 64:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 16 if M <= 16 else 64, 64, 128, 4, 4
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps = 128, 128, 64, 4, 8
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _w8a16_kernel[grid](
        x, w_q, scale, out, M, N, K,
        x.stride(0), x.stride(1), w_q.stride(0), w_q.stride(1), out.stride(0), out.stride(1),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
        num_stages=num_stages, num_warps=num_warps,
    )
    return out
