"""What the supervisor sees for itself while the two processes time their calls.

The candidate's process reports how long each of its calls took, and it could report anything.
The supervisor holds each report against its own clock: the wall time of the command that made
the call (flush, pad, the call, a device sync, the replies). Beside the call itself that command
costs the same in both processes, so its overhead, median over rounds, must be the same for the
candidate as for the baseline, which the judge timed the same way. Work hidden after the end
event (a side stream joined late, a thread finishing the result) and readings made up outright
both show as candidate overhead the baseline does not have. Handing the output over is a
command of its own (a copy into the judge's file, a cost that grows with the output and varies
with the machine): its wall time is held against the judge handing over the same output the
same way, with a wider margin, so that a lazy output computed only when copied out shows too.

The judge's own pad tells when the GPU was not free for the baseline: a device wait that took
far longer than asked means another process's kernels held the GPU (work the candidate left
queued to slow the baseline down).

`Freezer` stops every process of the candidate's sandbox while the judge times the baseline.
"""

from __future__ import annotations

import os
import signal
import statistics
import time
from typing import Any

# Candidate overhead allowed beyond the baseline's, per call: absolute plus a share of the
# baseline's time, plus four standard errors of the paired per-round difference (a loaded host
# makes both sides noisy; the rounds are adjacent in time, so pairing removes most of it).
# Measured on an H200: with the device trace on in both processes, the candidate's process
# pays up to ~0.14 ms per command more than the judge for the same code (A/A of column_sum:
# -0.00 to +0.12 ms; benchmarks/results/h200-2026-12-02/), its sandbox, its freeze and thaw
# around the judge's commands and its audit being the difference. The absolute allowance
# covers that; what it leaves a cheat is host work of at most that much per call (device work
# moved out of the call is the device trace's to see, to the microsecond). On the CPU (the
# interpreter) readings are noisier and not comparable anyway.
TOLERANCE = {"cuda": (0.25, 0.02), "cpu": (2.0, 0.05)}
SPREAD_FACTOR = 4.0
# Handing over an output: the candidate's may take this many times the judge's, plus (ms),
# plus four standard errors of the paired differences.
DELIVER_TOLERANCE = {"cuda": (1.5, 0.5), "cpu": (1.5, 1.0)}
# A baseline round whose pad took longer than this (x the pad asked for, plus 0.1 ms) ran on a
# GPU that was busy with something else.
BUSY_FACTOR = 1.5


