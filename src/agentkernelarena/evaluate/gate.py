"""Several evaluations on one GPU, and none of them running while another times.

An evaluation spends most of its wall time outside its timed rounds: starting its workers,
compiling, checking correctness. Those parts may share a GPU (their results do not depend on
the GPU being quiet); the timed rounds may not. `DeviceGate` is a readers-writer lock per GPU:
every evaluation holds it shared from its start to its end, and trades that for an exclusive
hold around its timed rounds. The exclusive hold waits until every other evaluation on the GPU
has left its untimed part or reached its own timed rounds, and while it waits no evaluation
starts a new untimed part (writers first, so timing cannot starve).

The gate lives in the supervising process (the arena's), never in a worker: a candidate cannot
reach it, and the worst a candidate can do is hold its own evaluation in an untimed part until
its time limit kills it, which delays the others' timing but does not perturb it.
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
        self._exclusive = False
        self._writers_waiting = 0
        self._mine = threading.local()
        self.timed_wait_s = 0.0  # all evaluations' waits for an exclusive hold, summed

    def _held_here(self) -> int:
        return getattr(self._mine, "shared", 0)

    @contextmanager
    def untimed(self) -> Iterator[None]:
        """Shared: any number of evaluations' untimed parts at once, none during a timed one."""
        with self._cond:
            while self._exclusive or self._writers_waiting:
                self._cond.wait()
            self._shared += 1
        self._mine.shared = self._held_here() + 1
        try:
            yield
        finally:
            self._mine.shared = self._held_here() - 1
            with self._cond:
                self._shared -= 1
                self._cond.notify_all()

    @contextmanager
    def timed(self) -> Iterator[float]:
        """Exclusive: this evaluation alone on the GPU. A caller inside `untimed()` gives its
        own shared hold up while it waits and takes it back after. Yields the seconds waited."""
        mine = self._held_here()
        began = time.monotonic()
        with self._cond:
            self._shared -= mine
            self._writers_waiting += 1
            self._cond.notify_all()
            try:
                while self._exclusive or self._shared:
                    self._cond.wait()
            finally:
                self._writers_waiting -= 1
            self._exclusive = True
        waited = time.monotonic() - began
        self.timed_wait_s += waited
        try:
            yield waited
        finally:
            with self._cond:
                self._exclusive = False
                # Back to the caller's shared hold at once: it goes on with untimed work (the
                # held-out split's checks) without queueing behind the next writer.
                self._shared += mine
                self._cond.notify_all()
