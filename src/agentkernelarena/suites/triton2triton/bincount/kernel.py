"""Bincount: zero the counts, then one global atomic increment per id."""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.zeros((BLOCK,), dtype=tl.int32), mask=offs < n)


@triton.jit
def _count_kernel(ids_ptr, c_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    ids = tl.load(ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(c_ptr + ids, tl.full((BLOCK,), 1, dtype=tl.int32), mask=mask)


def forward(ids: torch.Tensor, nbins: int) -> torch.Tensor:
    N = ids.shape[0]
    counts = torch.empty((nbins,), device=ids.device, dtype=torch.int32)
    _zero_kernel[(triton.cdiv(nbins, 1024),)](counts, nbins, BLOCK=1024)
    BLOCK = 4096 if ids.device.type == "cpu" else 1024
    _count_kernel[(triton.cdiv(N, BLOCK),)](ids, counts, N, BLOCK=BLOCK)
    return counts
