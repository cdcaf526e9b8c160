"""NeoX rotary embedding of q and k: one program per (token, head), one launch per tensor."""

import torch
import triton
import triton.language as tl


@triton.jit
def _rope_kernel(x_ptr, cs_ptr, pos_ptr, out_ptr, H, HALF: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # token * H + head
    token = row // H
    pos = tl.load(pos_ptr + token)
    offs = tl.arange(0, HALF)
    cos = tl.load(cs_ptr + pos * (2 * HALF) + offs)
    sin = tl.load(cs_ptr + pos * (2 * HALF) + HALF + offs)
    base = row * (2 * HALF)
    x1 = tl.load(x_ptr + base + offs).to(tl.float32)
    x2 = tl.load(x_ptr + base + HALF + offs).to(tl.float32)
    tl.store(out_ptr + base + offs, (x1 * cos - x2 * sin).to(out_ptr.dtype.element_ty))
    tl.store(out_ptr + base + HALF + offs, (x2 * cos + x1 * sin).to(out_ptr.dtype.element_ty))


def forward(q, k, cos_sin, positions):
    T, HQ, D = q.shape
    HKV = k.shape[1]
    q_out = torch.empty_like(q)
    k_out = torch.empty_like(k)
    _rope_kernel[(T * HQ,)](q, cos_sin, positions, q_out, HQ, HALF=D // 2)
    _rope_kernel[(T * HKV,)](k, cos_sin, positions, k_out, HKV, HALF=D // 2)
    return (q_out, k_out)
