"""Row-wise softmax over the last dimension: row-max, exp-and-sum and normalize passes."""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_max_kernel(x_ptr, max_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * N + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        acc = tl.maximum(acc, v)
    tl.store(max_ptr + row, tl.max(acc, axis=0))


@triton.jit
def _exp_sum_kernel(x_ptr, max_ptr, exp_ptr, sum_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.load(max_ptr + row)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        v = tl.load(x_ptr + row * N + cols, mask=mask, other=float("-inf")).to(tl.float32)
        e = tl.exp(v - m)
        tl.store(exp_ptr + row * N + cols, e, mask=mask)
        acc += e
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _normalize_kernel(exp_ptr, sum_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    s = tl.load(sum_ptr + row)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        e = tl.load(exp_ptr + row * N + cols, mask=mask, other=0.0)
        tl.store(out_ptr + row * N + cols, (e / s).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    row_max = torch.empty((M,), device=x.device, dtype=torch.float32)
    row_sum = torch.empty((M,), device=x.device, dtype=torch.float32)
    exps = torch.empty((M, N), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 256
    grid = (M,)
    _row_max_kernel[grid](x, row_max, N, BLOCK=BLOCK)
    _exp_sum_kernel[grid](x, row_max, exps, row_sum, N, BLOCK=BLOCK)
    _normalize_kernel[grid](exps, row_sum, out, N, BLOCK=BLOCK)
    return out
