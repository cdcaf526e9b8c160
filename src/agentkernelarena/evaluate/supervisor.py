"""Starting the evaluation's two workers, and ending them whatever happened.

The judge (trusted: task code only) runs as the user; the runner (the candidate's code) runs in
the evaluation sandbox (sandbox.py): no network, no secrets, its own pid namespace, writable
only its folder. Both start at once (each imports torch, which takes seconds), and both are
killed with everything they started when the evaluation ends, so a daemon the candidate forked
cannot outlive it.
"""

from __future__ import annotations

import resource
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentkernelarena.evaluate.protocol import Peer
from agentkernelarena.evaluate.session import Session, SessionOutcome
from agentkernelarena.evaluate.witness import Freezer

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


def run_session(request: dict[str, Any], root: Path, io_dir: Path, workers: Workers,
                deadlines: dict[str, float]) -> SessionOutcome:
    """One evaluation from start to end; every way it can end is an event in the outcome."""
    judge = Peer("judge", [sys.executable, "-m", "agentkernelarena.evaluate.judge"],
                 root, workers.judge_env, root / "judge.log")
    runner = Peer("candidate", workers.runner_argv, workers.runner_cwd, workers.runner_env,
                  root / "runner.log", preexec=_limit_resources)
    try:
        session = Session(request, io_dir, judge, runner, deadlines,
                          Freezer(runner.proc.pid))
        outcome = session.run()
        outcome.cost = session.cost_record()
        return outcome
    finally:
        # Both are killed, not asked to exit: the runner is stopped between its commands, and
        # nothing either holds is worth a graceful end (the events are in, the files copied).
        for peer in (runner, judge):
            peer.close()
