"""The evaluation pool: one evaluation per GPU at a time (DESIGN.md §10).

Timings are only trustworthy when nothing else runs on the GPU, so every evaluation of a run
(the agents' local checks and the final ones) borrows a slot from this pool for as long as it
runs. A GPU slot puts its device id into the worker's CUDA_VISIBLE_DEVICES and
HIP_VISIBLE_DEVICES, so the worker sees exactly one GPU and calls it device 0. On the CPU
platform a slot is just a permit: a few evaluations may run at once (their timings are not
comparable anyway), and more would only fight over the cores.

Agents are not slots: they work concurrently (up to the run's concurrency) and only queue here
when they evaluate.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions
from agentkernelarena.evaluate.gate import DeviceGate
from agentkernelarena.platforms import Platform
from agentkernelarena.tasks.spec import Task

Evaluator = Callable[..., dict[str, Any]]
VISIBILITY_VARS = ("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES")


@dataclass(frozen=True)
class Slot:
    index: int
    device: str | None = None  # the id for *_VISIBLE_DEVICES; None: a CPU permit

    @property
    def env(self) -> dict[str, str]:
        # Both names, same id: CUDA reads the first; HIP reads HIP_VISIBLE_DEVICES first and
        # treats CUDA_VISIBLE_DEVICES as its alias, so the two never disagree.
        return {var: self.device for var in VISIBILITY_VARS} if self.device is not None else {}

    @property
    def name(self) -> str:
        return f"gpu{self.device}" if self.device is not None else f"cpu-slot{self.index}"


def _torch_device_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def visible_device_ids(platform: Platform, count: int | None = None,
                       environ: dict[str, str] | None = None) -> list[str]:
    """The ids of the GPUs this process may use, as the worker's *_VISIBLE_DEVICES must name
    them. When the runner itself was started with a restricted visibility (e.g.
    CUDA_VISIBLE_DEVICES=2,3), its GPU i is entry i of that list, not physical GPU i."""
    if platform.name == "cpu":
        return []
    environ = os.environ if environ is None else environ
    count = _torch_device_count() if count is None else count
    names = ("HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES") if platform.name == "rocm" \
        else ("CUDA_VISIBLE_DEVICES",)
    for name in names:
        value = environ.get(name)
        if value is not None and value.strip():
            return [v.strip() for v in value.split(",") if v.strip()][:count]
    return [str(i) for i in range(count)]


def gpu_names(platform: Platform) -> list[str]:
    if platform.name == "cpu":
        return []
    try:
        import torch

        return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    except Exception:  # names are nice to have in the manifest, not worth failing a run
        return []


def default_cpu_slots() -> int:
    return max(1, min(4, (os.cpu_count() or 1) // 2))


def make_slots(platform: Platform, gpus: Sequence[int] | None = None,
               cpu_slots: int | None = None, device_ids: Sequence[str] | None = None
               ) -> list[Slot]:
    """The pool's slots: one per chosen GPU (`gpus` indexes the visible ones), or CPU permits.

    `device_ids` replaces detection (tests, and callers that already know the GPUs)."""
    if platform.name == "cpu":
        if gpus:
            raise AkaError("--gpus was given but the platform is cpu",
                           "leave out --gpus, or run on a GPU platform")
        return [Slot(i) for i in range(cpu_slots or default_cpu_slots())]
    ids = list(device_ids) if device_ids is not None else visible_device_ids(platform)
    if not ids:
        raise AkaError(f"platform {platform.name}: no GPU is visible to this process",
                       "check CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES, or use --platform cpu")
    chosen = list(gpus) if gpus else list(range(len(ids)))
    bad = [g for g in chosen if g >= len(ids)]
    if bad:
        raise AkaError(f"--gpus {','.join(map(str, bad))}: this machine shows {len(ids)} GPU(s) "
                       f"(0..{len(ids) - 1})")
    return [Slot(i, ids[g]) for i, g in enumerate(chosen)]


def shared_slots(platform: Platform, per_slot: int, gpus: Sequence[int] | None = None,
                 device_ids: Sequence[str] | None = None) -> list[Slot]:
    """`per_slot` slots on each chosen GPU (or that many CPU permits), for untimed work only
    (gates-only evaluations that fill build caches): sharing a GPU there disturbs nothing."""
    if platform.name == "cpu":
        return make_slots(platform, cpu_slots=per_slot)
    slots = make_slots(platform, gpus, device_ids=device_ids) * max(1, per_slot)
    return [Slot(index, slot.device) for index, slot in enumerate(slots)]


def lane_slots(platform: Platform, lanes: int, gpus: Sequence[int] | None = None,
               cpu_slots: int | None = None, device_ids: Sequence[str] | None = None
               ) -> tuple[list[Slot], dict[str, DeviceGate]]:
    """`lanes` slots on each chosen GPU and a gate per GPU (evaluate/gate.py): evaluations on
    one GPU share it outside their timed rounds and time alone. One lane: today's slots and
    no gate. On the CPU platform lanes change nothing (its timings are not comparable)."""
    if lanes <= 1 or platform.name == "cpu":
        return make_slots(platform, gpus, cpu_slots=cpu_slots, device_ids=device_ids), {}
    laned = shared_slots(platform, lanes, gpus, device_ids=device_ids)
    return laned, {slot.device: DeviceGate(f"gpu{slot.device}") for slot in laned
                   if slot.device is not None}


class DevicePool:
    """Hands out slots first come, first served; `wrap(evaluate)` holds one per evaluation.
    `gates`: per GPU id, when several slots share a GPU (lane_slots)."""

    def __init__(self, slots: Sequence[Slot], gates: dict[str, DeviceGate] | None = None
                 ) -> None:
        if not slots:
            raise ValueError("a pool needs at least one slot")
        self.gates = dict(gates or {})
        self.slots = list(slots)
        self._free: queue.Queue[Slot] = queue.Queue()
        for slot in self.slots:
            self._free.put(slot)
        self._lock = threading.Lock()
        self.busy_s = {slot.name: 0.0 for slot in self.slots}
        self.evaluations = 0
        self.wait_s = 0.0
        self.max_in_use = 0
        self._in_use = 0

    @property
    def size(self) -> int:
        return len(self.slots)

    @contextmanager
    def acquire(self) -> Iterator[tuple[Slot, float]]:
        asked = time.monotonic()
        slot = self._free.get()
        got = time.monotonic()
        with self._lock:
            self._in_use += 1
            self.max_in_use = max(self.max_in_use, self._in_use)
            self.wait_s += got - asked
        try:
            yield slot, got - asked
        finally:
            with self._lock:
                self._in_use -= 1
                self.busy_s[slot.name] += time.monotonic() - got
                self.evaluations += 1
            self._free.put(slot)

    def wrap(self, evaluator: Evaluator) -> Evaluator:
        """An evaluator with `evaluator`'s signature that runs it on a slot of this pool."""

        def evaluate_on_slot(task: Task, solution_dir: Path,
                             options: EvalOptions | None = None) -> dict[str, Any]:
            options = options or EvalOptions()
            with self.acquire() as (slot, waited):
                env = {**(options.env or {}), **slot.env}
                gate = self.gates.get(slot.device) if slot.device is not None else None
                extra = {"gate": gate} if gate is not None else {}
                result = evaluator(task, solution_dir,
                                   dataclasses.replace(options, env=env or None), **extra)
            result["scheduler"] = {"slot": slot.name, "visible_devices": slot.device,
                                   "waited_s": round(waited, 3)}
            return result

        return evaluate_on_slot

    def stats(self) -> dict[str, Any]:
        return {"slots": [s.name for s in self.slots], "lanes_share_gpus": bool(self.gates),
                "evaluations": self.evaluations,
                "max_in_use": self.max_in_use, "wait_s": round(self.wait_s, 3),
                "busy_s": {k: round(v, 3) for k, v in self.busy_s.items()}}
