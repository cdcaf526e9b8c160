"""Tables at 80 and 100 columns: columns are left out (and named) or the table becomes a list,
but no number is ever cut."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from run_helpers import make_run, trial

from agentkernelarena.report import build_report, load_run
from agentkernelarena.report.fit import fit, fitted_table, width_of
from agentkernelarena.report.render import (
    SUMMARY_DROP,
    TRIALS_DROP,
    print_tables,
    summary_rows,
    trial_table_rows,
)


@pytest.fixture
def wide_report(tmp_path: Path) -> dict:
    trials = [trial("triton2triton/a_rather_long_task_name", "ok", 2.5123, tokens=12345678,
                    cost=1234.56, held=(True, 2.4567, "both_pass")),
              trial("hip2hip/another_long_task_name_here", "incorrect", tokens=9876543,
                    cost=0.004, held=(False, None, "both_fail")),
              trial("triton2triton/a_rather_long_task_name", "ok", 1.0001, agent="B_agent",
                    tokens=None, cost=None)]
    run = make_run(tmp_path / "run", trials, agents=("A", "B_agent"))
    return build_report(load_run(run))


def _render(report: dict, width: int) -> str:
    buffer = io.StringIO()
    print_tables(report, with_trials=True, console_=Console(file=buffer, width=width))
    return buffer.getvalue()


@pytest.mark.parametrize("width", [80, 100])
def test_no_number_is_cut(wide_report: dict, width: int):
    text = _render(wide_report, width)
    assert "…" not in text
    assert all(len(line) <= width for line in text.splitlines())
    flat = re.sub(r"[│┃\s]+", " ", text)
    for rows, drop in ((summary_rows(wide_report["summary"]), SUMMARY_DROP),
                       (trial_table_rows(wide_report["trials"]), TRIALS_DROP)):
        fitted, dropped, _ = fit(rows, width, drop)
        for row in fitted[1]:
            for cell in row[2:]:  # every figure shown is shown whole
                for word in cell.split():
                    assert word in flat, (word, width)


def test_columns_left_out_are_named(wide_report: dict):
    text = _render(wide_report, 80)
    assert "left out for width: tokens in/out" in text
    assert "tokens in/out" in _render(wide_report, 240)  # a wide terminal has them all


def test_too_narrow_becomes_a_list(wide_report: dict):
    rows = summary_rows(wide_report["summary"])
    table, dropped = fitted_table(rows, "per agent", Console(width=30), SUMMARY_DROP)
    buffer = io.StringIO()
    Console(file=buffer, width=30).print(table)
    text = " ".join(buffer.getvalue().split())  # long lines wrap between words
    assert "…" not in text
    assert "tokens in/out: 12,345,678/12,345,678" in text and "cost: $1234.56" in text
    assert "tokens in/out: 22,222,221/22,222,221" in text
    assert dropped == []


def test_width_of_matches_rich(wide_report: dict):
    rows = trial_table_rows(wide_report["trials"])
    table, _ = fitted_table(rows, "t", Console(width=400))
    buffer = io.StringIO()
    Console(file=buffer, width=400).print(table)
    widest = max(len(line) for line in buffer.getvalue().splitlines()[1:])
    assert widest == width_of(rows)
