"""SwiGLU for liger-kernel: silu(a) * b, its backward, and the fused gate-up variant.

The AgentKernelArena solution of repository/liger_swiglu, written for the arena (not taken from
upstream): the same public functions and autograd classes as liger-kernel 0.8.5's module, with
the elementwise work done over the flattened tensors in fixed 4096-element tiles instead of one
program per row whose block is the row length rounded up to a power of two. A row of 14336
columns then wastes no masked lanes (16384 - 14336 = 12.5% in the per-row layout) and every
program is small enough for several to be resident per SM, which keeps more loads in flight.
The arithmetic is the library's: silu in float32, cast to the inputs' dtype before the product.
"""

import torch
import triton
import triton.language as tl

try:
    import torch.distributed.tensor  # noqa: F401
    from torch.distributed.tensor import DTensor as _DTensor
except Exception:
    _DTensor = ()

from liger_kernel.ops.utils import device_context, ensure_contiguous

_TILE = 4096
_WARPS = 8
_GATE_UP_TILE = 2048


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def _rounded_product(x, y):
    """x rounded to y's dtype, times y, rounded to y's dtype: the library's product. Done in
    float32, where the product of two 16-bit floats is exact, so the one rounding matches a
    native 16-bit multiply (and Triton's CPU interpreter, whose bfloat16 arithmetic is wrong,
    computes it right)."""
    return (x.to(y.dtype).to(tl.float32) * y.to(tl.float32)).to(y.dtype)


@triton.jit
def _swiglu_forward_flat_kernel(a_ptr, b_ptr, c_ptr, n_elements, gate_multiplier,
                                SCALE_GATE: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask, other=0).to(tl.float32)
    if SCALE_GATE:
        # fp32 whatever precision the scalar arrives in (Inductor passes fp64 scalars)
        a = (a * gate_multiplier).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask, other=0)
    tl.store(c_ptr + offsets, _rounded_product(silu(a), b), mask=mask)


