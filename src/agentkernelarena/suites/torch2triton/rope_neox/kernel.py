"""torch2triton/rope_neox: half-split rotary embedding of q and k, the Triton starting point.

Simple and correct: one elementwise kernel per tensor, one lane per output element, each
lane loading its element, its rotation partner and its cos/sin entries.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _rope_kernel(x_ptr, cos_ptr, sin_ptr, y_ptr, n, HD, D, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    half = D // 2
    d = offs % D
    token = offs // HD
    first = d < half
    partner = tl.where(first, offs + half, offs - half)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    xp = tl.load(x_ptr + partner, mask=mask, other=0.0).to(tl.float32)
    rot = tl.where(first, -xp, xp)
    c = tl.load(cos_ptr + token * D + d, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(sin_ptr + token * D + d, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (x * c + rot * s).to(y_ptr.dtype.element_ty), mask=mask)


def _apply(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    y = torch.empty_like(x)
    n = x.numel()
    _rope_kernel[(triton.cdiv(n, 1024),)](x, cos, sin, y, n, H * D, D, BLOCK=1024)
    return y


def forward(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    return (_apply(q, cos, sin), _apply(k, cos, sin))
