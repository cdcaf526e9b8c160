"""The sandbox policy of a run: on by default for every agent that runs code, refused at plan
time where bubblewrap cannot work, off only when asked for, and marked wherever it was off."""

from __future__ import annotations

import csv
import io
import json
import logging
from pathlib import Path

import pytest
import yaml
from run_helpers import FAST_TIMING, FIXTURE_TASKS, trial_records, write_config

from agentkernelarena.errors import AkaError
from agentkernelarena.runner.config import (
    RunConfig,
    config_from_mapping,
    identity,
    identity_diff,
    sandbox_mode,
)
from agentkernelarena.runner.manifest import MANIFEST
from agentkernelarena.runner.preflight import prepare
from agentkernelarena.workspace import sandbox as sandboxing
from agentkernelarena.workspace.sandbox import SandboxStatus

TASK = "triton2triton/scale_add"
BASE = ("run", "--tasks-dir", str(FIXTURE_TASKS), "--platform", "cpu")
COMMAND = ("--agent", "command", "--agent-arg", "cmd=true", "--tasks", TASK)
WHY = "bubblewrap (bwrap) is not installed; install it with `apt-get install -y bubblewrap`"


@pytest.fixture
def no_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine without a working bubblewrap."""
    monkeypatch.setattr(sandboxing, "bwrap_status", lambda: SandboxStatus(False, WHY))


def _assert_refusal(text: str) -> None:
    assert "must run in a sandbox" in text and WHY in text  # what, and why (bwrap_status)
    assert "apt-get install -y bubblewrap" in text and "--sandbox off" in text  # the fixes


def _config(**fields) -> RunConfig:
    raw = {"agents": [{"name": "command", "label": "cmd", "args": {"cmd": "true"}}],
           "tasks": [TASK], "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu", **fields}
    return config_from_mapping(raw, "test")


def test_modes_default_aliases_and_yaml_booleans(caplog):
    assert RunConfig().sandbox == "on" and _config().sandbox == "on"
    with caplog.at_level(logging.WARNING):
        assert sandbox_mode("required") == "on"
        assert not caplog.records  # an alias, not deprecated
        assert sandbox_mode("auto", "run config old.yaml") == "on"
    [warning] = caplog.records
    assert warning.getMessage().count("\n") == 0  # one line
    assert "old.yaml" in warning.getMessage() and "deprecated" in warning.getMessage()
    assert "means 'on'" in warning.getMessage()
    # YAML reads a bare off/on as booleans.
    assert _config(**yaml.safe_load("sandbox: off")).sandbox == "off"
    assert _config(**yaml.safe_load("sandbox: on")).sandbox == "on"
    with pytest.raises(AkaError, match="field 'sandbox'"):
        _config(sandbox="maybe")


def test_identity_of_old_runs_is_an_on_run():
    new = identity(_config(), [TASK], "cpu")
    assert new["sandbox"] == "on"
    for old_mode in ("auto", "required"):
        assert identity_diff({**new, "sandbox": old_mode}, new) == []
    assert identity_diff({**new, "sandbox": "auto"}, {**new, "sandbox": "off"}) == \
        ["sandbox: 'auto' -> 'off'"]


def test_plan_refuses_program_agents_without_bwrap(tmp_path: Path, no_bwrap):
    with pytest.raises(AkaError) as caught:
        prepare(_config(out=str(tmp_path / "run")))
    _assert_refusal(str(caught.value))
    assert "cmd" in caught.value.message  # the agent that needs it
    assert not (tmp_path / "run").exists()
    # `sandbox: off` runs them unsandboxed, explicitly; in-process agents need no sandbox.
    assert prepare(_config(out=str(tmp_path / "run"), sandbox="off")).config.sandbox == "off"
    noop = config_from_mapping({"agents": ["noop", "oracle"], "tasks": [TASK],
                                "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu",
                                "out": str(tmp_path / "run2")}, "test")
    assert prepare(noop).config.sandbox == "on"


@pytest.mark.parametrize("dry_run", [True, False])
def test_run_and_dry_run_refuse_without_bwrap(aka, tmp_path: Path, no_bwrap, dry_run: bool):
    out = tmp_path / "out"
    code, stdout, stderr = aka(*BASE, *COMMAND, "--out", str(out),
                               *(["--dry-run"] if dry_run else []))
    assert code == 2 and stderr.startswith("error: ") and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 2  # the error and its hint
    _assert_refusal(stderr)
    assert not out.exists() and "trial(s)" not in stdout
    # The same plan with the sandbox off explicitly.
    code, stdout, _ = aka(*BASE, *COMMAND, "--out", str(out), "--sandbox", "off", "--dry-run")
    assert code == 0 and "1 trial(s)" in stdout and "sandbox: OFF" in stdout


def test_old_config_with_auto_means_on_with_a_warning(aka, tmp_path: Path, no_bwrap):
    config = write_config(tmp_path / "old.yaml", sandbox="auto",
                          agents=[{"name": "command", "args": {"cmd": "true"}}])
    code, _, stderr = aka("run", "-c", str(config), "--out", str(tmp_path / "o"), "--dry-run")
    lines = stderr.strip().splitlines()
    assert lines[0].startswith("warning: ") and "'auto' is deprecated" in lines[0]
    assert code == 2  # `auto` no longer falls back to running without a sandbox
    _assert_refusal(stderr)


def test_resume_of_an_old_auto_run(aka, tmp_path: Path):
    out = tmp_path / "out"
    code, _, stderr = aka(*BASE, "--agent", "noop", "--tasks", TASK, "--out", str(out),
                          "--progress", "plain")
    assert code == 0, stderr
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["identity"]["sandbox"] == "on" and manifest["config"]["sandbox"] == "on"
    manifest["identity"]["sandbox"] = manifest["config"]["sandbox"] = "auto"  # as runs had
    (out / MANIFEST).write_text(json.dumps(manifest))
    code, stdout, stderr = aka("run", "--resume", "--out", str(out), "--dry-run")
    assert code == 0, stderr
    assert "1 finished, 0 to run" in stdout and "sandbox: on" in stdout
    assert stderr.count("deprecated") == 1


def test_sandbox_off_run_is_marked_in_the_trial_and_every_report(aka, tmp_path: Path,
                                                                 no_bwrap):
    out = tmp_path / "out"
    config = write_config(tmp_path / "run.yaml", sandbox=False,  # YAML's `sandbox: off`
                          agents=[{"name": "command", "label": "cmd", "args": {"cmd": "true"}},
                                  "oracle"], timing=FAST_TIMING)
    code, _, stderr = aka("run", "-c", str(config), "--out", str(out), "--progress", "plain")
    assert code == 0, stderr
    # The agent warned once (the in-process oracle not at all); `--sandbox off` also runs the
    # evaluation worker unsandboxed, which is warned once too.
    assert stderr.count("agent cmd runs WITHOUT a sandbox") + stderr.count(
        "agent command runs WITHOUT a sandbox") == 1, stderr
    assert stderr.count("evaluation worker runs WITHOUT a sandbox") == 1, stderr
    assert "WITHOUT a sandbox" in (out / "run.log").read_text()
    records = trial_records(out)
    cmd = records["cmd__triton2triton__scale_add__0"]
    assert cmd["sandboxed"] is False and cmd["sandbox"]["kind"] == "none"
    assert records["oracle__triton2triton__scale_add__0"]["sandboxed"] is True

    code, text, _ = aka("report", str(out), "--format", "json")
    report = json.loads(text)
    # Both trials' evaluation workers ran unsandboxed (--sandbox off is the whole run's).
    assert report["summary"]["unsandboxed_trials"] == 2
    assert report["summary"]["unsandboxed_agent_trials"] == 1
    assert report["summary"]["unsandboxed_worker_trials"] == 2
    assert "cmd__triton2triton__scale_add__0" in [u["id"] for u in report["summary"]["unsandboxed"]]
    assert any("not trustworthy" in note for note in report["summary"]["notes"])
    by_agent = {t["agent"]: t for t in report["trials"]}
    assert by_agent["cmd"]["sandboxed"] is False and by_agent["oracle"]["sandboxed"] is True
    assert report["summary"]["agents"]["cmd"]["unsandboxed_trials"] == 1
    code, text, _ = aka("report", str(out), "--format", "csv")
    rows = {r["agent"]: r for r in csv.DictReader(io.StringIO(text))}
    assert rows["cmd"]["sandboxed"] == "False" and rows["oracle"]["sandboxed"] == "True"
    assert rows["oracle"]["worker_sandboxed"] == "False"
    code, text, _ = aka("report", str(out), "--format", "md")
    assert "## Unsandboxed trials" in text and "not trustworthy" in text
    assert "`cmd__triton2triton__scale_add__0`: agent not sandboxed" in text
    assert "`oracle__triton2triton__scale_add__0`: evaluation worker not sandboxed" in text
    code, text, _ = aka("report", str(out), "--trials")
    assert "2 of 2 trial(s) ran without a sandbox" in text and "not trustworthy" in text
    assert "NO (agent" in text  # the trials table's marker column
