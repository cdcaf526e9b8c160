"""Dense 1D convolution ("same" padding, NCL): direct convolution on the CUDA cores.

Each program owns a BLOCK_CO x BLOCK_L tile of one batch's output and, for every input channel
and tap, adds the outer product of a weight column and a shifted row of x in float32.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv1d_kernel(x_ptr, w_ptr, b_ptr, out_ptr, CI, CO, L,
                   K: tl.constexpr, BLOCK_CO: tl.constexpr, BLOCK_L: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    co = tl.program_id(1) * BLOCK_CO + tl.arange(0, BLOCK_CO)
    ls = tl.program_id(2) * BLOCK_L + tl.arange(0, BLOCK_L)
    co_mask = co < CO
    acc = tl.zeros((BLOCK_CO, BLOCK_L), dtype=tl.float32)
    for c in range(0, CI):
        x_row = x_ptr + (b * CI + c) * L
        for k in tl.static_range(K):
            pos = ls + (k - (K - 1) // 2)
            xv = tl.load(x_row + pos, mask=(pos >= 0) & (pos < L), other=0.0).to(tl.float32)
            wv = tl.load(w_ptr + (co * CI + c) * K + k, mask=co_mask, other=0.0).to(tl.float32)
            acc += wv[:, None] * xv[None, :]
    acc += tl.load(b_ptr + co, mask=co_mask, other=0.0).to(tl.float32)[:, None]
    out = out_ptr + (b * CO + co[:, None]) * L + ls[None, :]
    tl.store(out, acc.to(out_ptr.dtype.element_ty), mask=co_mask[:, None] & (ls[None, :] < L))


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    B, CI, L = x.shape
    CO, _, K = weight.shape
    out = torch.empty((B, CO, L), device=x.device, dtype=x.dtype)
    BLOCK_CO, BLOCK_L = 32, 128
    grid = (B, triton.cdiv(CO, BLOCK_CO), triton.cdiv(L, BLOCK_L))
    _conv1d_kernel[grid](x, weight, bias, out, CI, CO, L, K=K, BLOCK_CO=BLOCK_CO,
                         BLOCK_L=BLOCK_L, num_warps=4)
    return out
