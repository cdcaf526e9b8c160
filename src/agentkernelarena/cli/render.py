"""Tables of evaluation results for the terminal (`aka eval`, `aka demo`); the text itself is
agentkernelarena.feedback, which the runner and the check server use too."""

from __future__ import annotations

import sys
from typing import Any

from rich.console import Console

from agentkernelarena.feedback import eval_summary, feedback, fmt_ms, fmt_speedup
from agentkernelarena.report.fit import Rows

__all__ = ["eval_summary", "feedback", "fmt_ms", "fmt_speedup", "print_results",
           "results_rows"]


def results_rows(rows: list[dict[str, Any]]) -> Rows:
    """`aka demo`'s evaluation results as table rows (strings)."""
    headers = ["task", "version", "verdict", "correct", "speedup", "held-out", "score", "wall"]
    body = []
    for row in rows:
        held = row.get("held_out") or {}
        held_text = "-" if not held.get("evaluated") else (
            f"{'ok' if held['correct'] else 'fail'} {fmt_speedup(held.get('speedup'))}")
        body.append([row["task"], row.get("version", ""), row["verdict"], str(row["correct"]),
                     fmt_speedup(row.get("speedup")), held_text, f"{row['score']:.1f}",
                     f"{row['wall_s']:.1f}s"])
    return headers, body


def print_results(rows: list[dict[str, Any]], title: str, console: Console | None = None
                  ) -> None:
    """The results as a table that fits the terminal (report/fit.py: no number cut); piped
    output (CI logs, files) gets a wide one."""
    from agentkernelarena.report.render import print_fitted

    console = console or Console(width=None if sys.stdout.isatty() else 160)
    print_fitted(console, results_rows(rows), title, ("version", "wall", "held-out"))
