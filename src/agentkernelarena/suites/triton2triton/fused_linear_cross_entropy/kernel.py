"""Linear + cross-entropy: the logits x @ w^T go to a float32 M x V buffer (tiled matmul), then a
per-row kernel computes logsumexp - logit[target] in two passes over the row."""

import torch
import triton
import triton.language as tl


@triton.jit
def _logits_kernel(
    x_ptr, w_ptr, c_ptr, M, V, H,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, H, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(x_ptr + offs_m[:, None].to(tl.int64) * H + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < H), other=0.0)
        wt = tl.load(w_ptr + offs_n[None, :].to(tl.int64) * H + ks[:, None],
                     mask=(ks[:, None] < H) & (offs_n[None, :] < V), other=0.0)
        acc += tl.dot(a, wt)
    tl.store(c_ptr + offs_m[:, None].to(tl.int64) * V + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < V))


@triton.jit
def _ce_kernel(c_ptr, t_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(c_ptr + base + offs, mask=offs < V, other=float("-inf")))
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        s += tl.exp(tl.load(c_ptr + base + offs, mask=offs < V, other=float("-inf")) - row_max)
    target = tl.load(t_ptr + row)
    logit_t = tl.load(c_ptr + base + target)
    tl.store(loss_ptr + row, row_max + tl.log(tl.sum(s, axis=0)) - logit_t)


def forward(x: torch.Tensor, w: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    M, H = x.shape
    V = w.shape[0]
    logits = torch.empty((M, V), device=x.device, dtype=torch.float32)
    loss = torch.empty((M,), device=x.device, dtype=torch.float32)
    if x.device.type == "cpu":
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 64  # CPU: the Triton interpreter
    else:
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    _logits_kernel[(triton.cdiv(M, BLOCK_M), triton.cdiv(V, BLOCK_N))](
        x, w, logits, M, V, H, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    _ce_kernel[(M,)](logits, targets, loss, V, BLOCK=min(4096, triton.next_power_of_2(V)))
    return loss
