"""What a run shows while it runs, and its log file.

Runs take hours, so a glance must answer: how far, how well, how long still. On a terminal that
is a live bar with the tallies; elsewhere (CI, `nohup`, a pipe) one plain line per finished
trial, which also reads well in a log. Everything also goes to the run's run.log (appended per
session), including the warnings of the trials themselves.
"""

from __future__ import annotations

import logging
import math
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agentkernelarena.feedback import fmt_speedup
from agentkernelarena.runner.outcome import agent_outcome, error_summary, marker, verdict_text

LOG_NAME = "run.log"
log = logging.getLogger("agentkernelarena.runner.run")


def fmt_duration(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return "-"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


class _ConsoleHandler(logging.Handler):
    """Warnings to the terminal, each distinct one once (every trial of an unsandboxed agent
    warns the same)."""

    def __init__(self, emit_line: Any) -> None:
        super().__init__(logging.WARNING)
        self._emit_line = emit_line
        self._seen: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message not in self._seen:
            self._seen.add(message)
            self._emit_line(f"warning: {message}")


class RunProgress:
    """Thread-safe tallies of a run, shown live (TTY) or as lines, and the run log."""

    def __init__(self, run_dir: Path, total: int, finished: list[dict[str, Any]],
                 live: bool | None = None, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self.total = total
        self.done_before = len(finished)
        self.done = len(finished)
        self.failed = 0
        self.verdicts: Counter[str] = Counter()
        self.agent_marks: Counter[str] = Counter()  # agent-failed, timed-out, no-change
        # Per agent label: an A/B run's two agents are never pooled into one number.
        self.log_speedups: dict[str, list[float]] = {}
        for record in finished:
            self._tally(record)
        self.started = time.monotonic()
        self.finished_now = 0
        self._lock = threading.Lock()
        self._console = Console(file=self.stream, stderr=self.stream is sys.stderr)
        self._progress: Progress | None = None
        self._bar: Any = None
        self._file_handler = logging.FileHandler(run_dir / LOG_NAME)
        self._file_handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self._console_handler = _ConsoleHandler(self.print)
        self._root = logging.getLogger("agentkernelarena")
        self._old_level = self._root.level
        self._old_propagate = self._root.propagate

    def _tally(self, record: dict[str, Any]) -> None:
        self.verdicts[record.get("verdict", "?")] += 1
        mark = marker(agent_outcome(record))
        if mark:
            self.agent_marks[mark] += 1
        label = str(record.get("agent_label") or record.get("agent") or "?")
        logs = self.log_speedups.setdefault(label, [])
        speedup = record.get("speedup")
        if record.get("correct") and speedup and speedup > 0:
            logs.append(math.log(speedup))

    # -- lifecycle --------------------------------------------------------------------------

    def __enter__(self) -> RunProgress:
        self._root.addHandler(self._file_handler)
        self._root.addHandler(self._console_handler)
        if self._root.level == logging.NOTSET or self._root.level > logging.INFO:
            self._root.setLevel(logging.INFO)
        self._root.propagate = False  # no second copy through the root logger's lastResort
        if self.live:
            self._progress = Progress(
                TextColumn("[bold]run"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TextColumn("ETA {task.fields[eta]}"),
                TextColumn("{task.fields[stats]}"), console=self._console,
                redirect_stdout=False, redirect_stderr=False)
            self._progress.start()
            self._bar = self._progress.add_task("run", total=self.total, completed=self.done,
                                                eta=self.eta_text(), stats=self.stats_text())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
        self._root.removeHandler(self._file_handler)
        self._root.removeHandler(self._console_handler)
        self._root.setLevel(self._old_level)
        self._root.propagate = self._old_propagate
        self._file_handler.close()

    # -- events -----------------------------------------------------------------------------

    def print(self, line: str) -> None:
        if self._progress is not None:
            self._progress.console.print(line, markup=False, highlight=False)
        else:
            self.stream.write(line + "\n")
            self.stream.flush()

    def trial_started(self, trial_id: str) -> None:
        log.info("trial %s started", trial_id)

    def trial_finished(self, trial_id: str, record: dict[str, Any]) -> None:
        with self._lock:
            self.done += 1
            self.finished_now += 1
            self._tally(record)
            outcome = agent_outcome(record)
            verdict = verdict_text(record.get("verdict"), outcome)
            head = (f"[{self.done}/{self.total}] {trial_id}: {verdict} "
                    f"speedup {fmt_speedup(record.get('speedup'))} "
                    f"score {record.get('score') or 0:.1f} "
                    f"({record.get('trial_wall_s') or 0:.0f} s)")
            error = error_summary(record.get("agent_error"))
            log.info("trial %s finished: verdict %s, agent %s%s, speedup %s, score %.1f",
                     trial_id, record.get("verdict"), outcome,
                     f" ({error})" if error else "", fmt_speedup(record.get("speedup")),
                     record.get("score") or 0)
            self._update(self._fit(head, [f" | {self.stats_text()}",
                                          f" | ETA {self.eta_text()}"]))

    def trial_failed(self, trial_id: str, error: str) -> None:
        with self._lock:
            self.failed += 1
            log.error("trial %s could not run (it stays unfinished; --resume retries it): %s",
                      trial_id, error)
            self._update(f"[{self.done}/{self.total}] {trial_id}: FAILED TO RUN: "
                         f"{error.strip().splitlines()[-1] if error.strip() else error}")

    def _fit(self, head: str, tails: list[str]) -> str:
        """`head` plus as many of `tails` as fit the terminal's width on a live display (a
        line that wraps mid-way breaks the bar); everything in plain mode (logs, pipes)."""
        if not self.live:
            return head + "".join(tails)
        width = self._console.width
        for tail in tails:
            if len(head) + len(tail) > width:
                break
            head += tail
        return head

    def _update(self, line: str) -> None:
        self.print(line)
        if self._progress is not None:
            self._progress.update(self._bar, completed=self.done, eta=self.eta_text(),
                                  stats=self.stats_text())

    # -- numbers ----------------------------------------------------------------------------

    def eta_s(self) -> float | None:
        if self.finished_now == 0:
            return None
        rate = (time.monotonic() - self.started) / self.finished_now  # includes concurrency
        return rate * (self.total - self.done - self.failed)

    def eta_text(self) -> str:
        return fmt_duration(self.eta_s())

    def geomeans(self) -> dict[str, float | None]:
        """Per agent label: the geometric mean speedup of its correct trials so far."""
        return {label: math.exp(sum(logs) / len(logs)) if logs else None
                for label, logs in self.log_speedups.items()}

    def stats_text(self) -> str:
        tallies = " ".join(f"{v} {n}" for v, n in sorted(self.verdicts.items()))
        marks = " ".join(f"{m} {n}" for m, n in sorted(self.agent_marks.items()))
        means = self.geomeans()
        if len(means) <= 1:
            speed = f"geomean speedup (correct) {fmt_speedup(next(iter(means.values()), None))}"
        else:
            speed = "geomean (correct) " + ", ".join(f"{label} {fmt_speedup(mean)}"
                                                      for label, mean in means.items())
        failed = f" | failed to run {self.failed}" if self.failed else ""
        return (f"{tallies or 'no results yet'}" + (f" | {marks}" if marks else "")
                + f" | {speed}{failed}")
