"""Row-wise unbiased variance and mean in one pass over the data.

Faster than the baseline because each row is read once instead of twice. The one pass keeps,
per lane, the sum and the sum of squares of the *shifted* values x - K, where K is the mean of the
row's first block: the shift makes the mean of the shifted values small against the spread, so
sum((x-K)^2) - sum(x-K)^2 / N loses almost nothing to cancellation in float32 (the plain
E[x^2] - E[x]^2 would, for rows whose mean is large against their spread).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _var_mean_kernel(x_ptr, var_ptr, mean_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * N
    first = tl.arange(0, BLOCK)
    x0 = tl.load(x_row + first, mask=first < N, other=0.0).to(tl.float32)
    k = tl.sum(x0, axis=0) / tl.minimum(N, BLOCK)
    s1 = tl.zeros((BLOCK,), dtype=tl.float32)
    s2 = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - k, 0.0)
        s1 += d
        s2 += d * d
    t1 = tl.sum(s1, axis=0)
    t2 = tl.sum(s2, axis=0)
    tl.store(mean_ptr + row, k + t1 / N)
    tl.store(var_ptr + row, (t2 - t1 * (t1 / N)) / (N - 1))


def forward(x: torch.Tensor):
    M, N = x.shape
    mean = torch.empty((M,), device=x.device, dtype=torch.float32)
    var = torch.empty((M,), device=x.device, dtype=torch.float32)
    BLOCK = min(4096 if x.element_size() == 2 else 2048, triton.next_power_of_2(N))
    _var_mean_kernel[(M,)](x, var, mean, N, BLOCK=BLOCK, num_warps=8 if BLOCK >= 2048 else 4)
    return (var, mean)
