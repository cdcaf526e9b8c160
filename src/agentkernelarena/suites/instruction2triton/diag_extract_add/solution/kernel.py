"""instruction2triton/diag_extract_add: one copy pass with the diagonal fixed up in flight.

Each program copies a BLOCK_M x BLOCK_N tile of x to out; d is read (masked) only at the tile's
diagonal positions, so tiles off the diagonal are a plain copy and the N x N diag(d) matrix of
the eager version is never built.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _copy_add_diag(x_ptr, d_ptr, out_ptr, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < N) & (cols[None, :] < N)
    offs = rows[:, None].to(tl.int64) * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask)
    on_diag = mask & (rows[:, None] == cols[None, :])
    dv = tl.load(d_ptr + rows[:, None] + cols[None, :] * 0, mask=on_diag, other=0.0)
    summed = (x.to(tl.float32) + dv.to(tl.float32)).to(out_ptr.dtype.element_ty)
    tl.store(out_ptr + offs, tl.where(on_diag, summed, x), mask=mask)


def forward(x: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
    N = x.shape[0]
    out = torch.empty_like(x)
    BLOCK_N = min(1024, triton.next_power_of_2(N))
    BLOCK_M = max(1, min(4096 // BLOCK_N, triton.next_power_of_2(N)))
    grid = (triton.cdiv(N, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _copy_add_diag[grid](x, d, out, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=8)
    return out
