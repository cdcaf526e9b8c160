"""Per-sample InfoNCE in two passes: a tiled GEMM kernel writes the scaled N x N logits in
float32, then one program per row reads its row back twice (the maximum, then the sum of
exponentials) and subtracts the diagonal logit."""

import torch
import triton
import triton.language as tl


@triton.jit
def _logits_kernel(q_ptr, k_ptr, l_ptr, N, D, inv_t,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, D, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(q_ptr + offs_m[:, None].to(tl.int64) * D + ks[None, :],
                    mask=(offs_m[:, None] < N) & (ks[None, :] < D), other=0.0)
        bt = tl.load(k_ptr + offs_n[None, :].to(tl.int64) * D + ks[:, None],
                     mask=(offs_n[None, :] < N) & (ks[:, None] < D), other=0.0)
        acc += tl.dot(a, bt)
    tl.store(l_ptr + offs_m[:, None].to(tl.int64) * N + offs_n[None, :], acc * inv_t,
             mask=(offs_m[:, None] < N) & (offs_n[None, :] < N))


@triton.jit
def _row_loss_kernel(l_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    base = l_ptr + row * N
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        v = tl.load(base + c0 + cols, mask=c0 + cols < N, other=float("-inf"))
        m = tl.maximum(m, v)
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        v = tl.load(base + c0 + cols, mask=c0 + cols < N, other=float("-inf"))
        s += tl.exp(v - row_max)
    lse = row_max + tl.log(tl.sum(s, axis=0))
    diag = tl.load(base + row)
    tl.store(out_ptr + row, lse - diag)


def forward(q: torch.Tensor, k: torch.Tensor, temperature: float) -> torch.Tensor:
    N, D = q.shape
    logits = torch.empty((N, N), device=q.device, dtype=torch.float32)
    loss = torch.empty((N,), device=q.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(N, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _logits_kernel[grid](q, k, logits, N, D, 1.0 / temperature,
                         BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    _row_loss_kernel[(N,)](logits, loss, N, BLOCK=1024)
    return loss
