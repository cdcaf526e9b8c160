"""Tables of evaluation results for the terminal (`aka eval`, `aka demo`); the text itself is
agentkernelarena.feedback, which the runner and the check server use too."""

from __future__ import annotations

import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from agentkernelarena.feedback import eval_summary, feedback, fmt_ms, fmt_speedup

__all__ = ["eval_summary", "feedback", "fmt_ms", "fmt_speedup", "print_table",
           "results_table"]


def results_table(rows: list[dict[str, Any]], title: str) -> Table:
    table = Table(title=title)
    for column in ("task", "version", "verdict", "correct", "speedup", "held-out",
                   "score", "wall"):
        table.add_column(column, justify="right" if column in ("speedup", "score", "wall")
                         else "left")
    for row in rows:
        held = row.get("held_out") or {}
        held_text = "-" if not held.get("evaluated") else (
            f"{'ok' if held['correct'] else 'fail'} {fmt_speedup(held.get('speedup'))}")
        colour = {"ok": "green", "incorrect": "red", "compile_error": "red",
                  "rejected": "magenta"}.get(row["verdict"], "yellow")
        table.add_row(row["task"], row.get("version", ""), f"[{colour}]{row['verdict']}[/]",
                      str(row["correct"]), fmt_speedup(row.get("speedup")), held_text,
                      f"{row['score']:.1f}", f"{row['wall_s']:.1f}s")
    return table


def print_table(table: Table) -> None:
    # Piped output (CI logs, files) gets a wide table instead of rich's 80-column default,
    # which would wrap task ids over several lines.
    Console(width=None if sys.stdout.isatty() else 160).print(table)
