"""LayerNorm folded into the GEMM: with y = rstd * (x - mean) * gamma + beta,
y @ w^T = rstd * (x @ (w * gamma)^T - mean * s1) + s2, where s1[n] = sum_k (w * gamma)[n, k] and
s2[n] = sum_k w[n, k] * beta[k]. Two light passes compute the row statistics of x and the
gamma-scaled weights with s1 and s2; the GEMM then runs on x itself (128x128x64 tiles, software
pipelining, grouped tile order) with the normalization applied in its epilogue, so the
normalized activations are never materialized."""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_stats_kernel(x_ptr, mean_ptr, rstd_ptr, M, K, eps,
                      ROWS: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < M
    cols = tl.arange(0, BLOCK_K)
    s = tl.zeros((ROWS, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + cols
        m = rmask[:, None] & (ks[None, :] < K)
        s += tl.load(x_ptr + rows[:, None].to(tl.int64) * K + ks[None, :], mask=m,
                     other=0.0).to(tl.float32)
    mean = tl.sum(s, axis=1) / K
    ss = tl.zeros((ROWS, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + cols
        m = rmask[:, None] & (ks[None, :] < K)
        v = tl.load(x_ptr + rows[:, None].to(tl.int64) * K + ks[None, :], mask=m,
                    other=0.0).to(tl.float32)
        d = tl.where(m, v - mean[:, None], 0.0)
        ss += d * d
    rstd = tl.rsqrt(tl.sum(ss, axis=1) / K + eps)
    tl.store(mean_ptr + rows, mean, mask=rmask)
    tl.store(rstd_ptr + rows, rstd, mask=rmask)


@triton.jit
def _fold_weight_kernel(w_ptr, g_ptr, b_ptr, wg_ptr, s1_ptr, s2_ptr, N, K,
                        ROWS: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < N
    cols = tl.arange(0, BLOCK_K)
    s1 = tl.zeros((ROWS, BLOCK_K), dtype=tl.float32)
    s2 = tl.zeros((ROWS, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + cols
        m = rmask[:, None] & (ks[None, :] < K)
        offs = rows[:, None].to(tl.int64) * K + ks[None, :]
        wv = tl.load(w_ptr + offs, mask=m, other=0.0).to(tl.float32)
        g = tl.load(g_ptr + ks, mask=ks < K, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + ks, mask=ks < K, other=0.0).to(tl.float32)
        wg = (wv * g[None, :]).to(wg_ptr.dtype.element_ty)
        tl.store(wg_ptr + offs, wg, mask=m)
        s1 += wg.to(tl.float32)
        s2 += wv * b[None, :]
    tl.store(s1_ptr + rows, tl.sum(s1, axis=1), mask=rmask)
    tl.store(s2_ptr + rows, tl.sum(s2, axis=1), mask=rmask)


@triton.jit
def _ln_gemm_kernel(x_ptr, wg_ptr, mean_ptr, rstd_ptr, s1_ptr, s2_ptr, out_ptr, M, N, K,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                    GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(x_ptr + offs_m[:, None].to(tl.int64) * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        wt = tl.load(wg_ptr + offs_n[None, :].to(tl.int64) * K + ks[:, None],
                     mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, wt, acc)
    mean = tl.load(mean_ptr + offs_m, mask=offs_m < M, other=0.0)
    rstd = tl.load(rstd_ptr + offs_m, mask=offs_m < M, other=0.0)
    s1 = tl.load(s1_ptr + offs_n, mask=offs_n < N, other=0.0)
    s2 = tl.load(s2_ptr + offs_n, mask=offs_n < N, other=0.0)
    out = rstd[:, None] * (acc - mean[:, None] * s1[None, :]) + s2[None, :]
    tl.store(out_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :],
             out.to(out_ptr.dtype.element_ty),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def forward(x, gamma, beta, w):
    M, K = x.shape
    N = w.shape[0]
    dev = x.device
    mean = torch.empty((M,), device=dev, dtype=torch.float32)
    rstd = torch.empty((M,), device=dev, dtype=torch.float32)
    wg = torch.empty_like(w)
    s1 = torch.empty((N,), device=dev, dtype=torch.float32)
    s2 = torch.empty((N,), device=dev, dtype=torch.float32)
    out = torch.empty((M, N), device=dev, dtype=x.dtype)
    ROWS, BLOCK = 4, 512
    _row_stats_kernel[(triton.cdiv(M, ROWS),)](x, mean, rstd, M, K, 1.0e-5, ROWS=ROWS,
                                               BLOCK_K=BLOCK)
    _fold_weight_kernel[(triton.cdiv(N, ROWS),)](w, gamma, beta, wg, s1, s2, N, K, ROWS=ROWS,
                                                 BLOCK_K=BLOCK)
    if x.device.type == "cpu":
        BLOCK_M, BLOCK_N, BLOCK_K, warps, stages = 32, 32, 32, 4, 1  # CPU: the interpreter
    else:
        BLOCK_M, BLOCK_N, BLOCK_K, warps, stages = 128, 128, 64, 8, 3
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _ln_gemm_kernel[grid](x, wg, mean, rstd, s1, s2, out, M, N, K, BLOCK_M=BLOCK_M,
                          BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8, num_warps=warps,
                          num_stages=stages)
    return out
