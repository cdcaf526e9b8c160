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
from agentkernelarena.errors import AkaError, TaskError
from agentkernelarena.evaluate import evaldir, speed_of_light
from agentkernelarena.evaluate.supervisor import WorkerOutcome, run_worker
from agentkernelarena.platforms import Platform, get_platform
from agentkernelarena.scoring import arithmetic_mean, geometric_mean, trial_score
from agentkernelarena.tasks.spec import Task

# `compile_only`: native sources compiled on a machine without a GPU, not run (DESIGN.md §1).
VERDICTS = ("ok", "compile_error", "incorrect", "rejected", "timeout", "crash", "compile_only")
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
    # Integrity guards (docs/integrity.md). Off only to measure their cost; never for scoring.
    guards: bool = True
    # Extra environment for the worker, e.g. CUDA_VISIBLE_DEVICES from a GPU pool.
    env: dict[str, str] | None = None
    # Overrides for the timing loop (tests and the A/A benchmark use them).
    timing: dict[str, Any] | None = None
    # Tasks with a PyTorch baseline (torch2*): also time the candidate against
    # torch.compile(baseline) on the visible configurations (speedup_vs_compile; not scored).
    vs_compile: bool = False


def default_timing(platform: Platform) -> dict[str, Any]:
    if platform.name == "cpu":
        # The interpreter is slow and its timings are not comparable anyway: a few rounds.
        # The compile and correctness gates have already warmed both versions up.
        return {"min_rounds": 2, "max_rounds": 5, "budget_s": 1.0, "target_rse": 0.05,
                "warmup": 0}
    return {"min_rounds": 20, "max_rounds": 200, "budget_s": 1.0, "target_rse": 0.002,
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


def _split_request(task: Task, split: str, platform: Platform, base_seed: int) -> dict[str, Any]:
    seeds, timing_seeds = _seeds(base_seed, split)
    return {
        "split": split,
        "configs": [{"name": c.name, "params": c.params, "drawn": c.drawn}
                    for c in task.configs_for(platform.name, split, draw_seed=base_seed)],
        "seeds": seeds,
        "timing_seeds": timing_seeds,
        # The baseline is checked on held-out configurations for the generalization quadrant.
        "check_baseline": split == "held_out",
    }


def _request(task: Task, splits: list[str], root: Path, platform: Platform, base_seed: int,
             options: EvalOptions, timing: dict[str, Any]) -> dict[str, Any]:
    return {
        "device": platform.device,
        "platform": platform.name,
        "task_root": str(root / "task"),
        "baseline_root": str(root / "baseline"),
        "candidate_root": str(root / "candidate"),
        "entry": {"file": task.entry.file, "function": task.entry.function},
        "baseline": {"file": (task.baseline or task.entry).file,
                     "function": (task.baseline or task.entry).function},
        "reference": {"file": task.reference.file, "function": task.reference.function},
        "inputs": {"file": task.inputs.file, "function": task.inputs.function},
        "splits": [_split_request(task, s, platform, base_seed) for s in splits],
        "tolerance": {k: {"atol": v.atol, "rtol": v.rtol} for k, v in task.tolerance.items()},
        "reference_upcast": task.reference_upcast,
        "in_place": task.in_place,
        "measure": options.measure,
        "timing": timing,
        "sanity": options.sanity,
        "policy": policy_for(task),
        "guards": options.guards,
        "vs_compile": options.vs_compile and task.baseline is not None,
    }


def policy_for(task: Task) -> dict[str, Any]:
    """What the candidate's entry may do (docs/integrity.md): the deliverable's language decides
    which launches must happen; no category may compute its result with PyTorch operators."""
    target = task.category.split("2", 1)[1] if "2" in task.category else task.language
    return {"require_launch": target if target in ("triton",) else None,
            "forbid_torch_compute": task.category != "repository"}


def _deadlines(task: Task) -> dict[str, float]:
    t = task.timeouts
    return {"startup": t["compile"], "compile": t["compile"], "correctness": t["correctness"],
            "sanity": t["correctness"], "performance": t["performance"]}


def _ended_early(outcome: WorkerOutcome) -> tuple[str, str]:
    """Verdict and reason for a worker that stopped before reporting a split's end."""
    if outcome.timed_out_phase is not None:
        return "timeout", (f"timed out in the {outcome.timed_out_phase} phase; "
                           "the worker was killed")
    code = outcome.returncode
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    tail = f"; last output:\n{outcome.log_tail}" if outcome.log_tail else ""
    return "crash", f"the evaluation process ended without a result ({how}){tail}"


def interpret(outcome: WorkerOutcome, task: Task, split: str,
              request_configs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One split's verdict, flags, reasons and per-configuration records from the worker's
    events; None when the worker never reached this split (it ended in an earlier one)."""
    harness = outcome.first("harness_error")
    if harness and "ModuleNotFoundError" in harness["message"]:
        raise AkaError(f"task {task.id}: a Python module is missing on this machine: "
                       f"{harness['message'].splitlines()[-1]}",
                       "install it into the arena's environment (`make setup` installs what "
                       "the bundled tasks need)")
    if harness:
        raise TaskError(f"task {task.id} is broken (its pristine files): {harness['message']}",
                        f"run `aka tasks check {task.id}`")
    infra = outcome.first("infra_error")
    if infra:
        raise AkaError(f"task {task.id}: this machine cannot build it: {infra['message']}",
                       "install the missing toolchain (see docs/native.md)")
    compile_only = outcome.first("compile_only")
    if compile_only:
        return {"verdict": "compile_only", "compiled": True, "correct": None, "speedup": None,
                "speedup_arith": None, "reasons": [compile_only["message"]], "configs": [],
                "wall_s": 0.0, "sanity_issues": [], "drawn": []}
    compiled = outcome.first("compiled") is not None
    events = [e for e in outcome.events if e.get("split") == split]
    kinds = {e["event"]: e for e in events}
    if compiled and "split_start" not in kinds and split != "visible":
        return None
    configs: dict[str, dict[str, Any]] = {}
    for event in events:
        kind = event["event"]
        if kind in ("config_correct", "config_incorrect", "config_timing",
                    "config_timing_compile"):
            record = configs.setdefault(event["config"], {"name": event["config"]})
            record.update({k: v for k, v in event.items()
                           if k not in ("event", "config", "split", "t", "message")})
            if kind in ("config_correct", "config_incorrect"):
                record["correct"] = kind == "config_correct"
    reasons: list[str] = []
    if (failure := outcome.first("compile_error")) is not None:
        verdict = "compile_error"
        reasons.append(failure["message"])
    elif (failure := outcome.first("rejected")) is not None:
        verdict = "rejected"
        reasons.append(failure["message"])
    elif outcome.first("forged") is not None:
        verdict = "rejected"
        reasons.append("wrote into the evaluation's result channel (forged results); "
                       "everything after that point was discarded")
    elif (failure := next((e for e in outcome.events if e["event"] == "crash"
                           and e.get("split") in (None, split)), None)) is not None:
        verdict = "crash"
        reasons.append(failure["message"])
    elif (failure := kinds.get("incorrect")) is not None:
        verdict = "incorrect"
        per_config = [e["message"] for e in events if e["event"] == "config_incorrect"]
        reasons.extend(per_config or [failure["message"]])
    elif "split_done" in kinds:
        verdict = "ok"
    else:
        verdict, reason = _ended_early(outcome)
        reasons.append(reason)
    correct = verdict == "ok"
    speedups = [c["speedup"] for c in configs.values() if c.get("speedup") is not None]
    timed = correct and speedups and len(speedups) == len(configs)
    phase_times = [e["t"] for e in events if "t" in e]
    record = {
        "verdict": verdict,
        "compiled": compiled,
        "correct": correct,
        "speedup": geometric_mean(speedups) if timed else None,
        "speedup_arith": arithmetic_mean(speedups) if timed else None,
        "reasons": reasons,
        "configs": list(configs.values()),
        "wall_s": round(max(phase_times) - min(phase_times), 3) if phase_times else 0.0,
        "sanity_issues": [e["message"] for e in events if e["event"] == "sanity_issue"],
        "drawn": [c["name"] for c in request_configs if c.get("drawn")],
    }
    # Only with EvalOptions(vs_compile=True), for tasks whose baseline is PyTorch.
    versus = [c["speedup_vs_compile"] for c in configs.values() if "speedup_vs_compile" in c]
    versus_error = outcome.first("vs_compile_error")
    if versus or versus_error:
        complete = timed and len(versus) == len(configs)
        record["speedup_vs_compile"] = geometric_mean(versus) if complete else None
    if versus_error:
        record["vs_compile_error"] = versus_error["message"]
    return record


def _quadrant(baseline_ok: bool | None, candidate_ok: bool) -> str | None:
    if baseline_ok is None:
        return None
    return {(True, True): "both_pass", (True, False): "regression",
            (False, False): "both_fail", (False, True): "improvement"}[(baseline_ok, candidate_ok)]


def _apply_speed_checks(task: Task, result: dict[str, Any]) -> None:
    """Reject timings beyond the speed of light; flag very large speedups for a person."""
    result["flags"] = []
    if not result.get("comparable") or not result.get("configs"):
        return
    params = {c.name: c.params
              for c in task.visible + task.configs_for("cuda", "held_out", result["seed"])}
    held_configs = result["held_out"].get("configs") or []
    problems = speed_of_light.check(result["configs"] + held_configs, params, task.bytes_expr,
                                    task.flops_expr, (result.get("versions") or {}).get("gpu"))
    if problems:
        result["verdict"] = "rejected"
        result["reasons"] = problems + result["reasons"]
    speedup = result.get("speedup")
    if result["verdict"] == "ok" and speedup is not None \
            and speedup > speed_of_light.REVIEW_SPEEDUP:
        result["flags"].append(f"review: speedup {speedup:.1f}x is over "
                               f"{speed_of_light.REVIEW_SPEEDUP:g}x and no guard fired")


def _held_out_record(split: dict[str, Any]) -> dict[str, Any]:
    flags = [c.get("baseline_correct") for c in split["configs"]]
    baseline_ok = all(flags) if flags and None not in flags else None
    return {
        "evaluated": True,
        **{k: split[k] for k in ("verdict", "correct", "speedup", "speedup_arith", "reasons",
                                 "configs", "wall_s", "sanity_issues")},
        "baseline_correct": baseline_ok,
        "quadrant": _quadrant(baseline_ok, split["correct"]),
        "drawn": split["drawn"],
    }


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
        result: dict[str, Any] = {
            "task": task.id,
            "category": task.category,
            "platform": platform.name,
            "comparable": platform.comparable,
            "seed": base_seed,
        }
        held: dict[str, Any] = {"evaluated": False, "correct": None, "speedup": None}
        missing = evaldir.missing_editable(task, solution_dir)
        if missing:
            result.update({"verdict": "compile_error", "compiled": False, "correct": False,
                           "speedup": None, "speedup_arith": None, "configs": [],
                           "reasons": [f"the solution lacks the editable file(s) {missing}"]})
        else:
            splits = ["visible", "held_out"] if options.held_out else ["visible"]
            request = _request(task, splits, root, platform, base_seed, options, timing)
            env = {**_worker_env(platform), **(options.env or {})}
            outcome = run_worker(request, root, env, _deadlines(task))
            result["versions"] = (outcome.first("start") or {}).get("versions", {})
            result["network_isolated"] = outcome.network_isolated
            configs = {s["split"]: s["configs"] for s in request["splits"]}
            result.update(interpret(outcome, task, "visible", configs["visible"]) or {})
            # Native sources: built now or from the cache, and how long it took (else None).
            result["build"] = (outcome.first("compiled") or {}).get("build")
            held_split = interpret(outcome, task, "held_out", configs["held_out"]) \
                if options.held_out else None
            if held_split is not None and result["compiled"] \
                    and result["verdict"] != "compile_only":
                held = _held_out_record(held_split)
        result["held_out"] = held
        _apply_speed_checks(task, result)
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
