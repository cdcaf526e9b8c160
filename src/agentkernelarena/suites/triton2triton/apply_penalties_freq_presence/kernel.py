"""Frequency then presence penalty as two elementwise kernels with a float32 intermediate:
the first subtracts frequency[b] * counts into a B x V buffer, the second reads it and the
counts again and subtracts presence[b] where the count is positive."""

import torch
import triton
import triton.language as tl


@triton.jit
def _frequency_kernel(x_ptr, cnt_ptr, freq_ptr, tmp_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    x = tl.load(x_ptr + row * V + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cnt_ptr + row * V + cols, mask=mask, other=0).to(tl.float32)
    f = tl.load(freq_ptr + row)
    tl.store(tmp_ptr + row * V + cols, x - f * c, mask=mask)


@triton.jit
def _presence_kernel(tmp_ptr, cnt_ptr, pres_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    v = tl.load(tmp_ptr + row * V + cols, mask=mask, other=0.0)
    c = tl.load(cnt_ptr + row * V + cols, mask=mask, other=0)
    p = tl.load(pres_ptr + row)
    y = tl.where(c > 0, v - p, v)
    tl.store(out_ptr + row * V + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(logits, counts, frequency, presence):
    B, V = logits.shape
    tmp = torch.empty((B, V), device=logits.device, dtype=torch.float32)
    out = torch.empty_like(logits)
    BLOCK = 1024
    grid = (B, triton.cdiv(V, BLOCK))
    _frequency_kernel[grid](logits, counts, frequency, tmp, V, BLOCK=BLOCK)
    _presence_kernel[grid](tmp, counts, presence, out, V, BLOCK=BLOCK)
    return out
