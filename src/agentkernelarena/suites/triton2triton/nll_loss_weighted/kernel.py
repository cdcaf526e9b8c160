"""Weighted NLL loss (reduction none, ignore_index -100) in three kernels: one gathers each row's
target log-probability into a float32 vector, one gathers the target's class weight into another,
and a third combines them, writing 0 for ignored rows."""

import torch
import triton
import triton.language as tl


@triton.jit
def _gather_logp_kernel(logp_ptr, target_ptr, g_ptr, M, C, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    t = tl.load(target_ptr + rows, mask=mask, other=-100)
    valid = mask & (t != -100)
    v = tl.load(logp_ptr + rows.to(tl.int64) * C + t, mask=valid, other=0.0)
    tl.store(g_ptr + rows, v.to(tl.float32), mask=mask)


@triton.jit
def _gather_weight_kernel(weight_ptr, target_ptr, w_ptr, M, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    t = tl.load(target_ptr + rows, mask=mask, other=-100)
    valid = mask & (t != -100)
    w = tl.load(weight_ptr + t, mask=valid, other=0.0)
    tl.store(w_ptr + rows, w.to(tl.float32), mask=mask)


@triton.jit
def _combine_kernel(g_ptr, w_ptr, out_ptr, M, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < M
    g = tl.load(g_ptr + rows, mask=mask, other=0.0)
    w = tl.load(w_ptr + rows, mask=mask, other=0.0)
    tl.store(out_ptr + rows, (-(w * g)).to(out_ptr.dtype.element_ty), mask=mask)


def forward(logp: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    M, C = logp.shape
    g = torch.empty((M,), device=logp.device, dtype=torch.float32)
    w = torch.empty((M,), device=logp.device, dtype=torch.float32)
    out = torch.empty((M,), device=logp.device, dtype=logp.dtype)
    BLOCK = 256
    grid = (triton.cdiv(M, BLOCK),)
    _gather_logp_kernel[grid](logp, target, g, M, C, BLOCK=BLOCK)
    _gather_weight_kernel[grid](weight, target, w, M, BLOCK=BLOCK)
    _combine_kernel[grid](g, w, out, M, BLOCK=BLOCK)
    return out
