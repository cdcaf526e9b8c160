"""instruction2triton/fused_add_mul_clamp: one fused pass over 2-D tiles.

Each program owns a BLOCK_M x BLOCK_N tile: c is loaded once per tile and reused by all its
rows, a and b are read once, out written once, in float32 arithmetic.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _fma_clamp(a_ptr, b_ptr, c_ptr, out_ptr, M, N, lo, hi,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_ok = cols < N
    mask = (rows[:, None] < M) & col_ok[None, :]
    offs = rows[:, None].to(tl.int64) * N + cols[None, :]
    a = tl.load(a_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.float32)
    c = tl.load(c_ptr + cols, mask=col_ok).to(tl.float32)
    v = a * b + c[None, :]
    v = tl.minimum(tl.maximum(v, lo), hi)
    tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty), mask=mask)


def forward(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, lo: float,
            hi: float) -> torch.Tensor:
    M, N = a.shape
    out = torch.empty_like(a)
    BLOCK_N = min(1024, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(4096 // BLOCK_N, triton.next_power_of_2(M)))
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _fma_clamp[grid](a, b, c, out, M, N, lo, hi, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                     num_warps=8)
    return out
