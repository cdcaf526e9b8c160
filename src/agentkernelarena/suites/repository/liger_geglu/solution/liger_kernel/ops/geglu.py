"""GeGLU (tanh approximation) for liger-kernel: gelu_tanh(a) * b and its backward.

The AgentKernelArena solution of repository/liger_geglu, written for the arena (not taken from
upstream): the same public functions and autograd class as liger-kernel 0.8.5's module, with the
elementwise work done over the flattened tensors in fixed 4096-element tiles instead of one
program per row whose block is the row length rounded up to a power of two (32768 lanes for a
24576-wide row: a third masked, and 32-warp programs of which few fit on an SM).

0.5 (1 + tanh(z)) is computed as sigmoid(2 z): the same function without libdevice's tanh and
without the cancellation of 1 + tanh(z) for negative inputs.
"""

import torch
import triton
import triton.language as tl
from liger_kernel.ops.utils import device_context, ensure_contiguous

_TILE = 4096
_WARPS = 8
_SQRT_2_OVER_PI = 0.7978845608028654
_COEFF = 0.044715


@triton.jit
def _rounded_product(x, y):
    """x rounded to y's dtype, times y, rounded to y's dtype (the library's product), done in
    float32 where the product of two 16-bit floats is exact."""
    return (x.to(y.dtype).to(tl.float32) * y.to(tl.float32)).to(y.dtype)


@triton.jit
def _half_one_plus_tanh(a):
    """0.5 * (1 + tanh(sqrt(2/pi) * (a + 0.044715 a^3))) = sigmoid(2 z)."""
    z = _SQRT_2_OVER_PI * (a + _COEFF * a * a * a)
    return tl.sigmoid(2.0 * z)


@triton.jit
def _geglu_forward_flat_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask, other=0)
    tl.store(c_ptr + offsets, _rounded_product(a * _half_one_plus_tanh(a), b), mask=mask)


@triton.jit
def _geglu_backward_flat_kernel(dc_ptr, a_ptr, b_ptr, n_elements, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    dc_raw = tl.load(dc_ptr + offsets, mask=mask, other=0)
    dc = dc_raw.to(tl.float32)
    a = tl.load(a_ptr + offsets, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask, other=0).to(tl.float32)
    s = _half_one_plus_tanh(a)  # 0.5 (1 + tanh z)
    gelu = (a * s).to(dc_raw.dtype).to(tl.float32)  # rounded as the forward's output was
    db = dc * gelu
    # d/da [a s] = s + a * s' with s' = 2 s (1 - s) dz/da (the derivative of sigmoid(2z))
    dz = _SQRT_2_OVER_PI * (1.0 + 3.0 * _COEFF * a * a)
    da = dc * b * (s + a * 2.0 * s * (1.0 - s) * dz)
    # in place, as the library does: each element is read and written by one program
    tl.store(a_ptr + offsets, da.to(a_ptr.dtype.element_ty), mask=mask)
    tl.store(b_ptr + offsets, db.to(b_ptr.dtype.element_ty), mask=mask)


def geglu_forward(a, b):
    """Returns (a, b, c) with a and b as [rows, n_cols] views, as the library does."""
    ori_shape = a.shape
    n_cols = ori_shape[-1]
    a = (a if a.is_contiguous() else a.contiguous()).view(-1, n_cols)
    b = (b if b.is_contiguous() else b.contiguous()).view(-1, n_cols)
    c = torch.empty_like(a)
    n_elements = a.numel()
    if n_elements:
        with device_context(a.device):
            _geglu_forward_flat_kernel[(triton.cdiv(n_elements, _TILE),)](
                a, b, c, n_elements, BLOCK=_TILE, num_warps=_WARPS)
    return a, b, c.view(*ori_shape)


def geglu_backward(a, b, dc):
    """Gradients written into a and b (the saved activations), as the library does."""
    ori_shape = dc.shape
    dc = dc if dc.is_contiguous() else dc.contiguous()
    n_elements = dc.numel()
    if n_elements:
        with device_context(a.device):
            _geglu_backward_flat_kernel[(triton.cdiv(n_elements, _TILE),)](
                dc, a, b, n_elements, BLOCK=_TILE, num_warps=_WARPS)
    return a.view(*ori_shape), b.view(*ori_shape)


class LigerGELUMulFunction(torch.autograd.Function):
    @staticmethod
    @ensure_contiguous
    def forward(ctx, a, b):
        a, b, c = geglu_forward(a, b)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    @ensure_contiguous
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        a, b = geglu_backward(a, b, dc)
        return a, b
