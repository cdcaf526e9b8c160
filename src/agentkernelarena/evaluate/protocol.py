"""Commands and replies between the supervisor and its two workers, one JSON line each.

The supervisor speaks to the judge (trusted: reference, inputs, baseline) and to the runner
(the candidate's process) over their stdin and stdout. A worker moves its real stdout to a
private descriptor before any task or candidate code runs, so that prints land in its log and
never in the channel. The runner's replies are untrusted data: the supervisor reads them with a
deadline, a size cap, and a fixed schema (`Reply`), so that what the candidate writes there can
at most make its own evaluation fail.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_REPLY_BYTES = 1 << 20


class PeerGone(Exception):
    """The worker ended, hung past its deadline, or sent something that is not a reply."""

    def __init__(self, why: str, message: str, how: str = "") -> None:
        super().__init__(message)
        self.why = why  # "exited" | "timeout" | "malformed"
        self.message = message
        self.how = how or message  # for "exited": "exit code 3", "killed by signal 9"


@dataclass
class Reply:
    data: dict[str, Any]
    wall_ms: float  # the supervisor's clock, from sending the command to reading the reply


class Peer:
    """One worker process, seen from the supervisor."""

    def __init__(self, name: str, argv: list[str], cwd: Path, env: dict[str, str],
                 log_path: Path, preexec: Callable[[], None] | None = None) -> None:
        self.name = name
        self.log_path = log_path
        self._log = open(log_path, "wb")  # noqa: SIM115 - lives as long as the process
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._log,
                                     start_new_session=True, preexec_fn=preexec)
        self._buffer = b""
        self._sent = time.perf_counter()

    def request(self, command: str, timeout_s: float, **fields: Any) -> Reply:
        """Send one command and wait for its reply; PeerGone when none comes in time."""
        self.send(command, **fields)
        return self.receive(timeout_s)

    def send(self, command: str, **fields: Any) -> None:
        """Send one command without waiting (`receive` reads its reply): two workers can then
        work at once, e.g. while both start up."""
        assert self.proc.stdin is not None
        line = json.dumps({"cmd": command, **fields}).encode() + b"\n"
        self._sent = time.perf_counter()
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._gone() from None

    def receive(self, timeout_s: float) -> Reply:
        """The reply to the command sent last; `wall_ms` counts from its sending."""
        began = self._sent
        raw = self._read_line(time.perf_counter() + timeout_s)
        wall_ms = (time.perf_counter() - began) * 1e3
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            self.kill()
            raise PeerGone("malformed", f"the {self.name} process sent a reply that is not a "
                           "JSON object")
        return Reply(data, wall_ms)

    def _read_line(self, deadline: float) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.perf_counter()
            if left <= 0:
                self.kill()
                raise PeerGone("timeout", f"the {self.name} process did not answer in time")
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._gone()
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY_BYTES:
                self.kill()
                raise PeerGone("malformed", f"the {self.name} process sent over "
                               f"{MAX_REPLY_BYTES} bytes without ending a reply")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _gone(self) -> PeerGone:
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        if code is not None and code < 0:
            how = f"killed by signal {-code}"
        elif code is not None and code > 128:  # a sandbox's launcher reports its child's so
            how = f"killed by signal {code - 128} (exit code {code})"
        else:
            how = f"exit code {code}"
        return PeerGone("exited", f"the {self.name} process ended ({how})", how)

    def log_tail(self, lines: int = 30) -> str:
        self._log.flush()
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])

    def kill(self) -> None:
        """The whole process group (and, for a sandbox, its pid namespace with it)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """The process killed with its group, and its pipes and log closed."""
        self.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._log.close()


def serve(handlers: dict[str, Callable[..., dict[str, Any]]]) -> int:
    """A worker's main loop: one command per line on stdin, one reply per line on a private
    copy of stdout (fd 1 itself now goes to stderr, i.e. the log)."""
    channel = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
    for raw in sys.stdin.buffer:
        request = json.loads(raw)
        command = request.pop("cmd")
        try:
            reply = handlers[command](**request)
        except Exception:  # a bug of the worker itself, not of what it runs
            reply = {"ok": False, "kind": "internal", "error": traceback.format_exc()[-4000:]}
        channel.write(json.dumps(reply, default=str).encode() + b"\n")
        if command == "exit" or reply.get("fatal"):
            # After a device fault the context is gone: no atexit handlers on it.
            os._exit(4 if reply.get("fatal") else 0)
    return 0
