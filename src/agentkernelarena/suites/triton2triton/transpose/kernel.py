"""Matrix transpose: out = x.T as a contiguous (N, M) tensor, for a row-major (M, N) x."""

import torch
import triton
import triton.language as tl


@triton.jit
def _transpose_kernel(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < M * N
    i = offs // N
    j = offs % N
    v = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + j * M + i, v, mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    BLOCK = 1024
    grid = (triton.cdiv(M * N, BLOCK),)
    _transpose_kernel[grid](x, out, M, N, BLOCK=BLOCK)
    return out
