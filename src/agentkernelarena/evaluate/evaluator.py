"""`evaluate()`: one candidate against one task, visible then held-out, into one result record.

Producing a result and reading it are separate on purpose (as in SWE-bench): the record holds
everything needed to score and report it again later, including the seeds it was drawn with.
"""

from __future__ import annotations

import os
import random
import secrets
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agentkernelarena
from agentkernelarena.errors import TaskError
from agentkernelarena.evaluate import evaldir
from agentkernelarena.evaluate.supervisor import WorkerOutcome, run_worker
from agentkernelarena.platforms import Platform, get_platform
from agentkernelarena.scoring import arithmetic_mean, geometric_mean, trial_score
from agentkernelarena.tasks.spec import Task

VERDICTS = ("ok", "compile_error", "incorrect", "rejected", "timeout", "crash")
CORRECTNESS_SEEDS = 3
TIMING_POOL = 3


@dataclass
class EvalOptions:
    platform: str | None = None
    seed: int | None = None
    held_out: bool = True
    measure: bool = True
    keep_dir: Path | None = None
    # `aka tasks check`: also run the task's sanity checks (evaluation/sanity.py).
    sanity: bool = False
    # Overrides for the timing loop (tests and the A/A benchmark use them).
    timing: dict[str, Any] | None = None


def default_timing(platform: Platform) -> dict[str, Any]:
    if platform.name == "cpu":
        # The interpreter is slow and its timings are not comparable anyway: a few rounds.
        # The compile and correctness gates have already warmed both versions up.
        return {"min_rounds": 2, "max_rounds": 5, "budget_s": 1.0, "target_rse": 0.05,
                "warmup": 0}
    return {"min_rounds": 20, "max_rounds": 400, "budget_s": 2.5, "target_rse": 0.002,
            "warmup": 3}


