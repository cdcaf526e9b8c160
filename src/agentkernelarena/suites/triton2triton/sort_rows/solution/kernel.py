"""Row-wise sort with an in-register bitonic network.

Faster than the baseline because a bitonic sort does O(N log^2 N) compare-exchanges per row
instead of the O(N^2) comparisons of ranking, entirely in registers. Each program loads ROWS
whole rows padded to a power of two with +inf (which sort to the end and are not stored),
views the tile as a hypercube [2, 2, ..., 2] and runs the network: a compare-exchange along
hypercube dimension d is the min and the max over that size-2 dimension, written back to the
lower and upper position (swapped where the bitonic stage sorts the block descending).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _bit(n_dims: tl.constexpr, j: tl.constexpr):
    # 0/1 along the hypercube dimension holding bit j of the flat index, size 1 elsewhere.
    return tl.reshape(tl.arange(0, 2), [1] * (n_dims - j - 1) + [2] + [1] * j)


@triton.jit
def _compare_exchange(x, flip, j: tl.constexpr, n_dims: tl.constexpr):
    lo = tl.min(x, axis=n_dims - 1 - j, keep_dims=True)
    hi = tl.max(x, axis=n_dims - 1 - j, keep_dims=True)
    return tl.where((_bit(n_dims, j) ^ flip) == 1, hi, lo)


@triton.jit
def _sort_kernel(x_ptr, out_ptr, M, N, ROWS: tl.constexpr, BLOCK: tl.constexpr,
                 LOG_N: tl.constexpr, N_DIMS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=float("inf"))
    h = tl.reshape(x, [2] * N_DIMS)
    for stage in tl.static_range(1, LOG_N + 1):
        if stage < LOG_N:
            flip = _bit(N_DIMS, stage)
        else:
            flip = 0
        for k in tl.static_range(stage):
            h = _compare_exchange(h, flip, stage - 1 - k, N_DIMS)
    tl.store(out_ptr + offs, tl.reshape(h, [ROWS, BLOCK]), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK = max(2, triton.next_power_of_2(N))
    ROWS = max(1, min(16, 2048 // BLOCK))
    log_n = BLOCK.bit_length() - 1
    n_dims = log_n + ROWS.bit_length() - 1
    _sort_kernel[(triton.cdiv(M, ROWS),)](x, out, M, N, ROWS=ROWS, BLOCK=BLOCK, LOG_N=log_n,
                                          N_DIMS=n_dims, num_warps=8 if BLOCK >= 2048 else 4)
    return out
