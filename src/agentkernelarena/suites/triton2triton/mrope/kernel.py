"""M-RoPE in three launches: a kernel gathers each token's merged cos/sin row (each frequency
from the row of its section's position) into a float32 T x D buffer, then one NeoX rotation
kernel per tensor, one program per (token, head), reads it back."""

import torch
import triton
import triton.language as tl


@triton.jit
def _merge_kernel(cs_ptr, pos_ptr, merged_ptr, T, S0: tl.constexpr, S1: tl.constexpr,
                  HALF: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    i = tl.arange(0, HALF)
    sec = tl.where(i < S0, 0, tl.where(i < S0 + S1, 1, 2)).to(tl.int64)
    pos = tl.load(pos_ptr + sec * T + t)
    cos = tl.load(cs_ptr + pos * (2 * HALF) + i)
    sin = tl.load(cs_ptr + pos * (2 * HALF) + HALF + i)
    tl.store(merged_ptr + t * (2 * HALF) + i, cos)
    tl.store(merged_ptr + t * (2 * HALF) + HALF + i, sin)


@triton.jit
def _rope_kernel(x_ptr, merged_ptr, out_ptr, H, HALF: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # token * H + head
    t = row // H
    offs = tl.arange(0, HALF)
    cos = tl.load(merged_ptr + t * (2 * HALF) + offs)
    sin = tl.load(merged_ptr + t * (2 * HALF) + HALF + offs)
    base = row * (2 * HALF)
    x1 = tl.load(x_ptr + base + offs).to(tl.float32)
    x2 = tl.load(x_ptr + base + HALF + offs).to(tl.float32)
    tl.store(out_ptr + base + offs, (x1 * cos - x2 * sin).to(out_ptr.dtype.element_ty))
    tl.store(out_ptr + base + HALF + offs, (x2 * cos + x1 * sin).to(out_ptr.dtype.element_ty))


def forward(q, k, cos_sin, positions):
    T, HQ, D = q.shape
    HKV = k.shape[1]
    merged = torch.empty((T, D), device=q.device, dtype=torch.float32)
    q_out = torch.empty_like(q)
    k_out = torch.empty_like(k)
    _merge_kernel[(T,)](cos_sin, positions, merged, T, S0=D // 8, S1=3 * D // 16, HALF=D // 2)
    _rope_kernel[(T * HQ,)](q, merged, q_out, HQ, HALF=D // 2)
    _rope_kernel[(T * HKV,)](k, merged, k_out, HKV, HALF=D // 2)
    return (q_out, k_out)
