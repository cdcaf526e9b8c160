"""instruction2triton/row_minmax_normalize: one pass while a row fits on chip, chunked otherwise.

Rows of up to 16384 elements: BLOCK_M rows per program, held in registers between the min/max
reduction and the scaling (x read once, y written once). Longer rows are cut into CHUNK-element
pieces so that even a few rows fill the GPU: one kernel writes each piece's min and max, a
second one reduces its row's pieces and scales its piece.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-6
RESIDENT_MAX = 16384
CHUNK = 8192


@triton.jit
def _minmax_rows_resident(x_ptr, y_ptr, M, N, eps, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None].to(tl.int64) * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    mn = tl.min(tl.where(mask, x, float("inf")), axis=1)
    mx = tl.max(tl.where(mask, x, float("-inf")), axis=1)
    y = (x - mn[:, None]) / (mx - mn + eps)[:, None]
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _piece_minmax(x_ptr, mn_ptr, mx_ptr, N, S, CHUNK: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    piece = tl.program_id(1)
    base = row.to(tl.int64) * N
    lo = tl.full([BLOCK], float("inf"), tl.float32)
    hi = tl.full([BLOCK], float("-inf"), tl.float32)
    for k in range(0, CHUNK, BLOCK):
        cols = piece * CHUNK + k + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
        lo = tl.minimum(lo, tl.where(cols < N, x, float("inf")))
        hi = tl.maximum(hi, tl.where(cols < N, x, float("-inf")))
    tl.store(mn_ptr + row * S + piece, tl.min(lo, axis=0))
    tl.store(mx_ptr + row * S + piece, tl.max(hi, axis=0))


@triton.jit
def _scale_pieces(x_ptr, mn_ptr, mx_ptr, y_ptr, N, S, eps, CHUNK: tl.constexpr,
                  BLOCK: tl.constexpr, BLOCK_S: tl.constexpr):
    row = tl.program_id(0)
    piece = tl.program_id(1)
    s = tl.arange(0, BLOCK_S)
    mn = tl.min(tl.load(mn_ptr + row * S + s, mask=s < S, other=float("inf")), axis=0)
    mx = tl.max(tl.load(mx_ptr + row * S + s, mask=s < S, other=float("-inf")), axis=0)
    denom = mx - mn + eps
    base = row.to(tl.int64) * N
    for k in range(0, CHUNK, BLOCK):
        cols = piece * CHUNK + k + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + cols, ((x - mn) / denom).to(y_ptr.dtype.element_ty),
                 mask=cols < N)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    y = torch.empty_like(x)
    if N <= RESIDENT_MAX:
        BLOCK_N = triton.next_power_of_2(N)
        BLOCK_M = max(1, min(64, 4096 // BLOCK_N))
        tile = BLOCK_N * BLOCK_M
        warps = 4 if tile <= 2048 else (8 if tile <= 4096 else 16)
        _minmax_rows_resident[(triton.cdiv(M, BLOCK_M),)](x, y, M, N, EPS, BLOCK_M=BLOCK_M,
                                                          BLOCK_N=BLOCK_N, num_warps=warps)
        return y
    S = triton.cdiv(N, CHUNK)
    mn = torch.empty(M, S, device=x.device, dtype=torch.float32)
    mx = torch.empty(M, S, device=x.device, dtype=torch.float32)
    _piece_minmax[(M, S)](x, mn, mx, N, S, CHUNK=CHUNK, BLOCK=4096, num_warps=8)
    _scale_pieces[(M, S)](x, mn, mx, y, N, S, EPS, CHUNK=CHUNK, BLOCK=4096,
                          BLOCK_S=triton.next_power_of_2(S), num_warps=8)
    return y
