"""RoPE backward with one program per (token, block of heads): the token's position and cos/sin
row are loaded once and applied to a (BLOCK_H, D/2) tile of each half."""

import torch
import triton
import triton.language as tl


@triton.jit
def _rope_bwd_kernel(dy_ptr, cs_ptr, pos_ptr, dx_ptr, H, D, HALF: tl.constexpr,
                     BLOCK_H: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    hh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    i = tl.arange(0, HALF)
    hm = (hh < H)[:, None]
    pos = tl.load(pos_ptr + t)
    c = tl.load(cs_ptr + pos * D + i)[None, :]
    s = tl.load(cs_ptr + pos * D + HALF + i)[None, :]
    offs = (t * H + hh)[:, None] * D + i[None, :]
    g1 = tl.load(dy_ptr + offs, mask=hm, other=0.0).to(tl.float32)
    g2 = tl.load(dy_ptr + offs + HALF, mask=hm, other=0.0).to(tl.float32)
    tl.store(dx_ptr + offs, (g1 * c + g2 * s).to(dx_ptr.dtype.element_ty), mask=hm)
    tl.store(dx_ptr + offs + HALF, (g2 * c - g1 * s).to(dx_ptr.dtype.element_ty), mask=hm)


def forward(dy, cos_sin, positions):
    T, H, D = dy.shape
    dx = torch.empty_like(dy)
    BLOCK_H = min(triton.next_power_of_2(H), max(1, 4096 // D))
    grid = (T, triton.cdiv(H, BLOCK_H))
    _rope_bwd_kernel[grid](dy, cos_sin, positions, dx, H, D, HALF=D // 2, BLOCK_H=BLOCK_H,
                           num_warps=4)
    return dx
