"""instruction2triton/gemv_bias: a bandwidth-bound matrix-vector product with the bias fused.

Each program reduces a BLOCK_M x CHUNK slab of w against the matching slice of x, keeping a
BLOCK_M x BLOCK_K float32 accumulator in registers (one coalesced read of w, x from cache).
With enough rows one program covers whole rows and adds the bias; few long rows are split
along K into S pieces whose float32 partial sums a second small kernel adds up with the bias.
"""

import torch
import triton
import triton.language as tl

TARGET_PROGRAMS = 1056


@triton.jit
def _gemv_slab(w_ptr, x_ptr, b_ptr, out_ptr, M, K, CHUNK, S, ADD_BIAS: tl.constexpr,
               BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    piece = tl.program_id(1)
    row_ok = rows < M
    base = rows.to(tl.int64) * K
    start = piece * CHUNK
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k in range(0, CHUNK, BLOCK_K):
        cols = start + k + tl.arange(0, BLOCK_K)
        kmask = cols < K
        xv = tl.load(x_ptr + cols, mask=kmask, other=0.0).to(tl.float32)
        wv = tl.load(w_ptr + base[:, None] + cols[None, :], mask=row_ok[:, None] & kmask[None, :],
                     other=0.0).to(tl.float32)
        acc += wv * xv[None, :]
    total = tl.sum(acc, axis=1)
    if ADD_BIAS:
        total += tl.load(b_ptr + rows, mask=row_ok, other=0.0).to(tl.float32)
        tl.store(out_ptr + rows, total.to(out_ptr.dtype.element_ty), mask=row_ok)
    else:
        tl.store(out_ptr + piece.to(tl.int64) * M + rows, total, mask=row_ok)


@triton.jit
def _sum_pieces(part_ptr, b_ptr, out_ptr, M, S, BLOCK_M: tl.constexpr, BLOCK_S: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    s = tl.arange(0, BLOCK_S)
    row_ok = rows < M
    p = tl.load(part_ptr + s[:, None] * M + rows[None, :], mask=(s[:, None] < S) & row_ok[None, :],
                other=0.0)
    total = tl.sum(p, axis=0) + tl.load(b_ptr + rows, mask=row_ok, other=0.0).to(tl.float32)
    tl.store(out_ptr + rows, total.to(out_ptr.dtype.element_ty), mask=row_ok)


def forward(w: torch.Tensor, x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = w.shape
    out = torch.empty(M, device=w.device, dtype=w.dtype)
    BLOCK_K = min(256 if w.element_size() <= 2 else 128, triton.next_power_of_2(K))
    BLOCK_M = max(1, min(16, 4096 // BLOCK_K, triton.next_power_of_2(M)))
    grid_m = triton.cdiv(M, BLOCK_M)
    k_blocks = triton.cdiv(K, BLOCK_K)
    S = max(1, min(k_blocks, triton.cdiv(TARGET_PROGRAMS, grid_m)))
    CHUNK = triton.cdiv(k_blocks, S) * BLOCK_K
    S = triton.cdiv(K, CHUNK)
    if S == 1:
        _gemv_slab[(grid_m, 1)](w, x, b, out, M, K, CHUNK, 1, ADD_BIAS=True, BLOCK_M=BLOCK_M,
                                BLOCK_K=BLOCK_K, num_warps=4)
        return out
    part = torch.empty(S, M, device=w.device, dtype=torch.float32)
    _gemv_slab[(grid_m, S)](w, x, b, part, M, K, CHUNK, S, ADD_BIAS=False, BLOCK_M=BLOCK_M,
                            BLOCK_K=BLOCK_K, num_warps=4)
    BLOCK_S = triton.next_power_of_2(S)
    BM2 = max(1, min(256, 8192 // BLOCK_S))
    _sum_pieces[(triton.cdiv(M, BM2),)](part, b, out, M, S, BLOCK_M=BM2, BLOCK_S=BLOCK_S)
    return out
