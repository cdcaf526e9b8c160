"""GroupNorm backward with x and dy read twice instead of three times, no per-element
division, and tiles of several (sample, channel) rows when HW is short.

The input is viewed as a (B * C, HW) matrix of rows (one per sample and channel).
1. Row sums of dy and dy * xhat (float32 partials of shape (B, C)); ROWS rows per program.
2. Per (sample, group): mean(g) and mean(g * xhat) from the CPG partials of the group
   (g = weight * dy, so sum(g) = sum_c weight[c] * sum(dy)); a tiny kernel.
3. dx on a (row block, HW block) grid, with per-row constants loaded once per tile.
4. dweight and dbias: the partials summed over the B samples ([64, 32] tiles).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_sums_kernel(x_ptr, dy_ptr, mean_ptr, rstd_ptr, pdy_ptr, pdyx_ptr, R, C, CPG, HW,
                     ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < R
    bg = (rows // C) * (C // CPG) + (rows % C) // CPG
    mean = tl.load(mean_ptr + bg, mask=rmask, other=0.0)
    rstd = tl.load(rstd_ptr + bg, mask=rmask, other=0.0)
    base = rows.to(tl.int64) * HW
    acc_dy = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    acc_dyx = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = rmask[:, None] & (offs < HW)[None, :]
        ptr = base[:, None] + offs[None, :]
        x = tl.load(x_ptr + ptr, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + ptr, mask=mask, other=0.0).to(tl.float32)
        acc_dy += dy
        acc_dyx += dy * ((x - mean[:, None]) * rstd[:, None])
    tl.store(pdy_ptr + rows, tl.sum(acc_dy, axis=1), mask=rmask)
    tl.store(pdyx_ptr + rows, tl.sum(acc_dyx, axis=1), mask=rmask)


@triton.jit
def _group_consts_kernel(w_ptr, pdy_ptr, pdyx_ptr, c1_ptr, c2_ptr, C, CPG, HW,
                         CPG_BLOCK: tl.constexpr):
    bg = tl.program_id(0)
    G = C // CPG
    g_idx = bg % G
    k = tl.arange(0, CPG_BLOCK)
    kmask = k < CPG
    first = g_idx * CPG
    wk = tl.load(w_ptr + first + k, mask=kmask, other=0.0).to(tl.float32)
    row0 = (bg // G) * C + first
    sdy = tl.load(pdy_ptr + row0 + k, mask=kmask, other=0.0)
    sdyx = tl.load(pdyx_ptr + row0 + k, mask=kmask, other=0.0)
    inv_l = 1.0 / (CPG * HW)
    tl.store(c1_ptr + bg, tl.sum(wk * sdy, axis=0) * inv_l)
    tl.store(c2_ptr + bg, tl.sum(wk * sdyx, axis=0) * inv_l)


@triton.jit
def _dx_kernel(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, c1_ptr, c2_ptr, dx_ptr, R, C, CPG, HW,
               ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < R
    c = rows % C
    bg = (rows // C) * (C // CPG) + c // CPG
    mean = tl.load(mean_ptr + bg, mask=rmask, other=0.0)
    rstd = tl.load(rstd_ptr + bg, mask=rmask, other=0.0)
    c1 = tl.load(c1_ptr + bg, mask=rmask, other=0.0)
    c2 = tl.load(c2_ptr + bg, mask=rmask, other=0.0)
    w = tl.load(w_ptr + c, mask=rmask, other=0.0).to(tl.float32)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = rmask[:, None] & (offs < HW)[None, :]
    ptr = rows.to(tl.int64)[:, None] * HW + offs[None, :]
    x = tl.load(x_ptr + ptr, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + ptr, mask=mask, other=0.0).to(tl.float32)
    xhat = (x - mean[:, None]) * rstd[:, None]
    dx = rstd[:, None] * (w[:, None] * dy - c1[:, None] - xhat * c2[:, None])
    tl.store(dx_ptr + ptr, dx.to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _dw_db_kernel(pdy_ptr, pdyx_ptr, dw_ptr, db_ptr, B, C, BLOCK_B: tl.constexpr,
                  BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < C
    accw = tl.zeros([BLOCK_B, BLOCK_C], dtype=tl.float32)
    accb = tl.zeros([BLOCK_B, BLOCK_C], dtype=tl.float32)
    for b0 in range(0, B, BLOCK_B):
        b = b0 + tl.arange(0, BLOCK_B)
        mask = (b < B)[:, None] & cmask[None, :]
        ptr = b[:, None] * C + cols[None, :]
        accw += tl.load(pdyx_ptr + ptr, mask=mask, other=0.0)
        accb += tl.load(pdy_ptr + ptr, mask=mask, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(accw, axis=0).to(dw_ptr.dtype.element_ty), mask=cmask)
    tl.store(db_ptr + cols, tl.sum(accb, axis=0).to(db_ptr.dtype.element_ty), mask=cmask)


def forward(x, dy, weight, mean, rstd):
    B, C, HW = x.shape
    G = mean.shape[1]
    CPG = C // G
    R = B * C
    pdy = torch.empty((B, C), device=x.device, dtype=torch.float32)
    pdyx = torch.empty((B, C), device=x.device, dtype=torch.float32)
    c1 = torch.empty((B, G), device=x.device, dtype=torch.float32)
    c2 = torch.empty((B, G), device=x.device, dtype=torch.float32)
    dx = torch.empty_like(x)
    dw = torch.empty_like(weight)
    db = torch.empty_like(weight)
    BLOCK = min(2048, triton.next_power_of_2(HW))
    ROWS = max(1, 2048 // BLOCK)
    warps = 8
    _row_sums_kernel[(triton.cdiv(R, ROWS),)](x, dy, mean, rstd, pdy, pdyx, R, C, CPG, HW,
                                              ROWS=ROWS, BLOCK=BLOCK, num_warps=warps)
    _group_consts_kernel[(B * G,)](weight, pdy, pdyx, c1, c2, C, CPG, HW,
                                   CPG_BLOCK=triton.next_power_of_2(CPG))
    _dx_kernel[(triton.cdiv(R, ROWS), triton.cdiv(HW, BLOCK))](
        x, dy, weight, mean, rstd, c1, c2, dx, R, C, CPG, HW, ROWS=ROWS, BLOCK=BLOCK,
        num_warps=warps)
    BLOCK_C = 32
    _dw_db_kernel[(triton.cdiv(C, BLOCK_C),)](pdy, pdyx, dw, db, B, C, BLOCK_B=64,
                                              BLOCK_C=BLOCK_C)
    return (dx, dw, db)
