"""Merge two partial attention states: one program per (token, head) row of D values."""

import torch
import triton
import triton.language as tl


@triton.jit
def _merge_kernel(po_ptr, plse_ptr, so_ptr, slse_ptr, out_ptr, olse_ptr,
                  D: tl.constexpr, BLOCK_D: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    lp = tl.load(plse_ptr + row)
    ls = tl.load(slse_ptr + row)
    m = tl.maximum(lp, ls)
    wp = tl.exp(lp - m)
    ws = tl.exp(ls - m)
    total = wp + ws
    offs = tl.arange(0, BLOCK_D)
    mask = offs < D
    po = tl.load(po_ptr + row * D + offs, mask=mask, other=0.0).to(tl.float32)
    so = tl.load(so_ptr + row * D + offs, mask=mask, other=0.0).to(tl.float32)
    out = (wp * po + ws * so) / total
    tl.store(out_ptr + row * D + offs, out.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(olse_ptr + row, m + tl.log(total))


def forward(prefix_out, prefix_lse, suffix_out, suffix_lse):
    T, H, D = prefix_out.shape
    out = torch.empty_like(prefix_out)
    out_lse = torch.empty_like(prefix_lse)
    _merge_kernel[(T * H,)](prefix_out, prefix_lse, suffix_out, suffix_lse, out, out_lse,
                            D=D, BLOCK_D=triton.next_power_of_2(D))
    return (out, out_lse)
