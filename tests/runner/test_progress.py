"""The run's progress: agent markers beside verdicts, per-agent speedups in an A/B run, and
live lines that fit the terminal instead of wrapping mid-line."""

from __future__ import annotations

import io
from pathlib import Path

from agentkernelarena.runner.progress import RunProgress


def _record(label: str, speedup: float, **extra) -> dict:
    return {"agent_label": label, "task": "t/a", "verdict": "ok", "correct": True,
            "speedup": speedup, "score": 100 + 100 * speedup, "trial_wall_s": 12.0,
            "agent_failure": "ok", "timed_out": False, "changed_files": ["k.py"], **extra}


def test_ab_speedups_are_per_agent_and_failures_marked(tmp_path: Path):
    stream = io.StringIO()
    finished = [_record("A", 2.0), _record("B", 0.5, agent_failure="crashed",
                                            changed_files=[])]
    progress = RunProgress(tmp_path, 4, finished, live=False, stream=stream)
    text = progress.stats_text()
    assert "A 2.000x" in text and "B 0.500x" in text  # never pooled into 1.0x
    assert "agent-failed 1" in text
    with progress:
        progress.trial_finished("B__t__a__1", _record("B", 0.9, timed_out=True))
    line = stream.getvalue().strip().splitlines()[-1]
    assert line.startswith("[3/4] B__t__a__1: ok [timed-out] speedup 0.900x score 190.0")
    assert "| ETA" in line  # plain lines (logs, pipes) keep everything
    log = (tmp_path / "run.log").read_text()
    assert "verdict ok, agent timed_out, speedup 0.900x, score 190.0" in log


def test_live_lines_fit_the_terminal(tmp_path: Path):
    progress = RunProgress(tmp_path, 4, [], live=True, stream=io.StringIO())
    width = progress._console.width
    head = "[1/4] " + "x" * (width - 20)
    assert progress._fit(head, [" | " + "y" * 30, " | ETA 0:01:00"]) == head
    assert progress._fit("[1/4] short", [" | stats", " | ETA 0:01:00"]) == \
        "[1/4] short | stats | ETA 0:01:00"
