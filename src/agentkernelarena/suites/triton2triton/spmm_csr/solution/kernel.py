"""CSR times dense with batched gathers: one program per row (all N output columns at once,
so the row's offsets, columns and values are read once), taking the row's stored values
CHUNK at a time: the CHUNK column indices and values are loaded as vectors and the CHUNK rows
of B are gathered as one 2-D tile, so many independent loads are in flight instead of a
dependent chain of one gather per value."""

import torch
import triton
import triton.language as tl


@triton.jit
def _spmm_chunk_kernel(crow_ptr, col_ptr, val_ptr, b_ptr, out_ptr, N,
                       CHUNK: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    nmask = offs_n < N
    offs_c = tl.arange(0, CHUNK)
    start = tl.load(crow_ptr + row)
    end = tl.load(crow_ptr + row + 1)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for p0 in range(start, end, CHUNK):
        ps = p0 + offs_c
        pm = ps < end
        c = tl.load(col_ptr + ps, mask=pm, other=0).to(tl.int64)
        v = tl.load(val_ptr + ps, mask=pm, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + c[:, None] * N + offs_n[None, :], mask=pm[:, None] & nmask[None, :],
                    other=0.0).to(tl.float32)
        acc += tl.sum(v[:, None] * b, axis=0)
    tl.store(out_ptr + row.to(tl.int64) * N + offs_n, acc.to(out_ptr.dtype.element_ty),
             mask=nmask)


def forward(crow, col, val, B):
    M = crow.shape[0] - 1
    N = B.shape[1]
    out = torch.empty((M, N), device=B.device, dtype=B.dtype)
    BLOCK_N = min(256, max(16, triton.next_power_of_2(N)))
    CHUNK = max(8, min(32, 4096 // BLOCK_N))
    warps = 4 if BLOCK_N * CHUNK >= 2048 else 2
    _spmm_chunk_kernel[(M, triton.cdiv(N, BLOCK_N))](crow, col, val, B, out, N, CHUNK=CHUNK,
                                                     BLOCK_N=BLOCK_N, num_warps=warps)
    return out
