"""Soft-capping then temperature, as two elementwise kernels with a float32 intermediate:
capped = cap * tanh(logits / cap) is written to a B x V buffer, then divided by each row's
temperature into the output."""

import torch
import triton
import triton.language as tl


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
def _softcap_kernel(x_ptr, tmp_ptr, n, cap, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(tmp_ptr + offs, cap * _tanh(x / cap), mask=mask)


@triton.jit
def _temperature_kernel(tmp_ptr, temp_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    v = tl.load(tmp_ptr + row * V + cols, mask=mask, other=0.0)
    t = tl.load(temp_ptr + row)
    tl.store(out_ptr + row * V + cols, (v / t).to(out_ptr.dtype.element_ty), mask=mask)


def forward(logits: torch.Tensor, temperature: torch.Tensor, cap: float) -> torch.Tensor:
    B, V = logits.shape
    tmp = torch.empty((B, V), device=logits.device, dtype=torch.float32)
    out = torch.empty_like(logits)
    BLOCK = 1024
    n = B * V
    _softcap_kernel[(triton.cdiv(n, BLOCK),)](logits, tmp, n, cap, BLOCK=BLOCK)
    _temperature_kernel[(B, triton.cdiv(V, BLOCK))](tmp, temperature, out, V, BLOCK=BLOCK)
    return out