@triton.jit
def _swiglu_backward_flat_kernel(dc_ptr, a_ptr, b_ptr, n_elements, gate_multiplier,
                                 SCALE_GATE: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    dc = tl.load(dc_ptr + offsets, mask=mask, other=0).to(tl.float32)
    a = tl.load(a_ptr + offsets, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask, other=0).to(tl.float32)
    if SCALE_GATE:
        a = (a * gate_multiplier).to(tl.float32)
    sig = tl.sigmoid(a)
    silu_a = a * sig
    db = dc * silu_a
    da = dc * (silu_a * (1 - sig) + sig) * b
    if SCALE_GATE:
        da = (da * gate_multiplier).to(tl.float32)
    # in place, as the library does: each element is read and written by one program
    tl.store(a_ptr + offsets, da.to(a_ptr.dtype.element_ty), mask=mask)
    tl.store(b_ptr + offsets, db.to(b_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _gate_up_forward_kernel(y_ptr, c_ptr, y_stride, c_stride, ffn_size, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < ffn_size
    gate = tl.load(y_ptr + row * y_stride + cols, mask=mask, other=0).to(tl.float32)
    up = tl.load(y_ptr + row * y_stride + ffn_size + cols, mask=mask, other=0)
    tl.store(c_ptr + row * c_stride + cols, _rounded_product(silu(gate), up), mask=mask)


@triton.jit
def _gate_up_backward_kernel(dc_ptr, y_ptr, dy_ptr, y_stride, dc_stride, ffn_size,
                             BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < ffn_size
    dc = tl.load(dc_ptr + row * dc_stride + cols, mask=mask, other=0).to(tl.float32)
    gate = tl.load(y_ptr + row * y_stride + cols, mask=mask, other=0).to(tl.float32)
    up = tl.load(y_ptr + row * y_stride + ffn_size + cols, mask=mask, other=0).to(tl.float32)
    sig = tl.sigmoid(gate)
    silu_gate = gate * sig
    d_gate = dc * (silu_gate * (1 - sig) + sig) * up
    d_up = dc * silu_gate
    # dy may alias y (in_place): this program read both halves of its columns first
    tl.store(dy_ptr + row * y_stride + cols, d_gate.to(dy_ptr.dtype.element_ty), mask=mask)
    tl.store(dy_ptr + row * y_stride + ffn_size + cols, d_up.to(dy_ptr.dtype.element_ty),
             mask=mask)


def _grid(n_elements):
    return (triton.cdiv(n_elements, _TILE),)


def swiglu_forward(a, b, gate_multiplier: float = 1.0):
    """Returns (a, b, c) with a and b as [rows, n_cols] views, as the library does."""
    ori_shape = a.shape
    n_cols = ori_shape[-1]
    a = (a if a.is_contiguous() else a.contiguous()).view(-1, n_cols)
    b = (b if b.is_contiguous() else b.contiguous()).view(-1, n_cols)
    c = torch.empty_like(a)
    n_elements = a.numel()
    if n_elements:
        with device_context(a.device):
            _swiglu_forward_flat_kernel[_grid(n_elements)](
                a, b, c, n_elements, float(gate_multiplier),
                SCALE_GATE=float(gate_multiplier) != 1.0, BLOCK=_TILE, num_warps=_WARPS)
    return a, b, c.view(*ori_shape)


def swiglu_backward(a, b, dc, gate_multiplier: float = 1.0):
    """Gradients written into a and b (the saved activations), as the library does."""
    ori_shape = dc.shape
    dc = dc if dc.is_contiguous() else dc.contiguous()
    n_elements = dc.numel()
    if n_elements:
        with device_context(a.device):
            _swiglu_backward_flat_kernel[_grid(n_elements)](
                dc, a, b, n_elements, float(gate_multiplier),
                SCALE_GATE=float(gate_multiplier) != 1.0, BLOCK=_TILE, num_warps=_WARPS)
    return a.view(*ori_shape), b.view(*ori_shape)


def _to_dtensor(x, mesh, placements):
    if isinstance(x, _DTensor):
        return x
    return torch.distributed.tensor.distribute_tensor(x, device_mesh=mesh, placements=placements)


class LigerSiLUMulFunction(torch.autograd.Function):
    @staticmethod
    @ensure_contiguous
    def forward(ctx, a, b, gate_multiplier: float = 1.0, down_multiplier: float = 1.0):
        ctx.gate_multiplier = float(gate_multiplier)
        ctx.down_multiplier = float(down_multiplier)
        ctx.dtensor_metadata = None
        if isinstance(a, _DTensor) or isinstance(b, _DTensor):
            source = a if isinstance(a, _DTensor) else b
            mesh, placements = source.device_mesh, source.placements
            a = _to_dtensor(a, mesh, placements).to_local()
            b = _to_dtensor(b, mesh, placements).to_local()
            ctx.dtensor_metadata = (mesh, placements)
        a, b, c = swiglu_forward(a, b, ctx.gate_multiplier)
        if ctx.down_multiplier != 1.0:
            c = c * ctx.down_multiplier
        ctx.save_for_backward(a, b)
        if ctx.dtensor_metadata is not None:
            return torch.distributed.tensor.DTensor.from_local(c, *ctx.dtensor_metadata)
        return c

    @staticmethod
    @ensure_contiguous
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        if ctx.dtensor_metadata is not None:
            dc = _to_dtensor(dc, *ctx.dtensor_metadata).to_local()
        if ctx.down_multiplier != 1.0:
            dc = dc * ctx.down_multiplier
        da, db = swiglu_backward(a, b, dc, ctx.gate_multiplier)
        if ctx.dtensor_metadata is not None:
            da = torch.distributed.tensor.DTensor.from_local(da, *ctx.dtensor_metadata)
            db = torch.distributed.tensor.DTensor.from_local(db, *ctx.dtensor_metadata)
        return da, db, None, None


def swiglu_fused_gate_up_forward(y):
    """SwiGLU over a fused [..., 2 * ffn_size] gate-up tensor. Returns (y, c)."""
    ori_shape = y.shape
    fused_size = ori_shape[-1]
    if fused_size % 2 != 0:
        raise ValueError(f"fused gate-up input must have an even trailing dim; got {fused_size}.")
    ffn_size = fused_size // 2
    y = y.view(-1, fused_size)
    c = torch.empty(y.shape[0], ffn_size, dtype=y.dtype, device=y.device)
    if c.numel():
        grid = (y.shape[0], triton.cdiv(ffn_size, _GATE_UP_TILE))
        with device_context(y.device):
            _gate_up_forward_kernel[grid](y, c, y.stride(-2), c.stride(-2), ffn_size,
                                          BLOCK=_GATE_UP_TILE, num_warps=_WARPS)
    return y, c.view(*ori_shape[:-1], ffn_size)


def swiglu_fused_gate_up_backward(y, dc, in_place=False):
    """Gradient with respect to the fused gate-up tensor (written into y when in_place)."""
    fused_size = y.shape[-1]
    ffn_size = fused_size // 2
    y = y.view(-1, fused_size)
    dc = dc.reshape(-1, ffn_size)
    dy = y if in_place else torch.empty_like(y)
    if dc.numel():
        grid = (dc.shape[0], triton.cdiv(ffn_size, _GATE_UP_TILE))
        with device_context(y.device):
            _gate_up_backward_kernel[grid](dc, y, dy, y.stride(-2), dc.stride(-2), ffn_size,
                                           BLOCK=_GATE_UP_TILE, num_warps=_WARPS)
    return dy


class LigerFusedGateUpSiLUMulFunction(torch.autograd.Function):
    """SwiGLU for one tensor holding gate and up concatenated on the last dimension."""

    @staticmethod
    @ensure_contiguous
    def forward(ctx, y, in_place=False):
        y, c = swiglu_fused_gate_up_forward(y)
        ctx.save_for_backward(y)
        ctx.in_place = in_place
        ctx.already_backward = False
        return c

    @staticmethod
    @ensure_contiguous
    def backward(ctx, dc):
        (y,) = ctx.saved_tensors
        if ctx.in_place:
            if ctx.already_backward:
                raise RuntimeError("LigerFusedGateUpSiLUMulFunction(in_place=True) can run "
                                   "backward only once: the saved activation now holds the "
                                   "gradient. Use in_place=False for retain_graph=True.")
            ctx.already_backward = True
        dy = swiglu_fused_gate_up_backward(y, dc, in_place=ctx.in_place)
        return dy.view(*dc.shape[:-1], 2 * dc.shape[-1]), None
