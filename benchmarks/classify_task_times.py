"""Verdict per task from benchmarks/new_task_times.py's times.json files: is the task sound on
this GPU, and does its shipped solution earn its place?

A task passes when, on every visible configuration, its baseline (and the starting kernel of a
torch2cuda/torch2hip task) is correct and takes 0.05-20 ms; its solution, if it ships one, must
be correct everywhere and at least 1.05x faster than the baseline on every configuration.

    python3 benchmarks/classify_task_times.py DIR/times.json [...] > classification.md
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from agentkernelarena.tasks.gpu_checks import MIN_SPEEDUP  # noqa: E402
from agentkernelarena.tasks.gpu_checks import WINDOW_MS as RANGE_MS  # noqa: E402


def judge(rows: list[dict[str, Any]]) -> tuple[str, list[str], list[float]]:
    """('ok' | 'solution' | 'task', problems, per-configuration speedups)."""
    problems: list[str] = []
    speedups: list[float] = []
    task_bad = solution_bad = False
    for row in rows:
        config = row["config"]
        base = row.get("baseline") or {}
        if not base.get("correct"):
            task_bad = True
            problems.append(f"{config}: baseline incorrect: {(base.get('error') or '')[:120]}")
        ms = base.get("ms")
        if ms is None or not RANGE_MS[0] <= ms <= RANGE_MS[1]:
            task_bad = True
            problems.append(f"{config}: baseline {ms} ms outside {RANGE_MS[0]}-{RANGE_MS[1]} ms")
        start = row.get("start")
        if start is not None and not start.get("correct"):
            task_bad = True
            problems.append(f"{config}: starting kernel incorrect")
        sol = row.get("solution")
        if sol is None:
            continue
        if not sol.get("correct"):
            solution_bad = True
            problems.append(f"{config}: solution incorrect: {(sol.get('error') or '')[:120]}")
        elif ms and sol.get("ms"):
            speedups.append(ms / sol["ms"])
            if ms / sol["ms"] < MIN_SPEEDUP:
                solution_bad = True
                problems.append(f"{config}: solution {ms / sol['ms']:.2f}x (< {MIN_SPEEDUP}x)")
    verdict = "task" if task_bad else "solution" if solution_bad else "ok"
    return verdict, problems, speedups


def main(paths: list[str]) -> int:
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        for row in json.loads(Path(path).read_text()):
            if row.get("split", "visible") == "visible":
                by_task[row["task"]].append(row)
    counts: dict[str, int] = defaultdict(int)
    lines = ["| task | verdict | solution speedup per config | problems |", "|---|---|---|---|"]
    for task in sorted(by_task):
        verdict, problems, speedups = judge(by_task[task])
        counts[verdict] += 1
        shown = {"ok": "sound", "solution": "solution fails", "task": "TASK FAILS"}[verdict]
        spd = ", ".join(f"{s:.2f}" for s in speedups) or "-"
        lines.append(f"| {task} | {shown} | {spd} | {'; '.join(problems) or '-'} |")
    print(f"{len(by_task)} tasks: {counts['ok']} sound, {counts['solution']} with a failing "
          f"solution, {counts['task']} failing as tasks.\n")
    print("\n".join(lines))
    return 1 if counts["task"] or counts["solution"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
