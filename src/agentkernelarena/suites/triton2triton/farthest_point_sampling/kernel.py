"""Farthest point sampling with one kernel launch per iteration: launch i (one program per
batch) reads the point selected by launch i - 1, lowers every point's running distance with
it (kept in a global buffer) and writes the arg-max as the i-th sample. S - 1 launches, each a
full pass over the points."""

import torch
import triton
import triton.language as tl


@triton.jit
def _fps_step_kernel(xyz_ptr, dist_ptr, idx_ptr, N, S, i,
                     FIRST: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    if FIRST:
        last = 0
        tl.store(idx_ptr + b * S, tl.zeros((), dtype=tl.int64))
    else:
        last = tl.load(idx_ptr + b * S + i - 1)
    xb = xyz_ptr + b * N * 3
    cx = tl.load(xb + last * 3 + 0)
    cy = tl.load(xb + last * 3 + 1)
    cz = tl.load(xb + last * 3 + 2)
    best = tl.full((BLOCK,), -1.0, dtype=tl.float32)
    best_i = tl.zeros((BLOCK,), dtype=tl.int32)
    for n0 in range(0, N, BLOCK):
        offs = n0 + tl.arange(0, BLOCK)
        m = offs < N
        dx = tl.load(xb + offs * 3 + 0, mask=m, other=0.0) - cx
        dy = tl.load(xb + offs * 3 + 1, mask=m, other=0.0) - cy
        dz = tl.load(xb + offs * 3 + 2, mask=m, other=0.0) - cz
        d = dx * dx + dy * dy + dz * dz
        if not FIRST:
            d = tl.minimum(d, tl.load(dist_ptr + b * N + offs, mask=m, other=0.0))
        tl.store(dist_ptr + b * N + offs, d, mask=m)
        d = tl.where(m, d, -1.0)
        better = d > best
        best = tl.where(better, d, best)
        best_i = tl.where(better, offs, best_i)
    top = tl.max(best, axis=0)
    top_i = tl.min(tl.where(best == top, best_i, N), axis=0)
    tl.store(idx_ptr + b * S + i, top_i.to(tl.int64))


def forward(xyz: torch.Tensor, s: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    idx = torch.empty((B, s), device=xyz.device, dtype=torch.int64)
    dist = torch.empty((B, N), device=xyz.device, dtype=torch.float32)
    BLOCK = min(1024, triton.next_power_of_2(N))
    for i in range(1, s):
        _fps_step_kernel[(B,)](xyz, dist, idx, N, s, i, FIRST=(i == 1), BLOCK=BLOCK)
    return idx
