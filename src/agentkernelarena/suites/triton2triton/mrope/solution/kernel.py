"""M-RoPE fused into one launch with one program per token: the token's merged cos/sin (each
frequency from its section's position) is gathered once into registers and applied to all
query and key heads as (heads x D/2) tiles. No float32 cos/sin buffer, one launch, and wide
accesses to each token's contiguous q and k rows."""

import torch
import triton
import triton.language as tl


@triton.jit
def _rotate_heads(x_ptr, out_ptr, t, H, cos, sin, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    i = tl.arange(0, HALF)
    for h0 in range(0, H, BLOCK_H):
        h = h0 + tl.arange(0, BLOCK_H)
        mask = (h < H)[:, None]
        base = (t * H + h[:, None]) * (2 * HALF) + i[None, :]
        x1 = tl.load(x_ptr + base, mask=mask, other=0.0).to(tl.float32)
        x2 = tl.load(x_ptr + base + HALF, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + base, (x1 * cos - x2 * sin).to(out_ptr.dtype.element_ty), mask=mask)
        tl.store(out_ptr + base + HALF, (x2 * cos + x1 * sin).to(out_ptr.dtype.element_ty),
                 mask=mask)


@triton.jit
def _mrope_kernel(q_ptr, k_ptr, cs_ptr, pos_ptr, qo_ptr, ko_ptr, T, HQ, HKV, S0: tl.constexpr,
                  S1: tl.constexpr, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    i = tl.arange(0, HALF)
    sec = tl.where(i < S0, 0, tl.where(i < S0 + S1, 1, 2)).to(tl.int64)
    pos = tl.load(pos_ptr + sec * T + t)
    cos = tl.load(cs_ptr + pos * (2 * HALF) + i)[None, :]
    sin = tl.load(cs_ptr + pos * (2 * HALF) + HALF + i)[None, :]
    _rotate_heads(q_ptr, qo_ptr, t, HQ, cos, sin, HALF, BLOCK_H)
    _rotate_heads(k_ptr, ko_ptr, t, HKV, cos, sin, HALF, BLOCK_H)


def forward(q, k, cos_sin, positions):
    T, HQ, D = q.shape
    HKV = k.shape[1]
    q_out = torch.empty_like(q)
    k_out = torch.empty_like(k)
    BLOCK_H = 2 if q.device.type == "cpu" else 8
    _mrope_kernel[(T,)](q, k, cos_sin, positions, q_out, k_out, T, HQ, HKV, S0=D // 8,
                        S1=3 * D // 16, HALF=D // 2, BLOCK_H=BLOCK_H, num_warps=4)
    return (q_out, k_out)
