"""Embedding backward: zero the float32 gradient table, then one program per token adds its
gradient row into the table with atomic adds."""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n_elements)


@triton.jit
def _scatter_add_kernel(ids_ptr, g_ptr, out_ptr, D, BLOCK_D: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    row = tl.load(ids_ptr + t)
    for d0 in range(0, D, BLOCK_D):
        offs = d0 + tl.arange(0, BLOCK_D)
        mask = offs < D
        g = tl.load(g_ptr + t * D + offs, mask=mask, other=0.0).to(tl.float32)
        tl.atomic_add(out_ptr + row * D + offs, g, mask=mask)


def forward(ids: torch.Tensor, grad_out: torch.Tensor, V: int) -> torch.Tensor:
    T, D = grad_out.shape
    out = torch.empty((V, D), device=grad_out.device, dtype=torch.float32)
    BLOCK = 4096 if grad_out.device.type == "cpu" else 1024
    _zero_kernel[(triton.cdiv(V * D, BLOCK),)](out, V * D, BLOCK=BLOCK)
    _scatter_add_kernel[(T,)](ids, grad_out, out, D, BLOCK_D=min(1024, triton.next_power_of_2(D)))
    return out
