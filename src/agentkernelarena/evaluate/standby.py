"""Workers started ahead of the evaluation that will use them, each used for one candidate only.

Starting an evaluation's two workers costs seconds before any candidate code runs: each imports
torch, creates its device context and, on a GPU with the device trace on, pays CUPTI's first
session (about 3.5 s on an H200). None of that depends on the candidate, so a caller that knows
which task it evaluates next (a suite, a batch of candidates, an RL trainer) starts the next
evaluation's pair while the current one compiles and checks. Isolation is unchanged: the runner
is a fresh process in its own sandbox and serves one candidate, whose files appear in its area
only when its evaluation starts; the judge never loads candidate code.

Timing stays undisturbed: the current evaluation waits for the next pair to finish starting
before its first timed round (`Session._settle_others`), so no start-up runs while it times.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentkernelarena.evaluate import evaldir
from agentkernelarena.evaluate.options import EvalOptions
from agentkernelarena.evaluate.protocol import Peer, PeerGone
from agentkernelarena.evaluate.workers import lay_out, start_peers, worker_setup
from agentkernelarena.platforms import Platform
from agentkernelarena.tasks.spec import Task

# How long a pair may take to start (torch import, device context, CUPTI) before it is given up
# and the evaluation starts its own, as without a standby.
PREPARE_TIMEOUT_S = 180.0


def standby_key(task: Task, platform: Platform, options: EvalOptions) -> tuple[Any, ...]:
    """What a pair's set-up depends on: a pair started for another key is not used."""
    return (task.id, str(task.root), platform.name, platform.device, options.sandbox,
            tuple(sorted((options.env or {}).items())), tuple(map(str, options.hidden)),
            options.device_trace)


@dataclass
class Standby:
    """A judge and a runner for one evaluation of `key`'s task, in their evaluation folder."""

    key: tuple[Any, ...]
    root: Path
    judge: Peer
    runner: Peer
    sandbox_info: dict[str, Any]
    ready: bool | None = None  # None: still starting; False: a worker failed to start

    def settle(self, timeout_s: float = PREPARE_TIMEOUT_S) -> bool:
        """Wait until both workers have started; False when either failed (or took too long)."""
        if self.ready is None:
            try:
                for peer in (self.judge, self.runner):
                    if not peer.receive(timeout_s).data.get("ok"):
                        raise PeerGone("exited", f"the {peer.name} process failed to prepare")
                self.ready = True
            except PeerGone:
                self.ready = False
        return self.ready

    def close(self) -> None:
        for peer in (self.runner, self.judge):
            peer.close()
        shutil.rmtree(self.root, ignore_errors=True)


def start_standby(task: Task, platform: Platform, options: EvalOptions) -> Standby:
    """A pair for the next evaluation of `task`, starting in the background."""
    root = Path(tempfile.mkdtemp(prefix=f"aka-eval-{task.name}-"))
    try:
        lay_out_task(task, root)
        workers, info = worker_setup(task, platform, root, options)
        judge, runner = start_peers(root, workers)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    prime = platform.device == "cuda" and options.device_trace
    for peer in (judge, runner):
        try:
            peer.send("prepare", device=platform.device, prime_trace=prime)
        except PeerGone:
            pass  # settle() reads how it ended
    return Standby(standby_key(task, platform, options), root, judge, runner, info)


def lay_out_task(task: Task, root: Path) -> None:
    """What an evaluation folder holds before its candidate is known: the judge's and the
    baseline's pristine copies of the task, the inputs function the runner may read."""
    evaldir.copy_pristine(task, root / "task")
    evaldir.copy_pristine(task, root / "baseline")
    lay_out(root)
    evaldir.copy_inputs(task, root / "sandbox" / "inputs")


class WarmStart:
    """At most one standby pair, for the evaluation a caller makes next.

        with WarmStart() as warm:
            for task, following in zip(tasks, [*tasks[1:], None]):
                evaluate(task, folder, options, warm=warm, next_task=following)

    A pair that does not match the next evaluation (another task, other options) is closed,
    and that evaluation starts its own, as without one.
    """

    def __init__(self) -> None:
        self.pending: Standby | None = None

    def take(self, task: Task, platform: Platform, options: EvalOptions) -> Standby | None:
        """The standby for this evaluation, ready, or None."""
        standby, self.pending = self.pending, None
        if standby is None:
            return None
        if standby.key != standby_key(task, platform, options) or not standby.settle():
            standby.close()
            return None
        return standby

    def start(self, task: Task, platform: Platform, options: EvalOptions) -> None:
        self.close()
        self.pending = start_standby(task, platform, options)

    def settle(self) -> None:
        if self.pending is not None:
            self.pending.settle()

    def close(self) -> None:
        if self.pending is not None:
            self.pending.close()
            self.pending = None

    def __enter__(self) -> WarmStart:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
