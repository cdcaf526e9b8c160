"""CSR matrix-vector product, one program per row: the program reads its row's offsets and
walks the row in chunks of 128 stored values, gathering x at their columns."""

import torch
import triton
import triton.language as tl


@triton.jit
def _spmv_row_kernel(crow_ptr, col_ptr, val_ptr, x_ptr, y_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(crow_ptr + row)
    end = tl.load(crow_ptr + row + 1)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for p0 in range(start, end, BLOCK):
        ps = p0 + offs
        m = ps < end
        c = tl.load(col_ptr + ps, mask=m, other=0)
        v = tl.load(val_ptr + ps, mask=m, other=0.0)
        acc += v * tl.load(x_ptr + c, mask=m, other=0.0)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


def forward(crow, col, val, x):
    M = crow.shape[0] - 1
    y = torch.empty((M,), device=x.device, dtype=torch.float32)
    _spmv_row_kernel[(M,)](crow, col, val, x, y, BLOCK=128)
    return y
