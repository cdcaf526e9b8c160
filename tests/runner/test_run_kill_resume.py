"""`kill -9` of the runner mid-run, then --resume: every trial exactly once, nothing lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from run_helpers import aka_subprocess, trial_records, write_config

ATTEMPTS = 3


def _state(trials: Path) -> tuple[list[str], list[str]]:
    folders = sorted(p for p in trials.iterdir() if p.is_dir()) if trials.is_dir() else []
    done = [p.name for p in folders if (p / "trial.json").is_file()]
    return done, [p.name for p in folders if p.name not in done]


def test_sigkill_mid_run_then_resume_runs_each_trial_exactly_once(tmp_path: Path):
    config = write_config(tmp_path / "run.yaml", attempts=ATTEMPTS, concurrency=1)
    out = tmp_path / "out"
    log = (tmp_path / "first.log").open("w")
    runner = subprocess.Popen([sys.executable, "-m", "agentkernelarena", "run", "-c",
                               str(config), "--out", str(out), "--progress", "plain"],
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            done, unfinished = _state(out / "trials")
            if done and unfinished:  # one finished, the next one running
                break
            assert runner.poll() is None, (tmp_path / "first.log").read_text()[-3000:]
            time.sleep(0.05)
        else:
            raise AssertionError("the run never finished a trial")
        os.kill(runner.pid, signal.SIGKILL)
        assert runner.wait(timeout=30) == -signal.SIGKILL
    finally:
        if runner.poll() is None:
            os.kill(runner.pid, signal.SIGKILL)
        log.close()
    done, unfinished = _state(out / "trials")
    assert done and unfinished and len(done) < ATTEMPTS
    before = {name: (out / "trials" / name / "trial.json").read_bytes() for name in done}

    # An interrupted run can be reported: what is finished, and how much is missing.
    report = aka_subprocess("report", str(out), "--format", "json", timeout=60)
    assert report.returncode == 0, report.stderr
    summary = json.loads(report.stdout)["summary"]
    assert summary["run"]["finished"] == len(done)
    assert summary["run"]["missing"] == ATTEMPTS - len(done)
    assert not summary["run"]["complete"]

    resumed = aka_subprocess("run", "--resume", "--out", str(out), "--progress", "plain")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert f"{len(done)} of {ATTEMPTS} trials finished earlier" in resumed.stderr

    records = trial_records(out)
    folders = sorted(p.name for p in (out / "trials").iterdir())
    expected = [f"oracle__triton2triton__scale_add__{i}" for i in range(ATTEMPTS)]
    assert folders == expected and sorted(records) == expected  # one folder, one record each
    assert sorted(r["attempt"] for r in records.values()) == list(range(ATTEMPTS))
    assert all(r["verdict"] == "ok" for r in records.values())
    for name, data in before.items():  # finished trials were kept, not rerun
        assert (out / "trials" / name / "trial.json").read_bytes() == data
    assert not list(out.rglob(".trial.json.*"))  # no torn temporary records left
    assert all((out / "trials" / name / "final" / "kernel.py").is_file() for name in folders)
    manifest = json.loads((out / "manifest.json").read_text())
    assert [s["resumed"] for s in manifest["sessions"]] == [False, True]
    assert manifest["sessions"][1]["already_finished"] == len(done)
    assert "ended_at" in manifest["sessions"][1] and "ended_at" not in manifest["sessions"][0]
    run_log = (out / "run.log").read_text()
    assert "was interrupted: wiping its folder" in run_log
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["finished"] == ATTEMPTS and summary["run"]["complete"]

    again = aka_subprocess("run", "--resume", "--out", str(out), "--progress", "plain")
    assert again.returncode == 0 and "0 to run" in again.stderr  # nothing left: nothing rerun
    assert trial_records(out) == records
