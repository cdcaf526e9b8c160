"""`aka report`: the JSON contract, the metrics' denominators, interrupted runs, formats."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest
from run_helpers import make_run, trial

from agentkernelarena.report import build_report, load_run

REQUIRED = ("task", "agent", "attempt", "verdict", "score", "speedup", "held_out")


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run", [
        trial("t2t/a", "ok", 2.0, held=(True, 1.8, "both_pass")),
        trial("t2t/b", "ok", 1.2, held=(False, None, "regression")),
        trial("t2t/c", "incorrect", held=(False, None, "both_fail")),
        trial("h2h/d", "agent_error", status="error", tokens=None, cost=None),
    ], missing=2)


def test_report_json_contract_and_denominators(run_dir: Path):
    report = build_report(load_run(run_dir))
    assert set(report) >= {"summary", "trials"}
    assert len(report["trials"]) == 4
    for record in report["trials"]:
        assert all(key in record for key in REQUIRED)
        assert {"correct", "speedup", "quadrant"} <= set(record["held_out"])
    run = report["summary"]["run"]
    assert (run["planned"], run["finished"], run["missing"], run["complete"]) == (6, 4, 2, False)
    m = report["summary"]["agents"]["A"]
    assert m["trials"] == 4  # the agent error counts
    assert m["compile_rate"] == 0.75 and m["correct_rate"] == 0.5
    assert m["speedup_n"] == 2 and m["speedup_mean"] == 1.6
    assert m["speedup_geomean"] == pytest.approx(math.sqrt(2.4), abs=1e-4)
    assert m["fast_p"] == {"1.0": 0.5, "1.5": 0.25, "2.0": 0.25}  # over ALL trials
    assert m["held_out"]["correct_rate"] == 0.25 and m["held_out"]["speedup_geomean"] == 1.8
    g = m["generalization"]
    assert (g["visible_correct_rate"], g["held_out_correct_rate"]) == (0.5, 0.25)
    assert g["correct_rate_gap"] == 0.25 and g["paired_n"] == 1
    assert g["speedup_ratio"] == pytest.approx(0.9)
    assert g["quadrants"] == {"both_pass": 1, "regression": 1, "both_fail": 1,
                              "improvement": 0, "not_evaluated": 1}
    assert m["score_mean"] == pytest.approx((320 + 240 + 20 + 0) / 4)
    assert m["agent_errors"] == 1 and m["verdicts"]["agent_error"] == 1
    assert m["tokens"]["tokens_in"] == 300 and m["tokens"]["known_trials"] == 3
    assert m["cost_usd"]["total"] == 1.5 and m["agent_time_s"]["total"] == 40.0
    assert set(m["categories"]) == {"t2t", "h2h"}
    assert m["categories"]["t2t"]["correct_rate"] == pytest.approx(2 / 3, abs=1e-4)
    assert m["categories"]["h2h"]["correct_rate"] == 0.0
    assert any("over correct trials only" in note for note in report["summary"]["notes"])
    assert [m["id"] for m in report["missing"]] == ["A__c__missing__0", "A__c__missing__1"]


def test_report_cli_formats(run_dir: Path, aka):
    code, out, _ = aka("report", str(run_dir), "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["agents"]["A"]["trials"] == 4
    code, out, _ = aka("report", str(run_dir), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 4
    assert {r["verdict"] for r in rows} == {"ok", "incorrect", "agent_error"}
    assert rows[0]["held_out_quadrant"] == "both_pass"
    code, out, _ = aka("report", str(run_dir), "--format", "md")
    assert code == 0 and "| agent | category |" in out and "2 missing" in out
    code, out, _ = aka("report", str(run_dir), "--trials")
    assert code == 0 and "4 of 6 trials finished" in out and "generalization" in out
    code, _, err = aka("report", str(run_dir.parent))
    assert code == 2 and "not a run folder" in err


def test_agent_without_finished_trials_is_listed(tmp_path: Path):
    run = make_run(tmp_path / "r", [trial("t2t/a", "ok", 1.5)], agents=("A", "B"))
    summary = build_report(load_run(run))["summary"]
    assert summary["agents"]["B"] == {"trials": 0}


def test_speedup_vs_compile_column_only_when_measured(tmp_path: Path):
    from agentkernelarena.report.render import trial_table_rows

    versus = trial("t2h/a", "ok", 2.0)
    versus["evaluation"]["speedup_vs_compile"] = 1.25
    report = build_report(load_run(make_run(tmp_path / "v", [versus, trial("t2h/b", "ok", 1.5)])))
    by_task = {t["task"]: t for t in report["trials"]}
    assert by_task["t2h/a"]["speedup_vs_compile"] == 1.25
    assert by_task["t2h/b"]["speedup_vs_compile"] is None
    headers, rows = trial_table_rows(report["trials"])
    column = headers.index("vs torch.compile")
    assert sorted(row[column] for row in rows) == ["-", "1.250x"]
    plain = build_report(load_run(make_run(tmp_path / "p", [trial("t2h/b", "ok", 1.5)])))
    assert "vs torch.compile" not in trial_table_rows(plain["trials"])[0]


def test_unsandboxed_agents_and_workers_are_marked_in_every_format(tmp_path: Path, aka):
    agent_off = trial("t2t/a", "ok", 2.0, held=(True, 1.8, "both_pass"))
    agent_off.update(sandboxed=False, sandbox={"kind": "none", "sandboxed": False,
                                               "reason": "turned off with --sandbox off"})
    worker_off = trial("t2t/b", "ok", 1.5, held=(True, 1.4, "both_pass"))
    worker_off["sandboxed"] = True
    worker_off["evaluation"]["worker_sandbox"] = {"sandboxed": False, "reason": "no bwrap"}
    fine = trial("t2t/c", "ok", 1.2, held=(True, 1.1, "both_pass"))
    fine["sandboxed"] = True
    fine["evaluation"]["worker_sandbox"] = {"sandboxed": True, "reason": "bubblewrap"}
    old = trial("t2t/d", "ok", 1.1)  # an old record: no sandbox fields at all (unknown)
    run = make_run(tmp_path / "run", [agent_off, worker_off, fine, old])

    report = build_report(load_run(run))
    summary = report["summary"]
    assert summary["unsandboxed_trials"] == 2
    assert (summary["unsandboxed_agent_trials"], summary["unsandboxed_worker_trials"]) == (1, 1)
    assert summary["agents"]["A"]["unsandboxed_trials"] == 2
    assert [u["why"] for u in summary["unsandboxed"]] == [
        ["agent not sandboxed (turned off with --sandbox off)"],
        ["evaluation worker not sandboxed (no bwrap)"]]
    assert any("not trustworthy" in note for note in summary["notes"])
    by_task = {t["task"]: t for t in report["trials"]}
    assert (by_task["t2t/a"]["sandboxed"], by_task["t2t/a"]["worker_sandboxed"]) == (False, None)
    assert (by_task["t2t/b"]["sandboxed"], by_task["t2t/b"]["worker_sandboxed"]) == (True, False)
    assert (by_task["t2t/c"]["sandboxed"], by_task["t2t/c"]["worker_sandboxed"]) == (True, True)
    assert (by_task["t2t/d"]["sandboxed"], by_task["t2t/d"]["unsandboxed"]) == (None, [])

    code, out, _ = aka("report", str(run), "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["unsandboxed_trials"] == 2
    code, out, _ = aka("report", str(run), "--format", "csv")
    rows = {r["task"]: r for r in csv.DictReader(io.StringIO(out))}
    assert [rows[t]["sandboxed"] for t in ("t2t/a", "t2t/b", "t2t/c", "t2t/d")] == \
        ["False", "True", "True", ""]
    assert [rows[t]["worker_sandboxed"] for t in ("t2t/a", "t2t/b", "t2t/c", "t2t/d")] == \
        ["", "False", "True", ""]
    code, out, _ = aka("report", str(run), "--format", "md")
    assert "2 of 4 trial(s) ran without a sandbox" in out and "not trustworthy" in out
    assert "`A__t2t__b__0`: evaluation worker not sandboxed (no bwrap)" in out
    assert "| NO (agent) |" in out and "| NO (eval worker) |" in out and "| yes |" in out
    code, out, _ = aka("report", str(run))  # the table, without --trials: the footnote
    assert "2 of 4 trial(s) ran without a sandbox" in out
    assert "A__t2t__a__0: agent not sandboxed" in out
    code, out, _ = aka("compare", str(run), str(run), "--format", "json")
    assert any("not trustworthy" in w for w in json.loads(out)["summary"]["warnings"])


def test_runs_without_sandbox_information_say_nothing(run_dir: Path, aka):
    from agentkernelarena.report.render import trial_table_rows

    report = build_report(load_run(run_dir))
    assert report["summary"]["unsandboxed_trials"] == 0 and not report["summary"]["unsandboxed"]
    assert "sandbox" not in trial_table_rows(report["trials"])[0]
    code, out, _ = aka("report", str(run_dir), "--format", "md")
    assert code == 0 and "Unsandboxed" not in out and "trustworthy" not in out
