"""Column sums of a row-major (M, N) matrix: out[j] = sum_i x[i, j], accumulated in float32."""

import torch
import triton
import triton.language as tl


@triton.jit
def _column_sum_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr):
    col = tl.program_id(0)
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        x = tl.load(x_ptr + rows.to(tl.int64) * N + col, mask=rows < M, other=0.0)
        acc += x.to(tl.float32)
    tl.store(out_ptr + col, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty))


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((N,), device=x.device, dtype=x.dtype)
    _column_sum_kernel[(N,)](x, out, M, N, BLOCK_M=256)
    return out
