"""instruction2triton/row_minmax_normalize: write forward with Triton kernels.

TASK.md is the specification and reference.py the function in PyTorch. This skeleton is wired
end to end (it allocates the output and launches a Triton kernel) but does not compute the
function yet: it only fills the output with zeros. Replace the kernel and the launch.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _fill_zero(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=out_ptr.dtype.element_ty), mask=offs < n)


def forward(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = out.numel()
    _fill_zero[(triton.cdiv(n, 1024),)](out, n, BLOCK=1024)
    return out
