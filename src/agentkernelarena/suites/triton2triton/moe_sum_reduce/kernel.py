"""MoE top-k combine, one expert slot at a time: a kernel zeroes a float32 T x H accumulator,
then K launches each add weight[t, k] * expert_out[t, k, :] into it, and a last kernel rounds
the accumulator to the output dtype."""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(acc_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


@triton.jit
def _accumulate_kernel(x_ptr, w_ptr, acc_ptr, k, K, H, BLOCK: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    valid = cols < H
    w = tl.load(w_ptr + t * K + k)
    x = tl.load(x_ptr + (t * K + k) * H + cols, mask=valid, other=0.0).to(tl.float32)
    acc = tl.load(acc_ptr + t * H + cols, mask=valid, other=0.0)
    tl.store(acc_ptr + t * H + cols, acc + w * x, mask=valid)


@triton.jit
def _cast_kernel(acc_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    v = tl.load(acc_ptr + offs, mask=valid)
    tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty), mask=valid)


def forward(expert_out: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    T, K, H = expert_out.shape
    acc = torch.empty((T, H), device=expert_out.device, dtype=torch.float32)
    out = torch.empty((T, H), device=expert_out.device, dtype=expert_out.dtype)
    BLOCK = 1024
    n = T * H
    _zero_kernel[(triton.cdiv(n, BLOCK),)](acc, n, BLOCK=BLOCK)
    for k in range(K):
        _accumulate_kernel[(T, triton.cdiv(H, BLOCK))](expert_out, weights, acc, k, K, H,
                                                        BLOCK=BLOCK)
    _cast_kernel[(triton.cdiv(n, BLOCK),)](acc, out, n, BLOCK=BLOCK)
    return out
