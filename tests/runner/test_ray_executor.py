"""`--executor ray`: shipping trials back without a shared file system (no Ray needed), and a
run on a local Ray with two logical GPUs (Ray comes with the dev extra; ~15 s)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from run_helpers import FAST_TIMING, FIXTURE_TASKS

from agentkernelarena.runner.config import config_from_mapping
from agentkernelarena.runner.preflight import prepare
from agentkernelarena.runner.ray_executor import install_trial, pack, unpack


def _plan(tmp_path: Path, **fields):
    return prepare(config_from_mapping({
        "agents": ["oracle"], "tasks": ["triton2triton/scale_add"],
        "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu", "timing": FAST_TIMING,
        "out": str(tmp_path / "run"), **fields}, "test"))


def test_pack_skips_caches_and_unpack_restores(tmp_path: Path):
    src = tmp_path / "src"
    (src / "iterations" / "1").mkdir(parents=True)
    (src / "iterations" / "1" / "outcome.json").write_text("{}")
    (src / "__pycache__").mkdir()
    (src / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (src / "trial.json").write_text("{}")
    (src / "link").symlink_to("/etc/passwd")
    data, skipped = pack(src, exclude=frozenset({"trial.json"}))
    assert skipped == ["link"]
    unpack(data, tmp_path / "dest")
    files = sorted(p.relative_to(tmp_path / "dest").as_posix()
                   for p in (tmp_path / "dest").rglob("*") if p.is_file())
    assert files == ["iterations/1/outcome.json"]


def test_install_trial_rewrites_paths_and_writes_the_record_last(tmp_path: Path):
    plan = _plan(tmp_path)
    key = plan.trials[0]
    remote = "/tmp/aka-ray-trial-xyz/trials/" + key.id
    work = tmp_path / "remote"
    (work / "workspace").mkdir(parents=True)
    (work / "workspace" / "kernel.py").write_text("# k")
    data, _ = pack(work)
    record = {"task": key.task, "agent": "oracle", "agent_label": key.agent,
              "attempt": key.attempt, "verdict": "ok", "workspace": remote + "/workspace",
              "iterations": [{"prompt": remote + "/iterations/1/prompt.md"}]}
    plan.trial_dir(key).mkdir(parents=True)
    (plan.trial_dir(key) / "stale.txt").write_text("from an interrupted attempt")
    installed = install_trial(plan, key, record, data, remote, "10.0.0.7", [])
    local = str(plan.trial_dir(key))
    assert installed["workspace"] == local + "/workspace"
    assert installed["iterations"][0]["prompt"] == local + "/iterations/1/prompt.md"
    assert installed["executor"] == {"kind": "ray", "node": "10.0.0.7", "remote_dir": remote,
                                     "files_left_on_node": []}
    on_disk = json.loads((plan.trial_dir(key) / "trial.json").read_text())
    assert on_disk == installed
    assert (plan.trial_dir(key) / "workspace" / "kernel.py").read_text() == "# k"
    assert not (plan.trial_dir(key) / "stale.txt").exists()


def test_run_on_local_ray_with_logical_gpus(tmp_path: Path):
    ray = pytest.importorskip("ray")
    from agentkernelarena.runner.run import execute

    ray.init(num_cpus=2, num_gpus=2, include_dashboard=False, log_to_driver=False)
    try:
        plan = _plan(tmp_path, executor="ray", ray_eval_gpus=1, attempts=3, concurrency=2)
        outcome = execute(plan, live=False)
    finally:
        ray.shutdown()
    assert outcome.finished == 3 and not outcome.failed
    for key in plan.trials:
        folder = plan.trial_dir(key)
        record = json.loads((folder / "trial.json").read_text())
        assert record["verdict"] == "ok" and record["executor"]["kind"] == "ray"
        scheduler = record["evaluation"]["scheduler"]
        assert scheduler["executor"] == "ray" and scheduler["gpu_ids"] in (["0"], ["1"])
        assert scheduler["visible_devices"] == scheduler["gpu_ids"][0]  # one GPU each
        assert record["workspace"] == str(folder / "workspace")
        assert (folder / "final" / "kernel.py").is_file()
        assert (folder / "workspace" / "kernel.py").is_file()
    summary = json.loads((plan.out / "summary.json").read_text())
    assert summary["run"]["finished"] == 3
