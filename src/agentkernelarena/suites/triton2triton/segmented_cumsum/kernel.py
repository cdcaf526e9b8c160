"""Prefix sums restarting at segment boundaries: one program per segment scans its elements
block by block (tl.cumsum) and carries the running total to the next block."""

import torch
import triton
import triton.language as tl


@triton.jit
def _segment_scan_kernel(x_ptr, offsets_ptr, out_ptr, BLOCK: tl.constexpr):
    seg = tl.program_id(0)
    start = tl.load(offsets_ptr + seg).to(tl.int64)
    end = tl.load(offsets_ptr + seg + 1).to(tl.int64)
    carry = tl.zeros((), dtype=tl.float32)
    for i in range(start, end, BLOCK):
        idx = i + tl.arange(0, BLOCK)
        m = idx < end
        v = tl.load(x_ptr + idx, mask=m, other=0.0)
        tl.store(out_ptr + idx, tl.cumsum(v, axis=0) + carry, mask=m)
        carry += tl.sum(v, axis=0)


def forward(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    B = offsets.shape[0] - 1
    out = torch.empty_like(x)
    _segment_scan_kernel[(B,)](x, offsets, out, BLOCK=1024)
    return out
