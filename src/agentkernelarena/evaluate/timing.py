"""Interleaved timing of baseline and candidate in one process.

Why this shape (DESIGN.md §5, measured on an H200): per-call device events with a cache flush
before each call, baseline and candidate alternating call by call (ABBA order, so neither always
runs second), median over rounds. The same kernel timed against itself this way stays within
0.3-0.4%; back-to-back blocks of repeats drift by several percent.

Each timed call gets its inputs refilled in place from a pool of different contents, so a
candidate that caches results by pointer, shape or call count returns stale values, and every
candidate output of a timed call is verified after its round.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

# Bound at import, before any candidate code runs in this process.
_perf_counter = time.perf_counter


@dataclass
class TimingOptions:
    min_rounds: int = 20
    max_rounds: int = 400
    budget_s: float = 3.0
    # Stop once the standard error of the median per-round ratio is this small (relative).
    target_rse: float = 0.002
    warmup: int = 3
    full_check_every: int = 16


@dataclass
class TimingResult:
    baseline_ms: float
    candidate_ms: float
    speedup: float
    rounds: int
    rse: float
    baseline_samples_ms: list[float]
    candidate_samples_ms: list[float]


def relative_standard_error(ratios: Sequence[float]) -> float:
    """Standard error of the median of `ratios`, relative to it (MAD-based, robust)."""
    if len(ratios) < 3:
        return math.inf
    med = statistics.median(ratios)
    mad = statistics.median(abs(r - med) for r in ratios)
    sigma = 1.4826 * mad
    return 1.2533 * sigma / math.sqrt(len(ratios)) / abs(med) if med else math.inf


def _sleep_cycles_per_ms() -> float:
    """How many `torch.cuda._sleep` cycles make a millisecond on this GPU, measured."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(1_000_000)  # warm
    start.record()
    torch.cuda._sleep(2_000_000)
    end.record()
    torch.cuda.synchronize()
    return 2_000_000 / max(start.elapsed_time(end), 1e-3)


class _Clock:
    """Device events on a GPU, the host clock on the CPU.

    On a GPU, before each timed call: an L2 flush, then a device-side wait (`pad`) long enough
    for the host to enqueue the whole call before the start event fires. The events then see
    device time only, never Python's launch overhead or host jitter, for baseline and
    candidate alike (multi-kernel versions would otherwise pay for the host gaps between their
    launches, and the noise of the host).
    """

    def __init__(self, device: str) -> None:
        self.device = device
        self.flush_buffer: torch.Tensor | None = None
        self.pad_cycles = 0
        if device == "cuda":
            l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 64 << 20)
            # Twice the last-level cache, so the whole of it is overwritten before each call.
            self.flush_buffer = torch.empty(max(2 * l2, 64 << 20), dtype=torch.uint8,
                                            device="cuda")
            self.cycles_per_ms = _sleep_cycles_per_ms()

    def set_pad(self, host_ms: float) -> None:
        """Wait on the device for three times the host's time to enqueue a call (0.05-20 ms)."""
        if self.device == "cuda":
            pad_ms = min(20.0, max(0.05, 3.0 * host_ms))
            self.pad_cycles = int(pad_ms * self.cycles_per_ms)

    def time_call(self, fn: Callable[[], Any]) -> tuple[Any, Callable[[], float]]:
        """Run `fn` once, timed; return its output and a function giving milliseconds."""
        if self.device == "cuda":
            assert self.flush_buffer is not None
            self.flush_buffer.zero_()
            if self.pad_cycles:
                torch.cuda._sleep(self.pad_cycles)
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            out = fn()
            end.record()
            return out, lambda: start.elapsed_time(end)
        begin = _perf_counter()
        out = fn()
        elapsed = (_perf_counter() - begin) * 1e3
        return out, lambda: elapsed

    def synchronize(self) -> None:
        if self.device == "cuda":
            torch.cuda.synchronize()


def time_interleaved(
    baseline: Callable[..., Any],
    candidate: Callable[..., Any],
    work_args: tuple[Any, ...],
    refill: Callable[[int], None],
    pool_size: int,
    verify: Callable[[Any, int, bool], None],
    device: str,
    options: TimingOptions,
) -> TimingResult:
    """Time `baseline(*work_args)` against `candidate(*work_args)`.

    `refill(k)` writes input content k of the pool into `work_args` (same tensors, new values);
    `verify(out, k, full)` raises if a candidate output is wrong for content k; `full` asks for
    every element (first round and every `full_check_every`-th), otherwise a random sample.
    """
    clock = _Clock(device)
    host_ms = 0.0
    for i in range(options.warmup):
        for fn in (baseline, candidate):
            refill(i % pool_size)
            clock.synchronize()
            began = _perf_counter()
            fn(*work_args)
            host_ms = max(host_ms, (_perf_counter() - began) * 1e3) if i else host_ms
            clock.synchronize()
    # The host time of a call, once compiled and warm (the first round is excluded above).
    clock.set_pad(host_ms)

    base_ms: list[float] = []
    cand_ms: list[float] = []
    ratios: list[float] = []
    started = _perf_counter()
    rounds = 0
    while rounds < options.max_rounds:
        k = rounds % pool_size
        order = ("b", "c") if rounds % 2 == 0 else ("c", "b")
        readers: dict[str, Callable[[], float]] = {}
        cand_out: Any = None
        for which in order:
            refill(k)
            fn = baseline if which == "b" else candidate
            out, readers[which] = clock.time_call(lambda fn=fn: fn(*work_args))
            if which == "c":
                cand_out = out
        clock.synchronize()
        verify(cand_out, k, rounds % options.full_check_every == 0)
        b, c = readers["b"](), readers["c"]()
        base_ms.append(b)
        cand_ms.append(c)
        ratios.append(b / c if c > 0 else math.inf)
        rounds += 1
        if rounds >= options.min_rounds:
            if relative_standard_error(ratios) <= options.target_rse:
                break
            if _perf_counter() - started > options.budget_s:
                break

    b_med, c_med = statistics.median(base_ms), statistics.median(cand_ms)
    return TimingResult(
        baseline_ms=b_med,
        candidate_ms=c_med,
        speedup=b_med / c_med if c_med > 0 else math.inf,
        rounds=rounds,
        rse=relative_standard_error(ratios),
        baseline_samples_ms=base_ms,
        candidate_samples_ms=cand_ms,
    )
