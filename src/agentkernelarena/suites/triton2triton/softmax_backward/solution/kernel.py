"""Softmax backward in one kernel.

Faster than the baseline because rows of up to 8192 elements are held in registers: one
program loads its row of y and dy once, reduces the dot product and writes dx, so each input
byte is read once instead of twice and the float32 dot buffer and second launch disappear.
Longer rows fall back to two passes inside the same program. Several short rows share a
program so that small N still moves enough bytes per program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_bwd_rows(y_ptr, dy_ptr, dx_ptr, M, N, BLOCK_R: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    offs = tl.arange(0, BLOCK)
    mask = (rows[:, None] < M) & (offs[None, :] < N)
    idx = rows[:, None] * N + offs[None, :]
    y = tl.load(y_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    dot = tl.sum(y * dy, axis=1)
    tl.store(dx_ptr + idx, (y * (dy - dot[:, None])).to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _softmax_bwd_long(y_ptr, dy_ptr, dx_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for n0 in range(0, N, BLOCK):
        offs = n0 + tl.arange(0, BLOCK)
        mask = offs < N
        y = tl.load(y_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
        acc += y * dy
    dot = tl.sum(acc, axis=0)
    for n0 in range(0, N, BLOCK):
        offs = n0 + tl.arange(0, BLOCK)
        mask = offs < N
        y = tl.load(y_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(dx_ptr + row * N + offs, (y * (dy - dot)).to(dx_ptr.dtype.element_ty), mask=mask)


def forward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    M, N = y.shape
    dx = torch.empty_like(y)
    BLOCK = triton.next_power_of_2(N)
    if BLOCK <= 8192:
        BLOCK_R = max(2, min(64, 2048 // BLOCK))
        num_warps = 4 if BLOCK <= 1024 else (8 if BLOCK <= 4096 else 16)
        _softmax_bwd_rows[(triton.cdiv(M, BLOCK_R),)](y, dy, dx, M, N, BLOCK_R=BLOCK_R,
                                                       BLOCK=BLOCK, num_warps=num_warps)
    else:
        _softmax_bwd_long[(M,)](y, dy, dx, N, BLOCK=4096, num_warps=8)
    return dx
