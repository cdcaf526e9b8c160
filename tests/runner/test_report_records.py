"""`aka report` keeps what it cannot read in view: unreadable trials are CSV rows with their
error (and listed in JSON, Markdown and the table), broken re-draw files are named."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from run_helpers import make_run, trial

from agentkernelarena.report import build_report, load_run
from agentkernelarena.report.render import to_csv, to_markdown


def _run(tmp_path: Path) -> Path:
    run = make_run(tmp_path / "run", [trial("t2t/a", "ok", 2.0), trial("t2t/b", "ok", 1.5),
                                      trial("t2t/c", "incorrect")])
    (run / "trials" / "A__t2t__b__0" / "trial.json").write_text('{"task": "t2')  # cut off
    other = trial("t2t/zzz", "ok", 1.0)
    (run / "trials" / "A__t2t__c__0" / "trial.json").write_text(json.dumps(other))
    return run


def test_unreadable_trials_are_rows_with_their_error(tmp_path: Path, aka):
    report = build_report(load_run(_run(tmp_path)))
    errors = {u["id"]: u["error"] for u in report["unreadable"]}
    assert "not valid JSON" in errors["A__t2t__b__0"]
    assert "belongs to another trial" in errors["A__t2t__c__0"]
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert len(rows) == 3  # one finished, two unreadable: none dropped
    broken = {r["id"]: r for r in rows if r["status"] == "unreadable"}
    assert set(broken) == {"A__t2t__b__0", "A__t2t__c__0"}
    assert "not valid JSON" in broken["A__t2t__b__0"]["error"]
    assert broken["A__t2t__b__0"]["task"] == "t2t/b" and broken["A__t2t__b__0"]["agent"] == "A"
    assert "## Unreadable trials" in to_markdown(report)
    code, out, _ = aka("report", str(tmp_path / "run"))
    assert code == 0 and "trial A__t2t__b__0 is unreadable" in " ".join(out.split())


def test_heldout_redraws_in_the_report(tmp_path: Path):
    run = make_run(tmp_path / "run", [trial("t2t/a", "ok", 2.0)])
    (run / "heldout").mkdir()
    redraw = {"schema": 1, "created_at": "2026-01-01T00:00:00+00:00", "platform": "cpu",
              "draws_per_trial": 2, "measure": False,
              "summary": {"A": {"trials": 1, "draws": 2, "draws_correct": 1,
                                "draw_correct_rate": 0.5, "all_draws_pass_rate": 0.0,
                                "speedup_geomean": None, "original_correct_rate": 1.0}},
              "trials": [{"id": "A__t2t__a__0", "draws": [
                  {"seed": 1, "held_out": {"correct": True}},
                  {"seed": 2, "held_out": {"correct": False}}]}]}
    (run / "heldout" / "20260101T000000Z.json").write_text(json.dumps(redraw))
    (run / "heldout" / "20260102T000000Z.json").write_text("{broken")
    report = build_report(load_run(run))
    assert report["heldout"][0]["agents"]["A"]["draw_correct_rate"] == 0.5
    assert report["trials"][0]["heldout_redraws"]["passed"] == 1
    broken = report["summary"]["heldout_redraws"]["unreadable"]
    assert len(broken) == 1 and broken[0]["path"].endswith("20260102T000000Z.json")
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert rows[0]["heldout_redraws"] == "2" and rows[0]["heldout_redraws_passed"] == "1"
    markdown = to_markdown(report)
    assert "Held-out re-draws" in markdown and "50%" in markdown
