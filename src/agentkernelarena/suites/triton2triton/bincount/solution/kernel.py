"""Bincount with a per-program histogram.

Faster than the baseline because each program first counts a large block of ids into a
private histogram (tl.histogram, in registers / shared memory) and then adds only its NBINS
bin totals to the global counts: N global atomics, most of them on the same few hot bins and so
serialized in L2, become cdiv(N, BLOCK) * NBINS mostly uncontended ones.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.zeros((BLOCK,), dtype=tl.int32), mask=offs < n)


@triton.jit
def _hist_kernel(ids_ptr, c_ptr, N, NBINS, ITERS: tl.constexpr, BLOCK: tl.constexpr,
                 BINS: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * (BLOCK * ITERS)
    hist = tl.zeros((BINS,), dtype=tl.int32)
    for i in tl.static_range(ITERS):
        offs = start + i * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        ids = tl.load(ids_ptr + offs, mask=mask, other=0)
        hist += tl.histogram(ids, BINS, mask=mask)
    bins = tl.arange(0, BINS)
    tl.atomic_add(c_ptr + bins, hist, mask=(bins < NBINS) & (hist > 0))


def forward(ids: torch.Tensor, nbins: int) -> torch.Tensor:
    N = ids.shape[0]
    counts = torch.empty((nbins,), device=ids.device, dtype=torch.int32)
    _zero_kernel[(triton.cdiv(nbins, 1024),)](counts, nbins, BLOCK=1024)
    BINS = triton.next_power_of_2(nbins)
    BLOCK, ITERS = (4096, 1) if ids.device.type == "cpu" else (4096, 8)
    _hist_kernel[(triton.cdiv(N, BLOCK * ITERS),)](ids, counts, N, nbins, ITERS=ITERS,
                                                   BLOCK=BLOCK, BINS=BINS, num_warps=8)
    return counts
