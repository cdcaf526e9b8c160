"""Log-cumsum-exp along rows in one pass.

Faster than the baseline's four passes (x read twice, a float32 temporary written and read
back): ROWS rows per program walk their blocks left to right carrying the running maximum m
and the running sum s of exp(x - m); each block is shifted by max(m, block max), scanned
with tl.cumsum, combined with the rescaled carry and written once.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _lcse_kernel(x_ptr, out_ptr, M, N, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < M
    base = rows.to(tl.int64)[:, None] * N
    m = tl.full((ROWS,), -1.0e30, dtype=tl.float32)
    s = tl.zeros((ROWS,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = rmask[:, None] & (cols[None, :] < N)
        x = tl.load(x_ptr + base + cols[None, :], mask=mask, other=float("-inf"))
        x = x.to(tl.float32)
        new_m = tl.maximum(m, tl.max(x, axis=1))
        e = tl.exp(x - new_m[:, None])
        carry = s * tl.exp(m - new_m)
        y = new_m[:, None] + tl.log(carry[:, None] + tl.cumsum(e, axis=1))
        tl.store(out_ptr + base + cols[None, :], y.to(out_ptr.dtype.element_ty), mask=mask)
        s = carry + tl.sum(e, axis=1)
        m = new_m


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK = min(1024, triton.next_power_of_2(N))
    ROWS = max(1, min(16, 2048 // BLOCK))
    _lcse_kernel[(triton.cdiv(M, ROWS),)](x, out, M, N, ROWS=ROWS, BLOCK=BLOCK, num_warps=4)
    return out
