"""instruction2triton/masked_row_max: a tiled, split-N masked maximum in one pass.

Each program reduces a BLOCK_M x CHUNK slab: the mask is read once and x only where the mask
is true. Few long rows are split into S chunks whose partial maxima a second small kernel
combines; with enough rows S = 1 and the first kernel writes the result.
"""

import torch
import triton
import triton.language as tl

TARGET_PROGRAMS = 1024


@triton.jit
def _slab_max(x_ptr, m_ptr, part_ptr, M, N, CHUNK, S,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    row_base = rows.to(tl.int64) * N
    acc = tl.full([BLOCK_M, BLOCK_N], float("-inf"), dtype=tl.float32)
    start = pid_s * CHUNK
    for k in range(0, CHUNK, BLOCK_N):
        cols = start + k + tl.arange(0, BLOCK_N)
        inb = row_ok[:, None] & (cols[None, :] < N)
        offs = row_base[:, None] + cols[None, :]
        keep = tl.load(m_ptr + offs, mask=inb, other=0) != 0
        x = tl.load(x_ptr + offs, mask=inb & keep, other=float("-inf")).to(tl.float32)
        acc = tl.maximum(acc, x)
    tl.store(part_ptr + rows * S + pid_s,
             tl.max(acc, axis=1).to(part_ptr.dtype.element_ty), mask=row_ok)


@triton.jit
def _max_parts(part_ptr, out_ptr, M, S, BLOCK_M: tl.constexpr, BLOCK_S: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_S)
    mask = (rows[:, None] < M) & (cols[None, :] < S)
    p = tl.load(part_ptr + rows[:, None] * S + cols[None, :], mask=mask, other=float("-inf"))
    tl.store(out_ptr + rows, tl.max(p, axis=1), mask=rows < M)


def forward(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, device=x.device, dtype=x.dtype)
    BLOCK_N = min(1024, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(4096 // BLOCK_N, triton.next_power_of_2(M)))
    grid_m = triton.cdiv(M, BLOCK_M)
    n_blocks = triton.cdiv(N, BLOCK_N)
    S = max(1, min(n_blocks, triton.cdiv(TARGET_PROGRAMS, grid_m)))
    CHUNK = triton.cdiv(n_blocks, S) * BLOCK_N
    S = triton.cdiv(N, CHUNK)
    if S == 1:
        _slab_max[(grid_m, 1)](x, mask, out, M, N, CHUNK, 1, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                               num_warps=4)
        return out
    part = torch.empty(M, S, device=x.device, dtype=x.dtype)
    _slab_max[(grid_m, S)](x, mask, part, M, N, CHUNK, S, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                           num_warps=4)
    BLOCK_S = triton.next_power_of_2(S)
    BM2 = max(1, 2048 // BLOCK_S)
    _max_parts[(triton.cdiv(M, BM2),)](part, out, M, S, BLOCK_M=BM2, BLOCK_S=BLOCK_S)
    return out
