"""`aka run --resume` with flags: each one matches the recorded run or is refused with the
difference in words; --tasks and --seed behave; --attempts N adds attempts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from run_helpers import FAST_TIMING, FIXTURE_TASKS, aka_subprocess, write_config

TASK = "triton2triton/scale_add"


@pytest.fixture(scope="module")
def one_trial_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of noop on the fixture task, one attempt, with a drawn seed."""
    folder = tmp_path_factory.mktemp("resume")
    config = write_config(folder / "run.yaml", agents=["noop"], timing=FAST_TIMING)
    result = aka_subprocess("run", "-c", str(config), "--out", str(folder / "out"),
                            "--progress", "plain")
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "out"


def test_resume_with_the_same_tasks_flag(aka, one_trial_run: Path):
    code, stdout, stderr = aka("run", "--resume", "--out", str(one_trial_run), "--tasks", TASK,
                               "--tasks-dir", str(FIXTURE_TASKS), "--dry-run")
    assert code == 0, stderr
    assert "1 trial(s): 1 finished, 0 to run" in stdout


def test_resume_refuses_changed_flags_in_words(aka, one_trial_run: Path):
    code, _, stderr = aka("run", "--resume", "--out", str(one_trial_run), "--max-iterations",
                          "5", "--dry-run")
    assert code == 2 and "max_iterations: 3 -> 5" in stderr
    code, _, stderr = aka("run", "--resume", "--out", str(one_trial_run), "--agent", "oracle",
                          "--dry-run")
    assert code == 2 and "agents: noop=noop" in stderr and "oracle" in stderr
    code, _, stderr = aka("run", "--resume", "--out", str(one_trial_run), "--attempts", "0")
    assert code == 2  # click refuses it before anything
    # Scheduling flags change how fast, not what the results mean: accepted.
    code, stdout, stderr = aka("run", "--resume", "--out", str(one_trial_run), "--concurrency",
                               "3", "--dry-run")
    assert code == 0, stderr


def test_resume_seed_names_the_drawn_seed(aka, one_trial_run: Path):
    run_seed = json.loads((one_trial_run / "manifest.json").read_text())["run_seed"]
    other = run_seed + 1
    code, _, stderr = aka("run", "--resume", "--out", str(one_trial_run), "--seed", str(other),
                          "--dry-run")
    assert code == 2 and "None" not in stderr
    assert f"drew its own seed {run_seed}" in stderr and str(other) in stderr
    code, _, stderr = aka("run", "--resume", "--out", str(one_trial_run), "--seed",
                          str(run_seed), "--dry-run")
    assert code == 0, stderr  # the run's own seed: the same run


def test_resume_adds_attempts_and_refuses_fewer(aka, one_trial_run: Path, tmp_path: Path):
    import shutil

    run = tmp_path / "grown"
    shutil.copytree(one_trial_run, run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["config"]["out"] = str(run)
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, stdout, stderr = aka("run", "--resume", "--out", str(run), "--attempts", "2",
                               "--dry-run")
    assert code == 0, stderr
    assert "2 trial(s): 1 finished, 1 to run" in stdout
    result = aka_subprocess("run", "--resume", "--out", str(run), "--attempts", "2",
                            "--progress", "plain")
    assert result.returncode == 0, result.stderr[-3000:]
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["identity"]["attempts"] == 2 and manifest["config"]["attempts"] == 2
    assert [p["attempt"] for p in manifest["plan"]] == [0, 1]
    assert manifest["attempts_added"][0]["from"] == 1
    assert sorted(p.parent.name for p in (run / "trials").glob("*/trial.json")) == [
        "noop__triton2triton__scale_add__0", "noop__triton2triton__scale_add__1"]
    summary = json.loads((run / "summary.json").read_text())
    assert summary["run"]["planned"] == 2 and summary["run"]["complete"]
    code, _, stderr = aka("run", "--resume", "--out", str(run), "--attempts", "1", "--dry-run")
    assert code == 2 and "attempts: 2 -> 1 (attempts can be added to a run, not removed)" \
        in stderr
    code, stdout, _ = aka("run", "--resume", "--out", str(run), "--dry-run")  # alone: all kept
    assert code == 0 and "2 trial(s): 2 finished, 0 to run" in stdout
