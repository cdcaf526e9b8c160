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
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import evaldir, speed_of_light
from agentkernelarena.evaluate.sandbox import WorkerSandbox, worker_env, worker_sandbox_status
from agentkernelarena.evaluate.supervisor import Workers, run_session, runner_command
from agentkernelarena.evaluate.trace_rules import own_kernel_names
from agentkernelarena.evaluate.upstream_gate import upstream_gate
from agentkernelarena.evaluate.verdict import held_out_record, interpret
from agentkernelarena.platforms import Platform, get_platform
from agentkernelarena.scoring import trial_score
from agentkernelarena.tasks.spec import Task

# `compile_only`: native sources compiled on a machine without a GPU, not run (DESIGN.md §1).
VERDICTS = ("ok", "compile_error", "incorrect", "rejected", "timeout", "crash", "compile_only")
CORRECTNESS_SEEDS = 3
# "auto" only for code the arena ships or the user wrote (tasks check, demo): sandboxed where
# bubblewrap works, else run plainly and marked so.
SANDBOX_MODES = ("on", "off", "auto")


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
    # The candidate's process in the evaluation sandbox ("on"); "off" only with the user's
    # explicit consent, and every record then says so.
    sandbox: str = "on"
    # Folders the candidate's process must not see besides the bundled suites (the task's own
    # folder is always hidden): --tasks-dir folders, the run folder.
    hidden: tuple[Path, ...] = ()
    # On a GPU, both workers' timed rounds traced on the device (CUPTI; trace_rules.py). Off
    # only to measure what it costs.
    device_trace: bool = True
    # Repository tasks: the project's own tests of the target, part of the correctness gate
    # where the platform can run them (tasks/upstream_tests.py).
    upstream_tests: bool = True


def default_timing(platform: Platform) -> dict[str, Any]:
    if platform.name == "cpu":
        # The interpreter is slow and its timings are not comparable anyway: a few rounds.
        # The compile and correctness gates have already warmed both versions up.
        return {"min_rounds": 2, "max_rounds": 5, "budget_s": 1.0, "target_rse": 0.05,
                "warmup": 0}
    return {"min_rounds": 20, "max_rounds": 200, "budget_s": 1.0, "target_rse": 0.002,
            "warmup": 3}


