"""RoPE backward (inverse rotate-half rotation), one program per (token, head): it loads the two
halves of one head's gradient and its token's cos/sin row and writes the two halves of dx."""

import torch
import triton
import triton.language as tl


@triton.jit
def _rope_bwd_kernel(dy_ptr, cs_ptr, pos_ptr, dx_ptr, H, D, HALF: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    h = tl.program_id(1)
    i = tl.arange(0, HALF)
    pos = tl.load(pos_ptr + t)
    c = tl.load(cs_ptr + pos * D + i)
    s = tl.load(cs_ptr + pos * D + HALF + i)
    base = (t * H + h) * D
    g1 = tl.load(dy_ptr + base + i).to(tl.float32)
    g2 = tl.load(dy_ptr + base + HALF + i).to(tl.float32)
    tl.store(dx_ptr + base + i, (g1 * c + g2 * s).to(dx_ptr.dtype.element_ty))
    tl.store(dx_ptr + base + HALF + i, (g2 * c - g1 * s).to(dx_ptr.dtype.element_ty))


def forward(dy, cos_sin, positions):
    T, H, D = dy.shape
    dx = torch.empty_like(dy)
    _rope_bwd_kernel[(T, H)](dy, cos_sin, positions, dx, H, D, HALF=D // 2, num_warps=1)
    return dx
