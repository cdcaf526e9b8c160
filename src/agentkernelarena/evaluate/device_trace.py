"""The device's own record of a worker's timed rounds: CUPTI, through torch.profiler.

Both workers trace their timed rounds of a configuration the same way (so that whatever the
tracing costs, each side pays it), from the end of the warm-up to the end of the last round,
and write the kernels the device ran to a file the supervisor reads (`trace_rules.py` judges
it). The clock (timing.py) brackets each timed call with two harness kernels, the pad before
the start event and a short marker after the end event, so that the supervisor can find every
call's window in the trace.

In the candidate's process this runs beside the candidate, which could stop it or rewrite what
it writes: a trace that lacks the markers rejects the trial, and a forged one can at most hide
what the other witnesses (the supervisor's clock, the judge's comparisons) still see.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import torch

# Kernels kept per configuration (a few per round; far more means something floods it).
MAX_KERNELS = 200_000
MAX_NAME = 200


class DeviceTrace:
    def __init__(self, device: str) -> None:
        self.device = device
        self.profiler: Any = None
        self.error: str | None = None

    def start(self) -> None:
        if self.device != "cuda" or self.profiler is not None:
            return
        try:
            from torch.profiler import ProfilerActivity, profile

            self.profiler = profile(activities=[ProfilerActivity.CUDA])
            self.profiler.start()
        except Exception as exc:  # no CUPTI here: the supervisor is told, and decides
            self.profiler, self.error = None, f"{type(exc).__name__}: {exc}"[:300]

    @staticmethod
    def prime(device: str) -> str | None:
        """One empty session, so that CUPTI's start-up (about 3.5 s on an H200, paid by a
        process's first session only) falls in the worker's start-up, where the judge's and
        the runner's overlap, instead of in each one's first timed configuration, one after
        the other. The error, if tracing cannot start here (the session's traces then say so)."""
        trace = DeviceTrace(device)
        trace.start()
        if trace.profiler is None:
            return trace.error
        try:
            trace.profiler.stop()
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"[:300]
        return None

    def stop(self, path: Path) -> dict[str, Any]:
        """Stop tracing and write what the device ran: {"names": [...], "kernels":
        [[name index, stream, start ns, end ns], ...]} in device order."""
        if self.profiler is None:
            return {"ok": True, "traced": False, "error": self.error or "not started"}
        profiler, self.profiler = self.profiler, None
        try:
            profiler.stop()
            events = profiler.profiler.kineto_results.events()
        except Exception as exc:
            return {"ok": True, "traced": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        names: dict[str, int] = {}
        rows: list[list[int]] = []
        for event in events:
            if event.device_type() != torch.autograd.DeviceType.CUDA:
                continue
            name = event.name()[:MAX_NAME]
            index = names.setdefault(name, len(names))
            rows.append([index, int(event.device_resource_id()), int(event.start_ns()),
                         int(event.end_ns())])
            if len(rows) >= MAX_KERNELS:
                break
        rows.sort(key=lambda row: row[2])
        payload = {"names": list(names), "kernels": rows, "truncated": len(rows) >= MAX_KERNELS}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(payload))
        os.replace(tmp, path)
        return {"ok": True, "traced": True}
