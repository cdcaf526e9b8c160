"""Row-wise run-length encoding in four passes: mark the run starts, a per-row exclusive prefix
sum of the marks (one program per row walking its blocks in order), scatter each run's value
and the position of its last element, then turn consecutive end positions into lengths and
zero the padding."""

import torch
import triton
import triton.language as tl


@triton.jit
def _mark_starts_kernel(x_ptr, marks_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < N
    cur = tl.load(x_ptr + row * N + offs, mask=ok, other=0)
    prev = tl.load(x_ptr + row * N + offs - 1, mask=ok & (offs > 0), other=0)
    start = (offs == 0) | (cur != prev)
    tl.store(marks_ptr + row * N + offs, start.to(tl.int32), mask=ok)


@triton.jit
def _row_scan_kernel(marks_ptr, pos_ptr, counts_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = 0
    for b in range(0, N, BLOCK):
        offs = b + tl.arange(0, BLOCK)
        ok = offs < N
        m = tl.load(marks_ptr + row * N + offs, mask=ok, other=0)
        incl = tl.cumsum(m, axis=0)
        tl.store(pos_ptr + row * N + offs, carry + incl - m, mask=ok)
        carry += tl.sum(m, axis=0)
    tl.store(counts_ptr + row, carry)


@triton.jit
def _scatter_kernel(x_ptr, marks_ptr, pos_ptr, values_ptr, ends_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < N
    cur = tl.load(x_ptr + row * N + offs, mask=ok, other=0)
    nxt = tl.load(x_ptr + row * N + offs + 1, mask=(offs + 1) < N, other=0)
    m = tl.load(marks_ptr + row * N + offs, mask=ok, other=0)
    run = tl.load(pos_ptr + row * N + offs, mask=ok, other=0) + m - 1
    end = ok & ((offs == N - 1) | (cur != nxt))
    tl.store(values_ptr + row * N + run, cur, mask=ok & (m != 0))
    tl.store(ends_ptr + row * N + run, offs, mask=end)


@triton.jit
def _lengths_kernel(ends_ptr, counts_ptr, values_ptr, lengths_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    r = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = r < N
    count = tl.load(counts_ptr + row)
    valid = ok & (r < count)
    e = tl.load(ends_ptr + row * N + r, mask=valid, other=0)
    e_prev = tl.load(ends_ptr + row * N + r - 1, mask=valid & (r > 0), other=-1)
    tl.store(lengths_ptr + row * N + r, tl.where(valid, e - e_prev, 0), mask=ok)
    tl.store(values_ptr + row * N + r, tl.zeros([BLOCK], dtype=tl.int32), mask=ok & (r >= count))


def forward(x: torch.Tensor):
    M, N = x.shape
    marks = torch.empty((M, N), device=x.device, dtype=torch.int32)
    pos = torch.empty_like(marks)
    ends = torch.empty_like(marks)
    values = torch.empty_like(x)
    lengths = torch.empty((M, N), device=x.device, dtype=torch.int32)
    counts = torch.empty(M, device=x.device, dtype=torch.int32)
    BLOCK = 128 if x.device.type == "cpu" else 1024
    grid = (M, triton.cdiv(N, BLOCK))
    _mark_starts_kernel[grid](x, marks, N, BLOCK=BLOCK)
    _row_scan_kernel[(M,)](marks, pos, counts, N, BLOCK=BLOCK)
    _scatter_kernel[grid](x, marks, pos, values, ends, N, BLOCK=BLOCK)
    _lengths_kernel[grid](ends, counts, values, lengths, N, BLOCK=BLOCK)
    return (values, lengths, counts)
