"""`aka compare`: two runs (or two agents of one run), task by task, and an honest summary.

Per task, each side's attempts are summed up as its correct rate and the geometric mean of its
correct attempts' speedups. A side wins a task on correctness first (a higher correct rate),
then on speed (speedup ratio beyond the tie band, default 2%); otherwise it is a tie. The
summary gives the win/loss/tie counts and, over tasks where both sides have a speedup, the
geometric mean of B/A with a 95% bootstrap confidence interval over tasks (fixed seed, so the
same runs always give the same interval). Tasks only one side ran are listed, not compared.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.report.load import RunData
from agentkernelarena.report.metrics import geomean, trial_row

RESAMPLES = 2000


def pick_agent(run: RunData, label: str | None, side: str) -> str:
    labels = [a.get("label") or a["name"]
              for a in run.manifest.get("identity", {}).get("agents", [])]
    if label is not None:
        if label not in labels:
            raise AkaError(f"run {run.path} has no agent labelled {label!r}",
                           f"its agents: {', '.join(labels)}")
        return label
    if len(labels) != 1:
        raise AkaError(f"run {run.path} has {len(labels)} agents ({', '.join(labels)})",
                       f"choose one with --agent-{side} LABEL")
    return labels[0]


def _task_side(rows: list[dict[str, Any]]) -> dict[str, Any]:
    correct = [r for r in rows if r["correct"]]
    return {
        "trials": len(rows),
        "correct": len(correct),
        "correct_rate": len(correct) / len(rows),
        "verdicts": dict(sorted(Counter(r["verdict"] for r in rows).items())),
        "speedup_geomean": geomean(r["speedup"] for r in correct if r["speedup"]),
        "score_mean": sum(r["score"] for r in rows) / len(rows),
    }


def _winner(a: dict[str, Any], b: dict[str, Any], tie: float) -> tuple[str, float | None]:
    ratio = (b["speedup_geomean"] / a["speedup_geomean"]
             if a["speedup_geomean"] and b["speedup_geomean"] else None)
    if abs(a["correct_rate"] - b["correct_rate"]) > 1e-9:
        return ("b" if b["correct_rate"] > a["correct_rate"] else "a"), ratio
    if ratio is None:
        return "tie", None
    if ratio > 1 + tie:
        return "b", ratio
    if ratio < 1 / (1 + tie):
        return "a", ratio
    return "tie", ratio


def bootstrap_ci(values: list[float], resamples: int = RESAMPLES, seed: int = 0
                 ) -> tuple[float, float] | None:
    """95% percentile interval of the mean of `values` (None below two values)."""
    if len(values) < 2:
        return None
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(values, k=len(values))) / len(values)
                   for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def _side_totals(sides: list[dict[str, Any]]) -> dict[str, Any]:
    trials = sum(s["trials"] for s in sides)
    return {"trials": trials,
            "correct_rate": round(sum(s["correct"] for s in sides) / trials, 4) if trials else None,
            "score_mean": round(sum(s["score_mean"] * s["trials"] for s in sides) / trials, 3)
            if trials else None,
            "speedup_geomean": geomean(s["speedup_geomean"] for s in sides
                                       if s["speedup_geomean"])}


def compare_runs(run_a: RunData, run_b: RunData, agent_a: str | None = None,
                 agent_b: str | None = None, tie: float = 0.02) -> dict[str, Any]:
    label_a, label_b = pick_agent(run_a, agent_a, "a"), pick_agent(run_b, agent_b, "b")
    rows_a = [r for r in map(trial_row, run_a.records) if r["agent"] == label_a]
    rows_b = [r for r in map(trial_row, run_b.records) if r["agent"] == label_b]
    by_task_a: dict[str, list[dict[str, Any]]] = {}
    by_task_b: dict[str, list[dict[str, Any]]] = {}
    for row in rows_a:
        by_task_a.setdefault(row["task"], []).append(row)
    for row in rows_b:
        by_task_b.setdefault(row["task"], []).append(row)
    paired = sorted(set(by_task_a) & set(by_task_b))
    tasks, log_ratios = [], []
    outcome: Counter[str] = Counter()
    for task in paired:
        a, b = _task_side(by_task_a[task]), _task_side(by_task_b[task])
        winner, ratio = _winner(a, b, tie)
        outcome[winner] += 1
        if ratio is not None:
            log_ratios.append(math.log(ratio))
        tasks.append({"task": task, "a": a, "b": b, "speedup_ratio": ratio, "winner": winner})
    mean_log = sum(log_ratios) / len(log_ratios) if log_ratios else None
    ci = bootstrap_ci(log_ratios)
    warnings = []
    for name, run in (("a", run_a), ("b", run_b)):
        if run.missing:
            warnings.append(f"run {name} has {len(run.missing)} unfinished trial(s)")
        if run.manifest.get("comparable") is False:
            warnings.append(f"run {name} ran on {run.manifest.get('platform')}: its timings "
                            "are not comparable")
    for name, label, rows in (("a", label_a, rows_a), ("b", label_b, rows_b)):
        unsandboxed = sum(bool(r["unsandboxed"]) for r in rows)
        if unsandboxed:
            warnings.append(f"run {name}: {unsandboxed} trial(s) of {label} ran without a "
                            "sandbox (agent or evaluation worker): their held-out results are "
                            "not trustworthy")
    if run_a.manifest.get("platform") != run_b.manifest.get("platform"):
        warnings.append("the runs used different platforms")
    totals_a = _side_totals([t["a"] for t in tasks])
    totals_b = _side_totals([t["b"] for t in tasks])
    return {
        "a": {"run": str(run_a.path), "label": run_a.label, "agent": label_a},
        "b": {"run": str(run_b.path), "label": run_b.label, "agent": label_b},
        "tasks": tasks,
        "summary": {
            "paired_tasks": len(paired),
            "only_a": sorted(set(by_task_a) - set(by_task_b)),
            "only_b": sorted(set(by_task_b) - set(by_task_a)),
            "wins_b": outcome["b"], "wins_a": outcome["a"], "ties": outcome["tie"],
            "tie_band": tie,
            "speedup_ratio_n": len(log_ratios),
            "speedup_ratio_geomean": math.exp(mean_log) if mean_log is not None else None,
            "speedup_ratio_ci95": [math.exp(ci[0]), math.exp(ci[1])] if ci else None,
            "a": totals_a, "b": totals_b,
            "delta": {k: (totals_b[k] - totals_a[k]
                          if totals_a[k] is not None and totals_b[k] is not None else None)
                      for k in ("correct_rate", "score_mean")},
            "warnings": warnings,
            "method": "per task: correct rate first, then B/A speedup geomean beyond the tie "
                      "band; ratio CI: percentile bootstrap over paired tasks "
                      f"({RESAMPLES} resamples, seed 0)",
        },
    }
