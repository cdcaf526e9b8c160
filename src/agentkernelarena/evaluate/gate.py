"""Several evaluations on one GPU, and none of them running while another times.

An evaluation spends most of its wall time outside its timed rounds: starting its workers,
compiling, checking correctness. Those parts may share a GPU (their results do not depend on
the GPU being quiet); the timed rounds may not. `DeviceGate` is a readers-writer lock per GPU,
held by the supervising process: every command an evaluation sends a worker outside its timed
rounds holds it shared (from the command's sending to its reply), and the timed rounds hold it
exclusively. A timed round therefore starts only when no other evaluation on the GPU has a
command in flight, and while it waits no new command starts (writers first, so timing cannot
starve); the others' workers sit idle, their candidates' processes stopped (evaluate/witness.py's
freezer), until it ends.

What it does not stop: GPU work a candidate queued before its command returned keeps running
after its process is stopped. That cannot make the candidate's own figures better (its own
rounds are timed alone like everyone's), only another's noisier; the baselines' A/A under
sharing is the measure of it (docs/rl.md). Nor a candidate that hangs inside an untimed
command: it holds the gate until its deadline kills it, delaying the others' timed rounds
(tests/test_gate.py); their waits at the gate move their own deadlines.

The gate lives in the arena's process, never in a worker: a candidate cannot reach it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class DeviceGate:
    def __init__(self, name: str = "gpu") -> None:
        self.name = name
        self._cond = threading.Condition()
        self._shared = 0
        self._owner: int | None = None  # the thread holding it exclusively
        self._writers_waiting = 0
        self._mine = threading.local()

    def held_here(self) -> int:
        """This thread's shared holds (nested commands count each)."""
        return getattr(self._mine, "shared", 0)

    def timing_here(self) -> bool:
        return self._owner == threading.get_ident()

    def acquire_shared(self) -> float:
        """Take a shared hold; returns the seconds waited. Re-entrant: a thread that holds one
        already (a judge command while its runner's command is in flight) does not queue behind
        a waiting writer, which would wait for it in turn."""
        began = time.monotonic()
        with self._cond:
            if not self.held_here():
                while self._owner is not None or self._writers_waiting:
                    self._cond.wait()
            self._shared += 1
        self._mine.shared = self.held_here() + 1
        return time.monotonic() - began

    def release_shared(self) -> None:
        if not self.held_here():
            raise RuntimeError(f"gate {self.name}: released a shared hold it did not take")
        self._mine.shared = self.held_here() - 1
        with self._cond:
            self._shared -= 1
            self._cond.notify_all()

    @contextmanager
    def untimed(self) -> Iterator[float]:
        """Shared, for one untimed step; yields the seconds waited."""
        waited = self.acquire_shared()
        try:
            yield waited
        finally:
            self.release_shared()

    @contextmanager
    def timed(self) -> Iterator[float]:
        """Exclusive: this evaluation alone on the GPU. A caller holding shared holds gives them
        up while it waits and takes them back after. Yields the seconds waited."""
        mine = self.held_here()
        began = time.monotonic()
        with self._cond:
            self._shared -= mine
            self._writers_waiting += 1
            self._cond.notify_all()
            try:
                while self._owner is not None or self._shared:
                    self._cond.wait()
            finally:
                self._writers_waiting -= 1
            self._owner = threading.get_ident()
        try:
            yield time.monotonic() - began
        finally:
            with self._cond:
                self._owner = None
                self._shared += mine
                self._cond.notify_all()
