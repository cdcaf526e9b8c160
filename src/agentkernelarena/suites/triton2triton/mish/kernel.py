"""Mish, x * tanh(softplus(x)), as two elementwise passes: softplus (threshold 20) is written
to a float32 buffer, then a second kernel reads it back with x and applies tanh and the
product."""

import torch
import triton
import triton.language as tl


@triton.jit
def _log1p(e):
    # log(1 + e) accurate for small e: log(u) * e / (u - 1) with u = 1 + e rounded.
    u = 1.0 + e
    d = u - 1.0
    return tl.where(d == 0.0, e, tl.log(u) * (e / tl.where(d == 0.0, 1.0, d)))


@triton.jit
def _tanh(y):
    # tanh from exp, with a short odd series near zero where 1 - e loses digits.
    e = tl.exp(-2.0 * tl.abs(y))
    big = (1.0 - e) / (1.0 + e)
    y2 = y * y
    small = tl.abs(y) * (1.0 - y2 * (1.0 / 3.0 - y2 * (2.0 / 15.0 - y2 * (17.0 / 315.0))))
    t = tl.where(tl.abs(y) < 0.125, small, big)
    return tl.where(y < 0, -t, t)


@triton.jit
def _softplus_kernel(x_ptr, sp_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sp = tl.where(x > 20.0, x, _log1p(tl.exp(tl.minimum(x, 20.0))))
    tl.store(sp_ptr + offs, sp, mask=mask)


@triton.jit
def _tanh_mul_kernel(x_ptr, sp_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sp = tl.load(sp_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (x * _tanh(sp)).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    sp = torch.empty(x.shape, device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 256
    grid = (triton.cdiv(n, BLOCK),)
    _softplus_kernel[grid](x, sp, n, BLOCK=BLOCK)
    _tanh_mul_kernel[grid](x, sp, out, n, BLOCK=BLOCK)
    return out
