"""instruction2triton/hard_swish: one fused elementwise pass (x read once, y written once, the
arithmetic in float32 registers)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _hard_swish(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    r6 = tl.minimum(tl.maximum(x + 3.0, 0.0), 6.0)
    tl.store(y_ptr + offs, (x * r6 / 6.0).to(y_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    n = x.numel()
    BLOCK = 4096
    _hard_swish[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK, num_warps=8)
    return y
