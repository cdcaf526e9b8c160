"""Merge two partial attention states, BLOCK_R (token, head) rows per program.

Faster than the baseline because a program merges a BLOCK_R x D tile (tens of KB) instead of a
single 128-element row: the baseline launches T * H programs that each move a few hundred
bytes, so it is bound by scheduling and latency rather than HBM bandwidth. The weights use
exp2 with log2(e) folded in.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _merge_kernel(po_ptr, plse_ptr, so_ptr, slse_ptr, out_ptr, olse_ptr, R,
                  D: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    r_mask = rows < R
    LOG2E: tl.constexpr = 1.4426950408889634
    lp = tl.load(plse_ptr + rows, mask=r_mask, other=0.0)
    ls = tl.load(slse_ptr + rows, mask=r_mask, other=0.0)
    m = tl.maximum(lp, ls)
    wp = tl.exp2((lp - m) * LOG2E)
    ws = tl.exp2((ls - m) * LOG2E)
    total = wp + ws
    offs = tl.arange(0, BLOCK_D)
    mask = r_mask[:, None] & (offs[None, :] < D)
    idx = rows[:, None] * D + offs[None, :]
    po = tl.load(po_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    so = tl.load(so_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    inv = 1.0 / total
    out = po * (wp * inv)[:, None] + so * (ws * inv)[:, None]
    tl.store(out_ptr + idx, out.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(olse_ptr + rows, m + tl.log(total), mask=r_mask)


def forward(prefix_out, prefix_lse, suffix_out, suffix_lse):
    T, H, D = prefix_out.shape
    out = torch.empty_like(prefix_out)
    out_lse = torch.empty_like(prefix_lse)
    BLOCK_D = triton.next_power_of_2(D)
    BLOCK_R = max(2, 4096 // BLOCK_D)
    R = T * H
    _merge_kernel[(triton.cdiv(R, BLOCK_R),)](
        prefix_out, prefix_lse, suffix_out, suffix_lse, out, out_lse, R,
        D=D, BLOCK_R=BLOCK_R, BLOCK_D=BLOCK_D, num_warps=4,
    )
    return (out, out_lse)
