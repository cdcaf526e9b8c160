"""torch2triton/cross_entropy_per_token: per-token cross-entropy with ignore_index -100, fused.

The logits are read once: vocabularies up to 8192 wide as register tiles of several rows,
wider ones with an online log-sum-exp (running max and rescaled sum in one pass).
"""

import torch
import triton
import triton.language as tl

MAX_TILE = 8192


@triton.jit
def _ce_tile(x_ptr, t_ptr, loss_ptr, M, V, BLOCK_M: tl.constexpr, BLOCK_V: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_V)
    rmask = rows < M
    mask = rmask[:, None] & (cols[None, :] < V)
    x = tl.load(x_ptr + rows[:, None] * V + cols[None, :], mask=mask,
                other=float("-inf")).to(tl.float32)
    row_max = tl.where(rmask, tl.max(x, axis=1), 0.0)
    lse = row_max + tl.log(tl.sum(tl.exp(x - row_max[:, None]), axis=1))
    t = tl.load(t_ptr + rows, mask=rmask, other=-100)
    valid = rmask & (t != -100)
    picked = tl.load(x_ptr + rows * V + tl.where(valid, t, 0), mask=valid, other=0.0)
    tl.store(loss_ptr + rows, tl.where(valid, lse - picked.to(tl.float32), 0.0), mask=rmask)


@triton.jit
def _ce_wide(x_ptr, t_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - safe) + tl.exp(x - safe)
        m = m_new
    row_max = tl.max(m, axis=0)
    lse = row_max + tl.log(tl.sum(s * tl.exp(m - row_max), axis=0))
    t = tl.load(t_ptr + row)
    valid = t != -100
    picked = tl.load(x_ptr + base + tl.where(valid, t, 0)).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(valid, lse - picked, 0.0))


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty((M,), device=logits.device, dtype=torch.float32)
    block_v = triton.next_power_of_2(V)
    if block_v <= MAX_TILE:
        block_m = max(1, min(32, 4096 // block_v))
        warps = 4 if block_m * block_v <= 2048 else 8
        _ce_tile[(triton.cdiv(M, block_m),)](logits, targets, loss, M, V,
                                             BLOCK_M=block_m, BLOCK_V=block_v, num_warps=warps)
    else:
        _ce_wide[(M,)](logits, targets, loss, V, BLOCK=4096, num_warps=16)
    return loss
