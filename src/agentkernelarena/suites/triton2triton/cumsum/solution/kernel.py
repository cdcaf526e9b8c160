"""Inclusive prefix sum along the last dimension of an (M, N) tensor, in one pass over the data.

Faster than the baseline because each element is read once and written once: with enough rows to
fill the GPU, one program scans a whole row in large blocks with tl.cumsum and carries the running
total in a register from block to block, so there is no float32 temporary, no block-total array
and one launch instead of three. With few rows (too few programs for one per row), a
reduce-then-scan is used instead: one kernel sums large chunks, and a second kernel adds the sum
of the preceding chunks' totals while scanning its chunk, so x is read twice and out written once,
still without a temporary, and no serial pass over the totals.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_scan_kernel(x_ptr, out_ptr, N, ACC: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * N
    out_row = out_ptr + row * N
    carry = tl.zeros((), dtype=ACC)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0).to(ACC)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(out_row + cols, y.to(out_ptr.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)


@triton.jit
def _chunk_sum_kernel(
    x_ptr, tot_ptr, N, n_chunks, ACC: tl.constexpr, BLOCK: tl.constexpr, CHUNK: tl.constexpr
):
    pid = tl.program_id(0)
    row = (pid // n_chunks).to(tl.int64)
    chunk = pid % n_chunks
    acc = tl.zeros((BLOCK,), dtype=ACC)
    for i in range(0, CHUNK, BLOCK):
        cols = chunk * CHUNK + i + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * N + cols, mask=cols < N, other=0).to(ACC)
    tl.store(tot_ptr + row * n_chunks + chunk, tl.sum(acc, axis=0))


@triton.jit
def _chunk_scan_kernel(
    x_ptr, tot_ptr, out_ptr, N, n_chunks,
    ACC: tl.constexpr, BLOCK: tl.constexpr, CHUNK: tl.constexpr, T_BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    row = (pid // n_chunks).to(tl.int64)
    chunk = pid % n_chunks
    # Offset of this chunk: the sum of the totals of the chunks before it in the row.
    carry = tl.zeros((), dtype=ACC)
    for t0 in range(0, chunk, T_BLOCK):
        t_offs = t0 + tl.arange(0, T_BLOCK)
        t = tl.load(tot_ptr + row * n_chunks + t_offs, mask=t_offs < chunk, other=0)
        carry += tl.sum(t, axis=0)
    for i in range(0, CHUNK, BLOCK):
        cols = chunk * CHUNK + i + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0).to(ACC)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(out_ptr + row * N + cols, y.to(out_ptr.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    floating = x.dtype.is_floating_point
    ACC = tl.float32 if floating else tl.int32
    on_cpu = x.device.type == "cpu"
    BLOCK = min(1024 if on_cpu else 4096, triton.next_power_of_2(N))
    num_warps = 8 if BLOCK >= 4096 else 4
    if M >= (4 if on_cpu else 512):
        _row_scan_kernel[(M,)](x, out, N, ACC=ACC, BLOCK=BLOCK, num_warps=num_warps)
        return out
    CHUNK = 4 * BLOCK
    n_chunks = triton.cdiv(N, CHUNK)
    totals = torch.empty((M, n_chunks), device=x.device,
                         dtype=torch.float32 if floating else torch.int32)
    grid = (M * n_chunks,)
    _chunk_sum_kernel[grid](x, totals, N, n_chunks, ACC=ACC, BLOCK=BLOCK, CHUNK=CHUNK,
                            num_warps=num_warps)
    T_BLOCK = min(1024, triton.next_power_of_2(n_chunks))
    _chunk_scan_kernel[grid](x, totals, out, N, n_chunks, ACC=ACC, BLOCK=BLOCK, CHUNK=CHUNK,
                             T_BLOCK=T_BLOCK, num_warps=num_warps)
    return out
