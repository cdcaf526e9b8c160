"""Sums of variable-length segments (CSR offsets), load-balanced.

Faster than the baseline, whose one program per segment wastes most lanes on short segments
and leaves one program to stream a huge segment alone. Here:
1. every program sums the first CAP elements of G consecutive segments at once, in G x L
   tiles (G chosen from the number of segments so there are enough programs), writes those
   partial sums, and for each segment longer than CAP marks the CH-element chunks of x that
   start inside it as owned by it;
2. one program per CH-element chunk of x: if a long segment owns it, it sums the chunk's
   elements past that segment's first CAP and atomically adds them to the segment's sum
   (CH <= CAP, so a chunk holds the remainder of at most one long segment).
The inputs' values make every order of summation exact, so the atomics are deterministic.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _heads_kernel(x_ptr, offsets_ptr, out_ptr, owner_ptr, B,
                  G: tl.constexpr, L: tl.constexpr, CAP: tl.constexpr, CH: tl.constexpr,
                  J: tl.constexpr):
    segs = tl.program_id(0) * G + tl.arange(0, G)
    smask = segs < B
    start = tl.load(offsets_ptr + segs, mask=smask, other=0).to(tl.int64)
    end = tl.load(offsets_ptr + segs + 1, mask=smask, other=0).to(tl.int64)
    length = end - start
    head = tl.minimum(length, CAP)
    acc = tl.zeros((G, L), dtype=tl.float32)
    for i in range(0, tl.max(head, axis=0), L):
        pos = i + tl.arange(0, L)
        m = pos[None, :] < head[:, None]
        acc += tl.load(x_ptr + start[:, None] + pos[None, :], mask=m, other=0.0)
    tl.store(out_ptr + segs, tl.sum(acc, axis=1), mask=smask)
    # Chunks c with c * CH in [start, end) of a long segment belong to it.
    c_lo = (start + CH - 1) // CH
    n = tl.where(length > CAP, (end + CH - 1) // CH - c_lo, 0)
    for j in range(0, tl.max(n, axis=0), J):
        k = j + tl.arange(0, J)
        m = k[None, :] < n[:, None]
        tl.store(owner_ptr + c_lo[:, None] + k[None, :],
                 tl.broadcast_to(segs[:, None], (G, J)), mask=m)


@triton.jit
def _tails_kernel(x_ptr, offsets_ptr, out_ptr, owner_ptr,
                  CAP: tl.constexpr, CH: tl.constexpr, BLOCK: tl.constexpr):
    c = tl.program_id(0).to(tl.int64)
    seg = tl.load(owner_ptr + c)
    if seg >= 0:
        start = tl.load(offsets_ptr + seg).to(tl.int64)
        end = tl.load(offsets_ptr + seg + 1).to(tl.int64)
        lo = tl.maximum(start + CAP, c * CH)
        hi = tl.minimum(end, c * CH + CH)
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
        for i in range(0, CH, BLOCK):
            idx = c * CH + i + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + idx, mask=(idx >= lo) & (idx < hi), other=0.0)
        if lo < hi:
            tl.atomic_add(out_ptr + seg, tl.sum(acc, axis=0), sem="relaxed")


def forward(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    T = x.shape[0]
    B = offsets.shape[0] - 1
    out = torch.empty((B,), device=x.device, dtype=x.dtype)
    CH = CAP = 4096
    n_chunks = triton.cdiv(T, CH)
    owner = torch.full((max(n_chunks, 1),), -1, device=x.device, dtype=torch.int32)
    G = max(1, min(64, triton.next_power_of_2(B) // 1024))
    L = 2048 // G
    _heads_kernel[(triton.cdiv(B, G),)](x, offsets, out, owner, B, G=G, L=L, CAP=CAP, CH=CH,
                                        J=256, num_warps=4)
    if n_chunks > 0:
        _tails_kernel[(n_chunks,)](x, offsets, out, owner, CAP=CAP, CH=CH, BLOCK=1024,
                                   num_warps=4)
    return out
