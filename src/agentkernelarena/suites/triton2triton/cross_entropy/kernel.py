"""Per-row cross-entropy (no reduction): row max, sum of exponentials, target gather, combine."""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_max_kernel(logits_ptr, max_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(logits_ptr + row * V + cols, mask=cols < V, other=float("-inf"))
        acc = tl.maximum(acc, v.to(tl.float32))
    tl.store(max_ptr + row, tl.max(acc, axis=0))


@triton.jit
def _row_sum_exp_kernel(logits_ptr, max_ptr, sum_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.load(max_ptr + row)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(logits_ptr + row * V + cols, mask=cols < V, other=float("-inf"))
        acc += tl.exp(v.to(tl.float32) - m)
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _gather_target_kernel(logits_ptr, targets_ptr, tgt_ptr, M, V, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    t = tl.load(targets_ptr + rows, mask=mask, other=0)
    v = tl.load(logits_ptr + rows.to(tl.int64) * V + t, mask=mask, other=0.0)
    tl.store(tgt_ptr + rows, v.to(tl.float32), mask=mask)


@triton.jit
def _combine_kernel(max_ptr, sum_ptr, tgt_ptr, loss_ptr, M, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    m = tl.load(max_ptr + rows, mask=mask, other=0.0)
    s = tl.load(sum_ptr + rows, mask=mask, other=1.0)
    xt = tl.load(tgt_ptr + rows, mask=mask, other=0.0)
    tl.store(loss_ptr + rows, m + tl.log(s) - xt, mask=mask)


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    row_max = torch.empty((M,), device=logits.device, dtype=torch.float32)
    row_sum = torch.empty((M,), device=logits.device, dtype=torch.float32)
    tgt = torch.empty((M,), device=logits.device, dtype=torch.float32)
    loss = torch.empty((M,), device=logits.device, dtype=torch.float32)
    BLOCK = 256
    _row_max_kernel[(M,)](logits, row_max, V, BLOCK=BLOCK)
    _row_sum_exp_kernel[(M,)](logits, row_max, row_sum, V, BLOCK=BLOCK)
    grid = (triton.cdiv(M, BLOCK),)
    _gather_target_kernel[grid](logits, targets, tgt, M, V, BLOCK=BLOCK)
    _combine_kernel[grid](row_max, row_sum, tgt, loss, M, BLOCK=BLOCK)
    return loss
