"""Talking to one evaluation's two workers from the supervisor: commands and replies, the
deadlines they run under, the freezer that stops the candidate's process between its commands,
the GPU's gate when evaluations share it (gate.py), and what each command cost.

session.py builds the evaluation's gates on top of this; nothing here knows what a command
means.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkernelarena.evaluate.gate import DeviceGate
from agentkernelarena.evaluate.protocol import Peer, PeerGone
from agentkernelarena.evaluate.witness import Freezer


class Stop(Exception):
    """The candidate failed a gate (`kind` is the event) or a worker is gone."""

    def __init__(self, kind: str, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.kind, self.message, self.fields = kind, message, fields


@dataclass
class SessionOutcome:
    events: list[dict[str, Any]] = field(default_factory=list)
    cost: dict[str, Any] = field(default_factory=dict)

    def first(self, name: str) -> dict[str, Any] | None:
        return next((e for e in self.events if e.get("event") == name), None)


class WorkerChannel:
    """One evaluation's link to its judge and runner; `run()` drives `_run()` and frees the
    GPU's gate however it ends."""

    def __init__(self, request: dict[str, Any], io_dir: Path, judge: Peer, runner: Peer,
                 deadlines: dict[str, float], freezer: Freezer | None, prepared: bool = False,
                 before_timing: Callable[[], None] | None = None,
                 gate: DeviceGate | None = None) -> None:
        self.req, self.io, self.judge, self.runner = request, io_dir, judge, runner
        self.gate = gate
        self.runner_holds_gate = False
        # Started ahead (standby.py): both have imported torch and primed the device trace.
        self.prepared = prepared
        self.before_timing = before_timing
        self.deadlines = deadlines
        self.freezer = freezer
        self.outcome = SessionOutcome()
        self.split: dict[str, Any] = {}
        self.started = time.monotonic()
        self.total_deadline = self.started + deadlines.get("total", float("inf"))
        self._phase("startup")
        self.runner_alive = True
        self.judge_wall = 0.0
        # What the evaluation spent where: commands per worker (count, milliseconds on the
        # supervisor's clock) and the freezer's stops and continues.
        self.cost: dict[str, list[float]] = {}

    # -- events and deadlines ------------------------------------------------------------
    def emit(self, event: str, **fields: Any) -> None:
        record = {"event": event, "t": round(time.monotonic() - self.started, 4), **fields}
        if self.split.get("split") and event not in ("start", "compiled"):
            record.setdefault("split", self.split["split"])
        self.outcome.events.append(record)

    def _phase(self, name: str) -> None:
        self.phase = name
        self.phase_deadline = time.monotonic() + self.deadlines.get(name, 300.0)
        if name != "startup":
            self.emit("phase", phase=name)

    def _left(self) -> float:
        return max(0.05, min(self.phase_deadline, self.total_deadline) - time.monotonic())

    def _take_gate(self) -> bool:
        """A shared hold on the GPU's gate for one untimed command (gate.py); False when there
        is nothing to take (no gate, or inside this evaluation's own timed rounds). Time spent
        waiting for another evaluation's timed rounds moves this one's deadlines."""
        if self.gate is None or self.gate.timing_here():
            return False
        waited = self.gate.acquire_shared()
        if waited > 0.001:
            self._tally("gate.shared_wait", waited * 1e3)
            self.total_deadline += waited
            self.phase_deadline += waited
        return True

    def ask_judge(self, command: str, **fields: Any) -> dict[str, Any]:
        held = self._take_gate()
        try:
            return self._ask_judge(command, **fields)
        finally:
            if held:
                self.gate.release_shared()

    def _ask_judge(self, command: str, **fields: Any) -> dict[str, Any]:
        try:
            answer = self.judge.request(command, max(self._left(), 60.0), **fields)
            reply, self.judge_wall = answer.data, answer.wall_ms
            self._tally(f"judge.{command}", answer.wall_ms)
        except PeerGone as gone:
            raise Stop("harness_error", f"{gone.message} while {command}; last output:\n"
                       f"{self.judge.log_tail()}") from None
        if not reply.get("ok"):
            raise Stop(reply.get("kind") if reply.get("kind") in ("infra_error",)
                       else "harness_error", str(reply.get("error", ""))[:8000])
        return reply

    def ask_runner(self, command: str, **fields: Any) -> tuple[dict[str, Any], float]:
        self._send_runner(command, **fields)
        return self._receive_runner(command)

    def _send_runner(self, command: str, **fields: Any) -> None:
        """The runner thawed and sent a command; `_receive_runner` reads the reply (the
        supervisor may ask the judge something meanwhile). The gate's shared hold, if any, lasts
        from here to the end of `_receive_runner`."""
        if not self.runner_holds_gate:  # one runner command in flight at a time
            self.runner_holds_gate = self._take_gate()
        if self.freezer is not None:
            began = time.perf_counter()
            self.freezer.thaw()
            self._tally("freezer.thaw", (time.perf_counter() - began) * 1e3)
        try:
            self.runner.send(command, **fields)
        except PeerGone:
            pass  # the reply's read below says how it ended

    def _receive_runner(self, command: str) -> tuple[dict[str, Any], float]:
        try:
            return self._receive_runner_reply(command)
        finally:
            if self.runner_holds_gate:
                self.runner_holds_gate = False
                self.gate.release_shared()

    def _receive_runner_reply(self, command: str) -> tuple[dict[str, Any], float]:
        try:
            reply = self.runner.receive(self._left())
            self._tally(f"runner.{command}", reply.wall_ms)
        except PeerGone as gone:
            self.runner_alive = False
            if gone.why == "timeout":
                raise Stop("timeout", f"timed out in the {self._phase_label()} phase; the "
                           "candidate's process was killed") from None
            tail = self.runner.log_tail()
            raise Stop("crash", f"the candidate's process ended without a result ({gone.how})"
                       + (f"; last output:\n{tail}" if tail else "")) from None
        if reply.data.get("fatal"):
            self.runner_alive = False
        elif self.freezer is not None:
            # Stopped until its next command: nothing of the candidate's runs while the judge
            # reads its output or times the baseline.
            began = time.perf_counter()
            self.freezer.freeze()
            self._tally("freezer.freeze", (time.perf_counter() - began) * 1e3)
        return reply.data, reply.wall_ms

    def _tally(self, what: str, ms: float) -> None:
        entry = self.cost.setdefault(what, [0, 0.0])
        entry[0] += 1
        entry[1] += ms

    def cost_record(self) -> dict[str, Any]:
        """Where the evaluation's time went (the result's `eval_cost`), largest first."""
        ranked = sorted(self.cost.items(), key=lambda item: -item[1][1])
        return {"commands": {name: {"count": int(n), "ms": round(ms, 1)}
                             for name, (n, ms) in ranked},
                "wall_s": round(time.monotonic() - self.started, 3)}

    def _phase_label(self) -> str:
        split = self.split.get("split")
        return f"{split}:{self.phase}" if split and self.phase != "compile" else self.phase

    # -- running and timing alone ------------------------------------------------------
    def run(self) -> SessionOutcome:
        try:
            return self._run()
        finally:
            # A runner command whose reply was never read (the judge failed meanwhile) must
            # not keep the GPU's gate: the other evaluations' timed rounds wait on it.
            if self.runner_holds_gate:
                self.runner_holds_gate = False
                self.gate.release_shared()

    def _run(self) -> SessionOutcome:
        """The evaluation itself (session.py)."""
        raise NotImplementedError

    def _timed(self, measure: Callable[[], None]) -> None:
        """The timed rounds, alone on the GPU when evaluations share it (gate.py)."""
        if self.gate is None:
            measure()
            return
        with self.gate.timed() as waited:
            self._tally("gate.wait", waited * 1e3)
            self.total_deadline += waited  # another evaluation's timing is not this one's time
            measure()

    def _settle_others(self) -> None:
        """Whatever the caller starts beside this evaluation (the next one's workers) finishes
        starting before the first timed round, so that it never runs while this one times."""
        hook, self.before_timing = self.before_timing, None
        if hook is not None:
            began = time.perf_counter()
            hook()
            self._tally("standby.settle", (time.perf_counter() - began) * 1e3)
