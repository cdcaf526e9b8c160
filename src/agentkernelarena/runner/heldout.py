"""`aka heldout RUN_DIR --draws N`: finished solutions on new held-out draws, no agent rerun.

Producing a solution and judging it are separate steps (as in SWE-bench), so a run's final
solutions can be judged again: N fresh seeds per trial, each drawing new held-out
configurations from the task's declared ranges and new inputs, each recorded, so any of them
can be repeated with `aka eval --seed`. The solution is the trial's final/ copy of its editable
files (kept by the runner), or its workspace for runs made without one. Results go to
RUN_DIR/heldout/<timestamp>.json; the run's own records are never changed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.platforms import get_platform
from agentkernelarena.report.load import RunData, load_run
from agentkernelarena.report.metrics import geomean, held_out_summary
from agentkernelarena.report.redraws import HELDOUT_DIR
from agentkernelarena.runner.gpus import DevicePool, make_slots
from agentkernelarena.runner.manifest import now_iso
from agentkernelarena.runner.plan import FINAL
from agentkernelarena.runner.record import write_json_atomic
from agentkernelarena.tasks import discover_tasks, load_task
from agentkernelarena.tasks.spec import Task


def solution_dir(task: Task, trial_dir: Path) -> tuple[Path, str] | None:
    """The final editable files of a trial: final/ (kept by the runner), else the workspace."""
    for name in (FINAL, "workspace"):
        folder = trial_dir / name
        if folder.is_dir() and any((folder / rel).is_file() for rel in task.editable):
            return folder, name
    return None


def run_tasks(run: RunData, tasks_dirs: Sequence[Path] = ()) -> dict[str, Task]:
    """The run's tasks, from where the manifest says they were, else from `tasks_dirs`."""
    wanted = {r["task"] for r in run.records}
    found: dict[str, Task] = {}
    for task_id in sorted(wanted):
        root = run.manifest.get("tasks", {}).get(task_id, {}).get("root")
        if root and (Path(root) / "task.yaml").is_file():
            found[task_id] = load_task(Path(root))
    lost = wanted - set(found)
    if lost:
        others = {t.id: t for t in discover_tasks(tasks_dirs)}
        for task_id in sorted(lost):
            if task_id not in others:
                raise AkaError(f"task {task_id} of this run is not where it was "
                               "and not among the known tasks",
                               "pass --tasks-dir with the folder that holds it")
            found[task_id] = others[task_id]
    return found


def _slim(result: dict[str, Any], seed: int) -> dict[str, Any]:
    held = result.get("held_out") or {}
    return {
        "seed": seed,
        "verdict": result.get("verdict"),
        "correct": result.get("correct"),
        "speedup": result.get("speedup"),
        "held_out": {
            **held_out_summary(held),
            "drawn": held.get("drawn") or [],
            "configs": [{k: c.get(k) for k in ("name", "correct", "speedup")}
                        for c in held.get("configs") or []],
            "reasons": held.get("reasons") or [],
        },
        "wall_s": result.get("wall_s"),
        "scheduler": result.get("scheduler"),
    }


def _agent_summary(entries: list[dict[str, Any]], draws: int) -> dict[str, Any]:
    evaluated = [e for e in entries if e.get("draws")]
    outcomes = [d for e in evaluated for d in e["draws"]]
    correct = [d for d in outcomes if d["held_out"]["correct"]]
    total_draws = draws * len(entries)  # skipped trials count as failed draws
    return {
        "trials": len(entries),
        "evaluated": len(evaluated),
        "draws": len(outcomes),
        "draws_correct": len(correct),
        "draw_correct_rate": round(len(correct) / total_draws, 4) if total_draws else None,
        "all_draws_pass_rate": round(sum(e["summary"]["all_passed"] for e in evaluated)
                                     / len(entries), 4) if entries else None,
        "speedup_geomean": geomean(d["held_out"]["speedup"] for d in correct
                                   if d["held_out"]["speedup"]),
        "original_correct_rate": round(sum(bool(e["original"]["correct"]) for e in entries)
                                       / len(entries), 4) if entries else None,
    }


