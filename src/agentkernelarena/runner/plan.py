"""A planned run: its trials, their folders and seeds, and what is left to do.

A run is agents x tasks x attempts. runner/preflight.py checks everything and builds the
RunPlan; this module holds the plan and what reads a run folder (the runner, the Ray executor
and the reports all use it, and it imports none of them).

Resume needs no journal: a trial is finished exactly when its trial.json is complete (written
atomically), so a folder without one is an interrupted trial, to be wiped and run again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from agentkernelarena.agents.registry import AgentSpec
from agentkernelarena.errors import AkaError
from agentkernelarena.platforms import Platform
from agentkernelarena.runner.config import RunConfig, identity_diff
from agentkernelarena.runner.manifest import MANIFEST, read_manifest
from agentkernelarena.tasks.spec import Task

TRIALS = "trials"
TRIAL_JSON = "trial.json"
FINAL = "final"
_OWN_FILES = {"run.lock", "run.log"}  # a runner's own files, before its manifest exists


@dataclass(frozen=True)
class TrialKey:
    agent: str  # the agent's label
    task: str
    attempt: int

    @property
    def id(self) -> str:
        """The trial's folder name: flat, so that the sandbox's "hide the run's other trials"
        (the workspace's grandparent) covers the whole run."""
        return f"{self.agent}__{self.task.replace('/', '__')}__{self.attempt}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "agent": self.agent, "task": self.task, "attempt": self.attempt}


@dataclass
class RunPlan:
    config: RunConfig
    out: Path
    platform: Platform
    agents: dict[str, AgentSpec]  # by label
    tasks: dict[str, Task]  # by id
    trials: list[TrialKey]
    identity: dict[str, Any]
    run_seed: int
    manifest: dict[str, Any] | None = None  # the existing one, when resuming
    retry_errors: bool = False  # rerun finished trials whose agent could not run at all
    done: list[TrialKey] = field(default_factory=list)
    todo: list[TrialKey] = field(default_factory=list)

    def trial_dir(self, key: TrialKey) -> Path:
        return self.out / TRIALS / key.id

    def trial_seed(self, key: TrialKey) -> int:
        """The final evaluation's seed: the same for every agent on one task and attempt, so an
        A/B pair is judged on the same held-out draws and inputs."""
        digest = hashlib.sha256(f"{self.run_seed}:{key.task}:{key.attempt}".encode()).digest()
        return int.from_bytes(digest[:4], "big") % (2**31 - 1)

    def plan_json(self) -> list[dict[str, Any]]:
        return [{**k.to_json(), "seed": self.trial_seed(k)} for k in self.trials]


def default_out(config: RunConfig) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    name = config.label or "-".join(a.label or a.name for a in config.agents[:2])
    return Path("runs") / f"{name}-{stamp}"


def check_out_folder(out: Path, resume: bool, ident: dict[str, Any]) -> dict[str, Any] | None:
    """None for a new run; the manifest of the run to resume; AkaError for anything else."""
    if out.exists() and not out.is_dir():
        raise AkaError(f"output folder {out} is a file")
    manifest = read_manifest(out) if out.is_dir() else None
    if manifest is None:
        if out.is_dir() and any(p.name not in _OWN_FILES for p in out.iterdir()):
            raise AkaError(f"output folder {out} is not empty and holds no run "
                           f"({MANIFEST} missing)", "choose a new --out folder")
        return None
    if not resume:
        raise AkaError(f"output folder {out} already holds a run",
                       "pass --resume to continue it, or choose another --out")
    diffs = identity_diff(manifest.get("identity", {}), ident, manifest.get("run_seed"))
    if diffs:
        raise AkaError(f"output folder {out} belongs to another run (differs in "
                       + "; ".join(diffs) + ")",
                       "resume with the same config (or `aka run --resume --out DIR` alone; "
                       "--attempts N may add attempts), or choose another --out")
    return manifest


def read_trial(path: Path, key: TrialKey | None = None) -> dict[str, Any] | None:
    """A complete trial record, or None (missing, half-written by something else, foreign)."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or "verdict" not in record or "task" not in record:
        return None
    if key is not None and (record.get("task") != key.task
                            or record.get("agent_label", record.get("agent")) != key.agent
                            or record.get("attempt") != key.attempt):
        return None
    return record


def scan(plan: RunPlan) -> tuple[list[TrialKey], list[TrialKey], list[TrialKey]]:
    """(finished, to run, interrupted): interrupted trials are folders without a valid
    trial.json; they are part of `to run`, and are wiped before they run again. With
    `retry_errors`, trials recorded with status "error" (the agent was not installed or not
    authenticated: nothing was measured) count as interrupted too."""
    done, todo, interrupted = [], [], []
    for key in plan.trials:
        folder = plan.trial_dir(key)
        record = read_trial(folder / TRIAL_JSON, key)
        if record is not None and not (plan.retry_errors and record.get("status") == "error"):
            done.append(key)
        else:
            todo.append(key)
            if folder.exists():
                interrupted.append(key)
    plan.done, plan.todo = done, todo
    return done, todo, interrupted


def wipe(folder: Path) -> None:
    if folder.is_symlink() or folder.is_file():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)


def save_final_files(task: Task, trial_dir: Path) -> bool:
    """Copy the editable files the agent left into trial_dir/final/, so that `aka heldout` can
    re-evaluate them even after the (possibly large) workspace is deleted. Atomic: a rename."""
    final = trial_dir / FINAL
    workspace = trial_dir / "workspace"
    if final.is_dir() or not workspace.is_dir():
        return final.is_dir()
    staging = trial_dir / f".{FINAL}.tmp"
    wipe(staging)
    for rel in task.editable:
        source = workspace / rel
        if source.is_file() and not source.is_symlink():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, staging / rel)
    staging.mkdir(exist_ok=True)
    staging.rename(final)
    return True
