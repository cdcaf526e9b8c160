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
        self.log_speedups: list[float] = []
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
        speedup = record.get("speedup")
        if record.get("correct") and speedup and speedup > 0:
            self.log_speedups.append(math.log(speedup))

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
            line = (f"[{self.done}/{self.total}] {trial_id}: {record.get('verdict')} "
                    f"speedup {fmt_speedup(record.get('speedup'))} "
                    f"score {record.get('score', 0):.1f} "
                    f"({record.get('trial_wall_s', 0):.0f} s) | {self.stats_text()} "
                    f"| ETA {self.eta_text()}")
            log.info("trial %s finished: verdict %s, speedup %s, score %s", trial_id,
                     record.get("verdict"), record.get("speedup"), record.get("score"))
            self._update(line)

    def trial_failed(self, trial_id: str, error: str) -> None:
        with self._lock:
            self.failed += 1
            log.error("trial %s could not run (it stays unfinished; --resume retries it): %s",
                      trial_id, error)
            self._update(f"[{self.done}/{self.total}] {trial_id}: FAILED TO RUN: "
                         f"{error.strip().splitlines()[-1] if error.strip() else error}")

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

    def stats_text(self) -> str:
        tallies = " ".join(f"{v} {n}" for v, n in sorted(self.verdicts.items()))
        mean = (math.exp(sum(self.log_speedups) / len(self.log_speedups))
                if self.log_speedups else None)
        failed = f" | failed {self.failed}" if self.failed else ""
        return f"{tallies or 'no results yet'} | geomean speedup (correct) " \
               f"{fmt_speedup(mean)}{failed}"
