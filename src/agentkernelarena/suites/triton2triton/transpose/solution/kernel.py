"""Matrix transpose: out = x.T as a contiguous (N, M) tensor, for a row-major (M, N) x.

Faster than the element-wise version: each program loads a [BLOCK_M, BLOCK_N] tile of x with
coalesced row reads, transposes it in registers / shared memory (tl.trans), and stores it as a
[BLOCK_N, BLOCK_M] tile with coalesced row writes, instead of scattering every element with a
stride of M elements (one memory sector per element written). No integer division per element.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _transpose_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    n_tiles_n = tl.cdiv(N, BLOCK_N)
    pid = tl.program_id(0)
    rows = (pid // n_tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = (pid % n_tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    rmask = rows < M
    cmask = cols < N
    tile = tl.load(
        x_ptr + rows.to(tl.int64)[:, None] * N + cols[None, :],
        mask=rmask[:, None] & cmask[None, :],
    )
    tl.store(
        out_ptr + cols.to(tl.int64)[:, None] * M + rows[None, :],
        tl.trans(tile),
        mask=cmask[:, None] & rmask[None, :],
    )


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    BLOCK_M = min(64, max(16, triton.next_power_of_2(M)))
    BLOCK_N = min(64, max(16, triton.next_power_of_2(N)))
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _transpose_kernel[grid](x, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
