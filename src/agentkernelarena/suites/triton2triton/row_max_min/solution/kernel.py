"""Row-wise (max, min) fused into one pass.

Faster than the baseline because each row is read once instead of twice: one program keeps a
running maximum and a running minimum per lane while it streams the row in large blocks (wide
vector loads, several warps), and reduces both at the end. The comparisons run in the input
dtype's values widened to float32, which is exact.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_max_min_kernel(x_ptr, max_ptr, min_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * N
    hi = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    lo = tl.full((BLOCK,), float("inf"), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        hi = tl.maximum(hi, tl.where(mask, x, float("-inf")))
        lo = tl.minimum(lo, tl.where(mask, x, float("inf")))
    tl.store(max_ptr + row, tl.max(hi, axis=0).to(max_ptr.dtype.element_ty))
    tl.store(min_ptr + row, tl.min(lo, axis=0).to(min_ptr.dtype.element_ty))


def forward(x: torch.Tensor):
    M, N = x.shape
    mx = torch.empty((M,), device=x.device, dtype=x.dtype)
    mn = torch.empty((M,), device=x.device, dtype=x.dtype)
    BLOCK = min(4096 if x.element_size() == 2 else 2048, triton.next_power_of_2(N))
    _row_max_min_kernel[(M,)](x, mx, mn, N, BLOCK=BLOCK, num_warps=8 if BLOCK >= 2048 else 4)
    return (mx, mn)
