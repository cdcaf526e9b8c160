"""The speed-of-light bound: no kernel moves a task's bytes faster than the memory allows, or
does its arithmetic faster than the chip's peak.

Timings far below that bound mean the measurement was gamed (work hidden from the timer, results
cached in a way the checks missed), so such a trial is rejected rather than scored. Peaks are
datasheet numbers (above what is measured), and the threshold leaves a further margin for
formulas that count a little more traffic than the best kernel needs.
"""

from __future__ import annotations

import math
from typing import Any

# name substring -> (bytes/s, FLOP/s): the memory bandwidth and the densest tensor-core rate.
PEAKS: dict[str, tuple[float, float]] = {
    "H200": (4.8e12, 989e12),
    "H100": (3.35e12, 989e12),
    "H800": (3.35e12, 989e12),
    "GH200": (4.9e12, 989e12),
    "A100": (2.0e12, 312e12),
    "L40S": (0.864e12, 362e12),
    "B200": (8.0e12, 2250e12),
    "MI300X": (5.3e12, 1307e12),
    "MI325X": (6.0e12, 1307e12),
    "MI250X": (3.2e12, 383e12),
}

def _rates(fp64: float, fp32: float, tf32: float, fp16: float, fp8: float,
           int8: float) -> dict[str, float]:
    return {"fp64": fp64, "fp32": fp32, "tf32": tf32, "fp16": fp16, "bf16": fp16, "fp8": fp8,
            "int8": int8}


_HOPPER = _rates(67e12, 67e12, 495e12, 989e12, 1979e12, 1979e12)
_CDNA3 = _rates(163.4e12, 163.4e12, 653.7e12, 1307e12, 2615e12, 2615e12)
# name substring -> dense FLOP/s per precision class (task.yaml `precision`): an fp32 task's
# arithmetic bound must use the fp32 rate, else a 15x faster-than-possible time still passes.
# A class the chip lacks gets the rate it would run at (A100 fp8: its int8 rate).
RATES: dict[str, dict[str, float]] = {
    "H200": _HOPPER, "H100": _HOPPER, "H800": _HOPPER, "GH200": _HOPPER,
    "A100": _rates(19.5e12, 19.5e12, 156e12, 312e12, 624e12, 624e12),
    "L40S": _rates(1.4e12, 91.6e12, 183e12, 362e12, 733e12, 733e12),
    "B200": _rates(40e12, 80e12, 1100e12, 2250e12, 4500e12, 4500e12),
    "MI300X": _CDNA3, "MI325X": _CDNA3,
    "MI250X": _rates(95.7e12, 95.7e12, 95.7e12, 383e12, 383e12, 383e12),
}
_DTYPE_CLASS = {"float64": "fp64", "float32": "fp32", "float16": "fp16", "bfloat16": "bf16",
                "float8_e4m3fn": "fp8", "float8_e5m2": "fp8", "int8": "int8", "uint8": "int8",
                # Wider integers run on the CUDA cores, below the fp32 rate: a sound bound.
                "int16": "fp32", "int32": "fp32", "int64": "fp32"}


def precision_class(precision: str | None, params: dict[str, Any]) -> str | None:
    """The task's declared class, else the configuration's dtype's; None (the densest rate,
    the loosest bound) when neither says."""
    return precision or _DTYPE_CLASS.get(str(params.get("dtype")))


def flop_rate(gpu_name: str | None, precision: str | None) -> float | None:
    """Dense FLOP/s of `precision` on `gpu_name`; the densest class when precision is None."""
    if not gpu_name:
        return None
    for key in sorted(RATES, key=len, reverse=True):
        if key.lower() in gpu_name.lower():
            rates = RATES[key]
            return rates[precision] if precision in rates else max(rates.values())
    return None


# A candidate faster than this share of the bound is rejected.
REJECT_BELOW = 0.8
REVIEW_SPEEDUP = 10.0

_DTYPE_BYTES = {"float64": 8, "float32": 4, "int32": 4, "float16": 2, "bfloat16": 2,
                "int16": 2, "int8": 1, "uint8": 1, "bool": 1, "int64": 8,
                "float8_e4m3fn": 1, "float8_e5m2": 1}


def peaks_for(gpu_name: str | None) -> tuple[float, float] | None:
    if not gpu_name:
        return None
    for key in sorted(PEAKS, key=len, reverse=True):
        if key.lower() in gpu_name.lower():
            return PEAKS[key]
    return None


def evaluate_expression(expression: str, params: dict[str, Any]) -> float:
    """A task's bytes/flops formula over one configuration's parameters."""
    scope = {**params, "size": lambda dtype: _DTYPE_BYTES[str(dtype)],
             "min": min, "max": max, "ceil": math.ceil, "log2": math.log2}
    return float(eval(expression, {"__builtins__": {}}, scope))  # noqa: S307 - task files only


def bound_ms(bytes_expr: str | None, flops_expr: str | None, params: dict[str, Any],
             peaks: tuple[float, float]) -> float | None:
    bandwidth, flop_rate = peaks
    times = []
    if bytes_expr:
        times.append(evaluate_expression(bytes_expr, params) / bandwidth)
    if flops_expr:
        times.append(evaluate_expression(flops_expr, params) / flop_rate)
    return max(times) * 1e3 if times else None


def config_peaks(gpu_name: str | None, precision: str | None,
                 params: dict[str, Any]) -> tuple[float, float] | None:
    """(bytes/s, FLOP/s) for one configuration: the rate of its precision class."""
    peaks = peaks_for(gpu_name)
    if peaks is None:
        return None
    rate = flop_rate(gpu_name, precision_class(precision, params))
    return (peaks[0], rate if rate is not None else peaks[1])


def check(configs: list[dict[str, Any]], params_by_name: dict[str, dict[str, Any]],
          bytes_expr: str | None, flops_expr: str | None, gpu_name: str | None,
          precision: str | None = None) -> list[str]:
    """Reasons to reject: configurations timed implausibly far below the bound."""
    if peaks_for(gpu_name) is None:
        return []
    problems = []
    for config in configs:
        measured = config.get("candidate_ms")
        params = params_by_name.get(config["name"])
        if measured is None or params is None:
            continue
        peaks = config_peaks(gpu_name, precision, params)
        assert peaks is not None
        bound = bound_ms(bytes_expr, flops_expr, params, peaks)
        if bound is None:
            continue
        config["speed_of_light_ms"] = bound
        if measured < REJECT_BELOW * bound:
            problems.append(f"config {config['name']}: measured {measured * 1e3:.1f} us, below "
                            f"the speed-of-light bound of {bound * 1e3:.1f} us for {gpu_name}")
    return problems
