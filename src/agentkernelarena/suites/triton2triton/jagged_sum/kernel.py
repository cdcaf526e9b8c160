"""Sums of variable-length segments (CSR offsets): one program per segment loops over its
elements in blocks of BLOCK."""

import torch
import triton
import triton.language as tl


@triton.jit
def _segment_sum_kernel(x_ptr, offsets_ptr, out_ptr, BLOCK: tl.constexpr):
    seg = tl.program_id(0)
    start = tl.load(offsets_ptr + seg).to(tl.int64)
    end = tl.load(offsets_ptr + seg + 1).to(tl.int64)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(start, end, BLOCK):
        idx = i + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + idx, mask=idx < end, other=0.0)
    tl.store(out_ptr + seg, tl.sum(acc, axis=0))


def forward(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    B = offsets.shape[0] - 1
    out = torch.empty((B,), device=x.device, dtype=x.dtype)
    _segment_sum_kernel[(B,)](x, offsets, out, BLOCK=1024)
    return out