def _judge_env(platform: Platform) -> dict[str, str]:
    """The judge runs only the task's own code, as the user."""
    env = dict(os.environ)
    env.update(platform.worker_env)
    src_root = str(Path(agentkernelarena.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src_root, env.get("PYTHONPATH")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if platform.name != "cpu":
        env.pop("TRITON_INTERPRET", None)
    return env


def _seeds(base: int, split: str) -> list[int]:
    rng = random.Random(f"{base}:{split}")
    return [rng.randrange(1, 2**31 - 1) for _ in range(CORRECTNESS_SEEDS)]


def _split_request(task: Task, split: str, platform: Platform, base_seed: int) -> dict[str, Any]:
    return {
        "split": split,
        "configs": [{"name": c.name, "params": c.params, "drawn": c.drawn}
                    for c in task.configs_for(platform.name, split, draw_seed=base_seed)],
        "seeds": _seeds(base_seed, split),
        # The baseline is checked on held-out configurations for the generalization quadrant.
        "check_baseline": split == "held_out",
    }


def _request(task: Task, splits: list[str], root: Path, platform: Platform, base_seed: int,
             options: EvalOptions, timing: dict[str, Any]) -> dict[str, Any]:
    return {
        "device": platform.device,
        "platform": platform.name,
        "seed": base_seed,
        "task_root": str(root / "task"),
        "baseline_root": str(root / "baseline"),
        "candidate_root": str(root / "sandbox" / "candidate"),
        "inputs_root": str(root / "sandbox" / "inputs"),
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
        "policy": {**policy_for(task), "own_kernels": sorted(
            own_kernel_names(root / "sandbox" / "candidate", list(task.editable)))},
        "judge_dir": str(root / "judge"),
        "device_trace": options.device_trace,
        "guards": options.guards,
        "vs_compile": options.vs_compile and task.baseline is not None,
    }


def policy_for(task: Task) -> dict[str, Any]:
    """What the candidate's entry may do (docs/integrity.md): the deliverable's language decides
    which launches must happen; no category may compute its result with PyTorch operators."""
    target = task.category.split("2", 1)[1] if "2" in task.category else task.language
    return {"require_launch": target if target in ("triton",) else None,
            "forbid_torch_compute": task.category != "repository"}


def _workers(task: Task, platform: Platform, root: Path,
             options: EvalOptions) -> tuple[Workers, dict[str, Any]]:
    """The judge's environment, and the runner's command in its sandbox (or, with the user's
    explicit `sandbox="off"`, without one, marked so in the record)."""
    if options.sandbox not in SANDBOX_MODES:
        raise AkaError(f"sandbox mode {options.sandbox!r} is not known",
                       f"use one of {', '.join(SANDBOX_MODES)}")
    extra = dict(options.env or {})
    judge = {**_judge_env(platform), **extra}
    area = root / "sandbox"
    env = worker_env({**os.environ, **extra}, area, platform.device)
    env.update(platform.worker_env)
    if options.sandbox == "off":
        info = {"sandboxed": False, "reason": "evaluation sandbox turned off (--sandbox off)"}
        return Workers(judge, runner_command(), env, area), info
    status = worker_sandbox_status()
    if not status.available and options.sandbox == "auto":
        info = {"sandboxed": False, "reason": f"no evaluation sandbox here: {status.reason}"}
        return Workers(judge, runner_command(), env, area), info
    if not status.available:
        raise AkaError(f"cannot sandbox the candidate's evaluation process: {status.reason}",
                       "install bubblewrap (`apt-get install -y bubblewrap`), or pass "
                       "`--sandbox off` to evaluate without it (recorded as unsandboxed)")
    hidden = [task.root, root / "task", root / "baseline", *options.hidden]
    sandbox = WorkerSandbox(eval_dir=area, device=platform.device, hidden=hidden,
                            bwrap=status.executable or "bwrap")
    info = {"sandboxed": True, "reason": status.reason}
    return Workers(judge, sandbox.wrap(runner_command()), env, area), info


def _deadlines(task: Task) -> dict[str, float]:
    t = task.timeouts
    return {"startup": t["compile"], "compile": t["compile"], "correctness": t["correctness"],
            "sanity": t["correctness"], "performance": t["performance"]}


def _apply_speed_checks(task: Task, result: dict[str, Any]) -> None:
    """Reject timings beyond the speed of light; flag very large speedups for a person."""
    result["flags"] = []
    if not result.get("comparable") or not result.get("configs"):
        return
    params = {c.name: c.params
              for c in task.visible + task.configs_for("cuda", "held_out", result["seed"])}
    held_configs = result["held_out"].get("configs") or []
    problems = speed_of_light.check(result["configs"] + held_configs, params, task.bytes_expr,
                                    task.flops_expr, (result.get("versions") or {}).get("gpu"),
                                    task.precision)
    if problems:
        result["verdict"] = "rejected"
        result["reasons"] = problems + result["reasons"]
    speedup = result.get("speedup")
    if result["verdict"] == "ok" and speedup is not None \
            and speedup > speed_of_light.REVIEW_SPEEDUP:
        result["flags"].append(f"review: speedup {speedup:.1f}x is over "
                               f"{speed_of_light.REVIEW_SPEEDUP:g}x and no guard fired")


def evaluate(task: Task, solution_dir: Path, options: EvalOptions | None = None) -> dict[str, Any]:
    """Evaluate the editable files in `solution_dir` against `task`; see DESIGN.md §5."""
    options = options or EvalOptions()
    platform = get_platform(options.platform)
    solution_dir = Path(solution_dir).resolve()
    evaldir.check_solution_dir(task, solution_dir)
    if task.upstream is not None and task.upstream.cpu_unsupported and platform.name == "cpu":
        raise AkaError(f"task {task.id} cannot be evaluated on the CPU platform: "
                       f"{task.upstream.cpu_unsupported}", "evaluate it on a GPU")
    base_seed = options.seed if options.seed is not None else secrets.randbelow(2**31 - 1)
    timing = {**default_timing(platform), **(options.timing or {})}
    started = time.monotonic()

    root = Path(tempfile.mkdtemp(prefix=f"aka-eval-{task.name}-"))
    try:
        evaldir.copy_pristine(task, root / "task")
        evaldir.copy_pristine(task, root / "baseline")
        evaldir.build_candidate(task, solution_dir, root / "sandbox" / "candidate")
        evaldir.copy_inputs(task, root / "sandbox" / "inputs")
        (root / "sandbox" / "io").mkdir()
        (root / "judge").mkdir()
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
            workers, result["worker_sandbox"] = _workers(task, platform, root, options)
            outcome = run_session(request, root, root / "sandbox" / "io", workers,
                                  _deadlines(task))
            result["versions"] = (outcome.first("start") or {}).get("versions", {})
            result["eval_cost"] = outcome.cost
            result["network_isolated"] = result["worker_sandbox"]["sandboxed"]
            configs = {s["split"]: s["configs"] for s in request["splits"]}
            result.update(interpret(outcome, task, "visible", configs["visible"]) or {})
            # Native sources: built now or from the cache, and how long it took (else None).
            result["build"] = (outcome.first("compiled") or {}).get("build")
            held_split = interpret(outcome, task, "held_out", configs["held_out"]) \
                if options.held_out else None
            if held_split is not None and result["compiled"] \
                    and result["verdict"] != "compile_only":
                held = held_out_record(held_split)
        result["held_out"] = held
        if task.upstream is not None and options.upstream_tests:
            upstream_gate(task, solution_dir, platform, options.sandbox, result)
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
