"""Comparing a candidate's output with the reference's.

Runs in the judge, never in the candidate's process. The checks are strict on purpose: exact
`torch.Tensor` type (a lazy subclass could compute on access), exact shape, dtype and device,
every element compared, and a non-finite value where the reference is finite always fails,
whatever the tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch


@dataclass
class Mismatch:
    """Why an output is wrong, in words an agent can act on."""

    message: str
    max_abs_err: float | None = None
    bad_fraction: float | None = None


@dataclass(frozen=True)
class OutputMeta:
    """What the reference returns for native-precision inputs: the candidate must match it."""

    structure: str  # "tensor" or "tuple"
    shapes: tuple[tuple[int, ...], ...]
    dtypes: tuple[torch.dtype, ...]
    devices: tuple[str, ...]

    @classmethod
    def of(cls, value: Any) -> OutputMeta:
        tensors = as_tensor_list(value)
        return cls(
            "tensor" if isinstance(value, torch.Tensor) else "tuple",
            tuple(tuple(t.shape) for t in tensors),
            tuple(t.dtype for t in tensors),
            tuple(t.device.type for t in tensors),
        )


_BITS = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def identical(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bit-for-bit the same tensor: unlike torch.equal, NaN equals the same NaN, so inputs that
    hold NaN on purpose (a histogram's) can be checked for being left unchanged."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point() and a.element_size() in _BITS:
        bits = _BITS[a.element_size()]
        return bool(torch.equal(a.contiguous().view(bits), b.contiguous().view(bits)))
    return bool(torch.equal(a, b))


def as_tensor_list(value: Any) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)) and all(isinstance(v, torch.Tensor) for v in value):
        return list(value)
    raise TypeError(f"expected a tensor or a tuple of tensors, got {type(value).__name__}")


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def check_structure(out: Any, meta: OutputMeta) -> Mismatch | None:
    """Type, count, shape, dtype and device, before any value is looked at."""
    if meta.structure == "tensor":
        if type(out) is not torch.Tensor:
            return Mismatch(f"returned {type(out).__module__}.{type(out).__name__}, "
                            "expected exactly torch.Tensor")
        outs = [out]
    else:
        if not isinstance(out, (tuple, list)) or len(out) != len(meta.shapes):
            return Mismatch(f"returned {type(out).__name__}, expected a tuple of "
                            f"{len(meta.shapes)} tensors")
        outs = list(out)
    for index, tensor in enumerate(outs):
        label = f"output {index}" if len(outs) > 1 else "output"
        if type(tensor) is not torch.Tensor:
            return Mismatch(f"{label} is {type(tensor).__name__}, expected exactly torch.Tensor")
        if tuple(tensor.shape) != meta.shapes[index]:
            return Mismatch(f"{label} has shape {tuple(tensor.shape)}, "
                            f"expected {meta.shapes[index]}")
        if tensor.dtype != meta.dtypes[index]:
            return Mismatch(f"{label} has dtype {_dtype_name(tensor.dtype)}, "
                            f"expected {_dtype_name(meta.dtypes[index])}")
        if tensor.device.type != meta.devices[index]:
            return Mismatch(f"{label} is on {tensor.device.type}, expected {meta.devices[index]}")
    return None


def compare_values(
    out: Any, ref: Any, tolerances: dict[str, tuple[float, float]]
) -> Mismatch | None:
    """Every element within atol + rtol * |ref| (tolerance of the output's dtype)."""
    for index, (o, r) in enumerate(zip(as_tensor_list(out), as_tensor_list(ref), strict=True)):
        label = f"output {index}: " if isinstance(out, (tuple, list)) else ""
        dtype = _dtype_name(o.dtype)
        if dtype not in tolerances:
            return Mismatch(f"{label}no tolerance declared for dtype {dtype}")
        atol, rtol = tolerances[dtype]
        o64 = o.detach().to(torch.float64)
        r64 = r.detach().to(device=o.device, dtype=torch.float64)
        ref_finite = torch.isfinite(r64)
        bad_nonfinite = ref_finite & ~torch.isfinite(o64)
        if bool(bad_nonfinite.any()):
            count = int(bad_nonfinite.sum())
            return Mismatch(f"{label}{count} NaN/inf values where the reference is finite",
                            bad_fraction=count / max(o64.numel(), 1))
        nan_mismatch = torch.isnan(r64) & ~torch.isnan(o64)
        if bool(nan_mismatch.any()):
            return Mismatch(f"{label}{int(nan_mismatch.sum())} values are finite where the "
                            "reference is NaN")
        # An infinite reference value is part of the function (the max of an empty set, a
        # masked score): the output must hold the same infinity, not anything at all.
        inf_mismatch = torch.isinf(r64) & (o64 != r64)
        if bool(inf_mismatch.any()):
            count = int(inf_mismatch.sum())
            return Mismatch(f"{label}{count} values differ where the reference is +-inf",
                            bad_fraction=count / max(o64.numel(), 1))
        diff = torch.where(ref_finite, (o64 - r64).abs(), torch.zeros_like(o64))
        allowed = atol + rtol * r64.abs()
        bad = ref_finite & (diff > allowed)
        if o64.numel() == 0:
            continue
        max_abs = float(diff.max())
        if bool(bad.any()):
            count = int(bad.sum())
            worst = int(torch.argmax(torch.where(bad, diff - allowed, torch.zeros_like(diff))))
            index_nd = tuple(int(i) for i in torch.unravel_index(torch.tensor(worst), o64.shape))
            got, expected = float(o64.flatten()[worst]), float(r64.flatten()[worst])
            return Mismatch(
                f"{label}{count} of {o64.numel()} elements outside atol={atol:g} rtol={rtol:g}; "
                f"max abs error {max_abs:.4g}, worst at index {list(index_nd)}: "
                f"got {got:.6g}, expected {expected:.6g}",
                max_abs_err=max_abs,
                bad_fraction=count / o64.numel(),
            )
    return None


def compare_sampled(
    out: Any, ref: Any, tolerances: dict[str, tuple[float, float]], samples: int = 4096,
    generator: torch.Generator | None = None,
) -> Mismatch | None:
    """`compare_values` on random positions (new ones each call) of every output.

    Used on timed calls, where a full comparison per call would dominate the evaluation's wall
    time. Stale, cached or partial outputs differ at a large share of positions, so a few
    thousand random ones find them; the first timed round is still compared in full.
    """
    sampled_out, sampled_ref = [], []
    for o, r in zip(as_tensor_list(out), as_tensor_list(ref), strict=True):
        if o.numel() <= samples:
            sampled_out.append(o)
            sampled_ref.append(r)
            continue
        index = torch.randint(0, o.numel(), (samples,), device=o.device, generator=generator)
        sampled_out.append(o.reshape(-1)[index])
        sampled_ref.append(r.reshape(-1).to(o.device)[index])
    return compare_values(tuple(sampled_out), tuple(sampled_ref), tolerances)


def max_errors(out: Any, ref: Any) -> float:
    """Largest absolute error over all outputs (for the report of a passing run)."""
    worst = 0.0
    for o, r in zip(as_tensor_list(out), as_tensor_list(ref), strict=True):
        if o.numel() == 0:
            continue
        o64 = o.detach().to(torch.float64)
        r64 = r.detach().to(device=o.device, dtype=torch.float64)
        diff = torch.where(torch.isfinite(r64), (o64 - r64).abs(), torch.zeros_like(o64))
        worst = max(worst, float(diff.max()))
    return worst
