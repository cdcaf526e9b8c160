"""instruction2triton/row_l1_normalize: one pass while a row fits on chip, chunked otherwise.

Rows of up to 16384 elements: BLOCK_M rows per program, held in registers between the sum and
the scaling (x read once, y written once). Longer rows are cut into CHUNK-element pieces so
that even a few rows fill the GPU: one kernel writes each piece's sum of |x|, a second one adds
up its row's piece sums and scales its piece.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-12
RESIDENT_MAX = 16384
CHUNK = 8192


@triton.jit
def _l1_rows_resident(x_ptr, y_ptr, M, N, eps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None].to(tl.int64) * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    denom = tl.maximum(tl.sum(tl.abs(x), axis=1), eps)
    tl.store(y_ptr + offs, (x / denom[:, None]).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _piece_abs_sums(x_ptr, part_ptr, N, S, CHUNK: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    piece = tl.program_id(1)
    base = row.to(tl.int64) * N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, CHUNK, BLOCK):
        cols = piece * CHUNK + k + tl.arange(0, BLOCK)
        acc += tl.abs(tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32))
    tl.store(part_ptr + row * S + piece, tl.sum(acc, axis=0))


@triton.jit
def _scale_pieces(x_ptr, part_ptr, y_ptr, N, S, eps, CHUNK: tl.constexpr, BLOCK: tl.constexpr,
                  BLOCK_S: tl.constexpr):
    row = tl.program_id(0)
    piece = tl.program_id(1)
    s = tl.arange(0, BLOCK_S)
    parts = tl.load(part_ptr + row * S + s, mask=s < S, other=0.0)
    denom = tl.maximum(tl.sum(parts, axis=0), eps)
    base = row.to(tl.int64) * N
    for k in range(0, CHUNK, BLOCK):
        cols = piece * CHUNK + k + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + cols, (x / denom).to(y_ptr.dtype.element_ty), mask=cols < N)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    y = torch.empty_like(x)
    if N <= RESIDENT_MAX:
        BLOCK_N = triton.next_power_of_2(N)
        BLOCK_M = max(1, min(64, 4096 // BLOCK_N))
        tile = BLOCK_N * BLOCK_M
        warps = 4 if tile <= 2048 else (8 if tile <= 4096 else 16)
        _l1_rows_resident[(triton.cdiv(M, BLOCK_M),)](x, y, M, N, EPS, BLOCK_M=BLOCK_M,
                                                      BLOCK_N=BLOCK_N, num_warps=warps)
        return y
    S = triton.cdiv(N, CHUNK)
    part = torch.empty(M, S, device=x.device, dtype=torch.float32)
    _piece_abs_sums[(M, S)](x, part, N, S, CHUNK=CHUNK, BLOCK=4096, num_warps=8)
    _scale_pieces[(M, S)](x, part, y, N, S, EPS, CHUNK=CHUNK, BLOCK=4096,
                          BLOCK_S=triton.next_power_of_2(S), num_warps=8)
    return y
