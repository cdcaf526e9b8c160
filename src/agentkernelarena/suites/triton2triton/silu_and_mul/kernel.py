"""SiLU-and-mul in two elementwise kernels: silu(gate) is written to a float32 temporary, then
a second kernel multiplies it by the up half. Flat 1D indexing over the M x N output."""

import torch
import triton
import triton.language as tl


@triton.jit
def _silu_kernel(x_ptr, tmp_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    row = offs // N
    col = offs % N
    g = tl.load(x_ptr + row * (2 * N) + col, mask=mask, other=0.0).to(tl.float32)
    tl.store(tmp_ptr + offs, g / (1.0 + tl.exp(-g)), mask=mask)


@triton.jit
def _mul_kernel(x_ptr, tmp_ptr, out_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    row = offs // N
    col = offs % N
    s = tl.load(tmp_ptr + offs, mask=mask, other=0.0)
    u = tl.load(x_ptr + row * (2 * N) + N + col, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (s * u).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, two_n = x.shape
    N = two_n // 2
    tmp = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    n = M * N
    BLOCK = 512
    grid = (triton.cdiv(n, BLOCK),)
    _silu_kernel[grid](x, tmp, n, N, BLOCK=BLOCK)
    _mul_kernel[grid](x, tmp, out, n, N, BLOCK=BLOCK)
    return out
