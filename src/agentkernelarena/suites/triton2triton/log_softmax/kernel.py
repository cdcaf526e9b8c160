"""Row-wise log-softmax in three kernels: the row maximum, the sum of exponentials, then the
output x - max - log(sum). Each kernel reads the whole of x."""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_max_kernel(x_ptr, max_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        m = tl.maximum(m, x)
    tl.store(max_ptr + row, tl.max(m, axis=0))


@triton.jit
def _row_sumexp_kernel(x_ptr, max_ptr, sum_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.load(max_ptr + row)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        acc += tl.exp(x - m)
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _write_kernel(x_ptr, max_ptr, sum_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    lse = tl.load(max_ptr + row) + tl.log(tl.load(sum_ptr + row))
    tl.store(out_ptr + row * N + cols, (x - lse).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    row_max = torch.empty((M,), device=x.device, dtype=torch.float32)
    row_sum = torch.empty((M,), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)
    BLOCK = 1024
    _row_max_kernel[(M,)](x, row_max, N, BLOCK=BLOCK)
    _row_sumexp_kernel[(M,)](x, row_max, row_sum, N, BLOCK=BLOCK)
    _write_kernel[(M, triton.cdiv(N, BLOCK))](x, row_max, row_sum, out, N, BLOCK=BLOCK)
    return out
