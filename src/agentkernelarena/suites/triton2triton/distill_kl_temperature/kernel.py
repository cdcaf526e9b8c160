"""Temperature-scaled distillation KL per row, in three kernels: a row kernel writes
log_softmax(teacher / T) to a float32 M x V buffer (max, sum and write passes), the same kernel
does the student, and a third row kernel sums exp(lt) * (lt - ls) and scales by T^2."""

import torch
import triton
import triton.language as tl


@triton.jit
def _log_softmax_kernel(x_ptr, out_ptr, V, inv_t, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    mx = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        mx = tl.maximum(mx, v * inv_t)
    m = tl.max(mx, axis=0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        acc += tl.exp(v * inv_t - m)
    lse = m + tl.log(tl.sum(acc, axis=0))
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        v = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + base + cols, v * inv_t - lse, mask=mask)


@triton.jit
def _kl_rows_kernel(lt_ptr, ls_ptr, out_ptr, V, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        lt = tl.load(lt_ptr + row * V + cols, mask=mask, other=0.0)
        ls = tl.load(ls_ptr + row * V + cols, mask=mask, other=0.0)
        acc += tl.where(mask, tl.exp(lt) * (lt - ls), 0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0) * scale)


def forward(teacher: torch.Tensor, student: torch.Tensor, T: float) -> torch.Tensor:
    M, V = teacher.shape
    lt = torch.empty((M, V), device=teacher.device, dtype=torch.float32)
    ls = torch.empty((M, V), device=teacher.device, dtype=torch.float32)
    out = torch.empty((M,), device=teacher.device, dtype=torch.float32)
    BLOCK = 1024
    _log_softmax_kernel[(M,)](teacher, lt, V, 1.0 / T, BLOCK=BLOCK)
    _log_softmax_kernel[(M,)](student, ls, V, 1.0 / T, BLOCK=BLOCK)
    _kl_rows_kernel[(M,)](lt, ls, out, V, T * T, BLOCK=BLOCK)
    return out
