"""Running the worker in its own process, under limits and per-gate deadlines.

The worker reports each finished step through its events file; the supervisor moves the deadline
on as the phases advance (compile, correctness, performance each have their own bound), kills
the worker's whole process group when a deadline passes, and turns whatever happened (a clean
end, a hang, a signal, an exit in the middle) into events the evaluator can score.
"""

from __future__ import annotations

import functools
import json
import os
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkernelarena.evaluate.channel import EventReader

# Bytes one worker may write to any single file (a runaway log or a disk-filling candidate).
FILE_SIZE_LIMIT = 2 << 30


@dataclass
class WorkerOutcome:
    events: list[dict[str, Any]]
    returncode: int | None
    timed_out_phase: str | None = None
    wall_s: float = 0.0
    log_tail: str = ""
    network_isolated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def first(self, name: str) -> dict[str, Any] | None:
        return next((e for e in self.events if e.get("event") == name), None)

    def all(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("event") == name]


@functools.cache
def can_unshare_network() -> bool:
    """Whether `unshare --net` works here (root, or user namespaces allowed)."""
    if os.environ.get("AKA_NO_NETNS") == "1" or shutil.which("unshare") is None:
        return False
    try:
        probe = subprocess.run(["unshare", "--net", "--map-root-user", "true"],
                               capture_output=True, timeout=10)
        if probe.returncode == 0:
            return True
        probe = subprocess.run(["unshare", "--net", "true"], capture_output=True, timeout=10)
        return probe.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _limit_resources() -> None:  # runs in the child between fork and exec
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))


def _phase_of(events: list[dict[str, Any]]) -> str:
    """The current phase, qualified by split ("held_out:correctness") so that each split's
    phases get their own deadline."""
    phases = [e for e in events if e.get("event") == "phase"]
    if not phases:
        return "startup"
    last = phases[-1]
    return f"{last['split']}:{last['phase']}" if last.get("split") else last["phase"]


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def run_worker(
    request: dict[str, Any],
    workdir: Path,
    env: dict[str, str],
    deadlines: dict[str, float],
    poll_s: float = 0.05,
) -> WorkerOutcome:
    """Run one worker to its end or its deadline. `deadlines` maps phase -> seconds."""
    key = secrets.token_bytes(32)
    events_path = workdir / "events.jsonl"
    events_path.unlink(missing_ok=True)
    request = {**request, "events_path": str(events_path)}
    request_path = workdir / "request.json"
    request_path.write_text(json.dumps(request, indent=1))
    log_path = workdir / "worker.log"

    argv = [sys.executable, "-m", "agentkernelarena.evaluate.worker", str(request_path)]
    isolated = request["device"] == "cpu" and can_unshare_network()
    # GPU workers keep the host's namespace: some drivers and runtimes refuse a fresh one.
    if isolated:
        argv = ["unshare", "--net", "--map-root-user", *argv] if os.geteuid() != 0 else [
            "unshare", "--net", *argv]

    reader = EventReader(events_path, key)
    started = time.monotonic()
    phase_started = started
    current = "startup"
    timed_out: str | None = None
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.PIPE, start_new_session=True,
                                preexec_fn=_limit_resources)
        assert proc.stdin is not None
        proc.stdin.write(key.hex().encode() + b"\n")
        proc.stdin.close()
        while proc.poll() is None:
            time.sleep(poll_s)
            phase = _phase_of(reader.poll())
            if phase != current:
                current, phase_started = phase, time.monotonic()
            limit = deadlines.get(current.rsplit(":", 1)[-1], deadlines.get("compile", 300.0))
            if time.monotonic() - phase_started > limit:
                timed_out = current
                _kill_group(proc)
                break
        else:
            # The worker is gone; anything it left in its group (a forked child) goes too.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    wall = time.monotonic() - started
    log_text = log_path.read_text(errors="replace") if log_path.exists() else ""
    return WorkerOutcome(
        events=list(reader.poll()),
        returncode=proc.returncode,
        timed_out_phase=timed_out,
        wall_s=wall,
        log_tail="\n".join(log_text.strip().splitlines()[-30:]),
        network_isolated=isolated,
    )
