"""Running an agent program: argv lists, stdin from /dev/null, output to files, a hard deadline.

Why each choice: agent CLIs wait on an open stdin (Codex forever, Claude Code 3 s), so stdin is
/dev/null; output goes to files, not pipes, so a chatty agent can never block on a full pipe and
the transcript survives a kill; the program gets its own session so the whole process group (and
whatever it spawned into other groups) can be killed at the deadline.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# Seconds between SIGTERM and SIGKILL at the deadline: enough for a CLI to flush its transcript.
KILL_GRACE_S = 2.0


@dataclass
class Command:
    """A program to run in the workspace, and what the sandbox must show it.

    `ro_paths`: files or folders the program needs to read (its own install, its config);
    `rw_paths`: folders besides the workspace it must write (an output folder).
    """

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    # Called with each new line of output while it runs; a (failure class, message) stops it
    # early (a CLI that retries a rejected API key for minutes, say).
    watch: Callable[[str], tuple[str, str] | None] | None = None
    ro_paths: list[Path] = field(default_factory=list)
    rw_paths: list[Path] = field(default_factory=list)
    transcript_name: str = "transcript.jsonl"


@dataclass
class ProcessResult:
    returncode: int | None
    timed_out: bool
    wall_s: float
    stdout_path: Path
    stderr_path: Path
    not_found: bool = False
    sandboxed: bool = False
    stopped: tuple[str, str] | None = None  # what a watcher stopped it for

    def stdout(self) -> str:
        return self.stdout_path.read_text(errors="replace") if self.stdout_path.exists() else ""

    def stderr_tail(self, lines: int = 20) -> str:
        if not self.stderr_path.exists():
            return ""
        text = self.stderr_path.read_text(errors="replace").strip()
        return "\n".join(text.splitlines()[-lines:])


def project_tools_bin() -> Path:
    """Where scripts/install-agent-clis.sh puts npm-installed CLIs (AKA_TOOLS_DIR overrides)."""
    root = Path(os.environ.get("AKA_TOOLS_DIR") or Path.cwd() / ".tools")
    return root / "node_modules" / ".bin"


def find_executable(configured: str | None, *names: str) -> str | None:
    """An absolute path: the configured one, else the first of `names` that is found."""
    if configured:
        if os.sep in configured:
            path = Path(configured).expanduser()
            return str(path.resolve()) if path.is_file() and os.access(path, os.X_OK) else None
        names = (configured,)
    # PATH, then the arena's own environment (pip-installed CLIs), then the project's .tools.
    search = os.pathsep.join([os.environ.get("PATH", ""), str(Path(sys.executable).parent),
                              str(project_tools_bin())])
    for name in names:
        found = shutil.which(name, path=search)
        if found:
            return str(Path(found).resolve())
    return None


def agent_env(extra: dict[str, str]) -> dict[str, str]:
    """The arena's environment without its own AKA_ variables, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AKA_")}
    env.update(extra)
    return env


def _descendants(root: int) -> list[int]:
    """Every live process below `root`, from /proc (children re-parent once `root` dies)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_tree(proc: subprocess.Popen[bytes], grace_s: float = KILL_GRACE_S) -> None:
    """SIGTERM, then SIGKILL, the process group of `proc` and every process it started."""
    own_group = os.getpgrp()

    def signal_all(sig: int) -> None:
        pids = [proc.pid, *_descendants(proc.pid)]
        groups = {proc.pid}  # its own group (start_new_session), even after it exited
        for pid in pids:
            try:
                groups.add(os.getpgid(pid))
            except ProcessLookupError:
                pass
        for group in groups - {own_group}:
            try:
                os.killpg(group, sig)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in pids:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    if proc.poll() is None:
        signal_all(signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
    signal_all(signal.SIGKILL)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - an unkillable (D-state) process
        pass


def _limits() -> None:  # between fork and exec
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class _LineFollower:
    """New complete lines of a file that another process is writing."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset, self.partial = path, 0, b""

    def lines(self) -> list[str]:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read(1 << 20)
        except OSError:
            return []
        self.offset += len(data)
        *complete, self.partial = (self.partial + data).split(b"\n")
        return [line.decode(errors="replace") for line in complete]


def run_process(argv: list[str], *, cwd: Path, env: dict[str, str], deadline: float,
                stdout_path: Path, stderr_path: Path,
                watch: Callable[[str], tuple[str, str] | None] | None = None,
                poll_s: float = 0.2) -> ProcessResult:
    """Run `argv` until it exits, `deadline` (monotonic) passes, or `watch` objects; then kill
    its whole tree."""
    stdout_path.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        try:
            proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=err, start_new_session=True, preexec_fn=_limits)
        except (FileNotFoundError, PermissionError) as exc:
            err.write(f"cannot start {argv[0]}: {exc}\n".encode())
            return ProcessResult(None, False, 0.0, stdout_path, stderr_path, not_found=True)
        timed_out, stopped = False, None
        follower = _LineFollower(stdout_path) if watch else None
        try:
            while True:
                try:
                    proc.wait(timeout=max(0.0, min(poll_s, deadline - time.monotonic())))
                    break
                except subprocess.TimeoutExpired:
                    pass
                if time.monotonic() >= deadline:
                    timed_out = True
                    break
                if follower is not None and watch is not None:
                    stopped = next((r for r in map(watch, follower.lines()) if r), None)
                    if stopped:
                        break
        finally:
            # At the deadline (or on ^C) everything goes; after a normal exit, whatever it
            # left running too.
            kill_tree(proc, grace_s=0.0 if proc.poll() is not None else KILL_GRACE_S)
    return ProcessResult(proc.returncode if not timed_out else None, timed_out,
                         time.monotonic() - started, stdout_path, stderr_path, stopped=stopped)
