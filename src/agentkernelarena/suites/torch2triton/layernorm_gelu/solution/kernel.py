"""torch2triton/layernorm_gelu: gelu(layer_norm(x)) with the erf GELU, fused.

One kernel reads x once and writes the activation once. Rows up to 8192 wide are held in
registers (several short rows per program, exact two-pass statistics on the tile); wider rows
take three passes in one program, the later ones re-reading the row mostly from L2.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-5
MAX_TILE = 8192


@triton.jit
def _gelu(y):
    return 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476))


@triton.jit
def _ln_gelu_tile(x_ptr, w_ptr, b_ptr, out_ptr, M, N, eps,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    mask = (rows[:, None] < M) & cmask[None, :]
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    d = tl.where(mask, x - mean[:, None], 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, axis=1) / N + eps)
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    y = d * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(out_ptr + offs, _gelu(y).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _ln_gelu_wide(x_ptr, w_ptr, b_ptr, out_ptr, N, eps, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(out_ptr + base + cols, _gelu(y).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    block_n = triton.next_power_of_2(N)
    if block_n <= MAX_TILE:
        block_m = max(1, min(32, 4096 // block_n))
        warps = 4 if block_m * block_n <= 2048 else (8 if block_m * block_n <= 4096 else 16)
        _ln_gelu_tile[(triton.cdiv(M, block_m),)](x, weight, bias, out, M, N, EPS,
                                                  BLOCK_M=block_m, BLOCK_N=block_n,
                                                  num_warps=warps)
    else:
        _ln_gelu_wide[(M,)](x, weight, bias, out, N, EPS, BLOCK=4096, num_warps=16)
    return out
