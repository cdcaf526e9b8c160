"""Paired bootstrap over tasks and attempts: is run B better than run A, per metric, for sure?

The unit of evidence is the task: both sides ran the same tasks, so a resample draws tasks with
replacement (the same draw for A and B: paired), then, inside each drawn task, each side's
attempts with replacement (attempts are the noise of an agent on one task). A task weighs the
same whatever its number of attempts: a side's metric is the mean over tasks of the task's mean
over attempts. The 95% interval is the percentile interval of B - A over the resamples (for
speedups, of log(B/A), reported as a ratio). A seeded numpy generator makes the intervals
repeatable: the same two runs always give the same verdicts.

Verdicts: `better` (the interval is above zero), `worse` (below), `not distinguishable`
(it covers zero), and `too few tasks to tell` when fewer than `min_tasks` tasks carry the metric
(an interval over three tasks says more about the three tasks than about the agents).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

RESAMPLES = 2000
MIN_TASKS = 10
BETTER, WORSE, SAME, TOO_FEW = "better", "worse", "not distinguishable", "too few tasks to tell"

# Rates and means: (key, label, the trial row -> value). Higher is better for all of them.
RATE_METRICS: tuple[tuple[str, str], ...] = (
    ("compile_rate", "compile rate"),
    ("correct_rate", "correct rate"),
    ("fast_1.0", "fast_1.0"),
    ("fast_1.5", "fast_1.5"),
    ("fast_2.0", "fast_2.0"),
    ("held_out_correct_rate", "held-out correct rate"),
    ("score_mean", "mean score"),
)
# Speedup ratios B/A, over tasks where both sides have a correct attempt (geometric means).
RATIO_METRICS: tuple[tuple[str, str], ...] = (
    ("speedup_ratio", "speedup B/A (geomean, correct trials)"),
    ("held_out_speedup_ratio", "held-out speedup B/A (geomean, correct trials)"),
)


def _log(value: Any) -> float:
    return math.log(value) if isinstance(value, (int, float)) and value > 0 else math.nan


def trial_values(row: dict[str, Any]) -> tuple[list[float], list[float]]:
    """A trial's rate-metric values (RATE_METRICS order) and its log speedups (visible,
    held-out; NaN where the trial was not correct there)."""
    correct, speedup = bool(row["correct"]), row.get("speedup")
    held = row.get("held_out") or {}
    fast = [float(correct and speedup is not None and speedup >= p) for p in (1.0, 1.5, 2.0)]
    rates = [float(bool(row["compiled"])), float(correct), *fast,
             float(bool(held.get("correct"))), float(row["score"])]
    logs = [_log(speedup) if correct else math.nan,
            _log(held.get("speedup")) if held.get("correct") else math.nan]
    return rates, logs


@dataclass
class Side:
    """One side's trials of one task, as arrays: rates (n, k) and log speedups (n, 2)."""

    rates: np.ndarray
    logs: np.ndarray

    @classmethod
    def of(cls, rows: list[dict[str, Any]]) -> Side:
        values = [trial_values(r) for r in rows]
        return cls(np.array([v[0] for v in values], dtype=float).reshape(len(rows), -1),
                   np.array([v[1] for v in values], dtype=float).reshape(len(rows), -1))


