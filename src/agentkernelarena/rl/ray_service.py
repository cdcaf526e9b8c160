"""The evaluation service across a Ray cluster: one actor per GPU, each a local service.

Why actors and not a Ray task per candidate: a task per candidate would pay a process's start
and a GPU hand-over for each one and could not share a GPU between one candidate's untimed
parts and another's. An actor holds its GPU (`num_gpus=1`; Ray sets the visible devices, so
the actor sees one GPU) for the service's life and runs the local `EvaluationService` on it:
the same lanes, the same gate (a timed round alone on its GPU), the same fresh sandboxed
workers per candidate. The driver only routes: each candidate goes to the actor with the fewest
in flight, at most `max_pending` are in flight in all (`submit` blocks beyond that), and the
records come back in submission order.

Nothing assumes a shared file system: the candidate's files travel as text, the task as its
parsed definition (the nodes need the arena and the task folders at the same paths, as for
`--executor ray`). Ray is an optional dependency (`pip install agentkernelarena[ray]`).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Mapping
from concurrent.futures import Future
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions
from agentkernelarena.platforms import get_platform
from agentkernelarena.rl.api import check_files, training_options
from agentkernelarena.rl.record import EvalRecord
from agentkernelarena.rl.service import EvaluationService
from agentkernelarena.tasks.spec import Task


class GpuActor:
    """Runs inside a Ray actor: the local service on the actor's GPU (or one CPU slot)."""

    def __init__(self, options: EvalOptions, lanes: int | None) -> None:
        cpu = get_platform(options.platform).name == "cpu"
        self.service = EvaluationService(options, cpu_slots=1 if cpu else None, lanes=lanes)

    def evaluate(self, task: Task, files: dict[str, str]) -> EvalRecord:
        return self.service.submit(task, files).result()

    def where(self) -> dict[str, Any]:
        import os

        import ray

        return {"node": ray.util.get_node_ip_address(), "pid": os.getpid(),
                "gpu_ids": [str(g) for g in ray.get_gpu_ids()],
                "slots": [slot.name for slot in self.service.slots]}

    def close(self) -> None:
        self.service.close()


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise AkaError("the Ray evaluation service needs Ray",
                       "pip install 'agentkernelarena[ray]'") from None
    if not ray.is_initialized():
        raise AkaError("Ray is not initialized",
                       "call ray.init() (or ray.init(address=...)) before starting the service")
    return ray


class RayEvaluationService:
    """`with RayEvaluationService(EvalOptions(platform="cuda")) as service:
    records = service.evaluate_batch([(task, files), ...])`.

    `actors`: how many (default: one per GPU of the cluster; one on the CPU platform).
    `lanes`: evaluations in flight per actor's GPU (see EvaluationService).
    """

    def __init__(self, options: EvalOptions | None = None, *, actors: int | None = None,
                 lanes: int | None = None, max_pending: int = 64) -> None:
        ray = _ray()
        options = options or training_options()
        platform = get_platform(options.platform)
        self.options = dataclasses.replace(options, platform=platform.name)
        cpu = platform.name == "cpu"
        if actors is None:
            actors = 1 if cpu else int(ray.cluster_resources().get("GPU", 0))
        if actors < 1:
            raise AkaError("the Ray cluster has no GPU to evaluate on",
                           "start Ray on GPU nodes, or pass platform='cpu'")
        lanes_each = lanes if lanes is not None else (1 if cpu else 3)
        remote = ray.remote(GpuActor).options(
            num_gpus=0 if cpu else 1, num_cpus=1, max_concurrency=max(1, lanes_each),
            max_restarts=0)
        self.actors = [remote.remote(self.options, lanes_each) for _ in range(actors)]
        self.max_pending = max(1, max_pending)
        self._in_flight: list[tuple[int, Any]] = []  # (actor index, ObjectRef)
        self._closed = False
        self.evaluated = 0
        self._count_lock = threading.Lock()

    def _prune(self, wait: bool) -> None:
        ray = _ray()
        refs = [ref for _, ref in self._in_flight]
        if not refs:
            return
        ready, _ = ray.wait(refs, num_returns=1 if wait else len(refs),
                            timeout=None if wait else 0)
        done = set(ready)
        self._in_flight = [(i, ref) for i, ref in self._in_flight if ref not in done]

    def submit(self, task: Task, files: Mapping[str, str]) -> Future[EvalRecord]:
        """Send one candidate to the least busy actor; blocks while `max_pending` are in flight.
        Bad files raise here, at once; an actor that dies gives its candidates `error` records."""
        if self._closed:
            raise AkaError("the evaluation service is closed", "make a new RayEvaluationService")
        check_files(task, files)
        self._prune(wait=False)
        while len(self._in_flight) >= self.max_pending:
            self._prune(wait=True)
        busy = [0] * len(self.actors)
        for index, _ in self._in_flight:
            busy[index] += 1
        index = min(range(len(self.actors)), key=busy.__getitem__)
        ref = self.actors[index].evaluate.remote(task, dict(files))
        self._in_flight.append((index, ref))
        future: Future[EvalRecord] = Future()
        future.set_running_or_notify_cancel()
        ref.future().add_done_callback(lambda done: self._deliver(task, done, future))
        return future

    def _deliver(self, task: Task, done: Future[Any], future: Future[EvalRecord]) -> None:
        error = done.exception()
        record = done.result() if error is None else EvalRecord.failure(
            task.id, f"the Ray actor failed: {type(error).__name__}: {error}"[:2000])
        with self._count_lock:
            self.evaluated += 1
        future.set_result(record)

    def evaluate_batch(self, batch: Iterable[tuple[Task, Mapping[str, str]]]
                       ) -> list[EvalRecord]:
        futures = [self.submit(task, files) for task, files in batch]
        return [future.result() for future in futures]

    def where(self) -> list[dict[str, Any]]:
        """Each actor's node, process, GPU ids and slots (to check the placement)."""
        ray = _ray()
        return ray.get([actor.where.remote() for actor in self.actors])

    def close(self) -> None:
        """Finish what was submitted, then end the actors."""
        if self._closed:
            return
        self._closed = True
        ray = _ray()
        while self._in_flight:
            self._prune(wait=True)
        for actor in self.actors:
            try:
                ray.get(actor.close.remote())
            except Exception:  # already dead: nothing to close
                pass
            ray.kill(actor)

    def __enter__(self) -> RayEvaluationService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
