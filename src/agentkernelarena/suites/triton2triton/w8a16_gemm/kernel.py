"""W8A16 linear: dequantize the int8 weights to x's dtype in one kernel, then a tiled matmul."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dequant_kernel(wq_ptr, scale_ptr, w_ptr, N, K, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    s = tl.load(scale_ptr + row)
    for k0 in range(0, K, BLOCK):
        offs = k0 + tl.arange(0, BLOCK)
        q = tl.load(wq_ptr + row * K + offs, mask=offs < K, other=0)
        tl.store(w_ptr + row * K + offs, (q.to(tl.float32) * s).to(w_ptr.dtype.element_ty),
                 mask=offs < K)


@triton.jit
def _matmul_nt_kernel(
    a_ptr, w_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_wn, stride_wk, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
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
             acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def forward(x: torch.Tensor, w_q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w_q.shape[0]
    w = torch.empty((N, K), device=x.device, dtype=x.dtype)
    _dequant_kernel[(N,)](w_q, scale, w, N, K, BLOCK=1024)
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
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
