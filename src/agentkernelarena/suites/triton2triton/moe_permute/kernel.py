"""MoE permute as one flat elementwise kernel over the T * K * H copied elements: each element
finds its (token, slot) pair and column by integer division, loads its destination row and its
source element, and stores it."""

import torch
import triton
import triton.language as tl


@triton.jit
def _permute_kernel(x_ptr, dest_ptr, out_ptr, n, K, H, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    pair = offs // H
    col = offs % H
    tok = pair // K
    d = tl.load(dest_ptr + pair, mask=valid, other=0).to(tl.int64)
    v = tl.load(x_ptr + tok * H + col, mask=valid)
    tl.store(out_ptr + d * H + col, v, mask=valid)


def forward(x: torch.Tensor, dest: torch.Tensor) -> torch.Tensor:
    T, H = x.shape
    K = dest.shape[1]
    out = torch.empty((T * K, H), device=x.device, dtype=x.dtype)
    n = T * K * H
    BLOCK = 1024
    _permute_kernel[(triton.cdiv(n, BLOCK),)](x, dest, out, n, K, H, BLOCK=BLOCK)
    return out
