"""Triplet margin loss in four passes: d(anchor, positive) per row, d(anchor, negative) per
row (anchor read again), the hinge per row, then one program sums the losses for the mean."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dist_kernel(x_ptr, y_ptr, d_ptr, D, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        cols = d0 + tl.arange(0, BLOCK_D)
        m = cols < D
        x = tl.load(x_ptr + row * D + cols, mask=m, other=0.0).to(tl.float32)
        y = tl.load(y_ptr + row * D + cols, mask=m, other=0.0).to(tl.float32)
        diff = tl.where(m, x - y + eps, 0.0)
        acc += diff * diff
    tl.store(d_ptr + row, tl.sqrt(tl.sum(acc, axis=0)))


@triton.jit
def _hinge_kernel(dap_ptr, dan_ptr, loss_ptr, N, margin, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    dap = tl.load(dap_ptr + offs, mask=m, other=0.0)
    dan = tl.load(dan_ptr + offs, mask=m, other=0.0)
    tl.store(loss_ptr + offs, tl.maximum(dap - dan + margin, 0.0), mask=m)


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
    d_ap = torch.empty((N,), device=dev, dtype=torch.float32)
    d_an = torch.empty((N,), device=dev, dtype=torch.float32)
    loss = torch.empty((N,), device=dev, dtype=torch.float32)
    mean = torch.empty((), device=dev, dtype=torch.float32)
    BLOCK_D = 1024
    _dist_kernel[(N,)](anchor, positive, d_ap, D, eps, BLOCK_D=BLOCK_D)
    _dist_kernel[(N,)](anchor, negative, d_an, D, eps, BLOCK_D=BLOCK_D)
    _hinge_kernel[(triton.cdiv(N, 1024),)](d_ap, d_an, loss, N, margin, BLOCK=1024)
    _mean_kernel[(1,)](loss, mean, N, BLOCK=1024)
    return (loss, mean)
