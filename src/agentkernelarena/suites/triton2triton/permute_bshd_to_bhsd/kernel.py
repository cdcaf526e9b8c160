"""(B, S, H, D) -> (B, H, S, D) permute: one element per lane, indexed by the flat output
offset, with the source offset rebuilt from it by integer division and modulo."""

import torch
import triton
import triton.language as tl


@triton.jit
def _permute_kernel(x_ptr, out_ptr, n_elements, S, H, D, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    d = offs % D
    t = offs // D
    s = t % S
    t = t // S
    h = t % H
    b = t // H
    src = ((b * S + s) * H + h) * D + d
    v = tl.load(x_ptr + src, mask=mask)
    tl.store(out_ptr + offs, v, mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    out = torch.empty((B, H, S, D), device=x.device, dtype=x.dtype)
    n = x.numel()
    BLOCK = 1024
    _permute_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, S, H, D, BLOCK=BLOCK)
    return out
