"""Triplet margin loss, fused.

Faster than the baseline: one pass reads each of anchor, positive and negative once (the
baseline reads anchor twice and makes two more launches), a program handles ROWS rows at once
so short rows still give full-width loads, and the mean is a small second pass over the N
losses.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _triplet_kernel(a_ptr, p_ptr, n_ptr, loss_ptr, N, D, margin, eps,
                    ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < N
    base = rows.to(tl.int64)[:, None] * D
    acc_p = tl.zeros((ROWS, BLOCK_D), dtype=tl.float32)
    acc_n = tl.zeros((ROWS, BLOCK_D), dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        cols = d0 + tl.arange(0, BLOCK_D)
        m = rmask[:, None] & (cols[None, :] < D)
        a = tl.load(a_ptr + base + cols[None, :], mask=m, other=0.0).to(tl.float32)
        p = tl.load(p_ptr + base + cols[None, :], mask=m, other=0.0).to(tl.float32)
        n = tl.load(n_ptr + base + cols[None, :], mask=m, other=0.0).to(tl.float32)
        dp = tl.where(m, a - p + eps, 0.0)
        dn = tl.where(m, a - n + eps, 0.0)
        acc_p += dp * dp
        acc_n += dn * dn
    d_ap = tl.sqrt(tl.sum(acc_p, axis=1))
    d_an = tl.sqrt(tl.sum(acc_n, axis=1))
    tl.store(loss_ptr + rows, tl.maximum(d_ap - d_an + margin, 0.0), mask=rmask)


@triton.jit
def _mean_kernel(loss_ptr, mean_ptr, N, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, N, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        acc += tl.load(loss_ptr + offs, mask=offs < N, other=0.0)
    tl.store(mean_ptr, tl.sum(acc, axis=0) / N)


def forward(anchor, positive, negative, margin: float, eps: float):
    N, D = anchor.shape
    dev = anchor.device
    loss = torch.empty((N,), device=dev, dtype=torch.float32)
    mean = torch.empty((), device=dev, dtype=torch.float32)
    BLOCK_D = min(1024, triton.next_power_of_2(D))
    ROWS = max(1, min(64, 1024 // BLOCK_D))
    _triplet_kernel[(triton.cdiv(N, ROWS),)](anchor, positive, negative, loss, N, D, margin,
                                             eps, ROWS=ROWS, BLOCK_D=BLOCK_D, num_warps=4)
    _mean_kernel[(1,)](loss, mean, N, BLOCK=4096 if N > 100000 else 1024, num_warps=8)
    return (loss, mean)
