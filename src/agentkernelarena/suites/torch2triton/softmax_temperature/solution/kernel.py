"""torch2triton/softmax_temperature: softmax(logits / T), fused.

Rows up to 16384 wide are loaded once into registers (several short rows per program). Wider
rows take an online pass (running max and rescaled sum together) and one normalizing pass
that re-reads the row, mostly from L2.
"""

import torch
import triton
import triton.language as tl

MAX_TILE = 16384


@triton.jit
def _softmax_tile(x_ptr, y_ptr, M, V, inv_t, BLOCK_M: tl.constexpr, BLOCK_V: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_V)
    mask = (rows[:, None] < M) & (cols[None, :] < V)
    offs = rows[:, None] * V + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf")).to(tl.float32) * inv_t
    row_max = tl.max(x, axis=1)
    row_max = tl.where(rows < M, row_max, 0.0)
    e = tl.exp(x - row_max[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + offs, p.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _softmax_wide(x_ptr, y_ptr, V, inv_t, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * V
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        x = x * inv_t
        m_new = tl.maximum(m, x)
        # Lanes that saw only padding keep m = -inf: guard the rescale against inf - inf.
        safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - safe) + tl.exp(x - safe)
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - row_max), axis=0)
    inv_sum = 1.0 / total
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(x_ptr + base + cols, mask=mask, other=float("-inf")).to(tl.float32)
        p = tl.exp(x * inv_t - row_max) * inv_sum
        tl.store(y_ptr + base + cols, p.to(y_ptr.dtype.element_ty), mask=mask)


def forward(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    M, V = logits.shape
    out = torch.empty_like(logits)
    block_v = triton.next_power_of_2(V)
    if block_v <= MAX_TILE:
        block_m = max(1, min(16, 4096 // block_v))
        warps = 4 if block_m * block_v <= 2048 else (8 if block_m * block_v <= 8192 else 16)
        _softmax_tile[(triton.cdiv(M, block_m),)](logits, out, M, V, 1.0 / temperature,
                                                  BLOCK_M=block_m, BLOCK_V=block_v,
                                                  num_warps=warps)
    else:
        _softmax_wide[(M,)](logits, out, V, 1.0 / temperature, BLOCK=4096, num_warps=16)
    return out
