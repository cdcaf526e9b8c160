"""Planning and resume: trial ids, paired seeds, what counts as finished, the folder lock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from run_helpers import FIXTURE_TASKS

from agentkernelarena.errors import AkaError
from agentkernelarena.runner.config import config_from_mapping
from agentkernelarena.runner.plan import (
    FINAL,
    TrialKey,
    read_trial,
    save_final_files,
    scan,
)
from agentkernelarena.runner.preflight import prepare
from agentkernelarena.runner.run import RunLock
from agentkernelarena.tasks import load_task

TASK = "triton2triton/scale_add"


def _plan(tmp_path: Path, **fields):
    raw = {"agents": [{"name": "noop", "label": "a"}, {"name": "oracle", "label": "b"}],
           "tasks": [TASK], "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu",
           "attempts": 2, "out": str(tmp_path / "run"), **fields}
    return prepare(config_from_mapping(raw, "test"), resume=True)


def _record(key: TrialKey, **extra) -> dict:
    return {"task": key.task, "agent": "noop", "agent_label": key.agent,
            "attempt": key.attempt, "verdict": "ok", **extra}


def test_plan_order_ids_and_paired_seeds(tmp_path: Path):
    plan = _plan(tmp_path, seed=7)
    assert [k.id for k in plan.trials] == [
        "a__triton2triton__scale_add__0", "b__triton2triton__scale_add__0",
        "a__triton2triton__scale_add__1", "b__triton2triton__scale_add__1"]
    a0, b0, a1, _ = plan.trials
    assert plan.trial_seed(a0) == plan.trial_seed(b0)  # A/B: same held-out draws
    assert plan.trial_seed(a0) != plan.trial_seed(a1)
    assert plan.trial_seed(a0) == _plan(tmp_path, seed=7).trial_seed(a0)  # reproducible
    assert plan.trial_dir(a0).parent == plan.out / "trials"  # flat: the sandbox hides them all
    assert not plan.out.exists()  # planning writes nothing


def test_scan_finished_unfinished_and_foreign(tmp_path: Path):
    plan = _plan(tmp_path)
    a0, b0, a1, b1 = plan.trials
    for key in (a0, b0, a1):
        plan.trial_dir(key).mkdir(parents=True)
    (plan.trial_dir(a0) / "trial.json").write_text(json.dumps(_record(a0)))
    (plan.trial_dir(b0) / "trial.json").write_text('{"task": "triton2')  # torn (not atomic)
    (plan.trial_dir(a1) / "trial.json").write_text(json.dumps(_record(a0)))  # another's
    done, todo, interrupted = scan(plan)
    assert done == [a0]
    assert todo == [b0, a1, b1]
    assert interrupted == [b0, a1]  # folders to wipe; b1 never started
    assert read_trial(plan.trial_dir(a0) / "trial.json", a0)["verdict"] == "ok"
    assert read_trial(plan.trial_dir(a0) / "trial.json", b0) is None


def test_save_final_files_copies_only_editable(tmp_path: Path):
    task = load_task(FIXTURE_TASKS / "triton2triton" / "scale_add")
    trial = tmp_path / "t"
    (trial / "workspace").mkdir(parents=True)
    (trial / "workspace" / "kernel.py").write_text("# mine\n")
    (trial / "workspace" / "notes.txt").write_text("scratch")
    assert save_final_files(task, trial)
    assert sorted(p.name for p in (trial / FINAL).iterdir()) == ["kernel.py"]
    assert (trial / FINAL / "kernel.py").read_text() == "# mine\n"
    assert not (trial / f".{FINAL}.tmp").exists()
    (trial / "workspace" / "kernel.py").write_text("# changed later\n")
    assert save_final_files(task, trial)  # an existing copy is kept
    assert (trial / FINAL / "kernel.py").read_text() == "# mine\n"


def test_lock_keeps_a_second_runner_out(tmp_path: Path):
    with RunLock(tmp_path):
        with pytest.raises(AkaError, match="in use by another aka run"):
            with RunLock(tmp_path):
                pass
    with RunLock(tmp_path):  # released
        pass


def test_resume_of_a_changed_plan_is_refused(tmp_path: Path):
    plan = _plan(tmp_path)
    plan.out.mkdir()
    from agentkernelarena.runner.manifest import KIND, MANIFEST

    (plan.out / MANIFEST).write_text(json.dumps({
        "kind": KIND, "identity": plan.identity, "run_seed": 5, "sessions": [],
        "plan": [{"id": "other__x__0"}]}))
    with pytest.raises(AkaError, match="planned trials differ"):
        _plan(tmp_path)
    (plan.out / MANIFEST).write_text(json.dumps({
        "kind": KIND, "identity": plan.identity, "run_seed": 5, "sessions": [],
        "plan": plan.plan_json()}))
    resumed = _plan(tmp_path)
    assert resumed.manifest is not None and resumed.run_seed == 5  # the recorded seed


def test_retry_errors_reruns_trials_whose_agent_could_not_run(tmp_path: Path):
    plan = _plan(tmp_path)
    a0, b0 = plan.trials[:2]
    for key, status in ((a0, "completed"), (b0, "error")):
        plan.trial_dir(key).mkdir(parents=True)
        (plan.trial_dir(key) / "trial.json").write_text(json.dumps(_record(key, status=status)))
    assert scan(plan)[0] == [a0, b0]  # by default an error trial is a finished trial
    plan.retry_errors = True
    done, todo, interrupted = scan(plan)
    assert done == [a0] and b0 in todo and interrupted == [b0]
