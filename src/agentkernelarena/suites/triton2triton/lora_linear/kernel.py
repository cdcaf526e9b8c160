"""out = x @ w^T + scale * (x @ a^T) @ b^T as three GEMM launches: the base product into a
float32 M x N buffer, the LoRA down projection into an M x R buffer (x's dtype), and the LoRA up
projection, which adds scale * t @ b^T to the base buffer and casts."""

import torch
import triton
import triton.language as tl


@triton.jit
def _matmul_nt_kernel(
    a_ptr, w_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_wn, stride_wk, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    """c = a @ w^T with w stored N x K; c's dtype decides the stored precision."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :] * stride_ak,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        wt = tl.load(w_ptr + offs_n[None, :] * stride_wn + ks[:, None] * stride_wk,
                     mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, wt)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def _lora_up_add_kernel(
    t_ptr, b_ptr, base_ptr, out_ptr, M, N, R, scale,
    stride_tm, stride_tr, stride_bn, stride_br, stride_cm, stride_cn, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_R: tl.constexpr,
):
    """out = base + scale * t @ b^T (t is M x R, b is N x R, base float32 M x N)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_r = tl.arange(0, BLOCK_R)
    mask_m = offs_m < M
    mask_n = offs_n < N
    t = tl.load(t_ptr + offs_m[:, None] * stride_tm + offs_r[None, :] * stride_tr,
                mask=mask_m[:, None] & (offs_r[None, :] < R), other=0.0)
    bt = tl.load(b_ptr + offs_n[None, :] * stride_bn + offs_r[:, None] * stride_br,
                 mask=(offs_r[:, None] < R) & mask_n[None, :], other=0.0)
    mask = mask_m[:, None] & mask_n[None, :]
    base = tl.load(base_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
                   mask=mask, other=0.0)
    y = base + scale * tl.dot(t, bt)
    tl.store(out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on,
             y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, w: torch.Tensor, a: torch.Tensor, b: torch.Tensor,
            scale: float) -> torch.Tensor:
    M, K = x.shape
    N = w.shape[0]
    R = a.shape[0]
    base = torch.empty((M, N), device=x.device, dtype=torch.float32)
    t = torch.empty((M, R), device=x.device, dtype=x.dtype)
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if x.device.type == "cpu":
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 64  # CPU: the Triton interpreter
    else:
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    for wt, c, n in ((w, base, N), (a, t, R)):
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(n, BLOCK_N))
        _matmul_nt_kernel[grid](
            x, wt, c, M, n, K, x.stride(0), x.stride(1), wt.stride(0), wt.stride(1),
            c.stride(0), c.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
        )
    BLOCK_R = max(16, triton.next_power_of_2(R))
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _lora_up_add_kernel[grid](
        t, b, base, out, M, N, R, scale,
        t.stride(0), t.stride(1), b.stride(0), b.stride(1), base.stride(0), base.stride(1),
        out.stride(0), out.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_R=BLOCK_R,
    )
    return out
