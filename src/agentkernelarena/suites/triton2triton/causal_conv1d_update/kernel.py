"""Causal conv1d decode step in two kernels: the first computes the output, loading the state
tap by tap (strided across channels); the second reads the state and x again to roll the state
in place."""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv_out_kernel(x_ptr, s_ptr, w_ptr, b_ptr, out_ptr, D, W: tl.constexpr,
                     BLOCK_D: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = d < D
    acc = tl.load(b_ptr + d, mask=mask, other=0.0).to(tl.float32)
    for k in tl.static_range(W - 1):
        s = tl.load(s_ptr + (b * D + d) * (W - 1) + k, mask=mask, other=0.0).to(tl.float32)
        acc += tl.load(w_ptr + d * W + k, mask=mask, other=0.0).to(tl.float32) * s
    x = tl.load(x_ptr + b * D + d, mask=mask, other=0.0).to(tl.float32)
    acc += tl.load(w_ptr + d * W + (W - 1), mask=mask, other=0.0).to(tl.float32) * x
    y = acc / (1.0 + tl.exp(-acc))
    tl.store(out_ptr + b * D + d, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _roll_state_kernel(x_ptr, s_ptr, D, W: tl.constexpr, BLOCK_D: tl.constexpr,
                       BLOCK_W: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    k = tl.arange(0, BLOCK_W)
    dm = d < D
    row = (b * D + d) * (W - 1)
    # new[k] = old[k + 1] for k < W - 2, new[W - 2] = x: load everything, then store.
    src_mask = dm[:, None] & (k[None, :] < W - 2)
    old = tl.load(s_ptr + row[:, None] + k[None, :] + 1, mask=src_mask, other=0.0)
    x = tl.load(x_ptr + b * D + d, mask=dm, other=0.0)
    new = tl.where(k[None, :] == W - 2, x[:, None], old)
    # Other threads of this program read the slots stored below: all loads finish first.
    tl.debug_barrier()
    tl.store(s_ptr + row[:, None] + k[None, :], new, mask=dm[:, None] & (k[None, :] < W - 1))


def forward(x, conv_state, weight, bias):
    B, D = x.shape
    W = weight.shape[1]
    out = torch.empty_like(x)
    BLOCK_D = 256
    grid = (B, triton.cdiv(D, BLOCK_D))
    _conv_out_kernel[grid](x, conv_state, weight, bias, out, D, W=W, BLOCK_D=BLOCK_D)
    _roll_state_kernel[grid](x, conv_state, D, W=W, BLOCK_D=BLOCK_D,
                             BLOCK_W=triton.next_power_of_2(W - 1))
    return (out, conv_state)
