"""W8A8 linear: an int8 tensor-core matmul into an int32 buffer, then a pass that applies the
per-token and per-channel scales and rounds to the output dtype."""

import torch
import triton
import triton.language as tl


@triton.jit
def _int8_matmul_kernel(
    a_ptr, w_ptr, c_ptr, M, N, K,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(a_ptr + offs_m[:, None].to(tl.int64) * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0)
        wt = tl.load(w_ptr + offs_n[None, :].to(tl.int64) * K + ks[:, None],
                     mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0)
        acc += tl.dot(a, wt, out_dtype=tl.int32)
    tl.store(c_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def _scale_kernel(c_ptr, xs_ptr, ws_ptr, out_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    c = tl.load(c_ptr + offs, mask=mask, other=0).to(tl.float32)
    xs = tl.load(xs_ptr + offs // N, mask=mask, other=0.0)
    ws = tl.load(ws_ptr + offs % N, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (c * xs * ws).to(out_ptr.dtype.element_ty), mask=mask)


def forward(xq, x_scale, wq, w_scale, out_dtype):
    M, K = xq.shape
    N = wq.shape[0]
    c = torch.empty((M, N), device=xq.device, dtype=torch.int32)
    out = torch.empty((M, N), device=xq.device, dtype=out_dtype)
    if xq.device.type == "cpu":
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 64  # CPU: the Triton interpreter
    else:
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 64
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _int8_matmul_kernel[grid](xq, wq, c, M, N, K,
                              BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    n = M * N
    BLOCK = 4096 if xq.device.type == "cpu" else 1024
    _scale_kernel[(triton.cdiv(n, BLOCK),)](c, x_scale, w_scale, out, n, N, BLOCK=BLOCK)
    return out
