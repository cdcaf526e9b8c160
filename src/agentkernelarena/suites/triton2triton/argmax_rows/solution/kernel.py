"""Row-wise argmax in one pass over the data.

Faster than the baseline because each row is read once instead of twice: every lane keeps its
own running (maximum, column) pair while the program streams the row in large blocks (a strict
`>` keeps a lane's earliest column on ties, since a lane sees its columns in increasing order),
and the lanes are combined at the end: the maximum, then the smallest column holding it. Rows are
streamed with wide vectorized loads and several warps per program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _argmax_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * N
    best = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    best_i = tl.zeros((BLOCK,), dtype=tl.int32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        better = x > best
        best = tl.where(better, x, best)
        best_i = tl.where(better, cols, best_i)
    m = tl.max(best, axis=0)
    idx = tl.min(tl.where(best == m, best_i, N), axis=0)
    tl.store(out_ptr + row, idx.to(tl.int64))


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((M,), device=x.device, dtype=torch.int64)
    BLOCK = min(4096 if x.element_size() == 2 else 2048, triton.next_power_of_2(N))
    _argmax_kernel[(M,)](x, out, N, BLOCK=BLOCK, num_warps=8 if BLOCK >= 2048 else 4)
    return out
