"""torch2triton/quantize_per_token_int8: per-token symmetric int8 quantization, fused.

Rows up to 16384 wide are read once into registers (several short rows per program): the
absolute maximum, the scale and the quantized row come from the same tile. Wider rows take two
passes in one program, the second re-reading the row mostly from L2. Divisions are IEEE
(tl.math.div_rn) and rounding is half to even, as torch.round.
"""

import torch
import triton
import triton.language as tl

MAX_TILE = 16384


@triton.jit
def _round_half_even(v):
    r = tl.floor(v + 0.5)
    odd = (r - 2.0 * tl.floor(r * 0.5)) == 1.0
    return tl.where(((r - v) == 0.5) & odd, r - 1.0, r)


@triton.jit
def _quantize(x, s):
    q = _round_half_even(tl.math.div_rn(x, s))
    return tl.minimum(tl.maximum(q, -127.0), 127.0).to(tl.int8)


@triton.jit
def _quant_tile(x_ptr, s_ptr, q_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    mask = rmask[:, None] & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.math.div_rn(tl.max(tl.abs(x), axis=1), tl.full((BLOCK_M,), 127.0, tl.float32))
    tl.store(s_ptr + rows, s, mask=rmask)
    s = tl.where(rmask, s, 1.0)
    tl.store(q_ptr + offs, _quantize(x, s[:, None]), mask=mask)


@triton.jit
def _quant_wide(x_ptr, s_ptr, q_ptr, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    m = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
        m = tl.maximum(m, tl.abs(x))
    s = tl.math.div_rn(tl.max(m, axis=0), 127.0)
    tl.store(s_ptr + tl.program_id(0), s)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(q_ptr + base + cols, _quantize(x, s), mask=mask)


def forward(x: torch.Tensor) -> tuple:
    M, N = x.shape
    q = torch.empty((M, N), device=x.device, dtype=torch.int8)
    scale = torch.empty((M, 1), device=x.device, dtype=torch.float32)
    block_n = triton.next_power_of_2(N)
    if block_n <= MAX_TILE:
        block_m = max(1, min(32, 4096 // block_n))
        warps = 4 if block_m * block_n <= 2048 else (8 if block_m * block_n <= 8192 else 16)
        _quant_tile[(triton.cdiv(M, block_m),)](x, scale, q, M, N, BLOCK_M=block_m,
                                                BLOCK_N=block_n, num_warps=warps)
    else:
        _quant_wide[(M,)](x, scale, q, N, BLOCK=4096, num_warps=16)
    return (q, scale)
