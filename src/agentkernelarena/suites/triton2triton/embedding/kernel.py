"""Embedding lookup: out[i, :] = weight[ids[i], :]."""

import torch
import triton
import triton.language as tl


@triton.jit
def _embedding_kernel(ids_ptr, weight_ptr, out_ptr, D, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = cols < D
    row = tl.load(ids_ptr + tok)
    vals = tl.load(weight_ptr + row * D + cols, mask=mask)
    tl.store(out_ptr + tok.to(tl.int64) * D + cols, vals, mask=mask)


def forward(ids: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    T = ids.shape[0]
    D = weight.shape[1]
    out = torch.empty((T, D), device=weight.device, dtype=weight.dtype)
    BLOCK_D = 32
    grid = (T, triton.cdiv(D, BLOCK_D))
    _embedding_kernel[grid](ids, weight, out, D, BLOCK_D=BLOCK_D)
    return out