def _nanmean(values: np.ndarray, axis: int) -> np.ndarray:
    """Mean ignoring NaN; NaN where all are NaN (without numpy's warning)."""
    valid = ~np.isnan(values)
    count = valid.sum(axis=axis)
    total = np.where(valid, values, 0.0).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def _task_replicates(side: Side, rng: np.random.Generator, resamples: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Per resample, the task's mean rates (R, k) and mean log speedups (R, 2) over its
    attempts drawn with replacement."""
    n = side.rates.shape[0]
    draw = rng.integers(0, n, size=(resamples, n))
    return side.rates[draw].mean(axis=1), _nanmean(side.logs[draw], axis=1)


def _verdict(low: float, high: float) -> str:
    if low > 0:
        return BETTER
    if high < 0:
        return WORSE
    return SAME


def paired_bootstrap(pairs: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]],
                     resamples: int = RESAMPLES, seed: int = 0, min_tasks: int = MIN_TASKS
                     ) -> list[dict[str, Any]]:
    """One entry per metric: {metric, label, kind, n_tasks, a, b, delta (B - A; for ratios
    B/A), ci95, verdict, over}. `pairs`: per paired task (A's trial rows, B's trial rows),
    both non-empty; tasks in a fixed order (the caller sorts them)."""
    rng = np.random.default_rng(seed)
    sides = [(Side.of(a), Side.of(b)) for a, b in pairs]
    n_tasks = len(sides)
    k = len(RATE_METRICS)
    # Point estimates: per task the mean over attempts, then the mean over tasks.
    rate_a = np.array([s[0].rates.mean(axis=0) for s in sides]).reshape(n_tasks, k)
    rate_b = np.array([s[1].rates.mean(axis=0) for s in sides]).reshape(n_tasks, k)
    log_a = np.array([_nanmean(s[0].logs, 0) for s in sides]).reshape(n_tasks, 2)
    log_b = np.array([_nanmean(s[1].logs, 0) for s in sides]).reshape(n_tasks, 2)
    log_ratio = log_b - log_a  # NaN where either side has no correct attempt
    enough = n_tasks >= min_tasks and n_tasks > 1
    if enough:
        reps = [(_task_replicates(a, rng, resamples), _task_replicates(b, rng, resamples))
                for a, b in sides]
        rates_a = np.stack([r[0][0] for r in reps])  # (T, R, k)
        rates_b = np.stack([r[1][0] for r in reps])
        ratio_reps = np.stack([r[1][1] - r[0][1] for r in reps])  # (T, R, 2)
        draw = rng.integers(0, n_tasks, size=(resamples, n_tasks))
        column = np.arange(resamples)[:, None]
        rate_delta = (rates_b[draw, column] - rates_a[draw, column]).mean(axis=1)  # (R, k)
        ratio_delta = _nanmean(ratio_reps[draw, column], axis=1)  # (R, 2)
    out = []
    for index, (key, label) in enumerate(RATE_METRICS):
        a = float(rate_a[:, index].mean()) if n_tasks else None
        b = float(rate_b[:, index].mean()) if n_tasks else None
        entry = {"metric": key, "label": label, "kind": "difference", "n_tasks": n_tasks,
                 "a": a, "b": b, "delta": b - a if a is not None and b is not None else None,
                 "ci95": None, "verdict": TOO_FEW,
                 "over": f"{n_tasks} paired tasks, all trials"}
        if enough:
            low, high = np.percentile(rate_delta[:, index], [2.5, 97.5])
            entry["ci95"] = [float(low), float(high)]
            entry["verdict"] = _verdict(float(low), float(high))
        out.append(entry)
    for index, (key, label) in enumerate(RATIO_METRICS):
        valid = ~np.isnan(log_ratio[:, index])
        n = int(valid.sum())
        which = "visible" if index == 0 else "held-out"
        entry = {"metric": key, "label": label, "kind": "ratio", "n_tasks": n,
                 "a": _exp(_nanmean(log_a[valid, index], 0)) if n else None,
                 "b": _exp(_nanmean(log_b[valid, index], 0)) if n else None,
                 "delta": _exp(float(log_ratio[valid, index].mean())) if n else None,
                 "ci95": None, "verdict": TOO_FEW,
                 "over": f"{n} tasks {which}-correct on both"}
        if enough and n >= min_tasks and n > 1:
            column_reps = ratio_delta[:, index]
            column_reps = column_reps[~np.isnan(column_reps)]
            low, high = np.percentile(column_reps, [2.5, 97.5])
            entry["ci95"] = [math.exp(float(low)), math.exp(float(high))]
            entry["verdict"] = _verdict(float(low), float(high))
        out.append(entry)
    return out


def _exp(value: Any) -> float | None:
    value = float(value)
    return None if math.isnan(value) else math.exp(value)


def method(resamples: int, seed: int, min_tasks: int) -> str:
    return (f"paired percentile bootstrap over tasks, and over attempts within each task "
            f"({resamples} resamples, seed {seed}); a task weighs the same whatever its "
            f"attempts; verdicts from the 95% interval of B - A (speedups: of B/A); below "
            f"{min_tasks} tasks: too few tasks to tell")
