"""Jagged to padded dense in one pass.

Faster than the baseline, which writes all of out twice (a pad fill, then the copies) and
launches one program per output row: here each program owns a BLOCK_T x BLOCK_D tile of one
sequence's output, loads the rows that exist (masked) and writes every output element once,
padding included.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _pad_kernel(values_ptr, offsets_ptr, out_ptr, L, D, pad_value,
                BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    t = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.program_id(2) * BLOCK_D + tl.arange(0, BLOCK_D)
    start = tl.load(offsets_ptr + b).to(tl.int64)
    length = tl.load(offsets_ptr + b + 1).to(tl.int64) - start
    cmask = cols[None, :] < D
    inside = (t[:, None] < length) & cmask
    v = tl.load(values_ptr + (start + t[:, None]) * D + cols[None, :], mask=inside,
                other=pad_value)
    dst = out_ptr + (b.to(tl.int64) * L + t[:, None]) * D + cols[None, :]
    tl.store(dst, v.to(out_ptr.dtype.element_ty), mask=(t[:, None] < L) & cmask)


def forward(values: torch.Tensor, offsets: torch.Tensor, max_len: int,
            pad_value: float) -> torch.Tensor:
    D = values.shape[1]
    B = offsets.shape[0] - 1
    out = torch.empty((B, max_len, D), device=values.device, dtype=values.dtype)
    BLOCK_D = min(256, triton.next_power_of_2(D))
    BLOCK_T = max(1, 4096 // BLOCK_D)
    grid = (B, triton.cdiv(max_len, BLOCK_T), triton.cdiv(D, BLOCK_D))
    _pad_kernel[grid](values, offsets, out, max_len, D, pad_value, BLOCK_T=BLOCK_T,
                      BLOCK_D=BLOCK_D, num_warps=4)
    return out
