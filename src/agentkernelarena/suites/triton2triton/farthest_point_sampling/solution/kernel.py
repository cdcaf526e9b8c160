"""Farthest point sampling in one launch: one program per batch loops over the S - 1
iterations in-kernel; when the cloud fits (N <= 8192) the points and their running distances
stay in registers for the whole loop, otherwise the distances live in a global buffer that the
program alone reads and writes (cache-resident). The selected point's coordinates are
re-read by index, and the arg-max (ties to the smallest index) is a block reduction."""

import torch
import triton
import triton.language as tl


@triton.jit
def _fps_regs_kernel(xyz_ptr, idx_ptr, N, S, BLOCK: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    xb = xyz_ptr + b * N * 3
    offs = tl.arange(0, BLOCK)
    m = offs < N
    px = tl.load(xb + offs * 3 + 0, mask=m, other=0.0)
    py = tl.load(xb + offs * 3 + 1, mask=m, other=0.0)
    pz = tl.load(xb + offs * 3 + 2, mask=m, other=0.0)
    dist = tl.where(m, float("inf"), -1.0)
    tl.store(idx_ptr + b * S, tl.zeros((), dtype=tl.int64))
    last = tl.zeros((), dtype=tl.int32)
    for i in range(1, S):
        cx = tl.load(xb + last * 3 + 0)
        cy = tl.load(xb + last * 3 + 1)
        cz = tl.load(xb + last * 3 + 2)
        dx = px - cx
        dy = py - cy
        dz = pz - cz
        dist = tl.minimum(dist, dx * dx + dy * dy + dz * dz)
        top = tl.max(dist, axis=0)
        last = tl.min(tl.where(dist == top, offs, BLOCK), axis=0)
        tl.store(idx_ptr + b * S + i, last.to(tl.int64))


@triton.jit
def _fps_loop_kernel(xyz_ptr, dist_ptr, idx_ptr, N, S, BLOCK: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    xb = xyz_ptr + b * N * 3
    db = dist_ptr + b * N
    tl.store(idx_ptr + b * S, tl.zeros((), dtype=tl.int64))
    last = tl.zeros((), dtype=tl.int32)
    for i in range(1, S):
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
            if i > 1:
                d = tl.minimum(d, tl.load(db + offs, mask=m, other=0.0))
            tl.store(db + offs, d, mask=m)
            d = tl.where(m, d, -1.0)
            better = d > best
            best = tl.where(better, d, best)
            best_i = tl.where(better, offs, best_i)
        top = tl.max(best, axis=0)
        last = tl.min(tl.where(best == top, best_i, N), axis=0)
        tl.store(idx_ptr + b * S + i, last.to(tl.int64))
        # The next iteration's program-wide reads of dist must see this one's writes.
        tl.debug_barrier()


def forward(xyz: torch.Tensor, s: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    idx = torch.empty((B, s), device=xyz.device, dtype=torch.int64)
    if N <= 8192:
        BLOCK = max(16, triton.next_power_of_2(N))
        num_warps = max(1, min(16, BLOCK // 512))
        _fps_regs_kernel[(B,)](xyz, idx, N, s, BLOCK=BLOCK, num_warps=num_warps)
    else:
        dist = torch.empty((B, N), device=xyz.device, dtype=torch.float32)
        _fps_loop_kernel[(B,)](xyz, dist, idx, N, s, BLOCK=2048, num_warps=8)
    return idx