def _worker_env(platform: Platform) -> dict[str, str]:
    env = dict(os.environ)
    env.update(platform.worker_env)
    src_root = str(Path(agentkernelarena.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src_root, env.get("PYTHONPATH")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if platform.name != "cpu":
        env.pop("TRITON_INTERPRET", None)
    return env


def _seeds(base: int, split: str) -> tuple[list[int], list[int]]:
    rng = random.Random(f"{base}:{split}")
    draw = [rng.randrange(1, 2**31 - 1) for _ in range(CORRECTNESS_SEEDS + TIMING_POOL)]
    return draw[:CORRECTNESS_SEEDS], draw[CORRECTNESS_SEEDS:]


def _request(task: Task, split: str, root: Path, platform: Platform, base_seed: int,
             measure: bool, timing: dict[str, Any], sanity: bool = False) -> dict[str, Any]:
    seeds, timing_seeds = _seeds(base_seed, split)
    return {
        "split": split,
        "device": platform.device,
        "platform": platform.name,
        "task_root": str(root / "task"),
        "baseline_root": str(root / "baseline"),
        "candidate_root": str(root / "candidate"),
        "entry": {"file": task.entry.file, "function": task.entry.function},
        "reference": {"file": task.reference.file, "function": task.reference.function},
        "inputs": {"file": task.inputs.file, "function": task.inputs.function},
        "configs": [{"name": c.name, "params": c.params}
                    for c in task.configs_for(platform.name, split)],
        "tolerance": {k: {"atol": v.atol, "rtol": v.rtol} for k, v in task.tolerance.items()},
        "reference_upcast": task.reference_upcast,
        "in_place": task.in_place,
        "seeds": seeds,
        "timing_seeds": timing_seeds,
        "check_baseline": split == "held_out",
        "measure": measure,
        "timing": timing,
        "sanity": sanity,
    }


def _deadlines(task: Task) -> dict[str, float]:
    t = task.timeouts
    return {"startup": t["compile"], "compile": t["compile"], "correctness": t["correctness"],
            "performance": t["performance"], "sanity": t["correctness"]}


def interpret(outcome: WorkerOutcome, task: Task) -> dict[str, Any]:
    """A worker's events -> verdict, flags, reasons and per-configuration records."""
    harness = outcome.first("harness_error")
    if harness:
        raise TaskError(f"task {task.id}: its pristine files failed to load: {harness['message']}",
                        f"run `aka tasks check {task.id}`")
    compiled = outcome.first("compiled") is not None
    configs: dict[str, dict[str, Any]] = {}
    for event in outcome.events:
        kind = event.get("event")
        if kind in ("config_correct", "config_incorrect", "config_timing"):
            record = configs.setdefault(event["config"], {"name": event["config"]})
            fields = {k: v for k, v in event.items() if k not in ("event", "config")}
            if kind == "config_correct":
                record["correct"] = True
            elif kind == "config_incorrect":
                record["correct"] = False
            record.update(fields)
    reasons: list[str] = []
    if (failure := outcome.first("compile_error")) is not None:
        verdict = "compile_error"
        reasons.append(failure["message"])
    elif outcome.timed_out_phase is not None:
        verdict = "timeout"
        reasons.append(f"timed out in the {outcome.timed_out_phase} phase; the worker was killed")
    elif (failure := outcome.first("crash")) is not None:
        verdict = "crash"
        reasons.append(failure["message"])
    elif (failure := outcome.first("incorrect")) is not None:
        verdict = "incorrect"
        per_config = [e["message"] for e in outcome.all("config_incorrect")]
        reasons.extend(per_config or [failure["message"]])
    elif outcome.first("done") is not None:
        verdict = "ok"
    else:
        verdict = "crash"
        code = outcome.returncode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        reasons.append(f"the evaluation process ended without a result ({how})"
                       + (f"; last output:\n{outcome.log_tail}" if outcome.log_tail else ""))
    correct = verdict == "ok"
    speedups = [c["speedup"] for c in configs.values() if c.get("speedup") is not None]
    timed = correct and speedups and len(speedups) == len(configs)
    return {
        "verdict": verdict,
        "compiled": compiled,
        "correct": correct if compiled else False,
        "speedup": geometric_mean(speedups) if timed else None,
        "speedup_arith": arithmetic_mean(speedups) if timed else None,
        "reasons": reasons,
        "configs": list(configs.values()),
        "wall_s": round(outcome.wall_s, 3),
        "sanity_issues": [e["message"] for e in outcome.all("sanity_issue")],
    }


def _quadrant(baseline_ok: bool | None, candidate_ok: bool) -> str | None:
    if baseline_ok is None:
        return None
    return {(True, True): "both_pass", (True, False): "regression",
            (False, False): "both_fail", (False, True): "improvement"}[(baseline_ok, candidate_ok)]


def evaluate(task: Task, solution_dir: Path, options: EvalOptions | None = None) -> dict[str, Any]:
    """Evaluate the editable files in `solution_dir` against `task`; see DESIGN.md §5."""
    options = options or EvalOptions()
    platform = get_platform(options.platform)
    solution_dir = Path(solution_dir).resolve()
    evaldir.check_solution_dir(task, solution_dir)
    base_seed = options.seed if options.seed is not None else secrets.randbelow(2**31 - 1)
    timing = {**default_timing(platform), **(options.timing or {})}
    started = time.monotonic()

    root = Path(tempfile.mkdtemp(prefix=f"aka-eval-{task.name}-"))
    try:
        evaldir.copy_pristine(task, root / "task")
        evaldir.copy_pristine(task, root / "baseline")
        evaldir.build_candidate(task, solution_dir, root / "candidate")
        env = _worker_env(platform)
        result: dict[str, Any] = {
            "task": task.id,
            "category": task.category,
            "platform": platform.name,
            "comparable": platform.comparable,
            "seed": base_seed,
        }
        missing = evaldir.missing_editable(task, solution_dir)
        if missing:
            visible = {"verdict": "compile_error", "compiled": False, "correct": False,
                       "speedup": None, "speedup_arith": None, "configs": [], "wall_s": 0.0,
                       "reasons": [f"the solution lacks the editable file(s) {missing}"]}
        else:
            outcome = run_worker(_request(task, "visible", root, platform, base_seed,
                                          options.measure, timing, options.sanity), root, env,
                                 _deadlines(task))
            visible = interpret(outcome, task)
            result["versions"] = (outcome.first("start") or {}).get("versions", {})
            result["network_isolated"] = outcome.network_isolated
        result.update(visible)

        held: dict[str, Any] = {"evaluated": False, "correct": None, "speedup": None}
        if options.held_out and visible["compiled"] and visible["verdict"] != "crash":
            outcome = run_worker(_request(task, "held_out", root, platform, base_seed,
                                          options.measure, timing, options.sanity), root, env,
                                 _deadlines(task))
            held_split = interpret(outcome, task)
            baseline_flags = [c.get("baseline_correct") for c in held_split["configs"]]
            baseline_ok = all(baseline_flags) if baseline_flags and None not in baseline_flags \
                else None
            held = {
                "evaluated": True,
                "verdict": held_split["verdict"],
                "correct": held_split["correct"],
                "speedup": held_split["speedup"],
                "speedup_arith": held_split["speedup_arith"],
                "baseline_correct": baseline_ok,
                "quadrant": _quadrant(baseline_ok, held_split["correct"]),
                "reasons": held_split["reasons"],
                "configs": held_split["configs"],
                "wall_s": held_split["wall_s"],
                "sanity_issues": held_split["sanity_issues"],
            }
        result["held_out"] = held
        result["ignored_files"] = evaldir.ignored_changes(task, solution_dir)
        if result["ignored_files"]:
            result["reasons"].append("ignored changes outside the editable files: "
                                     + ", ".join(result["ignored_files"][:10]))
        result["score"] = trial_score(result["verdict"], result["compiled"], result["correct"],
                                      result["speedup"])
        result["wall_s"] = round(time.monotonic() - started, 3)
        result["arena_version"] = agentkernelarena.__version__
        result["python"] = sys.version.split()[0]
        return result
    finally:
        if options.keep_dir is not None:
            shutil.copytree(root, options.keep_dir, dirs_exist_ok=True)
        shutil.rmtree(root, ignore_errors=True)
