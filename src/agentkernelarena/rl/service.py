"""Many candidates evaluated at once across the GPUs, results handed back in submission order.

- Timing stays trustworthy: each GPU (runner/gpus.py's slots) serves `lanes` evaluations at
  once, and its gate (evaluate/gate.py) lets them share it only outside their timed rounds: a
  timed round runs alone on its GPU. With one lane, the lane instead starts its next
  evaluation's workers while the current one compiles and checks, never while it times
  (evaluate/standby.py). Each candidate gets a fresh sandboxed process of its own either way.
- Back-pressure: at most `max_pending` submissions wait; `submit` blocks beyond that, so a
  trainer producing faster than the GPUs evaluate slows down instead of filling memory.
- Per-candidate time limit (`EvalOptions.time_limit_s`): past it the candidate is killed and
  its record says `timeout`; the thread goes on with the next one.
- A submission the arena cannot evaluate (its own failure) comes back as a record with verdict
  `error` and the message, not as an exception that would lose the rest of a batch.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions
from agentkernelarena.evaluate.gate import DeviceGate
from agentkernelarena.evaluate.standby import WarmStart
from agentkernelarena.platforms import get_platform
from agentkernelarena.rl.api import check_files, evaluate_files, training_options
from agentkernelarena.rl.record import EvalRecord
from agentkernelarena.runner.gpus import Slot, make_slots
from agentkernelarena.tasks.spec import Task


@dataclass
class _Job:
    task: Task
    files: Mapping[str, str]
    future: Future[EvalRecord]


_STOP = object()


class EvaluationService:
    """`with EvaluationService(platform="cuda") as service: records = service.evaluate_batch(
    [(task, files), ...])`.

    `gpus`: indexes of the visible GPUs to use (all by default); on the CPU platform,
    `cpu_slots` evaluations at once. `lanes`: evaluations in flight per GPU (default 3 on a
    GPU, 1 on the CPU), of which one at a time times. `warm_start` (one lane only): start each
    evaluation's workers during the one before it (off: every evaluation starts its own, as
    `aka eval` does).
    """

    def __init__(self, options: EvalOptions | None = None, *, gpus: Sequence[int] | None = None,
                 cpu_slots: int | None = None, max_pending: int = 64,
                 lanes: int | None = None, warm_start: bool = True) -> None:
        self.options = options or training_options()
        platform = get_platform(self.options.platform)
        self.options = dataclasses.replace(self.options, platform=platform.name)
        self.slots = make_slots(platform, gpus, cpu_slots=cpu_slots)
        self.lanes = lanes if lanes is not None else (1 if platform.name == "cpu" else 3)
        if self.lanes < 1:
            raise AkaError(f"lanes must be at least 1, not {self.lanes}",
                           "pass lanes=1 for one evaluation per GPU at a time")
        # Lanes overlap one evaluation's start-up with another's work already; a standby pair
        # would start outside any gate, so the two are not combined.
        self.warm_start = warm_start and self.lanes == 1
        self.gates = {slot.name: DeviceGate(slot.name) for slot in self.slots} \
            if self.lanes > 1 else {}
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=max(1, max_pending))
        self._closed = False
        self.evaluated = 0
        self._count_lock = threading.Lock()
        self._threads = [threading.Thread(target=self._serve, args=(slot,), daemon=True,
                                          name=f"aka-eval-{slot.name}-{lane}")
                         for slot in self.slots for lane in range(self.lanes)]
        for thread in self._threads:
            thread.start()

    # -- submitting ----------------------------------------------------------------------
    def submit(self, task: Task, files: Mapping[str, str]) -> Future[EvalRecord]:
        """Queue one candidate; blocks while `max_pending` others wait. Bad files (not the
        task's editable ones) raise here, at once."""
        if self._closed:
            raise AkaError("the evaluation service is closed", "make a new EvaluationService")
        check_files(task, files)
        future: Future[EvalRecord] = Future()
        self._queue.put(_Job(task, dict(files), future))
        return future

    def evaluate_batch(self, batch: Iterable[tuple[Task, Mapping[str, str]]]
                       ) -> list[EvalRecord]:
        """Every candidate of `batch`, evaluated across the GPUs; records in `batch`'s order."""
        futures = [self.submit(task, files) for task, files in batch]
        return [future.result() for future in futures]

    # -- the GPU threads -----------------------------------------------------------------
    def _next_task(self) -> Task | None:
        """The task of the job at the queue's head: the one this thread likely takes next."""
        with self._queue.mutex:
            head = self._queue.queue[0] if self._queue.queue else None
        return head.task if isinstance(head, _Job) else None

    def _serve(self, slot: Slot) -> None:
        options = dataclasses.replace(self.options, env={**(self.options.env or {}),
                                                         **slot.env} or None)
        with WarmStart() as warm:
            while True:
                job = self._queue.get()
                if job is _STOP:
                    return
                if not job.future.set_running_or_notify_cancel():
                    continue
                following = self._next_task() if self.warm_start else None
                try:
                    record = evaluate_files(job.task, job.files, options,
                                            warm=warm if self.warm_start else None,
                                            next_task=following,
                                            gate=self.gates.get(slot.name))
                except Exception as exc:  # the arena's failure: reported, the batch goes on
                    record = EvalRecord.failure(job.task.id, f"{type(exc).__name__}: {exc}")
                with self._count_lock:
                    self.evaluated += 1
                job.future.set_result(record)

    def close(self) -> None:
        """Finish what was submitted, then stop the threads and their standby workers."""
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._queue.put(_STOP)
        for thread in self._threads:
            thread.join()

    def __enter__(self) -> EvaluationService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
