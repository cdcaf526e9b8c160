"""Repetition penalty with a dense mask: a kernel zeroes a B x V int8 "seen" mask, a kernel
marks the history's ids in it, and a dense kernel reads logits and mask and writes every
output element."""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(mask_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(mask_ptr + offs, tl.zeros((BLOCK,), dtype=tl.int8), mask=offs < n)


@triton.jit
def _mark_kernel(hist_ptr, mask_ptr, n, T, V, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    ids = tl.load(hist_ptr + offs, mask=valid, other=-1)
    row = offs // T
    ones = tl.full((BLOCK,), 1, dtype=tl.int8)
    tl.store(mask_ptr + row * V + ids, ones, mask=valid & (ids >= 0))


@triton.jit
def _apply_kernel(logits_ptr, mask_ptr, pen_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    valid = cols < V
    x = tl.load(logits_ptr + row * V + cols, mask=valid, other=0.0).to(tl.float32)
    seen = tl.load(mask_ptr + row * V + cols, mask=valid, other=0)
    p = tl.load(pen_ptr + row)
    pen = tl.where(x > 0, x / p, x * p)
    y = tl.where(seen != 0, pen, x)
    tl.store(out_ptr + row * V + cols, y.to(out_ptr.dtype.element_ty), mask=valid)


def forward(logits: torch.Tensor, history: torch.Tensor, penalty: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    T = history.shape[1]
    seen = torch.empty((B, V), device=logits.device, dtype=torch.int8)
    out = torch.empty_like(logits)
    BLOCK = 1024
    _zero_kernel[(triton.cdiv(B * V, BLOCK),)](seen, B * V, BLOCK=BLOCK)
    _mark_kernel[(triton.cdiv(B * T, BLOCK),)](history, seen, B * T, T, V, BLOCK=BLOCK)
    _apply_kernel[(B, triton.cdiv(V, BLOCK))](logits, seen, penalty, out, V, BLOCK=BLOCK)
    return out
