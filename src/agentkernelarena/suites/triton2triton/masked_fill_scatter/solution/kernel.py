"""Masked scatter of feature rows into token rows, in two kernels.

Faster than the baseline: no serial scan, no rank buffer and no per-element 64-bit division.
A first kernel counts the masked tokens of every chunk of CT tokens. Then each program takes
one chunk: it sums the counts of the chunks before it (its first source row), ranks its
masked tokens with a local prefix sum, and copies whole rows in CT x BLOCK_D tiles, reading
each row once from src (masked tokens) or from x (the others) and writing it once.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _count_kernel(mask_ptr, counts_ptr, T, CT: tl.constexpr):
    pid = tl.program_id(0)
    t = pid * CT + tl.arange(0, CT)
    m = tl.load(mask_ptr + t, mask=t < T, other=0).to(tl.int32)
    tl.store(counts_ptr + pid, tl.sum(m, axis=0))


@triton.jit
def _merge_kernel(x_ptr, mask_ptr, counts_ptr, src_ptr, out_ptr, T, D,
                  CT: tl.constexpr, BLOCK_D: tl.constexpr, C_BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    before = tl.zeros((), dtype=tl.int32)
    for c0 in range(0, pid, C_BLOCK):
        c = c0 + tl.arange(0, C_BLOCK)
        before += tl.sum(tl.load(counts_ptr + c, mask=c < pid, other=0), axis=0)
    t = pid * CT + tl.arange(0, CT)
    tmask = t < T
    mi = tl.load(mask_ptr + t, mask=tmask, other=0).to(tl.int32)
    m = mi != 0
    r = (before + tl.cumsum(mi, axis=0) - mi).to(tl.int64)
    rows = t.to(tl.int64)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        inb = tmask[:, None] & (d < D)[None, :]
        a = tl.load(src_ptr + r[:, None] * D + d[None, :], mask=inb & m[:, None])
        b = tl.load(x_ptr + rows[:, None] * D + d[None, :], mask=inb & (~m)[:, None])
        tl.store(out_ptr + rows[:, None] * D + d[None, :], tl.where(m[:, None], a, b), mask=inb)


def forward(x: torch.Tensor, mask: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    T, D = x.shape
    out = torch.empty_like(x)
    # At most ~4096 chunks, so that summing the counts before a chunk stays cheap.
    CT = min(256, max(16, triton.next_power_of_2(triton.cdiv(T, 4096))))
    n_chunks = triton.cdiv(T, CT)
    counts = torch.empty((n_chunks,), device=x.device, dtype=torch.int32)
    m8 = mask.view(torch.uint8)
    _count_kernel[(n_chunks,)](m8, counts, T, CT=CT)
    BLOCK_D = min(triton.next_power_of_2(D), max(16, 4096 // CT))
    C_BLOCK = min(1024, triton.next_power_of_2(n_chunks))
    _merge_kernel[(n_chunks,)](x, m8, counts, src, out, T, D, CT=CT, BLOCK_D=BLOCK_D,
                               C_BLOCK=C_BLOCK, num_warps=4)
    return out
