"""torch.histc with a per-program histogram.

Faster than the baseline because each program first counts a large block of values into a
private histogram (tl.histogram, in registers / shared memory) and then adds only its bin
totals to the global counts: one contended global atomic per value becomes one mostly
uncontended atomic per bin and program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


@triton.jit
def _histc_kernel(x_ptr, c_ptr, N, bins, lo, hi, scale, ITERS: tl.constexpr,
                  BLOCK: tl.constexpr, BINS: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * (BLOCK * ITERS)
    hist = tl.zeros((BINS,), dtype=tl.int32)
    for i in tl.static_range(ITERS):
        offs = start + i * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        inside = mask & (x >= lo) & (x <= hi)
        b = ((x - lo) * scale).to(tl.int32)
        b = tl.minimum(tl.maximum(b, 0), bins - 1)
        hist += tl.histogram(b, BINS, mask=inside)
    idx = tl.arange(0, BINS)
    tl.atomic_add(c_ptr + idx, hist.to(tl.float32), mask=(idx < bins) & (hist > 0))


def forward(x: torch.Tensor, bins: int, lo: float, hi: float) -> torch.Tensor:
    N = x.shape[0]
    counts = torch.empty((bins,), device=x.device, dtype=torch.float32)
    _zero_kernel[(triton.cdiv(bins, 1024),)](counts, bins, BLOCK=1024)
    BINS = triton.next_power_of_2(bins)
    BLOCK, ITERS = (4096, 1) if x.device.type == "cpu" else (4096, 8)
    scale = bins / (hi - lo)
    _histc_kernel[(triton.cdiv(N, BLOCK * ITERS),)](x, counts, N, bins, lo, hi, scale,
                                                    ITERS=ITERS, BLOCK=BLOCK, BINS=BINS,
                                                    num_warps=8)
    return counts
