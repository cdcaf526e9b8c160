"""An agent that crashes, one stopped at the time limit and one that changes nothing each show
as such beside the verdict: in trial.json, the progress lines, run.log, the tables, JSON and
CSV, and are counted in the summary (a real CPU run)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from run_helpers import aka_subprocess, write_config

from agentkernelarena.report import build_report, load_run
from agentkernelarena.report.render import print_tables, to_csv, to_markdown

CRASH = {"name": "command", "label": "crash", "args": {"cmd": "/opt/nowhere/optimize.sh"}}
SLOW = {"name": "command", "label": "slow", "args": {"cmd": "sleep 600"}}


@pytest.fixture(scope="module")
def outcomes_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("outcomes")
    config = write_config(folder / "run.yaml", agents=[CRASH, SLOW, "noop"], max_iterations=2,
                          time_limit_s=4, concurrency=3)
    result = aka_subprocess("run", "-c", str(config), "--out", str(folder / "out"),
                            "--progress", "plain")
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "out", result.stderr


def _records(run: Path) -> dict[str, dict]:
    return {json.loads(p.read_text())["agent_label"]: json.loads(p.read_text())
            for p in (run / "trials").glob("*/trial.json")}


def test_trial_records_say_what_the_agent_did(outcomes_run):
    run, _ = outcomes_run
    records = _records(run)
    crash, slow, noop = records["crash"], records["slow"], records["noop"]
    assert crash["agent_outcome"] == "failed" and crash["verdict"] == "ok"  # baseline judged
    error = crash["agent_error"]
    assert error["exit_code"] == 127 and error["iterations_failed"] == error["iterations"] >= 1
    assert "not found" in error["stderr_tail"] and "sandbox" in error["likely_cause"]
    assert slow["agent_outcome"] == "timed_out" and slow["timed_out"]
    assert noop["agent_outcome"] == "no_change" and noop["agent_error"] is None


def test_progress_and_run_log_mark_the_agent(outcomes_run):
    run, stderr = outcomes_run
    lines = {label: next(line for line in stderr.splitlines() if f"] {label}__" in line)
             for label in ("crash", "slow", "noop")}
    assert "ok [agent-failed]" in lines["crash"]
    assert "[timed-out]" in lines["slow"] and "[no-change]" in lines["noop"]
    assert "warning: agent crash failed on triton2triton/scale_add" in stderr
    assert "likely cause: a program or path it uses is not visible inside the sandbox" in stderr
    log = (run / "run.log").read_text()
    assert "agent failed (crashed, exit 127" in log and "agent timed_out" in log
    assert "agent no_change" in log


def test_summary_table_json_and_csv_show_outcomes(outcomes_run):
    run, _ = outcomes_run
    report = build_report(load_run(run))
    agents = report["summary"]["agents"]
    assert agents["crash"]["agent_errors"] == 1 and agents["crash"]["agent_timeouts"] == 0
    assert agents["slow"]["agent_timeouts"] == 1
    assert agents["noop"]["agent_outcomes"]["no_change"] == 1
    assert agents["noop"]["agent_errors"] == 0
    assert report["summary"]["agent_errors"] == 1
    baseline = {b["agent"]: b["agent_outcome"] for b in report["summary"]["baseline_scored"]}
    assert baseline["crash"] == "failed" and baseline["noop"] == "no_change"
    summary = json.loads((run / "summary.json").read_text())
    assert summary["agents"]["crash"]["agent_errors"] == 1
    rows = {r["agent"]: r for r in csv.DictReader(io.StringIO(to_csv(report)))}
    assert rows["crash"]["agent_outcome"] == "failed" and rows["crash"]["agent_exit_code"] == "127"
    assert "not found" in rows["crash"]["agent_error"]
    assert rows["slow"]["agent_outcome"] == "timed_out"
    assert rows["noop"]["agent_outcome"] == "no_change"
    assert rows["noop"]["scored_on_baseline"] == "True"
    buffer = io.StringIO()
    print_tables(report, with_trials=True, console_=Console(file=buffer, width=100))
    text = buffer.getvalue()
    assert "[agent-failed]" in text and "[timed-out]" in text and "[no-change]" in text
    assert "scored only because the baseline was left unchanged" in text
    markdown = to_markdown(report)
    assert "## Agent failures" in markdown and "ok [agent-failed]" in markdown


def test_compare_shows_what_each_agent_did(outcomes_run):
    from agentkernelarena.report import compare_runs
    from agentkernelarena.report.compare_render import compare_markdown

    run, _ = outcomes_run
    loaded = load_run(run)
    result = compare_runs(loaded, loaded, agent_a="noop", agent_b="crash", min_tasks=1)
    assert result["summary"]["b"]["agent_outcomes"] == {"failed": 1}
    assert result["summary"]["a"]["agent_outcomes"] == {"no_change": 1}
    assert result["tasks"][0]["b"]["agent_outcomes"] == {"failed": 1}
    assert any("run b: in 1 of 1 trial(s) of crash the agent failed (1)" in w
               for w in result["summary"]["warnings"])
    markdown = compare_markdown(result)
    assert "[agent-failed 1]" in markdown and "[no-change 1]" in markdown
    timed = compare_runs(loaded, loaded, agent_a="noop", agent_b="slow", min_tasks=1)
    assert timed["summary"]["b"]["agent_outcomes"] == {"timed_out": 1}
    assert any("timed out (1)" in w for w in timed["summary"]["warnings"])
