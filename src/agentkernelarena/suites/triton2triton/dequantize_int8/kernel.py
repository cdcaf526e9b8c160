"""Per-row int8 dequantization: out[r, c] = float32(q[r, c]) * scale[r], cast to out_dtype."""

import torch
import triton
import triton.language as tl


@triton.jit
def _int8_to_float_kernel(q_ptr, tmp_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    q = tl.load(q_ptr + offs, mask=mask, other=0)
    tl.store(tmp_ptr + offs, q.to(tl.float32), mask=mask)


@triton.jit
def _scale_rows_kernel(tmp_ptr, scale_ptr, out_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    row = offs // N
    v = tl.load(tmp_ptr + offs, mask=mask, other=0.0)
    s = tl.load(scale_ptr + row, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (v * s).to(out_ptr.dtype.element_ty), mask=mask)


def forward(q: torch.Tensor, scale: torch.Tensor, out_dtype: torch.dtype) -> torch.Tensor:
    M, N = q.shape
    n = M * N
    tmp = torch.empty((M, N), device=q.device, dtype=torch.float32)
    out = torch.empty((M, N), device=q.device, dtype=out_dtype)
    BLOCK = 256
    grid = (triton.cdiv(n, BLOCK),)
    _int8_to_float_kernel[grid](q, tmp, n, BLOCK=BLOCK)
    _scale_rows_kernel[grid](tmp, scale, out, n, N, BLOCK=BLOCK)
    return out
