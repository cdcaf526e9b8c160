"""Weighted NLL loss in one kernel: each target read once, the log-probability and the class
weight gathered together (ignored rows touch neither), the loss written directly."""

import torch
import triton
import triton.language as tl


@triton.jit
def _nll_kernel(logp_ptr, target_ptr, weight_ptr, out_ptr, M, C, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    t = tl.load(target_ptr + rows, mask=mask, other=-100)
    valid = mask & (t != -100)
    v = tl.load(logp_ptr + rows.to(tl.int64) * C + t, mask=valid, other=0.0).to(tl.float32)
    w = tl.load(weight_ptr + t, mask=valid, other=0.0).to(tl.float32)
    tl.store(out_ptr + rows, (-(w * v)).to(out_ptr.dtype.element_ty), mask=mask)


def forward(logp: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    M, C = logp.shape
    out = torch.empty((M,), device=logp.device, dtype=logp.dtype)
    BLOCK = 1024
    _nll_kernel[(triton.cdiv(M, BLOCK),)](logp, target, weight, out, M, C, BLOCK=BLOCK,
                                          num_warps=8)
    return out
