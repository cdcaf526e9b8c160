"""`evaluate()`: one candidate against one task, visible then held-out, into one result record.

Producing a result and reading it are separate on purpose (as in SWE-bench): the record holds
everything needed to score and report it again later, including the seeds it was drawn with.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import agentkernelarena
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import evaldir, speed_of_light
from agentkernelarena.evaluate.gate import DeviceGate
from agentkernelarena.evaluate.options import EvalOptions
from agentkernelarena.evaluate.standby import WarmStart, lay_out_task
from agentkernelarena.evaluate.supervisor import run_session
from agentkernelarena.evaluate.trace_rules import own_kernel_names
from agentkernelarena.evaluate.upstream_gate import upstream_gate
from agentkernelarena.evaluate.verdict import held_out_record, interpret
from agentkernelarena.evaluate.workers import start_peers, worker_setup
from agentkernelarena.platforms import Platform, get_platform
from agentkernelarena.scoring import trial_score
from agentkernelarena.tasks.spec import Task

# `compile_only`: native sources compiled on a machine without a GPU, not run (DESIGN.md §1).
VERDICTS = ("ok", "compile_error", "incorrect", "rejected", "timeout", "crash", "compile_only")
CORRECTNESS_SEEDS = 3
def default_timing(platform: Platform) -> dict[str, Any]:
    if platform.name == "cpu":
        # The interpreter is slow and its timings are not comparable anyway: a few rounds.
        # The compile and correctness gates have already warmed both versions up.
        return {"min_rounds": 2, "max_rounds": 5, "budget_s": 1.0, "target_rse": 0.05,
                "warmup": 0}
    return {"min_rounds": 20, "max_rounds": 200, "budget_s": 1.0, "target_rse": 0.002,
            "warmup": 3}


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


def _deadlines(task: Task, options: EvalOptions) -> dict[str, float]:
    t = task.timeouts
    deadlines = {"startup": t["compile"], "compile": t["compile"],
                 "correctness": t["correctness"], "sanity": t["correctness"],
                 "performance": t["performance"]}
    if options.time_limit_s is not None:
        deadlines["total"] = float(options.time_limit_s)
    return deadlines


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


def evaluate(task: Task, solution_dir: Path, options: EvalOptions | None = None, *,
             warm: WarmStart | None = None, next_task: Task | None = None,
             gate: DeviceGate | None = None) -> dict[str, Any]:
    """Evaluate the editable files in `solution_dir` against `task`; see DESIGN.md §5.

    `warm` and `next_task` (standby.py): this evaluation uses the pair `warm` started for it,
    if any, and starts one for `next_task` while it runs.
    `gate` (gate.py): the GPU is shared with other evaluations; this one's untimed commands
    hold it shared and its timed rounds alone."""
    if gate is not None and warm is not None:
        raise AkaError("a warm start and a shared GPU do not go together",
                       "start each evaluation's workers in its own lane (warm=None)")
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

    standby = warm.take(task, platform, options) if warm is not None else None
    if standby is not None:
        root = standby.root
    else:
        root = Path(tempfile.mkdtemp(prefix=f"aka-eval-{task.name}-"))
    try:
        # Inside the try: a next pair that cannot start does not leak this one's workers.
        if warm is not None and next_task is not None:
            warm.start(next_task, platform, options)
        if standby is None:
            lay_out_task(task, root)
        evaldir.build_candidate(task, solution_dir, root / "sandbox" / "candidate")
        result: dict[str, Any] = {
            "task": task.id,
            "category": task.category,
            "platform": platform.name,
            "comparable": platform.comparable,
            "seed": base_seed,
        }
        held: dict[str, Any] = {"evaluated": False, "correct": None, "speedup": None}
        missing = evaldir.missing_editable(task, solution_dir)
        unparsable = [] if missing else evaldir.syntax_errors(task, solution_dir)
        if missing or unparsable:
            reasons = [f"the solution lacks the editable file(s) {missing}"] if missing \
                else unparsable
            result.update({"verdict": "compile_error", "compiled": False, "correct": False,
                           "speedup": None, "speedup_arith": None, "configs": [],
                           "reasons": reasons})
        else:
            splits = ["visible", "held_out"] if options.held_out else ["visible"]
            request = _request(task, splits, root, platform, base_seed, options, timing)
            if standby is not None:
                judge, runner = standby.judge, standby.runner
                result["worker_sandbox"] = standby.sandbox_info
            else:
                workers, result["worker_sandbox"] = worker_setup(task, platform, root, options)
                judge, runner = start_peers(root, workers)
            outcome = run_session(request, root / "sandbox" / "io", judge, runner,
                                  _deadlines(task, options), prepared=standby is not None,
                                  before_timing=warm.settle if warm is not None else None,
                                  gate=gate)
            result["warm_start"] = standby is not None
            result["shared_gpu"] = gate is not None
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
            with gate.untimed() if gate is not None else contextlib.nullcontext():
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
        if standby is not None:  # used by the session, or not at all (a missing file)
            standby.judge.close()
            standby.runner.close()
        if options.keep_dir is not None:
            shutil.copytree(root, options.keep_dir, dirs_exist_ok=True)
        shutil.rmtree(root, ignore_errors=True)
