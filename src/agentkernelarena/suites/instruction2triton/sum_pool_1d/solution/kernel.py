"""instruction2triton/sum_pool_1d: one pass, BLOCK_J windows per program.

The output is treated as a flat M * J vector; a program loads a BLOCK_J x KB tile (window,
offset in the window) straight from x (the windows of a tile are adjacent in memory, so the
loads stay coalesced), masks the offsets past W and past the row end, and sums in float32.
Windows wider than KB are walked in KB steps.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _sum_pool(x_ptr, out_ptr, total, L, W, J, BLOCK_J: tl.constexpr, KB: tl.constexpr):
    o = tl.program_id(0).to(tl.int64) * BLOCK_J + tl.arange(0, BLOCK_J)
    o_ok = o < total
    m = o // J
    j = o - m * J
    start = m * L + j * W          # first element of the window
    end = m * L + L                # end of the window's row
    acc = tl.zeros([BLOCK_J, KB], dtype=tl.float32)
    for k0 in range(0, W, KB):
        k = k0 + tl.arange(0, KB)
        pos = start[:, None] + k[None, :]
        ok = o_ok[:, None] & (k[None, :] < W) & (pos < end[:, None])
        acc += tl.load(x_ptr + pos, mask=ok, other=0.0).to(tl.float32)
    tl.store(out_ptr + o, tl.sum(acc, axis=1).to(out_ptr.dtype.element_ty), mask=o_ok)


def forward(x: torch.Tensor, W: int) -> torch.Tensor:
    M, L = x.shape
    J = -(-L // W)
    out = torch.empty(M, J, device=x.device, dtype=x.dtype)
    total = M * J
    KB = min(256, triton.next_power_of_2(min(W, L)))
    BLOCK_J = max(1, min(1024, 4096 // KB))
    _sum_pool[(triton.cdiv(total, BLOCK_J),)](x, out, total, L, W, J, BLOCK_J=BLOCK_J, KB=KB,
                                              num_warps=8)
    return out