def witness_problems(rounds: list[dict[str, float]], pad_ms: float, device: str,
                     config: str) -> tuple[list[str], dict[str, Any]]:
    """Problems (each a reason to reject) and the figures behind them, for the record."""
    # What the candidate's process said it measured (on the CPU the session's own estimate
    # replaces it for the timing; the reading is judged here all the same).
    said = [r.get("c_reported", r["c_ms"]) for r in rounds]
    cand = statistics.median(r["c_wall"] - c for r, c in zip(rounds, said, strict=True))
    base = statistics.median(r["b_wall"] - r["b_ms"] for r in rounds)
    paired = [(r["c_wall"] - c) - (r["b_wall"] - r["b_ms"])
              for r, c in zip(rounds, said, strict=True)]
    excess = statistics.median(paired)
    absolute, share = TOLERANCE.get(device, TOLERANCE["cuda"])
    tolerance = absolute + share * statistics.median(r["b_ms"] for r in rounds) \
        + SPREAD_FACTOR * _median_error(paired)
    busy = sum(1 for r in rounds if pad_ms > 0 and r["b_pad"] > BUSY_FACTOR * pad_ms + 0.1)
    # Handing over as a command of its own (a GPU: drawn rounds); on the CPU it is part of the
    # timed command, so the candidate's own clock above covers it.
    both = [r["c_deliver"] - r["b_deliver"] for r in rounds
            if "c_deliver" in r and "b_deliver" in r]
    cand_deliver = statistics.median(r["c_deliver"] for r in rounds if "c_deliver" in r) \
        if both else 0.0
    base_deliver = statistics.median(r["b_deliver"] for r in rounds if "b_deliver" in r) \
        if both else 0.0
    factor, extra = DELIVER_TOLERANCE.get(device, DELIVER_TOLERANCE["cuda"])
    deliver_excess = statistics.median(both) if both else 0.0
    deliver_bound = (factor - 1) * base_deliver + extra + SPREAD_FACTOR * _median_error(both)
    fields = {"witness": {"candidate_overhead_ms": round(cand, 4),
                          "baseline_overhead_ms": round(base, 4),
                          "tolerance_ms": round(tolerance, 4), "busy_rounds": busy,
                          "candidate_deliver_ms": round(cand_deliver, 4),
                          "baseline_deliver_ms": round(base_deliver, 4)}}
    problems: list[str] = []
    # On the CPU the session times the candidate by its own clock (session._own_clock), so a
    # reading that disagrees gains nothing there, and a loaded host would make this rule cry
    # wolf: it rejects on a GPU only.
    if excess > tolerance and device == "cuda":
        problems.append(
            f"config {config}: the candidate's timings are not what the supervisor's clock "
            f"saw: each timed command took {cand:.3f} ms beyond the time it reported, against "
            f"{base:.3f} ms for the baseline (tolerance {tolerance:.3f} ms): work done outside "
            "the timed window, or made-up readings")
    if deliver_excess > deliver_bound:
        problems.append(
            f"config {config}: handing over its output took {cand_deliver:.3f} ms by the "
            f"supervisor's clock, against {base_deliver:.3f} ms for the baseline's (at most "
            f"{deliver_bound:.3f} ms more): work done after the timed call, when its output "
            "was copied out")
    if busy > max(2, len(rounds) // 10):
        problems.append(
            f"config {config}: the GPU was busy with other work while the baseline was timed "
            f"({busy} of {len(rounds)} rounds): the candidate left work running after its "
            "calls returned")
    return problems, fields


def _median_error(values: list[float]) -> float:
    """Standard error of the median (MAD-based, robust to the odd slow round)."""
    if len(values) < 3:
        return 0.0
    middle = statistics.median(values)
    mad = statistics.median(abs(v - middle) for v in values)
    return 1.2533 * 1.4826 * mad / len(values) ** 0.5


def _state(pid: int) -> str:
    """The process's state letter from /proc (T: stopped), or "" when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


class Freezer:
    """SIGSTOP / SIGCONT for a process and everything below it (a sandbox's pid namespace has
    all its processes below its first one, daemons included: orphans are re-parented to the
    namespace's init)."""

    def __init__(self, root_pid: int) -> None:
        self.root_pid = root_pid
        self._stopped: list[int] = []

    def _tree(self) -> list[int]:
        found, todo = [], [self.root_pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            try:
                for tid in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{tid}/children") as handle:
                        todo += [int(p) for p in handle.read().split()]
            except OSError:
                continue
        return found

    def freeze(self) -> None:
        # The root (bwrap, or the runner itself unsandboxed) is stopped too: a process that
        # only sleeps in wait() costs nothing, and nothing then escapes between two scans.
        # Twice: a process forked between the scan and its parent's stop is found the
        # second time, when nothing can fork any more.
        self._stopped = []
        for _ in range(2):
            for pid in self._tree():
                if pid in self._stopped:
                    continue
                try:
                    os.kill(pid, signal.SIGSTOP)
                    self._stopped.append(pid)
                except (ProcessLookupError, PermissionError):
                    pass

    def thaw(self) -> None:
        """Continue them, and return once none is still stopped: on a loaded host a continued
        process can wait for a CPU, and that wait must not count as the candidate's time on
        the supervisor's clock (the judge, never stopped, does not pay it)."""
        for pid in self._stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + 0.2
        while self._stopped and time.monotonic() < deadline:
            self._stopped = [pid for pid in self._stopped if _state(pid) == "T"]
            if self._stopped:
                time.sleep(0.0002)
        self._stopped = []
