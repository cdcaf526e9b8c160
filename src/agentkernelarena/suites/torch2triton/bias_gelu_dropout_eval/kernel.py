"""torch2triton/bias_gelu_dropout_eval: gelu(x + bias) (eval-mode dropout is the identity), the
Triton starting point.

Simple and correct, in two passes like the eager operator: one kernel writes x + bias to a
float32 M x N temporary, a second applies the erf GELU.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _bias_kernel(x_ptr, b_ptr, tmp_ptr, n, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)
    tl.store(tmp_ptr + offs, x + b, mask=mask)


@triton.jit
def _gelu_kernel(tmp_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    h = tl.load(tmp_ptr + offs, mask=mask, other=0.0)
    y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    n = M * N
    tmp = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    _bias_kernel[grid](x, bias, tmp, n, N, BLOCK=1024)
    _gelu_kernel[grid](tmp, out, n, BLOCK=1024)
    return out
