"""MoE un-permute in two kernels: a gather kernel (one program per (token, slot) pair) copies
row dest[t, k] of the expert outputs into a T x K x H buffer in token order, then a reduction
kernel reads the buffer back and sums each token's K rows, weighted, in float32."""

import torch
import triton
import triton.language as tl


@triton.jit
def _gather_kernel(y_ptr, dest_ptr, tmp_ptr, H, BLOCK: tl.constexpr):
    pair = tl.program_id(0).to(tl.int64)
    d = tl.load(dest_ptr + pair).to(tl.int64)
    for h0 in range(0, H, BLOCK):
        cols = h0 + tl.arange(0, BLOCK)
        mask = cols < H
        tl.store(tmp_ptr + pair * H + cols, tl.load(y_ptr + d * H + cols, mask=mask), mask=mask)


@triton.jit
def _weighted_sum_kernel(tmp_ptr, w_ptr, out_ptr, K, H, BLOCK: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < H
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in range(K):
        w = tl.load(w_ptr + t * K + k)
        acc += w * tl.load(tmp_ptr + (t * K + k) * H + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + t * H + cols, acc.to(out_ptr.dtype.element_ty), mask=mask)


def forward(y: torch.Tensor, dest: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    T, K = dest.shape
    H = y.shape[1]
    tmp = torch.empty((T * K, H), device=y.device, dtype=y.dtype)
    out = torch.empty((T, H), device=y.device, dtype=y.dtype)
    BLOCK = 1024
    _gather_kernel[(T * K,)](y, dest, tmp, H, BLOCK=BLOCK)
    _weighted_sum_kernel[(T, triton.cdiv(H, BLOCK))](tmp, weights, out, K, H, BLOCK=BLOCK)
    return out
