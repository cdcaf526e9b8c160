"""Row index_add into a fresh output, with row tiles.

Faster than the baseline because the scatter-add works on tiles of ROWS source rows by BLOCK_D
columns: each destination index is loaded once per row (not once per element), addresses come
from a per-row base plus a column range (no 64-bit division or modulo per element), and the
atomic adds of a row are issued as wide contiguous runs. The copy of base into the output uses
large blocks with several warps.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


@triton.jit
def _scatter_add_rows_kernel(src_ptr, index_ptr, out_ptr, L, D,
                             ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    rmask = rows < L
    dst = tl.load(index_ptr + rows, mask=rmask, other=0)
    mask = rmask[:, None] & (cols < D)[None, :]
    v = tl.load(src_ptr + rows.to(tl.int64)[:, None] * D + cols[None, :], mask=mask, other=0.0)
    tl.atomic_add(out_ptr + dst[:, None] * D + cols[None, :], v, mask=mask, sem="relaxed")


def forward(base: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    N, D = base.shape
    L = index.shape[0]
    out = torch.empty_like(base)
    COPY = 4096
    _copy_kernel[(triton.cdiv(N * D, COPY),)](base, out, N * D, BLOCK=COPY, num_warps=8)
    BLOCK_D = min(512, triton.next_power_of_2(D))
    ROWS = max(1, 2048 // BLOCK_D)
    grid = (triton.cdiv(L, ROWS), triton.cdiv(D, BLOCK_D))
    _scatter_add_rows_kernel[grid](src, index, out, L, D, ROWS=ROWS, BLOCK_D=BLOCK_D,
                                   num_warps=4)
    return out
