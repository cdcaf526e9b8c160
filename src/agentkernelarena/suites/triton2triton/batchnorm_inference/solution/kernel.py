"""BatchNorm inference folded into one scale-and-shift pass.

A tiny kernel folds each channel's variance and weight into scale = weight / sqrt(var + eps).
The main kernel then runs over (sample * channel rows, blocks of HW): each row's mean, scale and
bias are loaded once as scalars, and each element costs one load, (x - mean) * scale + bias and
one store (the mean is subtracted first: folding it into the shift would cancel badly in
channels of tiny variance, where scale is large). x is read once
and the output written once; the baseline also writes and rereads a float32 temporary and
divides and gathers per element.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-5


@triton.jit
def _fold_kernel(var_ptr, w_ptr, scale_ptr, C, eps, BLOCK: tl.constexpr):
    c = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = c < C
    var = tl.load(var_ptr + c, mask=mask, other=1.0)
    w = tl.load(w_ptr + c, mask=mask, other=0.0)
    tl.store(scale_ptr + c, w / tl.sqrt(var + eps), mask=mask)


@triton.jit
def _apply_kernel(x_ptr, mean_ptr, scale_ptr, b_ptr, out_ptr, R, C, HW,
                  ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < R
    c = rows % C
    mean = tl.load(mean_ptr + c, mask=rmask, other=0.0)
    scale = tl.load(scale_ptr + c, mask=rmask, other=0.0)
    shift = tl.load(b_ptr + c, mask=rmask, other=0.0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = rmask[:, None] & (cols[None, :] < HW)
    idx = rows[:, None].to(tl.int64) * HW + cols[None, :]
    x = tl.load(x_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    y = (x - mean[:, None]) * scale[:, None] + shift[:, None]
    tl.store(out_ptr + idx, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x, running_mean, running_var, weight, bias):
    N, C, HW = x.shape
    out = torch.empty_like(x)
    scale = torch.empty((C,), device=x.device, dtype=torch.float32)
    _fold_kernel[(triton.cdiv(C, 256),)](running_var, weight, scale, C, EPS, BLOCK=256)
    BLOCK = min(4096, max(16, triton.next_power_of_2(HW)))
    ROWS = max(1, 2048 // BLOCK)
    R = N * C
    _apply_kernel[(triton.cdiv(R, ROWS), triton.cdiv(HW, BLOCK))](
        x, running_mean, scale, bias, out, R, C, HW, ROWS=ROWS, BLOCK=BLOCK,
        num_warps=4 if ROWS * BLOCK <= 2048 else 8)
    return out
