"""torch2triton/rope_neox: half-split rotary embedding of q and k, one launch.

One program per token rotates all of its query and key heads: it loads the token's cos/sin
halves once, then each head block as two [heads, D/2] halves (no partner gathers, no div/mod
per element), and writes both halves of the result.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _rotate_heads(x_ptr, y_ptr, tok, NH, c1, c2, s1, s2, half, D,
                  BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    d = tl.arange(0, BLOCK_D)
    for h0 in range(0, NH, BLOCK_H):
        heads = h0 + tl.arange(0, BLOCK_H)
        mask = (heads[:, None] < NH) & (d[None, :] < half)
        offs = tok * NH * D + heads[:, None] * D + d[None, :]
        x1 = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        x2 = tl.load(x_ptr + offs + half, mask=mask, other=0.0).to(tl.float32)
        y1 = x1 * c1[None, :] - x2 * s1[None, :]
        y2 = x2 * c2[None, :] + x1 * s2[None, :]
        tl.store(y_ptr + offs, y1.to(y_ptr.dtype.element_ty), mask=mask)
        tl.store(y_ptr + offs + half, y2.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _rope_kernel(q_ptr, k_ptr, cos_ptr, sin_ptr, qo_ptr, ko_ptr, H, HKV, D,
                 BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0).to(tl.int64)
    half = D // 2
    d = tl.arange(0, BLOCK_D)
    dm = d < half
    c1 = tl.load(cos_ptr + tok * D + d, mask=dm, other=0.0).to(tl.float32)
    c2 = tl.load(cos_ptr + tok * D + half + d, mask=dm, other=0.0).to(tl.float32)
    s1 = tl.load(sin_ptr + tok * D + d, mask=dm, other=0.0).to(tl.float32)
    s2 = tl.load(sin_ptr + tok * D + half + d, mask=dm, other=0.0).to(tl.float32)
    _rotate_heads(q_ptr, qo_ptr, tok, H, c1, c2, s1, s2, half, D, BLOCK_H, BLOCK_D)
    _rotate_heads(k_ptr, ko_ptr, tok, HKV, c1, c2, s1, s2, half, D, BLOCK_H, BLOCK_D)


def forward(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    B, S, H, D = q.shape
    HKV = k.shape[2]
    qo = torch.empty_like(q)
    ko = torch.empty_like(k)
    block_d = triton.next_power_of_2(D // 2)
    block_h = max(1, min(triton.next_power_of_2(max(H, HKV)), 2048 // block_d))
    _rope_kernel[(B * S,)](q, k, cos, sin, qo, ko, H, HKV, D,
                           BLOCK_H=block_h, BLOCK_D=block_d, num_warps=4)
    return (qo, ko)
