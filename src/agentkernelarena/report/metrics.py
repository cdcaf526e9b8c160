"""A run's numbers (DESIGN.md §8, §6): per trial, per agent, per agent x category.

Rules, stated once and repeated in every summary's `notes`:
- every finished trial counts in every denominator (compile rate, correctness rate, fast_p,
  held-out correctness, mean score): a trial that failed, was rejected, timed out or whose agent
  could not start is a failure, never dropped;
- speedup means (arithmetic and geometric) are over correct trials only: a wrong kernel has no
  meaningful speed;
- trials that have not finished (an interrupted run) are not failures: they are counted apart
  as `missing`, and every rate is over finished trials.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from agentkernelarena.report.load import RunData
from agentkernelarena.report.redraws import per_trial, redraw_entries
from agentkernelarena.runner.outcome import (
    AGENT_FAILED,
    AGENT_OUTCOMES,
    AGENT_TIMED_OUT,
    agent_outcome,
    error_summary,
)

FAST_P = (1.0, 1.5, 2.0)
QUADRANTS = ("both_pass", "regression", "both_fail", "improvement")
NOTES = [
    "rates (compile, correct, fast_p, held-out correct) and score_mean are over all finished "
    "trials of the group: failed, rejected and agent-error trials count as failures",
    "speedup_mean and speedup_geomean are over correct trials only (speedup_n of them)",
    "fast_p: share of all finished trials that are correct and at least p times faster",
    "generalization: held-out vs visible correctness over all trials; its speedups are over the "
    "trials correct on both (paired_n), speedup_ratio = held-out / visible geomean",
    "quadrant: held-out correctness of the baseline vs the candidate (both_pass, regression = "
    "baseline passes but the candidate fails, both_fail, improvement)",
    "missing trials (not finished yet) are not counted anywhere but run.missing",
    "agent_outcome beside the verdict: ok, failed (its last iteration crashed or could not "
    "start), timed_out (stopped at the time limit), no_change (it changed no editable file); "
    "agent_errors counts failed, agent_timeouts timed_out; scores keep the evaluation's "
    "formula, and scored_on_baseline counts trials that scored only because the baseline was "
    "left unchanged (summary.baseline_scored lists them)",
]
UNTRUSTED_NOTE = ("{n} trial(s) ran without a sandbox (summary.unsandboxed, per trial "
                  "`unsandboxed`): their held-out results are not trustworthy")


def unsandboxed_reasons(record: dict[str, Any]) -> list[str]:
    """What of a trial ran without a sandbox: its agent (trial `sandboxed: false`), its final
    evaluation's worker (`worker_sandbox.sandboxed: false`). Unknown (older records) is not
    reported."""
    out = []
    if record.get("sandboxed") is False:
        reason = (record.get("sandbox") or {}).get("reason")
        out.append("agent not sandboxed" + (f" ({reason})" if reason else ""))
    worker = _worker_sandbox(record)
    if worker is not None and worker.get("sandboxed") is False:
        reason = worker.get("reason")
        out.append("evaluation worker not sandboxed" + (f" ({reason})" if reason else ""))
    return out


def _worker_sandbox(record: dict[str, Any]) -> dict[str, Any] | None:
    for key in ("evaluation", "result"):
        info = (record.get(key) or {}).get("worker_sandbox")
        if isinstance(info, dict) and "sandboxed" in info:
            return info
    return None


def held_out_summary(held: dict[str, Any]) -> dict[str, Any]:
    """The part of an evaluation's held-out record that reports and re-draws keep."""
    return {"evaluated": bool(held.get("evaluated")),
            **{k: held.get(k) for k in ("verdict", "correct", "speedup", "baseline_correct",
                                        "quadrant")}}


def geomean(values: Iterable[float]) -> float | None:
    logs = [math.log(v) for v in values if v is not None and v > 0 and math.isfinite(v)]
    return math.exp(sum(logs) / len(logs)) if logs else None


