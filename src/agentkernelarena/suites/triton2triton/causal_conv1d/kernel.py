"""Causal depthwise conv1d + SiLU: one program per (batch, channel) row, stepping along time in
blocks, one shifted load of the input per filter tap."""

import torch
import triton
import triton.language as tl


@triton.jit
def _causal_conv1d_kernel(x_ptr, w_ptr, b_ptr, out_ptr, D, L, W: tl.constexpr,
                          BLOCK_L: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # batch * D + channel
    d = row % D
    bias = tl.load(b_ptr + d).to(tl.float32)
    base = row * L
    for t0 in range(0, L, BLOCK_L):
        t = t0 + tl.arange(0, BLOCK_L)
        acc = tl.zeros((BLOCK_L,), dtype=tl.float32) + bias
        for k in tl.static_range(W):
            src = t - (W - 1) + k
            xk = tl.load(x_ptr + base + src, mask=(src >= 0) & (src < L), other=0.0)
            acc += tl.load(w_ptr + d * W + k).to(tl.float32) * xk.to(tl.float32)
        y = acc / (1.0 + tl.exp(-acc))
        tl.store(out_ptr + base + t, y.to(out_ptr.dtype.element_ty), mask=t < L)


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    B, D, L = x.shape
    W = weight.shape[1]
    out = torch.empty_like(x)
    _causal_conv1d_kernel[(B * D,)](x, weight, bias, out, D, L, W=W, BLOCK_L=256)
    return out
