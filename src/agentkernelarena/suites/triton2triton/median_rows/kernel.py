"""Lower median per row by bisection over order-preserving integer keys.

The float32 bits of a value, with the low 31 bits flipped for negatives, order like the values.
Bisection finds the smallest key K with at least k + 1 keys <= K (32 steps, each re-reading
the row to count), then a last pass finds the column holding that key.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _key(x):
    bits = x.to(tl.float32).to(tl.int32, bitcast=True)
    return tl.where(bits < 0, bits ^ 0x7FFFFFFF, bits).to(tl.int64)


@triton.jit
def _median_kernel(x_ptr, val_ptr, idx_ptr, N, k, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * N
    lo = -2147483648
    hi = 2147483647
    lo = lo.to(tl.int64)
    hi = hi.to(tl.int64)
    for _ in range(32):
        mid = lo + (hi - lo) // 2
        count = tl.zeros((BLOCK,), dtype=tl.int32)
        for start in range(0, N, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            m = cols < N
            x = tl.load(base + cols, mask=m, other=0.0)
            count += (m & (_key(x) <= mid)).to(tl.int32)
        if tl.sum(count, axis=0) >= k + 1:
            hi = mid
        else:
            lo = mid + 1
    best = tl.full((BLOCK,), N, dtype=tl.int32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(base + cols, mask=m, other=0.0)
        best = tl.minimum(best, tl.where(m & (_key(x) == lo), cols, N))
    col = tl.min(best, axis=0)
    tl.store(val_ptr + row, tl.load(base + col))
    tl.store(idx_ptr + row, col.to(tl.int64))


def forward(x: torch.Tensor):
    M, N = x.shape
    values = torch.empty((M,), device=x.device, dtype=x.dtype)
    indices = torch.empty((M,), device=x.device, dtype=torch.int64)
    _median_kernel[(M,)](x, values, indices, N, (N - 1) // 2, BLOCK=1024)
    return (values, indices)
