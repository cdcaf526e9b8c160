"""W4A16 GEMM: one kernel dequantizes the whole packed int4 weight into an N x K buffer of x's
dtype, then a tiled matmul computes x @ W^T from it (the unfused first version)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dequantize_kernel(wp_ptr, s_ptr, w_ptr, n_bytes, half_k, KG, GROUP: tl.constexpr,
                       BLOCK: tl.constexpr):
    """Each packed byte (row n, column j) gives W[n, 2j] (low nibble) and W[n, 2j + 1]."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_bytes
    byte = tl.load(wp_ptr + offs, mask=mask, other=0).to(tl.int32)
    row = offs // half_k
    k = (offs % half_k) * 2
    scale = tl.load(s_ptr + row * KG + k // GROUP, mask=mask, other=0.0).to(tl.float32)
    lo = ((byte & 0xF) - 8).to(tl.float32) * scale
    hi = (((byte >> 4) & 0xF) - 8).to(tl.float32) * scale
    tl.store(w_ptr + offs * 2, lo.to(w_ptr.dtype.element_ty), mask=mask)
    tl.store(w_ptr + offs * 2 + 1, hi.to(w_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _matmul_nt_kernel(
    a_ptr, w_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_wn, stride_wk, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    """c = a @ w^T with w stored N x K."""
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


def forward(x: torch.Tensor, w_packed: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w_packed.shape[0]
    KG = scales.shape[1]
    w = torch.empty((N, K), device=x.device, dtype=x.dtype)
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    n_bytes = N * (K // 2)
    BLOCK = 4096 if x.device.type == "cpu" else 1024
    _dequantize_kernel[(triton.cdiv(n_bytes, BLOCK),)](
        w_packed, scales, w, n_bytes, K // 2, KG, GROUP=K // KG, BLOCK=BLOCK,
    )
    if x.device.type == "cpu":
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 64  # CPU: the Triton interpreter
    else:
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _matmul_nt_kernel[grid](
        x, w, out, M, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
        out.stride(0), out.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
    )
    return out
