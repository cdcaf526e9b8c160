"""Causal conv1d decode step fused into one kernel: each program loads a contiguous tile of the
state (all taps of BLOCK_D channels) and x once, computes the output and stores the rolled state
from the same registers."""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv_update_kernel(x_ptr, s_ptr, w_ptr, b_ptr, out_ptr, D, W: tl.constexpr,
                        BLOCK_D: tl.constexpr, BLOCK_W: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    k = tl.arange(0, BLOCK_W)
    dm = d < D
    row = (b * D + d) * (W - 1)
    # Window u[:, k] for k < W: the state taps, then x at k = W - 1.
    s_mask = dm[:, None] & (k[None, :] < W - 1)
    s = tl.load(s_ptr + row[:, None] + k[None, :], mask=s_mask, other=0.0)
    x = tl.load(x_ptr + b * D + d, mask=dm, other=0.0)
    u = tl.where(k[None, :] == W - 1, x[:, None], s)
    w = tl.load(w_ptr + d[:, None] * W + k[None, :], mask=dm[:, None] & (k[None, :] < W),
                other=0.0).to(tl.float32)
    acc = tl.sum(u.to(tl.float32) * w, axis=1) + tl.load(b_ptr + d, mask=dm,
                                                          other=0.0).to(tl.float32)
    y = acc / (1.0 + tl.exp(-acc))
    tl.store(out_ptr + b * D + d, y.to(out_ptr.dtype.element_ty), mask=dm)
    # Rolled state: new[k] = u[k + 1] for k < W - 1.
    s_next = tl.load(s_ptr + row[:, None] + k[None, :] + 1,
                     mask=dm[:, None] & (k[None, :] < W - 2), other=0.0)
    new = tl.where(k[None, :] == W - 2, x[:, None], s_next)
    # Other threads of this program read the slots stored below: all loads finish first.
    tl.debug_barrier()
    tl.store(s_ptr + row[:, None] + k[None, :], new, mask=s_mask)


def forward(x, conv_state, weight, bias):
    B, D = x.shape
    W = weight.shape[1]
    out = torch.empty_like(x)
    BLOCK_D = 128 if x.device.type == "cpu" else 512
    grid = (B, triton.cdiv(D, BLOCK_D))
    _conv_update_kernel[grid](x, conv_state, weight, bias, out, D, W=W, BLOCK_D=BLOCK_D,
                              BLOCK_W=triton.next_power_of_2(W))
    return (out, conv_state)
