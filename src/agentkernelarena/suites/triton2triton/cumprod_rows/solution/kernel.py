"""Inclusive cumulative product along the rows of an (M, N) float32 tensor, in one pass.

Faster than the baseline because each element is read once and written once. With enough rows
to fill the GPU, one program scans a whole row in large blocks with tl.cumprod and carries the
running product in a register from block to block: no temporary, no block-product array, one
launch instead of three. With few rows, a reduce-then-scan: one kernel multiplies out large
chunks, and a second kernel multiplies the products of the preceding chunks of its row into
its carry while scanning its chunk (x read twice, out written once, no temporary).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _last(c, BLOCK: tl.constexpr):
    return tl.sum(tl.where(tl.arange(0, BLOCK) == BLOCK - 1, c, 0.0), axis=0)


@triton.jit
def _row_scan_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = tl.full((), 1.0, dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=1.0)
        c = tl.cumprod(x, axis=0) * carry
        tl.store(out_ptr + row * N + cols, c, mask=mask)
        carry = _last(c, BLOCK)


@triton.jit
def _chunk_prod_kernel(x_ptr, prod_ptr, N, n_chunks, BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    pid = tl.program_id(0)
    row = (pid // n_chunks).to(tl.int64)
    chunk = pid % n_chunks
    acc = tl.full((BLOCK,), 1.0, dtype=tl.float32)
    for i in range(0, CHUNK, BLOCK):
        cols = chunk * CHUNK + i + tl.arange(0, BLOCK)
        acc *= tl.load(x_ptr + row * N + cols, mask=cols < N, other=1.0)
    tl.store(prod_ptr + row * n_chunks + chunk, _last(tl.cumprod(acc, axis=0), BLOCK))


@triton.jit
def _chunk_scan_kernel(x_ptr, prod_ptr, out_ptr, N, n_chunks,
                       BLOCK: tl.constexpr, CHUNK: tl.constexpr, T_BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = (pid // n_chunks).to(tl.int64)
    chunk = pid % n_chunks
    # Offset of this chunk: the product of the chunks before it in the row.
    acc = tl.full((T_BLOCK,), 1.0, dtype=tl.float32)
    for t0 in range(0, chunk, T_BLOCK):
        t_offs = t0 + tl.arange(0, T_BLOCK)
        acc *= tl.load(prod_ptr + row * n_chunks + t_offs, mask=t_offs < chunk, other=1.0)
    carry = _last(tl.cumprod(acc, axis=0), T_BLOCK)
    for i in range(0, CHUNK, BLOCK):
        cols = chunk * CHUNK + i + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=1.0)
        c = tl.cumprod(x, axis=0) * carry
        tl.store(out_ptr + row * N + cols, c, mask=mask)
        carry = _last(c, BLOCK)


def forward(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    on_cpu = x.device.type == "cpu"
    BLOCK = min(1024 if on_cpu else 2048, triton.next_power_of_2(N))
    num_warps = 8 if BLOCK >= 2048 else 4
    if M >= (4 if on_cpu else 512):
        _row_scan_kernel[(M,)](x, out, N, BLOCK=BLOCK, num_warps=num_warps)
        return out
    CHUNK = 4 * BLOCK
    n_chunks = triton.cdiv(N, CHUNK)
    prods = torch.empty((M, n_chunks), device=x.device, dtype=torch.float32)
    grid = (M * n_chunks,)
    _chunk_prod_kernel[grid](x, prods, N, n_chunks, BLOCK=BLOCK, CHUNK=CHUNK,
                             num_warps=num_warps)
    T_BLOCK = max(2, min(1024, triton.next_power_of_2(n_chunks)))
    _chunk_scan_kernel[grid](x, prods, out, N, n_chunks, BLOCK=BLOCK, CHUNK=CHUNK,
                             T_BLOCK=T_BLOCK, num_warps=num_warps)
    return out
