"""`aka leaderboard`: configurations ranked per category, over one or several runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from run_helpers import make_run, trial

from agentkernelarena.report import load_run
from agentkernelarena.report.leaderboard import leaderboard


def _args(records: list[dict], **args: str) -> list[dict]:
    for record in records:
        record["agent_args"] = dict(args)
    return records


def _runs(tmp_path: Path) -> list[Path]:
    # fast: best on triton, fails hip; steady: correct everywhere, modest; broken: nothing works.
    run_1 = make_run(tmp_path / "r1", [
        *_args([trial("t2t/a", "ok", 3.0, agent="fast"), trial("t2t/b", "ok", 2.5, agent="fast"),
                trial("h2h/c", "incorrect", agent="fast")], model="m1"),
        *_args([trial("t2t/a", "ok", 1.2, agent="steady"), trial("t2t/b", "ok", 1.1,
                                                                   agent="steady"),
                trial("h2h/c", "ok", 1.3, agent="steady")], model="m2"),
        *_args([trial(t, "compile_error", agent="broken") for t in ("t2t/a", "t2t/b", "h2h/c")],
               model="m3"),
    ], agents=("fast", "steady", "broken"))
    # The same `steady` configuration in a second run (another suite): merged into one entry.
    run_2 = make_run(tmp_path / "r2", _args([trial("c2c/d", "ok", 1.4, agent="steady")],
                                            model="m2"), agents=("steady",))
    return [run_1, run_2]


def test_ranked_per_category_by_score(tmp_path: Path):
    board = leaderboard([load_run(p) for p in _runs(tmp_path)])
    cats = board["categories"]
    assert list(cats) == ["all", "c2c", "h2h", "t2t"]
    assert [e["label"] for e in cats["t2t"]] == ["fast", "steady", "broken"]
    assert [e["label"] for e in cats["h2h"]] == ["steady", "fast", "broken"]
    assert [e["label"] for e in cats["c2c"]] == ["steady"]
    assert [e["rank"] for e in cats["t2t"]] == [1, 2, 3]
    steady = next(e for e in cats["all"] if e["label"] == "steady")
    assert steady["metrics"]["trials"] == 4 and len(steady["runs"]) == 2
    assert steady["tasks"] == ["c2c/d", "h2h/c", "t2t/a", "t2t/b"]
    fast = next(e for e in cats["t2t"] if e["label"] == "fast")
    assert fast["metrics"]["speedup_mean"] == 2.75 and fast["metrics"]["fast_p"]["2.0"] == 1.0
    assert any("all: the entries ran different tasks" in w for w in board["warnings"])


def test_rank_by_changes_the_order(tmp_path: Path):
    runs = [load_run(p) for p in _runs(tmp_path)]
    by_correct = leaderboard(runs, rank_by="correct")["categories"]["all"]
    assert by_correct[0]["label"] == "steady"
    assert "ranked by correct rate" in leaderboard(runs, rank_by="correct")["ranking"]
    by_geomean = leaderboard(runs, rank_by="geomean")["categories"]["t2t"]
    assert [e["label"] for e in by_geomean][:2] == ["fast", "steady"]


def test_one_label_two_configurations_are_told_apart(tmp_path: Path):
    run_a = make_run(tmp_path / "a", _args([trial("t/x", "ok", 1.0, agent="claude")],
                                           model="sonnet"), agents=("claude",))
    run_b = make_run(tmp_path / "b", _args([trial("t/x", "ok", 2.0, agent="claude")],
                                           model="opus"), agents=("claude",))
    entries = leaderboard([load_run(run_a), load_run(run_b)])["categories"]["all"]
    assert [e["label"] for e in entries] == ["claude (model=opus)", "claude (model=sonnet)"]


def test_leaderboard_formats(tmp_path: Path, aka):
    paths = [str(p) for p in _runs(tmp_path)]
    code, out, _ = aka("leaderboard", *paths)
    assert code == 0 and "ranked by mean score" in out and "t2t" in out
    code, out, _ = aka("leaderboard", *paths, "--format", "md")
    assert code == 0 and "## t2t" in out and "| rank | agent | config |" in out
    rows = [line for line in out.splitlines() if line.startswith("| 1 |")]
    assert rows and all("|" in r for r in rows)
    code, out, _ = aka("leaderboard", *paths, "--format", "json")
    assert code == 0 and json.loads(out)["categories"]["t2t"][0]["label"] == "fast"
    html_file = tmp_path / "board.html"
    code, _, _ = aka("leaderboard", *paths, "--format", "html", "-o", str(html_file))
    html = html_file.read_text()
    assert code == 0 and 'id="cat-t2t"' in html and 'class="sortable"' in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    code, _, err = aka("leaderboard", str(tmp_path))
    assert code == 2 and "not a run folder" in err


def test_two_labels_with_the_same_settings_stay_apart(tmp_path: Path):
    run = make_run(tmp_path / "r", [trial("t/x", "ok", 1.0, agent="first"),
                                    trial("t/x", "ok", 1.2, agent="second")],
                   agents=("first", "second"))
    entries = leaderboard([load_run(run)])["categories"]["all"]
    assert [(e["label"], e["metrics"]["trials"]) for e in entries] == [("second", 1),
                                                                       ("first", 1)]


def test_leaderboard_fits_a_narrow_terminal(tmp_path: Path, monkeypatch, capsys):
    from rich.console import Console

    import agentkernelarena.report.render as render
    from agentkernelarena.report.leaderboard import print_board

    board = leaderboard([load_run(p) for p in _runs(tmp_path)])
    monkeypatch.setattr(render, "console", lambda: Console(width=80))
    print_board(board)
    out = capsys.readouterr().out
    assert "…" not in out and "  1: agent fast, config noop model=m1, tasks 2" in out
    monkeypatch.setattr(render, "console", lambda: Console(width=220))
    print_board(board)
    assert "┃ rank ┃ agent" in capsys.readouterr().out
