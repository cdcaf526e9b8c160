"""instruction2triton/outer_product_scale: one write-only pass over 2-D output tiles.

A program loads BLOCK_M values of a and BLOCK_N of b, forms the scaled outer product in
float32 registers and stores the tile (rows contiguous in memory); the output is written once
and nothing else touches memory.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _outer_scale(a_ptr, b_ptr, out_ptr, M, N, s, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    a = tl.load(a_ptr + rows, mask=rows < M, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    v = (a[:, None] * b[None, :]) * s
    offs = rows[:, None].to(tl.int64) * N + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty), mask=mask)


def forward(a: torch.Tensor, b: torch.Tensor, s: float) -> torch.Tensor:
    M, N = a.shape[0], b.shape[0]
    out = torch.empty(M, N, device=a.device, dtype=a.dtype)
    BLOCK_N = min(1024, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(8192 // BLOCK_N, triton.next_power_of_2(M)))
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _outer_scale[grid](a, b, out, M, N, s, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=8)
    return out