def reevaluate(run_dir: Path, draws: int = 3, platform: str | None = None,
               measure: bool = True, gpus: Sequence[int] | None = None,
               eval_concurrency: int | None = None, tasks_dirs: Sequence[Path] = (),
               timing: dict[str, Any] | None = None, agents: Sequence[str] = (),
               on_result: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Evaluate every finished trial's final solution (of `agents`, default all) on `draws`
    fresh held-out seeds."""
    if draws < 1:
        raise AkaError("--draws must be at least 1")
    run = load_run(run_dir)
    if agents:
        labels = {r.get("agent_label") or r.get("agent") for r in run.records}
        unknown = sorted(set(agents) - labels)
        if unknown:
            raise AkaError(f"no finished trial of agent(s) {', '.join(unknown)} in {run_dir}",
                           f"agents with finished trials: {', '.join(sorted(labels))}")
        run.records = [r for r in run.records
                       if (r.get("agent_label") or r.get("agent")) in set(agents)]
    plat = get_platform(platform or run.manifest.get("platform"))
    tasks = run_tasks(run, tasks_dirs)
    pool = DevicePool(make_slots(plat, gpus, eval_concurrency))
    timing = timing if timing is not None else (run.manifest.get("identity") or {}).get("timing")
    # The run's own sandbox choice holds for its re-draws (an `off` run was the user's call).
    identity = run.manifest.get("identity") or {}
    sandbox = "off" if identity.get("sandbox", run.manifest.get("sandbox")) == "off" else "on"
    evaluator = pool.wrap(evaluate)
    entries: list[dict[str, Any]] = []
    jobs: list[tuple[dict[str, Any], Task, Path, int]] = []
    for record in run.records:
        held = record.get("held_out") or {}
        entry: dict[str, Any] = {
            "id": record["_id"], "task": record["task"],
            "agent": record.get("agent_label") or record.get("agent"),
            "attempt": record.get("attempt"),
            "original": {"seed": (record.get("evaluation") or {}).get("seed"),
                         "correct": held.get("correct"), "speedup": held.get("speedup"),
                         "quadrant": held.get("quadrant")},
            "draws": [], "skipped": None}
        entries.append(entry)
        task = tasks[record["task"]]
        found = solution_dir(task, Path(record["_dir"]))
        if record.get("evaluation") is None:
            entry["skipped"] = f"never evaluated (verdict {record.get('verdict')})"
        elif found is None:
            entry["skipped"] = "neither final/ nor workspace/ holds the editable files"
        else:
            entry["solution"] = found[1]
            seeds: set[int] = {entry["original"]["seed"]} if entry["original"]["seed"] else set()
            for _ in range(draws):
                seed = secrets.randbelow(2**31 - 1)
                while seed in seeds:
                    seed = secrets.randbelow(2**31 - 1)
                seeds.add(seed)
                jobs.append((entry, task, found[0], seed))

    def job(item: tuple[dict[str, Any], Task, Path, int]) -> None:
        entry, task, folder, seed = item
        try:
            result = evaluator(task, folder, EvalOptions(platform=plat.name, seed=seed,
                                                         held_out=True, measure=measure,
                                                         timing=timing, sandbox=sandbox,
                                                         hidden=(Path(run_dir),)))
            outcome = _slim(result, seed)
        except AkaError as exc:
            outcome = {"seed": seed, "error": str(exc), "held_out": {"correct": False,
                                                                     "speedup": None}}
        entry["draws"].append(outcome)
        if on_result is not None:
            on_result(f"{entry['id']} seed {seed}: held-out "
                      f"{'ok' if outcome['held_out']['correct'] else 'FAIL'}")

    with ThreadPoolExecutor(max_workers=pool.size) as executor:
        list(executor.map(job, jobs))
    for entry in entries:
        entry["draws"].sort(key=lambda d: d["seed"])
        passed = sum(bool(d["held_out"]["correct"]) for d in entry["draws"])
        entry["summary"] = {"draws": len(entry["draws"]), "passed": passed,
                            "all_passed": bool(entry["draws"]) and passed == len(entry["draws"]),
                            "speedup_geomean": geomean(d["held_out"]["speedup"]
                                                       for d in entry["draws"]
                                                       if d["held_out"]["correct"])}
    labels = sorted({e["agent"] for e in entries})
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = Path(run_dir) / HELDOUT_DIR / f"{stamp}.json"
    index = 1
    while out.exists():  # two re-evaluations within a second: keep both
        index += 1
        out = out.with_name(f"{stamp}-{index}.json")
    result = {"schema": 1, "created_at": now_iso(), "run": str(run.path),
              "platform": plat.name, "comparable": plat.comparable, "draws_per_trial": draws,
              "measure": measure, "agents": list(agents) or None,
              "missing_trials": len(run.missing),
              "summary": {label: _agent_summary([e for e in entries if e["agent"] == label],
                                                draws) for label in labels},
              "trials": entries, "pool": pool.stats(), "path": str(out)}
    write_json_atomic(out, result)
    return result
