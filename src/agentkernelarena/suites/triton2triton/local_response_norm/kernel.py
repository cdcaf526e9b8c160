"""Local response normalization across channels, written as three separate passes: the squares
into a float32 buffer, the windowed sums (each element reads `size` squares), and the power and
divide."""

import torch
import triton
import triton.language as tl


@triton.jit
def _square_kernel(x_ptr, sq_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(sq_ptr + offs, x * x, mask=mask)


@triton.jit
def _window_sum_kernel(sq_ptr, sum_ptr, n_elements, C, HW, size, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    c = (offs // HW) % C
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, size):
        d = j - size // 2
        cc = c + d
        ok = mask & (cc >= 0) & (cc < C)
        acc += tl.load(sq_ptr + offs + d * HW, mask=ok, other=0.0)
    tl.store(sum_ptr + offs, acc, mask=mask)


@triton.jit
def _normalize_kernel(x_ptr, sum_ptr, y_ptr, n_elements, scale, beta, k, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    s = tl.load(sum_ptr + offs, mask=mask, other=0.0)
    d = k + scale * s
    y = x / tl.exp(beta * tl.log(d))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def forward(x: torch.Tensor, size: int, alpha: float, beta: float, k: float) -> torch.Tensor:
    N, C, H, W = x.shape
    n = x.numel()
    sq = torch.empty((N, C, H, W), device=x.device, dtype=torch.float32)
    sums = torch.empty_like(sq)
    y = torch.empty_like(x)
    BLOCK = 256 if x.device.type == "cpu" else 1024
    grid = (triton.cdiv(n, BLOCK),)
    _square_kernel[grid](x, sq, n, BLOCK=BLOCK)
    _window_sum_kernel[grid](sq, sums, n, C, H * W, size, BLOCK=BLOCK)
    _normalize_kernel[grid](x, sums, y, n, alpha / size, beta, k, BLOCK=BLOCK)
    return y
