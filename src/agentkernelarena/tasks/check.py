"""`aka tasks check`: is a task fit to measure agents with?

It runs the pristine baseline through the evaluator as if it were a candidate (visible and
held-out, with the sanity checks of evaluate/sanity.py), then the task's solution if it has one.
"""

from __future__ import annotations

import time
from typing import Any

from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.evaluate.speed_of_light import evaluate_expression
from agentkernelarena.tasks.spec import Task


def _problems_of(label: str, result: dict[str, Any]) -> list[str]:
    problems = []
    if result["verdict"] not in ("ok", "compile_only"):
        problems.append(f"{label}: verdict {result['verdict']} on visible configurations: "
                        + "; ".join(result["reasons"])[:2000])
    held = result.get("held_out") or {}
    if held.get("evaluated") and not held.get("correct"):
        problems.append(f"{label}: held-out verdict {held.get('verdict')}: "
                        + "; ".join(held.get("reasons", []))[:2000])
    return problems


def _formula_problems(task: Task) -> list[str]:
    problems = []
    for label, expression in (("bytes", task.bytes_expr), ("flops", task.flops_expr)):
        if not expression:
            continue
        for config in task.visible + task.held_out + task.cpu_visible + task.cpu_held_out:
            try:
                value = evaluate_expression(expression, config.params)
            except Exception as exc:  # a task file's formula: report, don't crash
                problems.append(f"task.yaml '{label}' fails on config {config.name}: {exc}")
                break
            if not value > 0:
                problems.append(f"task.yaml '{label}' is {value} on config {config.name}")
                break
    return problems


def check_task(task: Task, platform: str | None = None) -> dict[str, Any]:
    started = time.monotonic()
    problems: list[str] = _formula_problems(task)
    # The task's own files and solution: sandboxed where it works, else run plainly.
    options = EvalOptions(platform=platform, measure=False, sanity=True, sandbox="auto")
    baseline = evaluate(task, task.root, options)
    problems += _problems_of("baseline", baseline)
    problems += baseline.get("sanity_issues", [])
    problems += (baseline.get("held_out") or {}).get("sanity_issues", [])
    solution_dir = task.solution_dir
    if solution_dir is not None:
        missing = [rel for rel in task.editable if not (solution_dir / rel).is_file()]
        if missing:
            problems.append(f"solution/: lacks the editable file(s) {missing}")
        else:
            solution = evaluate(task, solution_dir, EvalOptions(platform=platform, measure=False,
                                                                sandbox="auto"))
            problems += _problems_of("solution", solution)
    return {"task": task.id, "ok": not problems, "problems": problems,
            "platform": baseline["platform"], "wall_s": time.monotonic() - started}
