"""Timing one call on the device: the clock each worker process uses for its own calls.

Why this shape (DESIGN.md §5, measured on an H200): per-call device events with a cache flush
before each call, baseline and candidate alternating call by call (ABBA order, so neither always
runs second; the supervisor orders the rounds across the two processes), median over rounds.
The same kernel timed against itself this way stays within 0.3-0.4%.

The candidate's process runs this clock too and could lie about what it read; the supervisor
therefore holds each reading against its own clock (`witness.py`).
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
# The end mark's length: a microsecond or less.
MARK_CYCLES = 200


@dataclass
class TimingOptions:
    min_rounds: int = 20
    max_rounds: int = 400
    budget_s: float = 3.0
    # Stop once the standard error of the median per-round ratio is this small (relative).
    target_rse: float = 0.002
    warmup: int = 3
    full_check_every: int = 16


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


def pad_ms_for(host_ms: float, device: str) -> float:
    """Three times the host's time to enqueue a call, 0.05-20 ms (no pad on the CPU)."""
    return min(20.0, max(0.05, 3.0 * host_ms)) if device == "cuda" else 0.0


class Clock:
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

    def set_pad_ms(self, pad_ms: float) -> None:
        """The pad the supervisor chose for both processes (the same wait on each side)."""
        if self.device == "cuda":
            self.pad_cycles = int(min(20.0, max(0.0, pad_ms)) * self.cycles_per_ms)

    def time_call(self, fn: Callable[[], Any]) -> tuple[Any, Callable[[], tuple[float, float]]]:
        """Run `fn` once, timed; return its output and a function giving (milliseconds of the
        call, milliseconds the pad took). A pad that took much longer than asked means the GPU
        was busy with another process's work when this call was queued."""
        if self.device == "cuda":
            assert self.flush_buffer is not None
            self.flush_buffer.zero_()
            probe = torch.cuda.Event(enable_timing=True)
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            probe.record()
            if self.pad_cycles:
                torch.cuda._sleep(self.pad_cycles)
            start.record()
            out = fn()
            end.record()
            # The end mark of the device trace (device_trace.py): the pad opens the call's
            # window, this closes it.
            torch.cuda._sleep(MARK_CYCLES)
            return out, lambda: (start.elapsed_time(end), probe.elapsed_time(start))
        begin = _perf_counter()
        out = fn()
        elapsed = (_perf_counter() - begin) * 1e3
        return out, lambda: (elapsed, 0.0)

    def synchronize(self) -> None:
        if self.device == "cuda":
            torch.cuda.synchronize()
