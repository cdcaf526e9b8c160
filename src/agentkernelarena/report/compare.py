"""`aka compare`: two runs (or two agents of one run), task by task, and an honest summary.

Per task, each side's attempts are summed up as its correct rate and the geometric mean of its
correct attempts' speedups. A side wins a task on correctness first (a higher correct rate),
then on speed (speedup ratio beyond the tie band, default 2%); otherwise it is a tie. Every
metric (rates, fast_p, held-out, score, speedup ratios) gets a verdict from a paired bootstrap
over tasks and attempts (bootstrap.py), or "too few tasks to tell" below `min_tasks` paired
tasks. Every mean is over the paired tasks only (each entry says over which); tasks only one
side ran are listed, not compared; settings that differ between the runs are warned about.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.report.bootstrap import MIN_TASKS, RESAMPLES, method, paired_bootstrap
from agentkernelarena.report.load import RunData
from agentkernelarena.report.metrics import geomean, trial_row
from agentkernelarena.report.settings import settings_warnings
from agentkernelarena.runner.outcome import AGENT_FAILED, AGENT_OK, AGENT_TIMED_OUT


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
        # What the agent did (ok ones left out): a verdict `ok` after a crashed agent is the
        # unchanged baseline, not a result.
        "agent_outcomes": dict(sorted(Counter(r["agent_outcome"] for r in rows
                                              if r["agent_outcome"] != AGENT_OK).items())),
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


def _side_totals(sides: list[dict[str, Any]]) -> dict[str, Any]:
    trials = sum(s["trials"] for s in sides)
    outcomes: Counter[str] = Counter()
    for side in sides:
        outcomes.update(side["agent_outcomes"])
    return {"trials": trials,
            "agent_outcomes": dict(sorted(outcomes.items())),
            "correct_rate": round(sum(s["correct"] for s in sides) / trials, 4) if trials else None,
            "score_mean": round(sum(s["score_mean"] * s["trials"] for s in sides) / trials, 3)
            if trials else None,
            "speedup_geomean": geomean(s["speedup_geomean"] for s in sides
                                       if s["speedup_geomean"]),
            "over": f"the {len(sides)} paired task(s) only (tasks one side lacks are left out)"}


def _change(task: dict[str, Any]) -> tuple[float, float]:
    """How much B gained on a task: correct rate first, then log speedup ratio."""
    ratio = task["speedup_ratio"]
    return (task["b"]["correct_rate"] - task["a"]["correct_rate"],
            math.log(ratio) if ratio else 0.0)


def movers(tasks: list[dict[str, Any]], top: int = 5) -> tuple[list[dict[str, Any]],
                                                                list[dict[str, Any]]]:
    """The tasks B improved most and those it regressed most (winners only, at most `top`)."""
    brief = [{"task": t["task"], "correct_rate_delta": round(_change(t)[0], 4),
              "speedup_ratio": t["speedup_ratio"], "a_speedup": t["a"]["speedup_geomean"],
              "b_speedup": t["b"]["speedup_geomean"], "_key": _change(t), "winner": t["winner"]}
             for t in tasks]
    improved = sorted((t for t in brief if t["winner"] == "b"), key=lambda t: t["_key"],
                      reverse=True)[:top]
    regressed = sorted((t for t in brief if t["winner"] == "a"), key=lambda t: t["_key"])[:top]
    for entry in improved + regressed:
        entry.pop("_key", None)
    return improved, regressed


def _by_task(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["task"], []).append(row)
    return out


def _run_warnings(run_a: RunData, run_b: RunData, label_a: str, label_b: str,
                  rows_a: list[dict[str, Any]], rows_b: list[dict[str, Any]]) -> list[str]:
    warnings = []
    same = run_a.path.resolve() == run_b.path.resolve()
    for name, run in ((("the run", run_a),) if same else (("run a", run_a), ("run b", run_b))):
        if run.missing:
            warnings.append(f"{name} has {len(run.missing)} unfinished trial(s)")
        if run.unreadable:
            warnings.append(f"{name} has {len(run.unreadable)} unreadable trial record(s): "
                            f"{', '.join(run.unreadable[:5])}")
        if run.manifest.get("comparable") is False:
            warnings.append(f"{name} ran on {run.manifest.get('platform')}: its timings "
                            "are not comparable")
    for name, label, rows in (("a", label_a, rows_a), ("b", label_b, rows_b)):
        failed = sum(r["agent_outcome"] == AGENT_FAILED for r in rows)
        timed_out = sum(r["agent_outcome"] == AGENT_TIMED_OUT for r in rows)
        if failed or timed_out:
            warnings.append(f"run {name}: in {failed + timed_out} of {len(rows)} trial(s) of "
                            f"{label} the agent failed ({failed}) or timed out ({timed_out}); "
                            "they count in every mean with what was left in the workspace")
        unsandboxed = sum(bool(r["unsandboxed"]) for r in rows)
        if unsandboxed:
            warnings.append(f"run {name}: {unsandboxed} trial(s) of {label} ran without a "
                            "sandbox (agent or evaluation worker): their held-out results are "
                            "not trustworthy")
    return warnings


def compare_runs(run_a: RunData, run_b: RunData, agent_a: str | None = None,
                 agent_b: str | None = None, tie: float = 0.02, *,
                 resamples: int = RESAMPLES, seed: int = 0,
                 min_tasks: int = MIN_TASKS) -> dict[str, Any]:
    label_a, label_b = pick_agent(run_a, agent_a, "a"), pick_agent(run_b, agent_b, "b")
    rows_a = [r for r in map(trial_row, run_a.records) if r["agent"] == label_a]
    rows_b = [r for r in map(trial_row, run_b.records) if r["agent"] == label_b]
    by_task_a, by_task_b = _by_task(rows_a), _by_task(rows_b)
    paired = sorted(set(by_task_a) & set(by_task_b))
    tasks = []
    outcome: Counter[str] = Counter()
    for task in paired:
        a, b = _task_side(by_task_a[task]), _task_side(by_task_b[task])
        winner, ratio = _winner(a, b, tie)
        outcome[winner] += 1
        tasks.append({"task": task, "category": by_task_a[task][0]["category"], "a": a, "b": b,
                      "speedup_ratio": ratio, "winner": winner})
    metrics = paired_bootstrap([(by_task_a[t], by_task_b[t]) for t in paired],
                               resamples=resamples, seed=seed, min_tasks=min_tasks)
    speed = next(m for m in metrics if m["metric"] == "speedup_ratio")
    warnings = _run_warnings(run_a, run_b, label_a, label_b, rows_a, rows_b)
    warnings += settings_warnings(run_a, run_b, rows_a, rows_b, paired)
    too_few = len(paired) < min_tasks
    if too_few:
        warnings.insert(0, f"only {len(paired)} paired task(s), fewer than {min_tasks}: too "
                           "few tasks to tell a difference (no intervals; --min-tasks lowers "
                           "the bar)")
    improved, regressed = movers(tasks)
    totals_a = _side_totals([t["a"] for t in tasks])
    totals_b = _side_totals([t["b"] for t in tasks])
    return {
        "a": {"run": str(run_a.path), "label": run_a.label, "agent": label_a},
        "b": {"run": str(run_b.path), "label": run_b.label, "agent": label_b},
        "tasks": tasks,
        "metrics": metrics,
        "improved": improved,
        "regressed": regressed,
        "summary": {
            "paired_tasks": len(paired),
            "min_tasks": min_tasks,
            "too_few_tasks": too_few,
            "only_a": sorted(set(by_task_a) - set(by_task_b)),
            "only_b": sorted(set(by_task_b) - set(by_task_a)),
            "wins_b": outcome["b"], "wins_a": outcome["a"], "ties": outcome["tie"],
            "tie_band": tie,
            "speedup_ratio_n": speed["n_tasks"],
            "speedup_ratio_geomean": speed["delta"],
            "speedup_ratio_ci95": speed["ci95"],
            "a": totals_a, "b": totals_b,
            "delta": {k: (totals_b[k] - totals_a[k]
                          if totals_a[k] is not None and totals_b[k] is not None else None)
                      for k in ("correct_rate", "score_mean")},
            "warnings": warnings,
            "method": "per task: correct rate first, then B/A speedup geomean beyond the tie "
                      "band; metrics: " + method(resamples, seed, min_tasks),
        },
    }
