"""Repetition penalty without a mask: a wide copy of the logits into the output, then one
program per history row that recomputes the penalized value of each id in it from the original
logits and writes it. A repeated id writes the same value twice (read from the input, not the
output), so it is penalized once and the race is harmless. The logits are read once and the
output written once; the history touches only B * T scattered elements."""

import torch
import triton
import triton.language as tl


@triton.jit
def _copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=valid), mask=valid)


@triton.jit
def _penalize_kernel(logits_ptr, hist_ptr, pen_ptr, out_ptr, T, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    p = tl.load(pen_ptr + row)
    for t0 in range(0, T, BLOCK):
        offs = t0 + tl.arange(0, BLOCK)
        ids = tl.load(hist_ptr + row * T + offs, mask=offs < T, other=-1)
        ok = ids >= 0
        x = tl.load(logits_ptr + row * V + ids, mask=ok, other=0.0).to(tl.float32)
        y = tl.where(x > 0, x / p, x * p)
        tl.store(out_ptr + row * V + ids, y.to(out_ptr.dtype.element_ty), mask=ok)


def forward(logits: torch.Tensor, history: torch.Tensor, penalty: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    T = history.shape[1]
    out = torch.empty_like(logits)
    n = B * V
    BLOCK = 1024 if logits.device.type == "cpu" else 4096
    _copy_kernel[(triton.cdiv(n, BLOCK),)](logits, out, n, BLOCK=BLOCK, num_warps=8)
    _penalize_kernel[(B,)](logits, history, penalty, out, T, V, BLOCK=1024, num_warps=4)
    return out
