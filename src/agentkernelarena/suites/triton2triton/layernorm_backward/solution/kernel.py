"""LayerNorm backward with dweight/dbias partial sums fused into the dx kernel.

Faster than the baseline because x and dy are read once: each program processes a group of
rows, writes their dx, and accumulates its rows' dy * xhat and dy in registers; it stores one
float32 partial row per program, and a small kernel sums the partials per column. The
baseline reads x and dy a second time in a column reduction that has only cdiv(N, 128)
programs (a few dozen for common N), each walking all M rows serially.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _fused_kernel(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, pw_ptr, pb_ptr, M, N,
                  rows_per_prog, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros((BLOCK,), dtype=tl.float32)
    db = tl.zeros((BLOCK,), dtype=tl.float32)
    row_start = pid * rows_per_prog
    row_end = tl.minimum(row_start + rows_per_prog, M)
    base = row_start.to(tl.int64) * N
    for r in range(row_start, row_end):
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + r)
        rstd = tl.load(rstd_ptr + r)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        dx = (wdy - xhat * c1 - c2) * rstd
        tl.store(dx_ptr + base + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        base += N
        dw += dy * xhat
        db += dy
    tl.store(pw_ptr + pid.to(tl.int64) * N + offs, dw, mask=mask)
    tl.store(pb_ptr + pid.to(tl.int64) * N + offs, db, mask=mask)


@triton.jit
def _reduce_kernel(pw_ptr, pb_ptr, dw_ptr, db_ptr, P, N, BLOCK_P: tl.constexpr,
                   BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    c_mask = cols < N
    dw = tl.zeros((BLOCK_N,), dtype=tl.float32)
    db = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for p0 in range(0, P, BLOCK_P):
        ps = p0 + tl.arange(0, BLOCK_P)
        mask = (ps[:, None] < P) & c_mask[None, :]
        idx = ps[:, None].to(tl.int64) * N + cols[None, :]
        dw += tl.sum(tl.load(pw_ptr + idx, mask=mask, other=0.0), axis=0)
        db += tl.sum(tl.load(pb_ptr + idx, mask=mask, other=0.0), axis=0)
    tl.store(dw_ptr + cols, dw.to(dw_ptr.dtype.element_ty), mask=c_mask)
    tl.store(db_ptr + cols, db.to(db_ptr.dtype.element_ty), mask=c_mask)


def forward(x, dy, weight, mean, rstd):
    M, N = x.shape
    dx = torch.empty_like(x)
    dw = torch.empty_like(weight)
    db = torch.empty_like(weight)
    BLOCK = triton.next_power_of_2(N)
    programs = 8 if x.device.type == "cpu" else 4 * 132
    rows_per_prog = triton.cdiv(M, programs)
    P = triton.cdiv(M, rows_per_prog)
    pw = torch.empty((P, N), device=x.device, dtype=torch.float32)
    pb = torch.empty((P, N), device=x.device, dtype=torch.float32)
    _fused_kernel[(P,)](x, dy, weight, mean, rstd, dx, pw, pb, M, N, rows_per_prog,
                        BLOCK=BLOCK, num_warps=min(16, max(4, BLOCK // 512)))
    BLOCK_N = 64
    _reduce_kernel[(triton.cdiv(N, BLOCK_N),)](pw, pb, dw, db, P, N, BLOCK_P=32, BLOCK_N=BLOCK_N)
    return (dx, dw, db)
