"""Jagged to padded dense in two passes: fill all of out with pad_value, then one program per
output row (b, t) copies values[offsets[b] + t] over it when t is inside the sequence."""

import torch
import triton
import triton.language as tl


@triton.jit
def _fill_kernel(out_ptr, n, pad_value, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    v = tl.full((BLOCK,), pad_value, dtype=tl.float32)
    tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty), mask=offs < n)


@triton.jit
def _copy_kernel(values_ptr, offsets_ptr, out_ptr, L, D, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    t = tl.program_id(1)
    start = tl.load(offsets_ptr + b).to(tl.int64)
    end = tl.load(offsets_ptr + b + 1).to(tl.int64)
    if t < end - start:
        src = values_ptr + (start + t) * D
        dst = out_ptr + (b.to(tl.int64) * L + t) * D
        for d in range(0, D, BLOCK_D):
            cols = d + tl.arange(0, BLOCK_D)
            m = cols < D
            tl.store(dst + cols, tl.load(src + cols, mask=m), mask=m)


def forward(values: torch.Tensor, offsets: torch.Tensor, max_len: int,
            pad_value: float) -> torch.Tensor:
    D = values.shape[1]
    B = offsets.shape[0] - 1
    out = torch.empty((B, max_len, D), device=values.device, dtype=values.dtype)
    n = B * max_len * D
    _fill_kernel[(triton.cdiv(n, 1024),)](out, n, pad_value, BLOCK=1024)
    _copy_kernel[(B, max_len)](values, offsets, out, max_len, D, BLOCK_D=128)
    return out
