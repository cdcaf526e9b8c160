"""Channel shuffle as plane copies: each program copies a [PLANES, BLOCK_HW] tile (PLANES
output channel planes, BLOCK_HW positions each), with the source plane computed once per plane
rather than per element; small planes are packed several to a program."""

import torch
import triton
import triton.language as tl


@triton.jit
def _channel_shuffle_planes_kernel(x_ptr, out_ptr, n_planes, C, HW, groups, CPG,
                                   PLANES: tl.constexpr, BLOCK_HW: tl.constexpr):
    planes = tl.program_id(0) * PLANES + tl.arange(0, PLANES)
    c = planes % C
    src = (planes - c) + (c % groups) * CPG + c // groups
    hw = tl.program_id(1) * BLOCK_HW + tl.arange(0, BLOCK_HW)
    mask = (planes < n_planes)[:, None] & (hw < HW)[None, :]
    v = tl.load(x_ptr + src.to(tl.int64)[:, None] * HW + hw[None, :], mask=mask)
    tl.store(out_ptr + planes.to(tl.int64)[:, None] * HW + hw[None, :], v, mask=mask)


def forward(x: torch.Tensor, groups: int) -> torch.Tensor:
    B, C, H, W = x.shape
    out = torch.empty_like(x)
    HW = H * W
    BLOCK_HW = min(4096, triton.next_power_of_2(HW))
    PLANES = max(1, 4096 // BLOCK_HW)
    n_planes = B * C
    grid = (triton.cdiv(n_planes, PLANES), triton.cdiv(HW, BLOCK_HW))
    _channel_shuffle_planes_kernel[grid](x, out, n_planes, C, HW, groups, C // groups,
                                         PLANES=PLANES, BLOCK_HW=BLOCK_HW, num_warps=8)
    return out
