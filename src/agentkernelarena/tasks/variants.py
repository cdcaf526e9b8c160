"""Known-wrong outputs that every task's comparison must reject (`aka tasks check`).

Each generic variant is what a broken kernel returns: nothing written (zeros), one value
broadcast, a wrong scale, the right values in the wrong place (shifted, transposed), a block
left unwritten (zeroed tail, last column), a few elements wrong, an integer off by one (a
truncating or flooring cast where the task promises rounding), or the function computed from
inputs held at a lower precision. A task whose tolerance lets one of them pass cannot tell that
broken kernel from a correct one.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

Mutation = Callable[[torch.Tensor, float, float], torch.Tensor | None]

# Share of an output's elements a "few wrong" variant changes (at least one element).
FEW_WRONG_SHARE = 1e-3
SCALE = 1.05
TAIL_SHARE = 1 / 16


def _is_float(t: torch.Tensor) -> bool:
    return t.is_floating_point()


def zeros(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    return torch.zeros_like(g)


def constant(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    """Every element the output's mean (floats) or its most common value (integers, bool)."""
    if g.numel() < 2:
        return None
    if _is_float(g):
        value = g.double().mean()
    else:
        value = torch.mode(g.flatten().to(torch.int64)).values
    return torch.full_like(g, float(value)).to(g.dtype)


def scaled(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    if not _is_float(g):
        return None
    return (g.double() * SCALE).to(g.dtype)


def shifted(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    """Values one position off along the last dimension (flattened if it has one element)."""
    if g.numel() < 2:
        return None
    if g.dim() >= 1 and g.shape[-1] > 1:
        return torch.roll(g, 1, dims=-1)
    return torch.roll(g.flatten(), 1).reshape(g.shape)


def transposed(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    """The last two dimensions swapped and read back in the output's shape."""
    if g.dim() < 2 or g.shape[-1] < 2 or g.shape[-2] < 2:
        return None
    return g.transpose(-1, -2).contiguous().reshape(g.shape)


def tail_zeroed(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    """The last 1/16 of the elements (in memory order) never written: a missing last block."""
    if g.numel() < 2:
        return None
    out = g.clone().flatten()
    out[-max(1, int(out.numel() * TAIL_SHARE)):] = 0
    return out.reshape(g.shape)


def last_column_zeroed(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    """The last element of every row never written: a width that is not a multiple of the
    block, handled by dropping the remainder."""
    if g.dim() < 2 or g.shape[-1] < 2:
        return None
    out = g.clone()
    out[..., -1] = 0
    return out


def _ulp(g: torch.Tensor) -> torch.Tensor:
    return torch.finfo(g.dtype).eps * g.double().abs().clamp(min=torch.finfo(g.dtype).tiny)


def few_wrong(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    """One element in a thousand pushed twice the tolerance (and a few ulps) away."""
    if g.numel() == 0:
        return None
    count = max(1, int(g.numel() * FEW_WRONG_SHARE))
    gen = torch.Generator(device="cpu").manual_seed(7)
    index = torch.randperm(g.numel(), generator=gen)[:count].to(g.device)
    out = g.clone().flatten()
    picked = out[index]
    if g.dtype == torch.bool:
        out[index] = ~picked
    elif _is_float(g):
        p64 = picked.double()
        bump = 2 * (atol + rtol * p64.abs()) + 4 * _ulp(picked) + 1e-30
        out[index] = (p64 + bump).to(g.dtype)
    else:
        info = torch.iinfo(g.dtype)
        step = int(atol) + 1
        up = picked.to(torch.int64) + step
        down = picked.to(torch.int64) - step
        out[index] = torch.where(up <= info.max, up, down).to(g.dtype)
    return out.reshape(g.shape)


def off_by_one(g: torch.Tensor, atol: float, rtol: float) -> torch.Tensor | None:
    """Integer outputs: every other nonzero element one step toward zero, what truncation or
    flooring instead of rounding gives on about half of the elements."""
    if _is_float(g) or g.dtype == torch.bool or g.numel() == 0:
        return None
    flat = g.flatten().to(torch.int64)
    every_other = (torch.arange(flat.numel(), device=g.device) % 2) == 0
    moved = flat - torch.sign(flat)
    moved = torch.where(flat == 0, flat + 1, moved)
    return torch.where(every_other, moved, flat).to(g.dtype).reshape(g.shape)


GENERIC: dict[str, Mutation] = {
    "zeros": zeros,
    "constant": constant,
    "scaled": scaled,
    "shifted": shifted,
    "transposed": transposed,
    "tail_zeroed": tail_zeroed,
    "last_column_zeroed": last_column_zeroed,
    "few_wrong": few_wrong,
    "off_by_one": off_by_one,
}
# Computed from the inputs (tasks/soundness.py), not from the output.
LOWER_PRECISION = "lower_precision"
# Explicit mantissa bits kept by the lower-precision variant: float32 inputs held as bfloat16,
# 16-bit inputs held as an 8-bit float (e4m3).
_KEPT_BITS = {torch.float32: 7, torch.float64: 7, torch.float16: 3, torch.bfloat16: 3}


def round_mantissa(t: torch.Tensor, bits: int) -> torch.Tensor:
    """`t` rounded to `bits` explicit mantissa bits (same dtype, same exponent range)."""
    mantissa, exponent = torch.frexp(t.double())
    scale = float(2 ** (bits + 1))
    return torch.ldexp(torch.round(mantissa * scale) / scale, exponent).to(t.dtype)


def lower_precision_inputs(args: tuple, outputs: tuple) -> tuple | None:
    """Floating inputs rounded to fewer mantissa bits than the outputs keep (a float32 input of
    a 16-bit result is held as an 8-bit float); None when no input is floating."""
    floats = [_KEPT_BITS[o.dtype] for o in outputs if o.dtype in _KEPT_BITS]
    cap = min(floats) if floats else min(_KEPT_BITS.values())
    if not any(isinstance(a, torch.Tensor) and a.dtype in _KEPT_BITS for a in args):
        return None
    return tuple(round_mantissa(a, min(_KEPT_BITS[a.dtype], cap))
                 if isinstance(a, torch.Tensor) and a.dtype in _KEPT_BITS else a for a in args)


def zeros_pass_share(ref: torch.Tensor, dtype: torch.dtype, atol: float, rtol: float) -> float:
    """Share of the elements a kernel may leave unwritten unnoticed: where 0 is within tolerance
    although the output dtype holds the value with a few bits to spare (at least 16 times its
    smallest subnormal, so float16 values that are all but unrepresentable do not count)."""
    r64 = ref.detach().double()
    floor = 16 * torch.finfo(dtype).tiny * torch.finfo(dtype).eps if dtype.is_floating_point \
        else 0.5
    held = torch.isfinite(r64) & (r64.abs() >= floor)
    count = int(held.sum())
    if count == 0:
        return 0.0
    passes = held & (r64.abs() <= atol + rtol * r64.abs())
    return int(passes.sum()) / count
