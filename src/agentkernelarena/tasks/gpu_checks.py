"""The soundness checks that need measured times (`aka tasks check` on a GPU).

From the evaluator's own records (the baseline timed against itself, then the solution against
the baseline): every configuration's baseline time inside the task format's window, the timing
trustworthy (A/A near 1), the baseline clearly above its speed-of-light bound (room to improve,
and a formula that does not overcount), the solution faster than the baseline everywhere and
never faster than the bound (an honest kernel the guard would reject). The held-out draws are
random per evaluation, so the checker times the extremes of the draw space too: the smallest
and largest of many draws by the task's cost formula.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from agentkernelarena.evaluate.speed_of_light import evaluate_expression
from agentkernelarena.tasks.draws import draw_configs
from agentkernelarena.tasks.spec import Config, Task, config_name

WINDOW_MS = (0.05, 20.0)
# The baseline must leave this much room above the bound (DESIGN.md: ~1.2x).
HEADROOM = 1.2
# A solution must beat the baseline by more than timing noise on every configuration.
MIN_SPEEDUP = 1.05
AA_LIMIT = 0.05
DRAW_SAMPLES = 200


def _cost(task: Task, params: dict[str, Any]) -> float:
    expression = task.bytes_expr or task.flops_expr
    if expression:
        return evaluate_expression(expression, params)
    return float(math.prod(v for v in params.values() if isinstance(v, int)) or 1)


def draw_extremes(task: Task) -> list[Config]:
    """The cheapest and the costliest of many draws by the task's cost formula, and the draws
    with the smallest and largest value of each integer parameter: where a time window is left
    first (a histogram with two bins is slow for its size: every value hits one counter)."""
    if task.held_out_draws is None:
        return []
    drawn = [params for seed in range(DRAW_SAMPLES)
             for _, params in draw_configs(task.held_out_draws, seed)]
    if not drawn:
        return []
    ranked = sorted(drawn, key=lambda p: _cost(task, p))
    picks = [("draw-min", ranked[0]), ("draw-max", ranked[-1])]
    for key in sorted({k for p in drawn for k, v in p.items() if isinstance(v, int)}):
        by_key = sorted(drawn, key=lambda p, k=key: (p.get(k, 0), _cost(task, p)))
        picks += [(f"draw-min{key}", by_key[0]), (f"draw-max{key}", by_key[-1])]
    chosen: list[Config] = []
    for label, params in picks:
        if all(params != c.params for c in chosen):
            chosen.append(Config(f"{label}-{config_name(params)}", params))
    return chosen


def with_extremes(task: Task) -> Task:
    """The task with its draw extremes as fixed held-out configurations (and no random
    draws), so that one measured evaluation covers visible, held-out and the draw space."""
    return dataclasses.replace(task, held_out=task.held_out + draw_extremes(task),
                               held_out_draws=None)


def _configs(result: dict[str, Any]) -> list[dict[str, Any]]:
    return list(result.get("configs") or []) + list((result.get("held_out") or {}).get("configs")
                                                   or [])


def timing_report(baseline_aa: dict[str, Any],
                  solution: dict[str, Any] | None) -> tuple[list[dict[str, Any]], list[str]]:
    """Per-configuration rows (baseline ms, A/A, bound, solution speedup) and the problems."""
    rows: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    low, high = WINDOW_MS
    for c in _configs(baseline_aa):
        base, cand = c.get("baseline_ms"), c.get("candidate_ms")
        if base is None:
            continue
        bound = c.get("speed_of_light_ms")
        row = rows.setdefault(c["name"], {"config": c["name"]})
        row.update({"baseline_ms": base, "aa": (base / cand) if cand else None,
                    "bound_ms": bound})
        if not low <= base <= high:
            problems.append(f"config {c['name']}: baseline {base:.4g} ms is outside the "
                            f"{low}-{high} ms window: resize the configuration (or the draw "
                            "ranges/where)")
        if row["aa"] is not None and abs(row["aa"] - 1) > AA_LIMIT:
            problems.append(f"config {c['name']}: the baseline against itself gave "
                            f"{row['aa']:.3f}: its time is not stable enough to score")
        if bound:
            row["baseline_over_bound"] = base / bound
            if base < HEADROOM * bound:
                problems.append(f"config {c['name']}: baseline {base:.4g} ms is within "
                                f"{HEADROOM}x of the speed-of-light bound {bound:.4g} ms: no room "
                                "left, or the bytes/flops formula counts more than is needed")
    for c in _configs(solution or {}):
        speedup, cand = c.get("speedup"), c.get("candidate_ms")
        if speedup is None:
            continue
        row = rows.setdefault(c["name"], {"config": c["name"]})
        row["solution_speedup"] = speedup
        bound = c.get("speed_of_light_ms") or row.get("bound_ms")
        if speedup < MIN_SPEEDUP:
            problems.append(f"config {c['name']}: the solution is {speedup:.3f}x the baseline "
                            f"(below {MIN_SPEEDUP}x): improve it, or drop solution/ (no "
                            "demonstrated headroom)")
        if bound and cand is not None and cand < bound:
            problems.append(f"config {c['name']}: the solution ran in {cand:.4g} ms, faster than "
                            f"the speed-of-light bound {bound:.4g} ms: the bytes/flops formula "
                            "counts more than a correct kernel must move")
    return list(rows.values()), problems