def mean(values: Iterable[float]) -> float | None:
    items = [v for v in values if v is not None]
    return sum(items) / len(items) if items else None


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def trial_row(record: dict[str, Any]) -> dict[str, Any]:
    """One trial, flat: the report's `trials` entry (and a CSV row)."""
    evaluation = record.get("evaluation") or {}
    held = record.get("held_out") or {}
    usage = record.get("usage") or {}
    worker = _worker_sandbox(record)
    sandboxed = record.get("sandboxed")
    outcome = agent_outcome(record)
    unchanged = "changed_files" in record and not record.get("changed_files")
    return {
        "id": record.get("_id"),
        "task": record["task"],
        "category": record.get("category") or record["task"].split("/", 1)[0],
        "agent": record.get("agent_label") or record.get("agent"),
        "agent_name": record.get("agent"),
        "attempt": record.get("attempt"),
        "status": record.get("status"),
        "verdict": record.get("verdict"),
        "compiled": bool(evaluation.get("compiled")),
        "correct": bool(record.get("correct")),
        "speedup": record.get("speedup"),
        "speedup_arith": evaluation.get("speedup_arith"),
        "speedup_vs_compile": evaluation.get("speedup_vs_compile"),
        "score": float(record.get("score") or 0.0),
        "held_out": held_out_summary(held),
        "seed": evaluation.get("seed"),
        "comparable": evaluation.get("comparable"),
        "agent_failure": record.get("agent_failure"),
        "timed_out": bool(record.get("timed_out")),
        "agent_outcome": outcome,
        "agent_error": error_summary(record.get("agent_error")) or (
            "; ".join(record.get("messages") or []) if outcome == AGENT_FAILED else ""),
        "agent_exit_code": (record.get("agent_error") or {}).get("exit_code"),
        # The score came from the task's own baseline: the agent left every editable file as
        # it was (older records without changed_files: unknown, False).
        "scored_on_baseline": unchanged and float(record.get("score") or 0.0) > 0,
        # True/False; None where the record does not say (the worker: evaluations before it
        # reported one).
        "sandboxed": sandboxed if isinstance(sandboxed, bool) else None,
        "worker_sandboxed": bool(worker["sandboxed"]) if worker is not None else None,
        "unsandboxed": unsandboxed_reasons(record),
        "agent_wall_s": usage.get("agent_wall_s"),
        "trial_wall_s": record.get("trial_wall_s"),
        "turns": usage.get("turns"),
        "tokens_in": usage.get("tokens_in"),
        "tokens_out": usage.get("tokens_out"),
        "tokens_cached": usage.get("tokens_cached"),
        "cost_usd": usage.get("cost_usd"),
        "reasons": list(evaluation.get("reasons") or []),
        "messages": list(record.get("messages") or []),
        "flags": list(evaluation.get("flags") or []),
        "changed_files": list(record.get("changed_files") or []),
    }


def _known_sum(rows: list[dict[str, Any]], key: str) -> tuple[float | None, int]:
    values = [r[key] for r in rows if r.get(key) is not None]
    return (sum(values) if values else None), len(values)


