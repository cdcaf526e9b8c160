"""Bias + dropout + residual in two elementwise passes: x + bias into a float32 buffer, then
out = residual + keep * buffer / (1 - p)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _bias_kernel(x_ptr, bias_ptr, tmp_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(bias_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)
    tl.store(tmp_ptr + offs, x + b, mask=mask)


@triton.jit
def _dropout_add_kernel(tmp_ptr, keep_ptr, res_ptr, out_ptr, n_elements, scale,
                        BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    v = tl.load(tmp_ptr + offs, mask=mask, other=0.0)
    keep = tl.load(keep_ptr + offs, mask=mask, other=0) != 0
    r = tl.load(res_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    out = r + tl.where(keep, v * scale, 0.0)
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x, bias, residual, keep, p):
    M, N = x.shape
    n = M * N
    tmp = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    _bias_kernel[grid](x, bias, tmp, n, N, BLOCK=BLOCK)
    _dropout_add_kernel[grid](tmp, keep.view(torch.uint8), residual, out, n, 1.0 / (1.0 - p),
                              BLOCK=BLOCK)
    return out
