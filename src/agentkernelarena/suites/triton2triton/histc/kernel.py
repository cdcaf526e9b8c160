"""torch.histc: zero the counts, then one global float atomic increment per in-range value."""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


@triton.jit
def _histc_kernel(x_ptr, c_ptr, N, bins, lo, hi, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    inside = mask & (x >= lo) & (x <= hi)
    b = ((x - lo) * scale).to(tl.int32)
    b = tl.minimum(tl.maximum(b, 0), bins - 1)
    tl.atomic_add(c_ptr + b, tl.full((BLOCK,), 1.0, dtype=tl.float32), mask=inside)


def forward(x: torch.Tensor, bins: int, lo: float, hi: float) -> torch.Tensor:
    N = x.shape[0]
    counts = torch.empty((bins,), device=x.device, dtype=torch.float32)
    _zero_kernel[(triton.cdiv(bins, 1024),)](counts, bins, BLOCK=1024)
    BLOCK = 4096 if x.device.type == "cpu" else 1024
    scale = bins / (hi - lo)
    _histc_kernel[(triton.cdiv(N, BLOCK),)](x, counts, N, bins, lo, hi, scale, BLOCK=BLOCK)
    return counts
