"""Sort (token, slot) pairs by expert, stably: one program per expert counts its pairs, one
program turns the counts into offsets, then one program per expert writes the positions of its
pairs in order (each expert's programs scan all the routed ids)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _count_kernel(ids_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    e = tl.program_id(0)
    total = 0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ids = tl.load(ids_ptr + offs, mask=offs < n, other=-1)
        total += tl.sum((ids == e).to(tl.int32), axis=0)
    tl.store(counts_ptr + e, total)


@triton.jit
def _offsets_kernel(counts_ptr, offsets_ptr, E, BLOCK_E: tl.constexpr):
    offs = tl.arange(0, BLOCK_E)
    counts = tl.load(counts_ptr + offs, mask=offs < E, other=0)
    incl = tl.cumsum(counts, axis=0)
    tl.store(offsets_ptr + 1 + offs, incl, mask=offs < E)
    tl.store(offsets_ptr + offs, incl - counts, mask=offs == 0)


@triton.jit
def _scatter_kernel(ids_ptr, offsets_ptr, sorted_ptr, n, BLOCK: tl.constexpr):
    e = tl.program_id(0)
    base = tl.load(offsets_ptr + e)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ids = tl.load(ids_ptr + offs, mask=offs < n, other=-1)
        match = (ids == e).to(tl.int32)
        pos = base + tl.cumsum(match, axis=0) - 1
        tl.store(sorted_ptr + pos, offs, mask=match > 0)
        base += tl.sum(match, axis=0)


def forward(topk_ids: torch.Tensor, num_experts: int):
    n = topk_ids.numel()
    counts = torch.empty((num_experts,), device=topk_ids.device, dtype=torch.int32)
    offsets = torch.empty((num_experts + 1,), device=topk_ids.device, dtype=torch.int32)
    sorted_ids = torch.empty((n,), device=topk_ids.device, dtype=torch.int32)
    BLOCK = 1024
    _count_kernel[(num_experts,)](topk_ids, counts, n, BLOCK=BLOCK)
    _offsets_kernel[(1,)](counts, offsets, num_experts,
                          BLOCK_E=max(2, triton.next_power_of_2(num_experts)))
    _scatter_kernel[(num_experts,)](topk_ids, offsets, sorted_ids, n, BLOCK=BLOCK)
    return (sorted_ids, offsets)
