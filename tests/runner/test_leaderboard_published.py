"""`aka leaderboard --published`: the reference's figures beside a run's, marked as quoted."""

from __future__ import annotations

import json
from pathlib import Path

from run_helpers import make_run, trial

from agentkernelarena.cli import main
from agentkernelarena.report import load_run
from agentkernelarena.report.leaderboard import board_markdown, leaderboard, with_published
from agentkernelarena.report.published import MARK, PUBLISHED, SOURCE


def _board(tmp_path: Path) -> dict:
    run = make_run(tmp_path / "r", [trial("triton2triton/a", "ok", 2.0, agent="mine"),
                                    trial("triton2triton/b", "ok", 1.0, agent="mine")],
                   agents=("mine",))
    return with_published(leaderboard([load_run(run)]))


def test_published_rows_are_marked_quoted_and_measured_rows_are_not(tmp_path: Path):
    board = _board(tmp_path)
    assert board["published"]["source"] == SOURCE and "issue #22" in SOURCE
    text = board_markdown(board)
    quoted = [line for line in text.splitlines() if line.startswith(f"| published ({MARK})")]
    assert len(quoted) == sum(len(rows) for rows in PUBLISHED.values())
    assert "| published (quoted, not measured here) | GEAKv3 | 9.04x |" in text
    measured = [line for line in text.splitlines() if line.startswith("| measured here")]
    assert any("| mine | 1.50x |" in line for line in measured)  # arithmetic mean of 2 and 1
    assert all(MARK not in line for line in measured)
    assert "hip2hip" in text and "no trials of this category" in text
    assert f"source: {SOURCE}" in text


def test_ambiguous_figures_stay_unattributed():
    triton = PUBLISHED["triton2triton"]
    assert [row["speedup"] for row in triton] == ["2.75x", "1.95-1.96x", "0.99x", "0.98x"]
    assert all(row["agent"] is None for row in triton)
    assert [row["speedup"] for row in PUBLISHED["hip2hip"]] == [
        "9.04x", "6.08x", "5.03x", "3.06x", "1.34x"]


def test_cli_flag_in_json_and_table(tmp_path: Path, capsys):
    run = make_run(tmp_path / "r", [trial("triton2triton/a", "ok", 2.0, agent="mine")],
                   agents=("mine",))
    main(["leaderboard", str(run), "--published", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["published"]["mark"] == MARK and "hip2hip" in data["published"]["categories"]
    main(["leaderboard", str(run)])
    assert "published" not in capsys.readouterr().out
    main(["leaderboard", str(run), "--published"])
    out = capsys.readouterr().out
    assert "quoted, not measured here" in out and "source:" in out
