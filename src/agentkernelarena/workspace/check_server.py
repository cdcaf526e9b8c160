"""The local check, served by the arena on a unix socket (AKA_CHECK_SOCKET).

The workspace's `./check` connects here instead of running the harness itself, because inside
the sandbox the harness is not there (DESIGN.md §4: no scoring code in the workspace). The arena
evaluates the workspace on the visible configurations only (`held_out=False`) and answers with
`feedback(result)`, the same text the agent would get from `aka eval --feedback`.

Checks run one at a time (timings must not share a device) and each is recorded for the trial.
"""

from __future__ import annotations

import logging
import shutil
import socket
import socketserver
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.feedback import feedback
from agentkernelarena.tasks.spec import Task

log = logging.getLogger(__name__)


class CheckService:
    """Runs checks of one workspace and remembers them. Usable without the socket too."""

    def __init__(self, task: Task, workspace: Path, platform: str | None = None,
                 timing: dict[str, Any] | None = None,
                 evaluator: Callable[..., dict[str, Any]] = evaluate,
                 sandbox: dict[str, Any] | None = None) -> None:
        self.task = task
        # The evaluation sandbox's settings (EvalOptions.sandbox and .hidden): the check runs
        # the agent's code, so its process is as confined as the final evaluation's.
        self.sandbox = sandbox or {}
        self.workspace = Path(workspace)
        self.platform = platform
        self.timing = timing
        self.evaluator = evaluator
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def check(self) -> str:
        """Evaluate the workspace on the visible configurations; the agent-visible summary."""
        with self._lock:
            started = time.monotonic()
            try:
                result = self.evaluator(self.task, self.workspace, EvalOptions(
                    platform=self.platform, held_out=False, timing=self.timing,
                    **self.sandbox))
                text = feedback(result)
                record = {"verdict": result["verdict"], "correct": result["correct"],
                          "speedup": result.get("speedup"), "score": result.get("score")}
            except AkaError as exc:
                text = f"check failed: {exc}"
                record = {"verdict": None, "error": str(exc)}
            except Exception as exc:  # the check must answer, whatever happened
                log.exception("local check failed")
                text = f"check failed inside the arena: {type(exc).__name__}: {exc}"
                record = {"verdict": None, "error": text}
            record["wall_s"] = round(time.monotonic() - started, 3)
            self.calls.append(record)
            return text

    def pop_calls(self) -> list[dict[str, Any]]:
        with self._lock:
            calls, self.calls = self.calls, []
            return calls

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until no check is running (a killed agent may leave one in flight)."""
        acquired = self._lock.acquire(timeout=-1 if timeout is None else timeout)
        if acquired:
            self._lock.release()
        return acquired


class _Handler(socketserver.StreamRequestHandler):
    server: _Server  # type: ignore[assignment]

    def handle(self) -> None:
        self.connection.settimeout(10)
        try:
            line = self.rfile.readline(1024).decode(errors="replace").strip()
        except (OSError, TimeoutError):
            return
        if line != "check":
            self.wfile.write(b"unknown request; send 'check'\n")
            return
        self.connection.settimeout(None)
        text = self.server.service.check()
        try:
            self.wfile.write(text.encode() + b"\n")
        except OSError:  # the agent went away (killed at its deadline)
            pass


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True

    def __init__(self, path: str, service: CheckService) -> None:
        self.service = service
        super().__init__(path, _Handler)


class CheckServer:
    """`with CheckServer(service) as server: server.socket_path` — a socket in a private folder.

    The folder is short-named under /tmp (unix socket paths are limited to ~100 bytes) and is
    the one thing outside the workspace the sandbox binds in.
    """

    def __init__(self, service: CheckService) -> None:
        self.service = service
        self.folder = Path(tempfile.mkdtemp(prefix="aka-chk-"))
        self.folder.chmod(0o700)
        self.socket_path = self.folder / "check.sock"
        self._server = _Server(str(self.socket_path), service)
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.2}, daemon=True)

    def __enter__(self) -> CheckServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        shutil.rmtree(self.folder, ignore_errors=True)


def ask(socket_path: Path, timeout: float = 600) -> str:
    """What `./check` does, from Python (tests)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        conn.connect(str(socket_path))
        conn.sendall(b"check\n")
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")
