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


def check(configs: list[dict[str, Any]], params_by_name: dict[str, dict[str, Any]],
          bytes_expr: str | None, flops_expr: str | None, gpu_name: str | None) -> list[str]:
    """Reasons to reject: configurations timed implausibly far below the bound."""
    peaks = peaks_for(gpu_name)
    if peaks is None:
        return []
    problems = []
    for config in configs:
        measured = config.get("candidate_ms")
        params = params_by_name.get(config["name"])
        if measured is None or params is None:
            continue
        bound = bound_ms(bytes_expr, flops_expr, params, peaks)
        if bound is None:
            continue
        config["speed_of_light_ms"] = bound
        if measured < REJECT_BELOW * bound:
            problems.append(f"config {config['name']}: measured {measured * 1e3:.1f} us, below "
                            f"the speed-of-light bound of {bound * 1e3:.1f} us for {gpu_name}")
    return problems
