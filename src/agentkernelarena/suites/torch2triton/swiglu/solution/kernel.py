"""torch2triton/swiglu: silu(gate) * up on a fused gate_up output, one fused pass.

A 2-D grid (rows x column blocks) reads gate and up once, with no div/mod per element, and
writes the product once.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _swiglu_kernel(gu_ptr, out_ptr, M, Inter, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < Inter)
    src = gu_ptr + rows[:, None] * (2 * Inter) + cols[None, :]
    g = tl.load(src, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(src + Inter, mask=mask, other=0.0).to(tl.float32)
    y = g / (1.0 + tl.exp(-g)) * u
    tl.store(out_ptr + rows[:, None] * Inter + cols[None, :], y.to(out_ptr.dtype.element_ty),
             mask=mask)


def forward(gate_up: torch.Tensor) -> torch.Tensor:
    M, two_i = gate_up.shape
    Inter = two_i // 2
    out = torch.empty((M, Inter), device=gate_up.device, dtype=gate_up.dtype)
    block_n = min(1024, triton.next_power_of_2(Inter))
    block_m = min(max(1, 4096 // block_n), triton.next_power_of_2(M))
    grid = (triton.cdiv(M, block_m), triton.cdiv(Inter, block_n))
    _swiglu_kernel[grid](gate_up, out, M, Inter, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=8)
    return out
