"""Ball query, one program per center: the program scans all N points of its batch in blocks
(no early exit), numbers the points inside the radius with a prefix count and writes the first
k of them; the remaining slots are then padded with the first one found."""

import torch
import triton
import triton.language as tl


@triton.jit
def _ball_query_kernel(c_ptr, x_ptr, idx_ptr, N, S, radius,
                       K: tl.constexpr, KP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    b = pid // S
    cx = tl.load(c_ptr + pid * 3 + 0)
    cy = tl.load(c_ptr + pid * 3 + 1)
    cz = tl.load(c_ptr + pid * 3 + 2)
    r2 = radius * radius
    xb = x_ptr + b * N * 3
    out = idx_ptr + pid * K
    cnt = tl.zeros((), dtype=tl.int32)
    first = tl.zeros((), dtype=tl.int32)
    for n0 in range(0, N, BLOCK):
        offs = n0 + tl.arange(0, BLOCK)
        m = offs < N
        dx = tl.load(xb + offs * 3 + 0, mask=m, other=0.0) - cx
        dy = tl.load(xb + offs * 3 + 1, mask=m, other=0.0) - cy
        dz = tl.load(xb + offs * 3 + 2, mask=m, other=0.0) - cz
        inside = m & (dx * dx + dy * dy + dz * dz < r2)
        ins = inside.to(tl.int32)
        pos = cnt + tl.cumsum(ins, 0) - 1
        tl.store(out + pos, offs.to(tl.int64), mask=inside & (pos < K))
        first = tl.where(cnt == 0, tl.min(tl.where(inside, offs, N), axis=0), first)
        cnt += tl.sum(ins, axis=0)
    first = tl.where(cnt > 0, first, 0)
    slots = tl.arange(0, KP)
    pad = tl.zeros((KP,), dtype=tl.int64) + first.to(tl.int64)
    tl.store(out + slots, pad, mask=(slots >= cnt) & (slots < K))


def forward(centers: torch.Tensor, xyz: torch.Tensor, radius: float, k: int) -> torch.Tensor:
    B, S, _ = centers.shape
    N = xyz.shape[1]
    idx = torch.empty((B, S, k), device=xyz.device, dtype=torch.int64)
    BLOCK = min(256, triton.next_power_of_2(N))
    _ball_query_kernel[(B * S,)](centers, xyz, idx, N, S, radius, K=k,
                                 KP=triton.next_power_of_2(k), BLOCK=BLOCK)
    return idx
