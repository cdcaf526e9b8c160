"""Run configs: parsing, flags over files, identity; every bad config fails before anything
starts, with a one-line error and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from run_helpers import FIXTURE_TASKS, aka_subprocess, write_config

from agentkernelarena.errors import AkaError
from agentkernelarena.runner.config import (
    config_from_mapping,
    identity,
    identity_diff,
    merge_config,
)
from agentkernelarena.runner.manifest import KIND, MANIFEST

TASK = "triton2triton/scale_add"
BASE = ("run", "--tasks-dir", str(FIXTURE_TASKS), "--platform", "cpu")


def test_config_file_and_flags_merge(tmp_path: Path):
    raw = {"agents": [{"name": "command", "label": "a", "args": {"cmd": "true"}}, "noop"],
           "tasks": TASK, "attempts": 3, "tasks_dirs": ["tasks"], "out": "runs/x"}
    config = merge_config(raw, tmp_path / "run.yaml", {"attempts": 5, "concurrency": 2})
    assert config.attempts == 5 and config.concurrency == 2 and config.tasks == [TASK]
    assert config.tasks_dirs == [tmp_path / "tasks"]  # relative to the config file
    assert config.out == tmp_path / "runs" / "x"
    assert [a.name for a in config.agents] == ["command", "noop"]
    assert config.agents[0].args == {"cmd": "true"} and config.agents[0].label == "a"


def test_identity_ignores_scheduling_and_names_differences():
    one = config_from_mapping({"agents": ["noop"], "tasks": [TASK], "attempts": 2}, "t")
    two = config_from_mapping({"agents": ["noop"], "tasks": [TASK], "attempts": 3,
                               "concurrency": 8, "executor": "ray"}, "t")
    for c in (one, two):
        c.agents[0].label = "noop"
    a, b = identity(one, [TASK], "cpu"), identity(two, [TASK], "cpu")
    assert identity_diff(a, b) == []  # more attempts: added on resume
    assert identity_diff(b, a) == ["attempts: 3 -> 2 (attempts can be added to a run, not "
                                   "removed)"]
    two.attempts = 2
    assert identity_diff(a, identity(two, [TASK], "cpu")) == []  # scheduling is not identity
    assert "tasks: 1 added" in identity_diff(a, identity(one, [TASK, "x/y"], "cpu"))[0]


def test_vs_compile_is_identity_only_when_on():
    plain = config_from_mapping({"agents": ["noop"], "tasks": [TASK]}, "t")
    versus = config_from_mapping({"agents": ["noop"], "tasks": [TASK], "vs_compile": True}, "t")
    assert versus.vs_compile is True and plain.vs_compile is False
    old = identity(plain, [TASK], "cpu")
    assert "vs_compile" not in old  # runs recorded before the option keep their identity
    assert identity_diff(old, identity(versus, [TASK], "cpu")) == ["vs_compile: None -> True"]


@pytest.mark.parametrize("raw, message", [
    ({"agents": ["noop"], "tasks": [TASK], "atempts": 2}, "unknown field(s) atempts"),
    ({"agents": ["noop"], "tasks": [TASK], "attempts": 0}, "field 'attempts'"),
    ({"agents": ["noop"], "tasks": [TASK], "attempts": "two"}, "field 'attempts'"),
    ({"agents": [{"name": "noop", "model": "x"}], "tasks": [TASK]}, "unknown key(s) model"),
    ({"agents": [], "tasks": [TASK]}, "field 'agents'"),
    ({"agents": ["noop"], "tasks": [TASK], "sandbox": "maybe"}, "field 'sandbox'"),
    ({"agents": ["noop"], "tasks": [TASK], "executor": "slurm"}, "field 'executor'"),
    ({"agents": ["noop"], "tasks": [TASK], "gpus": [-1]}, "field 'gpus'"),
    ({"agents": ["noop"], "tasks": [TASK], "time_limit_s": 0}, "field 'time_limit_s'"),
    ({"agents": ["noop"], "tasks": [TASK], "vs_compile": "yes"}, "field 'vs_compile'"),
    ({"agents": ["noop"], "tasks": [TASK], "eval_lanes": 0}, "field 'eval_lanes'"),
])
def test_bad_config_fields(raw, message):
    with pytest.raises(AkaError, match=message.replace("(", r"\(").replace(")", r"\)")):
        config_from_mapping(raw, "run config x.yaml")


def _fake_run(folder: Path, attempts: int = 1) -> None:
    folder.mkdir(parents=True)
    ident = {"agents": [{"name": "noop", "args": {}, "label": "noop"}], "task_ids": [TASK],
             "attempts": attempts, "platform": "cpu", "max_iterations": 3,
             "time_limit_s": None, "sandbox": "auto", "seed": None, "label": None,
             "timing": None}
    (folder / MANIFEST).write_text(json.dumps({"kind": KIND, "identity": ident, "plan": [],
                                               "run_seed": 1, "sessions": []}))


BAD = [
    (("--agent", "nosuch", "--tasks", TASK), "unknown agent 'nosuch'"),
    (("--agent", "command", "--agent-arg", "nope=1", "--tasks", TASK), "unknown setting"),
    (("--agent", "command", "--tasks", TASK), "agent command"),  # cmd is required
    (("--agent", "noop", "--tasks", "nosuch/*"), "matches no task"),
    (("--agent", "noop", "--agent", "noop", "--tasks", TASK), "two agents have the label"),
    (("--agent-arg", "cmd=1", "--tasks", TASK), "--agent-arg needs --agent"),
    (("--agent", "noop", "--tasks", TASK, "--gpus", "0"), "--gpus was given but the platform"),
    (("--agent", "noop", "--tasks", TASK, "--ray-address", "auto"), "only for --executor ray"),
    (("--tasks", TASK), "no agent given"),
    (("--agent", "noop"), "no tasks given"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[b[1] for b in BAD])
def test_bad_run_flags_fail_before_anything_starts(aka, tmp_path: Path, args, message):
    out = tmp_path / "out"
    code, stdout, stderr = aka(*BASE, *args, "--out", str(out))
    assert code == 2, stderr
    assert message in stderr and stderr.startswith("error: ")
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) <= 2
    assert not out.exists()


def test_platform_that_is_not_here(aka, tmp_path: Path):
    code, _, stderr = aka("run", "--agent", "noop", "--tasks", TASK, "--tasks-dir",
                          str(FIXTURE_TASKS), "--platform", "cuda", "--out", str(tmp_path / "o"))
    assert code == 2 and "platform 'cuda' is not available" in stderr
    assert not (tmp_path / "o").exists()


def test_bad_config_files(aka, tmp_path: Path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("agents: [noop\ntasks: x\n")
    code, _, stderr = aka("run", "-c", str(broken))
    assert code == 2 and "not valid YAML" in stderr and "line" in stderr
    unknown = write_config(tmp_path / "unknown.yaml", agents=["nosuch"])
    code, _, stderr = aka("run", "-c", str(unknown), "--out", str(tmp_path / "o"))
    assert code == 2 and "unknown agent 'nosuch'" in stderr
    typo = write_config(tmp_path / "typo.yaml", attempt=3)
    code, _, stderr = aka("run", "-c", str(typo))
    assert code == 2 and "unknown field(s) attempt" in stderr
    code, _, stderr = aka("run", "-c", str(tmp_path / "missing.yaml"))
    assert code == 2 and "no such file" in stderr
    assert not (tmp_path / "o").exists()


def test_output_folder_of_another_run(aka, tmp_path: Path):
    run = tmp_path / "run"
    _fake_run(run, attempts=1)
    args = (*BASE, "--agent", "noop", "--tasks", TASK, "--out", str(run))
    code, _, stderr = aka(*args)
    assert code == 2 and "already holds a run" in stderr and "--resume" in stderr
    code, _, stderr = aka(*args, "--max-iterations", "2", "--resume")
    assert code == 2 and "belongs to another run" in stderr and "max_iterations: 3 -> 2" in stderr
    code, _, stderr = aka(*BASE, "--agent", "oracle", "--tasks", TASK, "--out", str(run),
                          "--resume")
    assert code == 2 and "agents:" in stderr
    assert sorted(p.name for p in run.iterdir()) == [MANIFEST]  # nothing written


def test_folder_that_is_not_a_run(aka, tmp_path: Path):
    folder = tmp_path / "stuff"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    code, _, stderr = aka(*BASE, "--agent", "noop", "--tasks", TASK, "--out", str(folder))
    assert code == 2 and "not empty and holds no run" in stderr
    code, _, stderr = aka("run", "--resume", "--out", str(tmp_path / "nothing"))
    assert code == 2 and "holds no run to resume" in stderr
    code, _, stderr = aka(*BASE, "--agent", "noop", "--tasks", TASK, "--resume")
    assert code == 2 and "--resume needs --out" in stderr


def test_dry_run_plans_without_running(aka, tmp_path: Path):
    out = tmp_path / "out"
    code, stdout, _ = aka(*BASE, "--agent", "noop", "--agent", "oracle", "--tasks", TASK,
                          "--attempts", "2", "--out", str(out), "--dry-run")
    assert code == 0 and "4 trial(s): 0 finished, 4 to run" in stdout
    assert "noop__triton2triton__scale_add__0" in stdout and not out.exists()


def test_error_has_no_traceback_in_a_real_process(tmp_path: Path):
    result = aka_subprocess(*BASE, "--agent", "nosuch", "--tasks", TASK, "--out",
                            str(tmp_path / "o"), timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("error: unknown agent 'nosuch'")
    assert "Traceback" not in result.stderr


def test_ray_executor_without_ray(aka, tmp_path: Path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    code, _, stderr = aka(*BASE, "--agent", "noop", "--tasks", TASK, "--executor", "ray",
                          "--out", str(tmp_path / "o"))
    assert code == 2 and "Ray is not installed" in stderr and "pip install" in stderr
    assert not (tmp_path / "o").exists()
