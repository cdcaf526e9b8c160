"""How an evaluation's two workers are started: the judge as the user, the runner (the
candidate's process) in the evaluation sandbox, each with its own environment and log.

Apart from the session that drives them (session.py) so that workers can also be started
ahead of the evaluation that will use them (standby.py), with the same set-up.
"""

from __future__ import annotations

import os
import resource
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agentkernelarena
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate.options import SANDBOX_MODES, EvalOptions
from agentkernelarena.evaluate.protocol import Peer
from agentkernelarena.evaluate.sandbox import WorkerSandbox, worker_env, worker_sandbox_status
from agentkernelarena.platforms import Platform
from agentkernelarena.tasks.spec import Task

# Bytes the runner may write to any single file (a runaway log or a disk-filling candidate).
FILE_SIZE_LIMIT = 4 << 30


@dataclass
class Workers:
    """How to start each worker: argv and environment (the runner's already sandboxed)."""

    judge_env: dict[str, str]
    runner_argv: list[str]
    runner_env: dict[str, str]
    runner_cwd: Path


def _limit_resources() -> None:  # runs in the runner's child between fork and exec
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))


def runner_command() -> list[str]:
    return [sys.executable, "-m", "agentkernelarena.evaluate.runner"]


def lay_out(root: Path) -> None:
    """The evaluation folder's parts that exist before the candidate is known: the sandbox's
    area (bound into the runner's sandbox when it starts), its io folder, the judge's."""
    (root / "sandbox" / "io").mkdir(parents=True)
    (root / "judge").mkdir()


def start_peers(root: Path, workers: Workers) -> tuple[Peer, Peer]:
    """The judge and the runner, started at once (each imports torch, which takes seconds)."""
    judge = Peer("judge", [sys.executable, "-m", "agentkernelarena.evaluate.judge"],
                 root, workers.judge_env, root / "judge.log")
    try:
        runner = Peer("candidate", workers.runner_argv, workers.runner_cwd, workers.runner_env,
                      root / "runner.log", preexec=_limit_resources)
    except BaseException:
        judge.close()
        raise
    return judge, runner


def judge_env(platform: Platform) -> dict[str, str]:
    """The judge runs only the task's own code, as the user."""
    env = dict(os.environ)
    env.update(platform.worker_env)
    src_root = str(Path(agentkernelarena.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src_root, env.get("PYTHONPATH")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if platform.name != "cpu":
        env.pop("TRITON_INTERPRET", None)
    return env


def worker_setup(task: Task, platform: Platform, root: Path,
             options: EvalOptions) -> tuple[Workers, dict[str, Any]]:
    """The judge's environment, and the runner's command in its sandbox (or, with the user's
    explicit `sandbox="off"`, without one, marked so in the record)."""
    if options.sandbox not in SANDBOX_MODES:
        raise AkaError(f"sandbox mode {options.sandbox!r} is not known",
                       f"use one of {', '.join(SANDBOX_MODES)}")
    extra = dict(options.env or {})
    judge = {**judge_env(platform), **extra}
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
