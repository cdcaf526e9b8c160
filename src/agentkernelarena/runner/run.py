"""Running a planned run: lock the folder, record the manifest, run the trials, sum up.

    plan = prepare(config, resume)       # runner/preflight.py: all checks, nothing written
    outcome = execute(plan)              # this module

The local executor runs trials on threads (agents are subprocesses or wait on model APIs, so
threads are enough) up to the run's concurrency, and every evaluation borrows a slot of one
DevicePool (one per GPU). `--executor ray` hands the same trial function to Ray instead
(runner/ray_executor.py). Either way each trial's record lands in trials/<id>/trial.json,
written atomically, which is all that resume and the reports rely on.

An exclusive lock (flock on run.lock, released by the kernel even after kill -9) keeps two
runners out of one folder.
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import evaluate
from agentkernelarena.runner.gpus import DevicePool, gpu_names, lane_slots
from agentkernelarena.runner.manifest import build_manifest, now_iso, task_hash, write_manifest
from agentkernelarena.runner.plan import (
    TRIAL_JSON,
    RunPlan,
    TrialKey,
    check_out_folder,
    read_trial,
    save_final_files,
    scan,
    wipe,
)
from agentkernelarena.runner.progress import RunProgress
from agentkernelarena.runner.record import write_json_atomic
from agentkernelarena.runner.trial import TrialOptions, run_trial

log = logging.getLogger("agentkernelarena.runner.run")
LOCK = "run.lock"
SUMMARY = "summary.json"


@dataclass
class RunOutcome:
    out: Path
    total: int
    skipped: int  # finished in an earlier session
    finished: int  # finished in this one
    failed: list[str] = field(default_factory=list)  # trial ids that could not run
    interrupted: bool = False
    pool: dict[str, Any] = field(default_factory=dict)
    report: dict[str, Any] = field(default_factory=dict)  # `aka report`'s JSON at the end


class RunLock:
    """flock on run.lock: one runner per run folder; the kernel drops it when the process dies."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / LOCK
        self._fh: IO[str] | None = None

    def __enter__(self) -> RunLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "a+")  # noqa: SIM115 - held for the run's lifetime
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.seek(0)
            holder = fh.read().strip() or "unknown"
            fh.close()
            raise AkaError(f"run folder {self.path.parent} is in use by another aka run "
                           f"(pid {holder})", "wait for it to end, or stop it") from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        self._fh = fh
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None:
            fcntl.flock(self._fh, fcntl.LOCK_UN)
            self._fh.close()


def trial_options(plan: RunPlan, key: TrialKey,
                  evaluator: Callable[..., dict[str, Any]]) -> TrialOptions:
    config = plan.config
    return TrialOptions(max_iterations=config.max_iterations, time_limit_s=config.time_limit_s,
                        platform=plan.platform.name, sandbox=config.sandbox,
                        seed=plan.trial_seed(key), attempt=key.attempt, timing=config.timing,
                        vs_compile=config.vs_compile,
                        evaluator=evaluator, hidden=(plan.out,))


def run_one(plan: RunPlan, key: TrialKey, evaluator: Callable[..., dict[str, Any]]
            ) -> dict[str, Any]:
    """One trial into its folder (wiped first: a leftover is an interrupted attempt)."""
    trial_dir = plan.trial_dir(key)
    wipe(trial_dir)
    task = plan.tasks[key.task]
    record = run_trial(task, plan.agents[key.agent], trial_dir,
                       trial_options(plan, key, evaluator))
    save_final_files(task, trial_dir)
    return record


def _start_session(plan: RunPlan, names: list[str]) -> dict[str, Any]:
    """Write (new run) or update (resume) the manifest; returns it."""
    if plan.manifest is None:
        manifest = build_manifest(config=plan.config.to_json() | {"out": str(plan.out)},
                                  identity=plan.identity, run_seed=plan.run_seed,
                                  plan=plan.plan_json(), tasks=list(plan.tasks.values()),
                                  gpu_names=names, platform=plan.platform.name,
                                  comparable=plan.platform.comparable)
    else:
        manifest = plan.manifest
        changed = [t for t, info in manifest.get("tasks", {}).items()
                   if t in plan.tasks and info.get("hash") != task_hash(plan.tasks[t])]
        if changed:
            log.warning("task files changed since this run started: %s (finished trials "
                        "were produced with the old versions)", ", ".join(changed))
        _grow_attempts(plan, manifest)
    manifest["sessions"].append({
        "started_at": now_iso(), "pid": os.getpid(), "executor": plan.config.executor,
        "concurrency": plan.config.concurrency, "gpus": names,
        "resumed": plan.manifest is not None, "already_finished": len(plan.done),
        "to_run": len(plan.todo)})
    write_manifest(plan.out, manifest)
    return manifest


def _grow_attempts(plan: RunPlan, manifest: dict[str, Any]) -> None:
    """`aka run --resume --attempts N` with N above the recorded attempts: the new attempts'
    trials join the plan (after the old ones), and the manifest records the new count."""
    before = manifest.get("identity", {}).get("attempts")
    after = plan.config.attempts
    if not isinstance(before, int) or after <= before:
        return
    added = len(plan.trials) - len(manifest.get("plan", []))
    manifest["identity"]["attempts"] = after
    manifest.setdefault("config", {})["attempts"] = after
    manifest["plan"] = plan.plan_json()
    manifest.setdefault("attempts_added", []).append(
        {"at": now_iso(), "from": before, "to": after})
    log.info("attempts %d -> %d: %d trial(s) added to the run", before, after, added)


