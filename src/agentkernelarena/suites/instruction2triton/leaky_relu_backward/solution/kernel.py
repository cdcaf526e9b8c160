"""instruction2triton/leaky_relu_backward: one fused elementwise pass over the flat tensors
(dy and x read once, dx written once, no mask or temporary in memory)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _leaky_bwd(dy_ptr, x_ptr, dx_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dy = tl.load(dy_ptr + offs, mask=mask).to(tl.float32)
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    dx = tl.where(x > 0, dy, dy * slope)
    tl.store(dx_ptr + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)


def forward(dy: torch.Tensor, x: torch.Tensor, slope: float) -> torch.Tensor:
    dx = torch.empty_like(dy)
    n = dy.numel()
    BLOCK = 4096
    _leaky_bwd[(triton.cdiv(n, BLOCK),)](dy, x, dx, n, slope, BLOCK=BLOCK, num_warps=8)
    return dx
