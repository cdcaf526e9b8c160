"""Verdict per task from benchmarks/new_task_times.py's times.json files: is the task sound on
this GPU, and does its shipped solution earn its place?

A task passes when, on every visible configuration, its baseline (and the starting kernel of a
torch2cuda/torch2hip task) is correct and takes 0.05-20 ms; its solution, if it ships one, must
be correct everywhere and at least 1.05x faster than the baseline on every configuration.

    python3 benchmarks/classify_task_times.py DIR/times.json [...] [--expect LIST ...] \
        [--withdraw] > classification.md

--expect: files of the task ids that were meant to be timed (the validation's lists); a task
missing from the times (its load failed, or the call's budget ran out first) is a failure
of its own, never silently absent. --withdraw: delete the solution/ folder of every task whose
solution fails (the task itself stays, without a solution), in this checkout.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from agentkernelarena.tasks.gpu_checks import MIN_SPEEDUP  # noqa: E402
from agentkernelarena.tasks.gpu_checks import WINDOW_MS as RANGE_MS  # noqa: E402
from agentkernelarena.tasks.loader import discover_tasks  # noqa: E402


def judge(rows: list[dict[str, Any]]) -> tuple[str, list[str], list[float]]:
    """('ok' | 'solution' | 'task', problems, per-configuration speedups)."""
    problems: list[str] = []
    speedups: list[float] = []
    task_bad = solution_bad = False
    for row in rows:
        if "config" not in row:  # the task did not load (new_task_times.py says why)
            task_bad = True
            problems.append(str(row.get("error") or "no configuration measured")[:200])
            continue
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


def withdraw(task_ids: list[str], tasks_dirs: list[Path] | None = None) -> list[str]:
    """Delete the solution/ folder of these tasks; what was deleted."""
    tasks = {t.id: t for t in discover_tasks(tasks_dirs or [])}
    gone = []
    for task_id in task_ids:
        task = tasks.get(task_id)
        if task is not None and task.solution_dir is not None and task.solution_dir.is_dir():
            shutil.rmtree(task.solution_dir)
            gone.append(f"{task_id}: {task.solution_dir}")
    return gone


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("times", nargs="+", type=Path)
    parser.add_argument("--expect", action="append", type=Path, default=[])
    parser.add_argument("--withdraw", action="store_true")
    args = parser.parse_args(argv)
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in args.times:
        for row in json.loads(path.read_text()):
            if row.get("split", "visible") == "visible":
                by_task[row["task"]].append(row)
    expected = {line.strip() for path in args.expect for line in path.read_text().splitlines()
                if line.strip()}
    counts: dict[str, int] = defaultdict(int)
    failing_solutions = []
    lines = ["| task | verdict | solution speedup per config | problems |", "|---|---|---|---|"]
    for task in sorted(set(by_task) | expected):
        if task not in by_task:
            counts["missing"] += 1
            lines.append(f"| {task} | NOT MEASURED | - | absent from the times |")
            continue
        verdict, problems, speedups = judge(by_task[task])
        counts[verdict] += 1
        if verdict == "solution":
            failing_solutions.append(task)
        shown = {"ok": "sound", "solution": "solution fails", "task": "TASK FAILS"}[verdict]
        spd = ", ".join(f"{s:.2f}" for s in speedups) or "-"
        lines.append(f"| {task} | {shown} | {spd} | {'; '.join(problems) or '-'} |")
    print(f"{len(by_task)} tasks: {counts['ok']} sound, {counts['solution']} with a failing "
          f"solution, {counts['task']} failing as tasks"
          + (f", {counts['missing']} expected but not measured" if counts["missing"] else "")
          + ".\n")
    print("\n".join(lines))
    if args.withdraw and failing_solutions:
        print("\nWithdrawn (solution/ deleted):\n" + "\n".join(
            f"- {line}" for line in withdraw(failing_solutions)))
    return 1 if counts["task"] or counts["missing"] or (
        counts["solution"] and not args.withdraw) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
