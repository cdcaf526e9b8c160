"""Log-softmax backward, dx = dy - exp(y) * sum(dy): a row-sum kernel into a float32 buffer,
then an elementwise kernel that reads dy again along with y."""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_sum_kernel(dy_ptr, sum_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for n0 in range(0, N, BLOCK):
        offs = n0 + tl.arange(0, BLOCK)
        dy = tl.load(dy_ptr + row * N + offs, mask=offs < N, other=0.0).to(tl.float32)
        acc += dy
    tl.store(sum_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _dx_kernel(y_ptr, dy_ptr, sum_ptr, dx_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(sum_ptr + offs // N, mask=mask, other=0.0)
    tl.store(dx_ptr + offs, (dy - tl.exp(y) * s).to(dx_ptr.dtype.element_ty), mask=mask)


def forward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    M, N = y.shape
    sums = torch.empty((M,), device=y.device, dtype=torch.float32)
    dx = torch.empty_like(y)
    _row_sum_kernel[(M,)](dy, sums, N, BLOCK=min(1024, triton.next_power_of_2(N)))
    n = M * N
    BLOCK = 4096 if y.device.type == "cpu" else 1024
    _dx_kernel[(triton.cdiv(n, BLOCK),)](y, dy, sums, dx, n, N, BLOCK=BLOCK)
    return dx
