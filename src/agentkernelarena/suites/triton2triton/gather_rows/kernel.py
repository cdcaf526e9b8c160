"""Row gather: a flat kernel gives every output element its own lane, which finds its row and
column, loads that row's table index and copies the one element."""

import torch
import triton
import triton.language as tl


@triton.jit
def _gather_kernel(table_ptr, idx_ptr, out_ptr, n, D, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    row = offs // D
    col = offs % D
    src_row = tl.load(idx_ptr + row, mask=mask, other=0).to(tl.int64)
    v = tl.load(table_ptr + src_row * D + col, mask=mask)
    tl.store(out_ptr + offs, v, mask=mask)


def forward(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    D = table.shape[1]
    T = idx.shape[0]
    out = torch.empty((T, D), device=table.device, dtype=table.dtype)
    BLOCK = 4096 if table.device.type == "cpu" else 512  # CPU: the Triton interpreter
    _gather_kernel[(triton.cdiv(T * D, BLOCK),)](table, idx, out, T * D, D, BLOCK=BLOCK)
    return out
