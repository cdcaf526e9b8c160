"""instruction2triton/cummax_rows: the running maximum in one pass, values only.

Many rows: each program scans BLOCK_M rows block by block (a max scan of the tile, then the
running maximum of the blocks before it), reading x once and writing the values once (eager's
torch.cummax also writes int64 indices). Few long rows: the rows are cut into CHUNK-element
pieces; a first kernel writes each piece's maximum, a second one takes the maximum of the
pieces before its own as carry and scans its piece.
"""

import torch
import triton
import triton.language as tl

CHUNK = 8192
MIN_ROW_PROGRAMS = 512


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _scan_rows(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    base = rows.to(tl.int64) * N
    carry = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = row_ok[:, None] & (cols[None, :] < N)
        offs = base[:, None] + cols[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=float("-inf")).to(tl.float32)
        run = tl.maximum(tl.associative_scan(x, 1, _max_combine), carry[:, None])
        tl.store(y_ptr + offs, run.to(y_ptr.dtype.element_ty), mask=mask)
        carry = tl.maximum(carry, tl.max(x, axis=1))


@triton.jit
def _piece_max(x_ptr, part_ptr, N, S, CHUNK: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    piece = tl.program_id(1)
    base = row.to(tl.int64) * N
    acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for k in range(0, CHUNK, BLOCK):
        cols = piece * CHUNK + k + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        acc = tl.maximum(acc, x)
    tl.store(part_ptr + row * S + piece, tl.max(acc, axis=0))


@triton.jit
def _scan_pieces(x_ptr, part_ptr, y_ptr, N, S, CHUNK: tl.constexpr, BLOCK: tl.constexpr,
                 BLOCK_S: tl.constexpr):
    row = tl.program_id(0)
    piece = tl.program_id(1)
    s = tl.arange(0, BLOCK_S)
    before = tl.load(part_ptr + row * S + s, mask=s < piece, other=float("-inf"))
    carry = tl.max(before, axis=0)
    base = row.to(tl.int64) * N
    for k in range(0, CHUNK, BLOCK):
        cols = piece * CHUNK + k + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=float("-inf")).to(tl.float32)
        run = tl.maximum(tl.associative_scan(x, 0, _max_combine), carry)
        tl.store(y_ptr + base + cols, run.to(y_ptr.dtype.element_ty), mask=mask)
        carry = tl.maximum(carry, tl.max(x, axis=0))


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    y = torch.empty_like(x)
    BLOCK_N = min(1024, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(16, 2048 // BLOCK_N, triton.next_power_of_2(M)))
    row_programs = triton.cdiv(M, BLOCK_M)
    if row_programs >= MIN_ROW_PROGRAMS or N <= CHUNK:
        _scan_rows[(row_programs,)](x, y, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
        return y
    S = triton.cdiv(N, CHUNK)
    part = torch.empty(M, S, device=x.device, dtype=torch.float32)
    _piece_max[(M, S)](x, part, N, S, CHUNK=CHUNK, BLOCK=2048, num_warps=8)
    _scan_pieces[(M, S)](x, part, y, N, S, CHUNK=CHUNK, BLOCK=1024,
                         BLOCK_S=triton.next_power_of_2(S), num_warps=4)
    return y
