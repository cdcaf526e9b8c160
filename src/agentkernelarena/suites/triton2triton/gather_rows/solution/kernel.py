"""Row gather with row tiles.

Faster than the baseline because each program copies a tile of ROWS output rows by BLOCK_D
columns: the table index is loaded once per row, addresses are a per-row base plus a column
range (no 64-bit division or modulo per element, which made the baseline instruction-bound),
and each row moves as wide contiguous vector loads and stores.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _gather_rows_kernel(table_ptr, idx_ptr, out_ptr, T, D,
                        ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < T
    src = tl.load(idx_ptr + rows, mask=rmask, other=0).to(tl.int64)
    dst = rows.to(tl.int64)
    for d0 in range(0, D, BLOCK_D):
        cols = d0 + tl.arange(0, BLOCK_D)
        mask = rmask[:, None] & (cols < D)[None, :]
        v = tl.load(table_ptr + src[:, None] * D + cols[None, :], mask=mask)
        tl.store(out_ptr + dst[:, None] * D + cols[None, :], v, mask=mask)


def forward(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    D = table.shape[1]
    T = idx.shape[0]
    out = torch.empty((T, D), device=table.device, dtype=table.dtype)
    BLOCK_D = min(4096 // table.element_size(), triton.next_power_of_2(D))
    ROWS = max(1, 4096 // (BLOCK_D * table.element_size()))
    _gather_rows_kernel[(triton.cdiv(T, ROWS),)](table, idx, out, T, D, ROWS=ROWS,
                                                 BLOCK_D=BLOCK_D, num_warps=4)
    return out
