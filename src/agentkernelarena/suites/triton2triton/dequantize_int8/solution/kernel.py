"""Per-row int8 dequantization: out[r, c] = float32(q[r, c]) * scale[r], cast to out_dtype.

Faster than the two-pass version: one fused kernel over [BLOCK_M, BLOCK_N] tiles (~8K elements)
reads q once, loads one scale per row of the tile, and writes the output once; no float32
temporary (which cost 8 of the 11-13 bytes moved per element), no per-element integer division or
scale gather, and far fewer, wider programs.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _dequant_kernel(q_ptr, scale_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rmask = rows < M
    mask = rmask[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    q = tl.load(q_ptr + offs, mask=mask, other=0)
    s = tl.load(scale_ptr + rows, mask=rmask, other=0.0)
    out = q.to(tl.float32) * s[:, None]
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def forward(q: torch.Tensor, scale: torch.Tensor, out_dtype: torch.dtype) -> torch.Tensor:
    M, N = q.shape
    out = torch.empty((M, N), device=q.device, dtype=out_dtype)
    BLOCK_N = min(triton.next_power_of_2(N), 4096)
    BLOCK_M = max(1, min(triton.next_power_of_2(M), 8192 // BLOCK_N))
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _dequant_kernel[grid](q, scale, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=8)
    return out
