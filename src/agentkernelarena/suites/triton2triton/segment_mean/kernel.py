"""Segment mean: one program per (sequence, column block) sums its sequence's rows in order."""

import torch
import triton
import triton.language as tl


@triton.jit
def _segment_mean_kernel(x_ptr, cu_ptr, out_ptr, D, BLOCK_T: tl.constexpr,
                         BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    c_mask = cols < D
    start = tl.load(cu_ptr + b)
    end = tl.load(cu_ptr + b + 1)
    acc = tl.zeros((BLOCK_T, BLOCK_D), dtype=tl.float32)
    for t0 in range(start, end, BLOCK_T):
        rows = t0 + tl.arange(0, BLOCK_T)
        mask = (rows[:, None] < end) & c_mask[None, :]
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * D + cols[None, :], mask=mask, other=0.0)
        acc += x.to(tl.float32)
    mean = tl.sum(acc, axis=0) / (end - start).to(tl.float32)
    tl.store(out_ptr + b.to(tl.int64) * D + cols, mean.to(out_ptr.dtype.element_ty), mask=c_mask)


def forward(x: torch.Tensor, cu_seqlens: torch.Tensor) -> torch.Tensor:
    T, D = x.shape
    B = cu_seqlens.shape[0] - 1
    out = torch.empty((B, D), device=x.device, dtype=x.dtype)
    BLOCK_D = min(256, triton.next_power_of_2(D))
    _segment_mean_kernel[(B, triton.cdiv(D, BLOCK_D))](x, cu_seqlens, out, D, BLOCK_T=16,
                                                        BLOCK_D=BLOCK_D)
    return out