def generalization(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Visible vs held-out (DESIGN.md §6): the gap, and the quadrant counts."""
    n = len(rows)
    visible_rate = sum(r["correct"] for r in rows) / n
    held_rate = sum(bool(r["held_out"]["correct"]) for r in rows) / n
    paired = [r for r in rows if r["correct"] and r["speedup"] and r["held_out"]["correct"]
              and r["held_out"]["speedup"]]
    visible_speed = geomean(r["speedup"] for r in paired)
    held_speed = geomean(r["held_out"]["speedup"] for r in paired)
    quadrants = Counter(r["held_out"]["quadrant"] or "not_evaluated" for r in rows)
    return {
        "visible_correct_rate": _round(visible_rate),
        "held_out_correct_rate": _round(held_rate),
        "correct_rate_gap": _round(visible_rate - held_rate),
        "paired_n": len(paired),
        "visible_speedup_geomean": _round(visible_speed),
        "held_out_speedup_geomean": _round(held_speed),
        "speedup_ratio": _round(held_speed / visible_speed)
        if held_speed and visible_speed else None,
        "quadrants": {q: quadrants.get(q, 0) for q in (*QUADRANTS, "not_evaluated")},
    }


def group_metrics(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The metrics of DESIGN.md §8 over one group of finished trials (never empty)."""
    n = len(rows)
    correct = [r for r in rows if r["correct"]]
    speedups = [r["speedup"] for r in correct if r["speedup"] is not None and r["speedup"] > 0]
    held_speedups = [r["held_out"]["speedup"] for r in rows
                     if r["held_out"]["correct"] and r["held_out"]["speedup"]]
    agent_time, _ = _known_sum(rows, "agent_wall_s")
    trial_time, _ = _known_sum(rows, "trial_wall_s")
    cost, cost_n = _known_sum(rows, "cost_usd")
    tokens = {key: _known_sum(rows, key)[0] for key in ("tokens_in", "tokens_out",
                                                        "tokens_cached")}
    return {
        "trials": n,
        "verdicts": dict(sorted(Counter(r["verdict"] for r in rows).items())),
        # Trials whose agent failed (crashed, could not start, ...) or was stopped at the
        # time limit: their verdict judges a workspace the agent did not finish.
        "agent_errors": sum(r["agent_outcome"] == AGENT_FAILED for r in rows),
        "agent_timeouts": sum(r["agent_outcome"] == AGENT_TIMED_OUT for r in rows),
        "agent_outcomes": {o: sum(r["agent_outcome"] == o for r in rows)
                           for o in AGENT_OUTCOMES},
        "scored_on_baseline": sum(r["scored_on_baseline"] for r in rows),
        "compiled": sum(r["compiled"] for r in rows),
        "compile_rate": _round(sum(r["compiled"] for r in rows) / n),
        "correct": len(correct),
        "correct_rate": _round(len(correct) / n),
        "speedup_n": len(speedups),
        "speedup_mean": _round(mean(speedups)),
        "speedup_geomean": _round(geomean(speedups)),
        "fast_p": {f"{p:.1f}": _round(sum(1 for s in speedups if s >= p) / n) for p in FAST_P},
        "held_out": {
            "evaluated": sum(r["held_out"]["evaluated"] for r in rows),
            "correct": sum(bool(r["held_out"]["correct"]) for r in rows),
            "correct_rate": _round(sum(bool(r["held_out"]["correct"]) for r in rows) / n),
            "speedup_n": len(held_speedups),
            "speedup_geomean": _round(geomean(held_speedups)),
        },
        "generalization": generalization(rows),
        "score_mean": _round(sum(r["score"] for r in rows) / n, 3),
        "unsandboxed_trials": sum(bool(r["unsandboxed"]) for r in rows),
        "agent_time_s": {"total": _round(agent_time, 1),
                         "mean": _round(agent_time / n if agent_time is not None else None, 1)},
        "trial_time_s_total": _round(trial_time, 1),
        "tokens": {**tokens, "known_trials": _known_sum(rows, "tokens_in")[1]},
        "cost_usd": {"total": _round(cost, 4),
                     "mean": _round(cost / cost_n if cost is not None else None, 4),
                     "known_trials": cost_n},
    }


def build_report(run: RunData) -> dict[str, Any]:
    """{"summary": {...}, "trials": [...], "missing": [...]} (DESIGN.md §11)."""
    rows = [trial_row(r) for r in run.records]
    redrawn = per_trial(run.redraws)
    for row in rows:
        row["heldout_redraws"] = redrawn.get(row["id"])
    order = [a.get("label") or a["name"]
             for a in run.manifest.get("identity", {}).get("agents", [])]
    labels = order + sorted({r["agent"] for r in rows} - set(order))
    agents: dict[str, Any] = {}
    for label in labels:
        mine = [r for r in rows if r["agent"] == label]
        if not mine:
            agents[label] = {"trials": 0}
            continue
        categories = sorted({r["category"] for r in mine})
        agents[label] = {**group_metrics(mine), "categories": {
            c: group_metrics([r for r in mine if r["category"] == c]) for c in categories}}
    manifest = run.manifest
    unsandboxed = [{"id": r["id"], "agent": r["agent"], "task": r["task"],
                    "attempt": r["attempt"], "why": r["unsandboxed"]}
                   for r in rows if r["unsandboxed"]]
    baseline = [{"id": r["id"], "agent": r["agent"], "task": r["task"], "attempt": r["attempt"],
                 "agent_outcome": r["agent_outcome"], "score": r["score"]}
                for r in rows if r["scored_on_baseline"]]
    notes = list(NOTES)
    if unsandboxed:
        notes.append(UNTRUSTED_NOTE.format(n=len(unsandboxed)))
    summary = {
        "run": {
            "path": str(run.path),
            "label": manifest.get("label"),
            "platform": manifest.get("platform"),
            "comparable": manifest.get("comparable"),
            "created_at": manifest.get("created_at"),
            "planned": run.planned,
            "finished": len(rows),
            "missing": len(run.missing),
            "unreadable": run.unreadable,
            "complete": not run.missing,
        },
        "agents": agents,
        # Trials whose agent or evaluation worker ran unsandboxed: held-out results untrusted.
        "unsandboxed_trials": len(unsandboxed),
        "unsandboxed_agent_trials": sum(r["sandboxed"] is False for r in rows),
        "unsandboxed_worker_trials": sum(r["worker_sandboxed"] is False for r in rows),
        "unsandboxed": unsandboxed,
        "agent_errors": sum(r["agent_outcome"] == AGENT_FAILED for r in rows),
        "agent_timeouts": sum(r["agent_outcome"] == AGENT_TIMED_OUT for r in rows),
        "baseline_scored": baseline,
        "notes": notes,
    }
    summary["heldout_redraws"] = {
        "count": len(run.redraws), "unreadable": run.redraws_unreadable,
        "latest": redraw_entries(run.redraws[-1:])[0] if run.redraws else None}
    if run.redraws:
        notes.append("heldout: the `aka heldout` re-draws of this run (oldest first); per "
                     "trial, heldout_redraws sums its draws over all of them")
    return {"summary": summary, "trials": rows,
            "missing": [{k: m[k] for k in ("id", "agent", "task", "attempt")}
                        for m in run.missing],
            # Trials with a trial.json that cannot be used, and why (never dropped silently).
            "unreadable": [{**{k: m[k] for k in ("id", "agent", "task", "attempt")},
                            "error": run.errors.get(m["id"], "unreadable")}
                           for m in run.missing if m["id"] in run.errors],
            "heldout": redraw_entries(run.redraws)}
