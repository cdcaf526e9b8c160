"""torch2triton/layernorm_gelu: gelu(layer_norm(x)) with the erf GELU, the Triton starting point.

Simple and correct, in two kernels like the eager operator: a LayerNorm kernel (one program
per row, three passes over the row in blocks of 1024: mean, variance, normalize) writes a
float32 M x N temporary, then an elementwise kernel applies GELU.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-5


@triton.jit
def _layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + cols, (x - mean) * rstd * w + b, mask=mask)


@triton.jit
def _gelu_kernel(y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    g = 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476))
    tl.store(out_ptr + offs, g.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    tmp = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    _layernorm_kernel[(M,)](x, weight, bias, tmp, N, EPS, BLOCK=1024)
    n = M * N
    _gelu_kernel[(triton.cdiv(n, 1024),)](tmp, out, n, BLOCK=1024)
    return out
