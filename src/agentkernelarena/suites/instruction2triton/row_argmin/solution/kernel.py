"""instruction2triton/row_argmin: one pass over x, the running (minimum, first index) per row.

Rows of up to 16384 elements: BLOCK_M rows per program, the row walked in BLOCK_N blocks; each
block's argmin (tl.argmin takes the first index on ties) replaces the running one only when its
minimum is strictly smaller, so an earlier position wins every tie. Few long rows are cut into
pieces: a first kernel writes each piece's (minimum, first index), a second one picks, per row,
the first piece holding the smallest minimum.
"""

import torch
import triton
import triton.language as tl

CHUNK = 65536
MIN_ROW_PROGRAMS = 264


@triton.jit
def _argmin_rows(x_ptr, val_ptr, idx_ptr, M, N, row_len, S, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    piece = tl.program_id(1)
    row_ok = rows < M
    base = rows.to(tl.int64) * N
    first = piece * row_len
    best = tl.full([BLOCK_M], float("inf"), dtype=tl.float32)
    best_i = tl.zeros([BLOCK_M], dtype=tl.int32)
    for k in range(0, row_len, BLOCK_N):
        cols = first + k + tl.arange(0, BLOCK_N)
        mask = row_ok[:, None] & (cols[None, :] < N) & (cols[None, :] < first + row_len)
        x = tl.load(x_ptr + base[:, None] + cols[None, :], mask=mask,
                    other=float("inf")).to(tl.float32)
        v, i = tl.min(x, axis=1, return_indices=True)
        take = v < best
        best = tl.where(take, v, best)
        best_i = tl.where(take, first + k + i, best_i)
    tl.store(val_ptr + rows * S + piece, best, mask=row_ok)
    tl.store(idx_ptr + rows * S + piece, best_i.to(tl.int64), mask=row_ok)


@triton.jit
def _pick_pieces(val_ptr, idx_ptr, out_ptr, S, BLOCK_S: tl.constexpr):
    row = tl.program_id(0)
    s = tl.arange(0, BLOCK_S)
    v = tl.load(val_ptr + row * S + s, mask=s < S, other=float("inf"))
    lowest = tl.min(v, axis=0)
    first = tl.min(tl.where(v == lowest, s, BLOCK_S), axis=0)
    tl.store(out_ptr + row, tl.load(idx_ptr + row * S + first))


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, device=x.device, dtype=torch.int64)
    BLOCK_N = min(2048, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(16, 4096 // BLOCK_N, triton.next_power_of_2(M)))
    row_programs = triton.cdiv(M, BLOCK_M)
    if row_programs >= MIN_ROW_PROGRAMS or N <= CHUNK:
        vals = torch.empty(M, device=x.device, dtype=torch.float32)
        _argmin_rows[(row_programs, 1)](x, vals, out, M, N, N, 1, BLOCK_M=BLOCK_M,
                                        BLOCK_N=BLOCK_N, num_warps=8)
        return out
    S = triton.cdiv(N, CHUNK)
    vals = torch.empty(M, S, device=x.device, dtype=torch.float32)
    idx = torch.empty(M, S, device=x.device, dtype=torch.int64)
    _argmin_rows[(row_programs, S)](x, vals, idx, M, N, CHUNK, S, BLOCK_M=BLOCK_M,
                                    BLOCK_N=BLOCK_N, num_warps=8)
    _pick_pieces[(M,)](vals, idx, out, S, BLOCK_S=triton.next_power_of_2(S))
    return out