def _run_local(plan: RunPlan, todo: list[TrialKey], progress: RunProgress,
               pool: DevicePool, outcome: RunOutcome) -> None:
    concurrency = plan.config.concurrency or pool.size
    evaluator = pool.wrap(evaluate)
    stop = threading.Event()

    def job(key: TrialKey) -> dict[str, Any]:
        progress.trial_started(key.id)
        return run_one(plan, key, evaluator)

    pending = list(reversed(todo))
    running: dict[Future[dict[str, Any]], TrialKey] = {}
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="aka-trial") as pool_:
        try:
            while pending or running:
                while pending and len(running) < concurrency and not stop.is_set():
                    key = pending.pop()
                    running[pool_.submit(job, key)] = key
                if not running:
                    break
                finished, _ = wait(list(running), timeout=1.0, return_when=FIRST_COMPLETED)
                for future in finished:
                    key = running.pop(future)
                    _collect(future, key, progress, outcome)
        except KeyboardInterrupt:
            outcome.interrupted = True
            stop.set()
            progress.print(f"interrupted: waiting for {len(running)} running trial(s) to end "
                           "(Ctrl-C again to abandon them; `aka run --resume` reruns them)")
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for future in list(running):
                try:
                    future.result()
                except KeyboardInterrupt:
                    os._exit(130)  # abandon: their folders stay unfinished, resume reruns them
                except Exception:  # collected below
                    pass
            for future, key in running.items():
                _collect(future, key, progress, outcome)


def _collect(future: Future[dict[str, Any]], key: TrialKey, progress: RunProgress,
             outcome: RunOutcome) -> None:
    try:
        record = future.result()
    except Exception as exc:
        detail = str(exc) if isinstance(exc, AkaError) else traceback.format_exc()
        outcome.failed.append(key.id)
        progress.trial_failed(key.id, detail)
        return
    outcome.finished += 1
    progress.trial_finished(key.id, record)


def execute(plan: RunPlan, live: bool | None = None) -> RunOutcome:
    """Run what is left of `plan` (prepare()d), resuming whatever an earlier session finished."""
    plan.out.mkdir(parents=True, exist_ok=True)
    with RunLock(plan.out):
        # Re-check under the lock: another runner may have created the run meanwhile.
        fresh = check_out_folder(plan.out, plan.manifest is not None, plan.identity)
        if (fresh is None) != (plan.manifest is None):
            raise AkaError(f"output folder {plan.out} changed while planning; run again")
        plan.manifest = fresh
        done, todo, interrupted = scan(plan)
        pool: DevicePool | None = None
        names: list[str] = []
        if plan.config.executor == "local":
            pool = DevicePool(*lane_slots(plan.platform, plan.config.eval_lanes or 1,
                                          plan.config.gpus, plan.config.eval_concurrency))
            names = gpu_names(plan.platform)
        manifest = _start_session(plan, names)
        finished_records = [read_trial(plan.trial_dir(k) / TRIAL_JSON, k) or {} for k in done]
        for key in done:  # a kill between trial.json and final/ left no copy: make it now
            save_final_files(plan.tasks[key.task], plan.trial_dir(key))
        outcome = RunOutcome(out=plan.out, total=len(plan.trials), skipped=len(done),
                             finished=0)
        with RunProgress(plan.out, len(plan.trials), finished_records, live=live) as progress:
            log.info("session started: %d trial(s) planned, %d finished earlier, %d to run "
                     "(%d interrupted ones wiped first), executor %s", len(plan.trials),
                     len(done), len(todo), len(interrupted), plan.config.executor)
            if done:
                progress.print(f"resuming {plan.out}: {len(done)} of {len(plan.trials)} trials "
                               f"finished earlier, {len(todo)} to run"
                               + (f" ({len(interrupted)} interrupted, rerun from scratch)"
                                  if interrupted else ""))
            for key in interrupted:
                log.info("trial %s was interrupted: wiping its folder", key.id)
                wipe(plan.trial_dir(key))
            if plan.config.executor == "ray":
                from agentkernelarena.runner.ray_executor import run_on_ray

                run_on_ray(plan, todo, progress, outcome)
            elif pool is not None:
                _run_local(plan, todo, progress, pool, outcome)
                outcome.pool = {**pool.stats(),
                                "concurrency": plan.config.concurrency or pool.size}
            log.info("session ended: %d finished, %d failed to run%s; pool %s",
                     outcome.finished, len(outcome.failed),
                     ", interrupted" if outcome.interrupted else "", outcome.pool)
        manifest["sessions"][-1].update({
            "ended_at": now_iso(), "finished": outcome.finished, "failed": outcome.failed,
            "interrupted": outcome.interrupted, "pool": outcome.pool})
        write_manifest(plan.out, manifest)
        outcome.report = write_summary(plan.out)
        return outcome


def write_summary(run_dir: Path) -> dict[str, Any]:
    """summary.json: the report's summary as of now (`aka report` recomputes it any time)."""
    from agentkernelarena.report import build_report, load_run

    report = build_report(load_run(run_dir))
    write_json_atomic(run_dir / SUMMARY, report["summary"])
    return report
