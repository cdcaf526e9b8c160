"""`aka tasks check`: is a task fit to measure agents with?

It runs the pristine baseline through the evaluator as if it were a candidate (visible and
held-out, with the sanity checks of evaluate/sanity.py), then the task's solution if it has one,
then the soundness checks (soundness.py: known-wrong variants rejected, bytes and precision of
the bound, rules the inputs exercise). On a GPU both evaluations are timed, with the extremes of
the draw space added as held-out configurations, and gpu_checks.py judges the times (window,
A/A, headroom over the bound, the solution faster everywhere).

A `skeleton` task (imported ones) starts the agent from files that do not compute the function
yet. There the baseline (`baseline:`, PyTorch) takes the candidate's place, with the rules for
candidates off (it computes with PyTorch by design), and the skeleton only has to build and run.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.evaluate.speed_of_light import evaluate_expression
from agentkernelarena.platforms import get_platform
from agentkernelarena.tasks import gpu_checks, repository_checks
from agentkernelarena.tasks.soundness import check_soundness
from agentkernelarena.tasks.spec import Task

# Timed checks are repeatable: the same inputs every time.
GPU_SEED = 2026


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


def _evaluate(label: str, task: Task, folder: Any, options: EvalOptions,
              problems: list[str]) -> dict[str, Any] | None:
    """One evaluation; a broken task (its reference raises, a module is missing) becomes a
    problem of this task instead of ending the whole check."""
    try:
        return evaluate(task, folder, options)
    except AkaError as exc:
        problems.append(f"{label}: {exc}" + (f" ({exc.hint})" if exc.hint else ""))
        return None


# What a skeleton may do: build and run; computing the function is the agent's work.
_SKELETON_VERDICTS = ("ok", "incorrect", "compile_only")


def _check_skeleton(task: Task, options: EvalOptions,
                    problems: list[str]) -> dict[str, Any] | None:
    """The baseline evaluated in the candidate's place (its rules off), then the skeleton."""
    assert task.baseline is not None
    as_candidate = dataclasses.replace(task, entry=task.baseline, editable=[task.baseline.file],
                                       skeleton=False)
    baseline = _evaluate("baseline", as_candidate, task.root,
                         dataclasses.replace(options, guards=False), problems)
    skeleton = _evaluate("skeleton", task, task.root,
                         EvalOptions(platform=options.platform, measure=False, held_out=False,
                                     sandbox="auto", seed=options.seed), problems)
    if skeleton is not None and skeleton["verdict"] not in _SKELETON_VERDICTS:
        problems.append(f"skeleton: verdict {skeleton['verdict']} (it must build and run): "
                        + "; ".join(skeleton["reasons"])[:2000])
    return baseline


def check_seed(seed: int | None, timed: bool) -> int:
    """The evaluations' base seed (the held-out draws and the inputs): as given; else fixed
    where the check is timed (repeatable times) and fresh on the CPU, where every check is
    another chance to find a draw or an input the task mishandles. The report keeps it, so a
    failure can be run again exactly."""
    if seed is not None:
        return seed
    return GPU_SEED if timed else secrets.randbelow(2**31 - 1)


def check_task(task: Task, platform: str | None = None, soundness: bool = True,
               evaluate: bool = True, seed: int | None = None) -> dict[str, Any]:
    """`evaluate=False` is the quick check: formulas and soundness (the reference, variants and
    inputs alone), without evaluating the baseline and the solution (what takes time)."""
    started = time.monotonic()
    problems: list[str] = _formula_problems(task)
    target = get_platform(platform)
    if not evaluate:
        report: dict[str, Any] = {"task": task.id, "platform": target.name, "quick": True}
        if soundness:
            report["soundness"] = check_soundness(task, target.name, target.device)
            problems += report["soundness"]["problems"]
        report.update({"ok": not problems, "problems": problems,
                       "wall_s": time.monotonic() - started})
        return report
    timed = target.comparable
    base_seed = check_seed(seed, timed)
    # On a GPU the draw extremes are timed too; the task itself is unchanged.
    subject = gpu_checks.with_extremes(task) if timed else task
    # The task's own files and solution: sandboxed where it works, else run plainly.
    options = EvalOptions(platform=platform, measure=timed, sanity=True, sandbox="auto",
                          seed=base_seed)
    static = repository_checks.static_only(task, target)
    if task.upstream is not None:
        baseline = repository_checks.check_baseline(subject, target, options, problems, _evaluate)
    elif task.skeleton:
        baseline = _check_skeleton(subject, options, problems)
    else:
        baseline = _evaluate("baseline", subject, task.root, options, problems)
    if baseline is not None:
        problems += _problems_of("baseline", baseline)
        problems += baseline.get("sanity_issues", [])
        problems += (baseline.get("held_out") or {}).get("sanity_issues", [])
    solution = None
    solution_dir = task.solution_dir
    if solution_dir is not None and not static:
        missing = [rel for rel in task.editable if not (solution_dir / rel).is_file()]
        if missing:
            problems.append(f"solution/: lacks the editable file(s) {missing}")
        else:
            solution = _evaluate("solution", subject, solution_dir,
                                 dataclasses.replace(options, sanity=False), problems)
            if solution is not None:
                problems += _problems_of("solution", solution)
    report = {"task": task.id, "platform": target.name, "seed": base_seed}
    if static:
        report["static_only"] = static
    if task.upstream is not None:
        report["upstream_tests"] = {label: (result or {}).get("upstream_tests")
                                    for label, result in (("baseline", baseline),
                                                          ("solution", solution))}
    if soundness:
        report["soundness"] = check_soundness(task, target.name, target.device)
        problems += report["soundness"]["problems"]
    if timed and baseline is not None:
        report["timing"], timing_problems = gpu_checks.timing_report(baseline, solution)
        problems += timing_problems
    report.update({"ok": not problems, "problems": problems,
                   "wall_s": time.monotonic() - started})
    return report


def summary_lines(report: dict[str, Any]) -> list[str]:
    """What a person reads under a task's line: the soundness tally and, on a GPU, the times."""
    lines = []
    sound = report.get("soundness") or {}
    variants = sound.get("variants") or {}
    if variants:
        judged = [v for v in variants.values() if "caught" in v]
        caught = sum(1 for v in judged if v["caught"])
        skipped = sum(1 for v in variants.values() if "skipped" in v)
        zeros = max((sound.get("zeros_pass") or {}).values(), default=0.0)
        rules = sound.get("rules") or {}
        lines.append(f"wrong variants caught {caught}/{len(judged)}"
                     + (f" ({skipped} skipped)" if skipped else "")
                     + f"; zeros pass for at most {zeros:.1%} of elements"
                     + (f"; rules exercised {sum(1 for h in rules.values() if h)}/{len(rules)}"
                        if rules else ""))
    if report.get("static_only"):
        lines.append(f"static checks only ({report['static_only']})")
    for label, tests in (report.get("upstream_tests") or {}).items():
        if tests:
            lines.append(f"upstream tests, {label}: "
                         + ("passed" if tests.get("ok") else str(tests.get("reason"))))
    for row in report.get("timing") or []:
        parts = [f"{row['config']}:"]
        for key, fmt in (("baseline_ms", "baseline {:.4g} ms"), ("aa", "A/A {:.3f}"),
                         ("bound_ms", "bound {:.4g} ms"), ("solution_speedup", "solution {:.2f}x")):
            if row.get(key) is not None:
                parts.append(fmt.format(row[key]))
        lines.append(" ".join(parts))
    return lines
