"""Causal softmax in two passes: a flat elementwise kernel writes x * scale (or -inf above the
diagonal) into a float32 buffer, then a row-softmax kernel reads the buffer's full rows."""

import torch
import triton
import triton.language as tl


@triton.jit
def _scale_mask_kernel(x_ptr, tmp_ptr, n_elements, S, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    col = offs % S
    row = (offs // S) % S
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    v = tl.where(col <= row, x * scale, float("-inf"))
    tl.store(tmp_ptr + offs, v, mask=mask)


@triton.jit
def _softmax_rows_kernel(tmp_ptr, out_ptr, S, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < S
    v = tl.load(tmp_ptr + row * S + cols, mask=mask, other=float("-inf"))
    m = tl.max(v, axis=0)
    e = tl.exp(v - m)
    p = e / tl.sum(e, axis=0)
    tl.store(out_ptr + row * S + cols, p.to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, S, _ = x.shape
    tmp = torch.empty(x.shape, device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK = 1024
    _scale_mask_kernel[(triton.cdiv(n, BLOCK),)](x, tmp, n, S, scale, BLOCK=BLOCK)
    BLOCK_S = triton.next_power_of_2(S)
    _softmax_rows_kernel[(B * H * S,)](tmp, out, S, BLOCK=BLOCK_S,
                                       num_warps=min(16, max(4, BLOCK_S // 512)))
    return out
