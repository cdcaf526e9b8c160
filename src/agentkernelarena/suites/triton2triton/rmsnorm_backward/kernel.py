"""RMSNorm backward: a per-row kernel computes dx (and saves the row's 1 / rms), then a
column-reduction kernel reads x and dy a second time to sum dweight (one program per strip of
BLOCK_N columns, walking every row)."""

import torch
import triton
import triton.language as tl

EPS = 1e-6


@triton.jit
def _dx_kernel(x_ptr, w_ptr, dy_ptr, dx_ptr, rstd_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    xhat = x * rstd
    wdy = w * dy
    c = tl.sum(wdy * xhat, axis=0) / N
    dx = rstd * (wdy - xhat * c)
    tl.store(dx_ptr + row * N + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def _dw_kernel(x_ptr, dy_ptr, rstd_ptr, dw_ptr, M, N, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    c_mask = cols < N
    dw = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        r_mask = rows < M
        mask = r_mask[:, None] & c_mask[None, :]
        idx = rows[:, None].to(tl.int64) * N + cols[None, :]
        x = tl.load(x_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + rows, mask=r_mask, other=0.0)
        dw += tl.sum(dy * x * rstd[:, None], axis=0)
    tl.store(dw_ptr + cols, dw.to(dw_ptr.dtype.element_ty), mask=c_mask)


def forward(x: torch.Tensor, weight: torch.Tensor, dy: torch.Tensor):
    M, N = x.shape
    dx = torch.empty_like(x)
    dw = torch.empty_like(weight)
    rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(N)
    _dx_kernel[(M,)](x, weight, dy, dx, rstd, N, EPS, BLOCK=BLOCK,
                     num_warps=min(16, max(4, BLOCK // 512)))
    BLOCK_M, BLOCK_N = 32, 128
    _dw_kernel[(triton.cdiv(N, BLOCK_N),)](x, dy, rstd, dw, M, N, BLOCK_M=BLOCK_M,
                                           BLOCK_N=BLOCK_N)
    return (dx, dw)
