"""LayerNorm backward: a per-row kernel for dx, then a column-reduction kernel for dweight and
dbias that reads x and dy a second time (one program per strip of BLOCK_N columns)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dx_kernel(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = w * dy
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - xhat * c1 - c2) * rstd
    tl.store(dx_ptr + row * N + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _dw_db_kernel(x_ptr, dy_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, M, N,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    c_mask = cols < N
    dw = tl.zeros((BLOCK_N,), dtype=tl.float32)
    db = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        r_mask = rows < M
        mask = r_mask[:, None] & c_mask[None, :]
        idx = rows[:, None].to(tl.int64) * N + cols[None, :]
        x = tl.load(x_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + rows, mask=r_mask, other=0.0)
        rstd = tl.load(rstd_ptr + rows, mask=r_mask, other=0.0)
        xhat = (x - mean[:, None]) * rstd[:, None]
        dw += tl.sum(dy * xhat, axis=0)
        db += tl.sum(dy, axis=0)
    tl.store(dw_ptr + cols, dw.to(dw_ptr.dtype.element_ty), mask=c_mask)
    tl.store(db_ptr + cols, db.to(db_ptr.dtype.element_ty), mask=c_mask)


def forward(x, dy, weight, mean, rstd):
    M, N = x.shape
    dx = torch.empty_like(x)
    dw = torch.empty_like(weight)
    db = torch.empty_like(weight)
    BLOCK = triton.next_power_of_2(N)
    _dx_kernel[(M,)](x, dy, weight, mean, rstd, dx, N, BLOCK=BLOCK,
                     num_warps=min(16, max(4, BLOCK // 512)))
    BLOCK_M, BLOCK_N = 32, 128
    _dw_db_kernel[(triton.cdiv(N, BLOCK_N),)](x, dy, mean, rstd, dw, db, M, N,
                                              BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return (dx, dw, db)
