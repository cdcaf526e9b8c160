"""GroupNorm backward in three kernels: the per-(sample, group) sums mean(g) and mean(g * xhat)
(one program per group, a loop over its CPG * HW elements), a flat elementwise dx kernel that
recovers sample, channel and group by division, and a per-channel kernel that reads x and dy a
third time for dweight and dbias."""

import torch
import triton
import triton.language as tl


@triton.jit
def _group_sums_kernel(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, c1_ptr, c2_ptr, G, CPG, HW,
                       BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    g_idx = pid % G
    L = CPG * HW
    base = pid.to(tl.int64) * L
    mean = tl.load(mean_ptr + pid)
    rstd = tl.load(rstd_ptr + pid)
    acc1 = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, L, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < L
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + g_idx * CPG + offs // HW, mask=mask, other=0.0).to(tl.float32)
        wdy = w * dy
        acc1 += wdy
        acc2 += tl.where(mask, wdy * (x - mean) * rstd, 0.0)
    tl.store(c1_ptr + pid, tl.sum(acc1, axis=0) / L)
    tl.store(c2_ptr + pid, tl.sum(acc2, axis=0) / L)


@triton.jit
def _dx_kernel(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, c1_ptr, c2_ptr, dx_ptr, n_elements,
               C, CPG, HW, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    bc = offs // HW
    c = bc % C
    bg = (bc // C) * (C // CPG) + c // CPG
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + c, mask=mask, other=0.0).to(tl.float32)
    mean = tl.load(mean_ptr + bg, mask=mask, other=0.0)
    rstd = tl.load(rstd_ptr + bg, mask=mask, other=0.0)
    c1 = tl.load(c1_ptr + bg, mask=mask, other=0.0)
    c2 = tl.load(c2_ptr + bg, mask=mask, other=0.0)
    xhat = (x - mean) * rstd
    dx = rstd * (w * dy - c1 - xhat * c2)
    tl.store(dx_ptr + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _dw_db_kernel(x_ptr, dy_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, B, C, CPG, HW,
                  BLOCK: tl.constexpr):
    c = tl.program_id(0)
    G = C // CPG
    g_idx = c // CPG
    accw = tl.zeros([BLOCK], dtype=tl.float32)
    accb = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(0, B):
        base = (b * C + c).to(tl.int64) * HW
        mean = tl.load(mean_ptr + b * G + g_idx)
        rstd = tl.load(rstd_ptr + b * G + g_idx)
        for start in range(0, HW, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            mask = offs < HW
            x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
            dy = tl.load(dy_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
            accw += tl.where(mask, dy * (x - mean) * rstd, 0.0)
            accb += dy
    tl.store(dw_ptr + c, tl.sum(accw, axis=0).to(dw_ptr.dtype.element_ty))
    tl.store(db_ptr + c, tl.sum(accb, axis=0).to(db_ptr.dtype.element_ty))


def forward(x, dy, weight, mean, rstd):
    B, C, HW = x.shape
    G = mean.shape[1]
    CPG = C // G
    c1 = torch.empty((B, G), device=x.device, dtype=torch.float32)
    c2 = torch.empty((B, G), device=x.device, dtype=torch.float32)
    dx = torch.empty_like(x)
    dw = torch.empty_like(weight)
    db = torch.empty_like(weight)
    _group_sums_kernel[(B * G,)](x, dy, weight, mean, rstd, c1, c2, G, CPG, HW, BLOCK=1024)
    n = x.numel()
    BLOCK = 1024
    _dx_kernel[(triton.cdiv(n, BLOCK),)](x, dy, weight, mean, rstd, c1, c2, dx, n, C, CPG, HW,
                                         BLOCK=BLOCK)
    BLOCK_HW = min(1024, triton.next_power_of_2(HW))
    _dw_db_kernel[(C,)](x, dy, mean, rstd, dw, db, B, C, CPG, HW, BLOCK=BLOCK_HW)
    return (dx, dw, db)
