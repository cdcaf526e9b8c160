"""`aka tasks check`: is a task fit to measure agents with?

It runs the pristine baseline through the evaluator as if it were a candidate (visible and
held-out, with the sanity checks of evaluate/sanity.py), then the task's solution if it has one.

A `skeleton` task (imported ones) starts the agent from files that do not compute the function
yet. There the baseline (`baseline:`, PyTorch) takes the candidate's place, with the rules for
candidates off (it computes with PyTorch by design), and the skeleton only has to build and run.
"""

from __future__ import annotations

import dataclasses
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


# What a skeleton may do: build and run; computing the function is the agent's work.
_SKELETON_VERDICTS = ("ok", "incorrect", "compile_only")


def _check_skeleton(task: Task, platform: str | None) -> tuple[dict[str, Any], list[str]]:
    assert task.baseline is not None
    as_candidate = dataclasses.replace(task, entry=task.baseline, editable=[task.baseline.file],
                                       skeleton=False)
    baseline = evaluate(as_candidate, task.root, EvalOptions(
        platform=platform, measure=False, sanity=True, sandbox="auto", guards=False))
    problems = _problems_of("baseline", baseline)
    skeleton = evaluate(task, task.root, EvalOptions(platform=platform, measure=False,
                                                     held_out=False, sandbox="auto"))
    if skeleton["verdict"] not in _SKELETON_VERDICTS:
        problems.append(f"skeleton: verdict {skeleton['verdict']} (it must build and run): "
                        + "; ".join(skeleton["reasons"])[:2000])
    return baseline, problems


def check_task(task: Task, platform: str | None = None) -> dict[str, Any]:
    started = time.monotonic()
    problems: list[str] = _formula_problems(task)
    # The task's own files and solution: sandboxed where it works, else run plainly.
    options = EvalOptions(platform=platform, measure=False, sanity=True, sandbox="auto")
    if task.skeleton:
        baseline, found = _check_skeleton(task, platform)
        problems += found
    else:
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
