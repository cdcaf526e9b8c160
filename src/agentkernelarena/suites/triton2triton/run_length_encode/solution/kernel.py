"""Row-wise run-length encoding in one pass: one program per row walks its blocks in order,
finds the run starts and ends of a block, numbers the runs with a block cumsum plus the count
carried from the blocks before, and finds each run's start with a running maximum (carried
too, for runs that began in an earlier block). A run's value is stored at its start, its length
at its end; a second loop of the same program zeroes the padding after the row's last run.
x is read once (the shifted neighbour loads come from cache), values and lengths written once,
and no temporaries exist."""

import torch
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _rle_rows_kernel(x_ptr, values_ptr, lengths_ptr, counts_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * N
    runs = 0
    last_start = 0
    for b in range(0, N, BLOCK):
        offs = b + tl.arange(0, BLOCK)
        ok = offs < N
        cur = tl.load(x_ptr + base + offs, mask=ok, other=0)
        prev = tl.load(x_ptr + base + offs - 1, mask=ok & (offs > 0), other=0)
        nxt = tl.load(x_ptr + base + offs + 1, mask=(offs + 1) < N, other=0)
        start = ok & ((offs == 0) | (cur != prev))
        end = ok & ((offs == N - 1) | (cur != nxt))
        s = start.to(tl.int32)
        run = runs + tl.cumsum(s, axis=0) - 1
        begin = tl.maximum(tl.associative_scan(tl.where(start, offs, -1), 0, _max_combine),
                           last_start)
        tl.store(values_ptr + base + run, cur, mask=start)
        tl.store(lengths_ptr + base + run, offs - begin + 1, mask=end)
        runs += tl.sum(s, axis=0)
        last_start = tl.max(begin, axis=0)
    tl.store(counts_ptr + row, runs)
    for b in range((runs // BLOCK) * BLOCK, N, BLOCK):
        offs = b + tl.arange(0, BLOCK)
        pad = (offs >= runs) & (offs < N)
        zero = tl.zeros([BLOCK], dtype=tl.int32)
        tl.store(values_ptr + base + offs, zero, mask=pad)
        tl.store(lengths_ptr + base + offs, zero, mask=pad)


def forward(x: torch.Tensor):
    M, N = x.shape
    values = torch.empty_like(x)
    lengths = torch.empty((M, N), device=x.device, dtype=torch.int32)
    counts = torch.empty(M, device=x.device, dtype=torch.int32)
    BLOCK = 128 if x.device.type == "cpu" else 1024
    _rle_rows_kernel[(M,)](x, values, lengths, counts, N, BLOCK=BLOCK, num_warps=4)
    return (values, lengths, counts)
