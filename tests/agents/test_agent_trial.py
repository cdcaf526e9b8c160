"""run_trial: the loop, the deadline, the record, and bad agents that must not stop a run."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import pytest
from fake_model_server import SED_EDIT

from agentkernelarena.agents.noop import NoopAgent
from agentkernelarena.agents.prompts import build_prompt
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import evaluate
from agentkernelarena.runner import TrialOptions, run_trial
from agentkernelarena.workspace import sandbox as sandboxing
from agentkernelarena.workspace.sandbox import SandboxStatus


def test_oracle_trial_scores_the_solution(task, tmp_path: Path, trial_options):
    record = run_trial(task, "oracle", tmp_path / "t", dataclasses.replace(
        trial_options, max_iterations=3))
    assert record["status"] == "completed"
    assert record["evaluation"]["compiled"] and record["verdict"] == "ok", record["messages"]
    assert record["changed_files"] == ["kernel.py"]
    assert len(record["iterations"]) == 1  # not iterative: a second run would do the same
    assert record["iterations"][0]["check"]["source"] == "final_evaluation"
    assert record["sandbox"]["kind"] == "in-process"
    on_disk = json.loads((tmp_path / "t" / "trial.json").read_text())
    assert on_disk["verdict"] == record["verdict"] and on_disk["schema"] == 1
    assert (tmp_path / "t" / "patch.diff").read_text().startswith("--- a/kernel.py")


def test_iterations_feed_the_check_into_the_next_prompt(task, tmp_path: Path, trial_options):
    cmd = 'echo "$AKA_ITERATION of $AKA_MAX_ITERATIONS" >> notes.txt; cp "$AKA_PROMPT_FILE" .'
    record = run_trial(task, {"name": "command", "args": {"cmd": cmd}}, tmp_path / "t",
                       dataclasses.replace(trial_options, max_iterations=2, sandbox="off"))
    first, second = record["iterations"]
    assert first["check"]["source"] == "local_check" and first["check"]["verdict"]
    assert "verdict:" in first["check"]["feedback"]
    assert second["check"]["source"] == "final_evaluation"
    prompt_2 = Path(second["prompt"]).read_text()
    assert "iteration 2" in prompt_2 and "What the local check said" in prompt_2
    assert first["check"]["feedback"].splitlines()[0] in prompt_2
    assert "held-out" not in prompt_2.lower().replace("held-out configurations", "")
    workspace = Path(record["workspace"])
    assert (workspace / "notes.txt").read_text() == "1 of 2\n2 of 2\n"
    assert record["sandboxed"] is False and "not sandboxed" in record["messages"][0]
    assert record["evaluation"]["ignored_files"]  # notes.txt is not an editable file


def test_time_limit_stops_the_agent_and_still_evaluates(task, tmp_path: Path, trial_options):
    cmd = f"{SED_EDIT}; sleep 600"
    started = time.monotonic()
    record = run_trial(task, {"name": "command", "args": {"cmd": cmd}}, tmp_path / "t",
                       dataclasses.replace(trial_options, max_iterations=3, time_limit_s=3))
    agent_time = record["usage"]["agent_wall_s"]
    assert record["timed_out"] and record["agent_failure"] == "timed_out"
    assert 2.5 < agent_time < 3 + 5  # the deadline, plus the SIGTERM grace at most
    assert len(record["iterations"]) == 1
    assert record["status"] == "completed" and record["evaluation"] is not None
    assert record["changed_files"] == ["kernel.py"]  # what it did before the limit counts
    assert record["evaluation"]["compiled"]
    assert time.monotonic() - started < 120


def test_crashing_agent_gets_a_verdict_and_a_message(task, tmp_path: Path, trial_options):
    record = run_trial(task, {"name": "command", "args": {"cmd": "echo boom >&2; exit 3"}},
                       tmp_path / "t", dataclasses.replace(trial_options, max_iterations=1))
    assert record["status"] == "completed" and record["agent_failure"] == "crashed"
    assert "status 3" in record["messages"][-1] and "boom" in record["messages"][-1]
    assert record["evaluation"] is not None  # the unchanged workspace is still scored


def test_missing_program_is_an_error_trial_without_evaluation(task, tmp_path: Path,
                                                               trial_options, no_agent_env):
    record = run_trial(task, {"name": "claude_code", "args": {"executable": "/nonexistent/cl"}},
                       tmp_path / "t", dataclasses.replace(trial_options, max_iterations=3))
    assert record["status"] == "error" and record["verdict"] == "agent_error"
    assert record["agent_failure"] == "not_installed" and record["score"] == 0
    assert record["evaluation"] is None and len(record["iterations"]) == 1
    assert "install" in record["messages"][-1]
    # ... and the next trial of the run goes on.
    assert run_trial(task, "noop", tmp_path / "t2", trial_options)["status"] == "completed"


def test_deleted_kernel_is_a_compile_error(task, tmp_path: Path, trial_options):
    record = run_trial(task, {"name": "command", "args": {"cmd": "rm kernel.py"}},
                       tmp_path / "t", trial_options)
    assert record["verdict"] == "compile_error" and record["score"] == 0
    assert "none of the editable files" in record["evaluation"]["reasons"][0]


def test_adapter_exception_becomes_a_crash(task, tmp_path: Path, trial_options, monkeypatch):
    def explode(self, run):
        raise RuntimeError("adapter bug")

    monkeypatch.setattr(NoopAgent, "run", explode)
    record = run_trial(task, "noop", tmp_path / "t", trial_options)
    assert record["agent_failure"] == "crashed"
    assert "adapter bug" in record["messages"][-1]
    assert (tmp_path / "t" / "iterations" / "1" / "adapter-error.txt").exists()
    assert record["evaluation"] is not None


def test_configuration_mistakes_raise_before_the_trial(task, tmp_path: Path, trial_options):
    with pytest.raises(AkaError, match="needs a command"):
        run_trial(task, "command", tmp_path / "a", trial_options)
    with pytest.raises(AkaError, match="unknown agent"):
        run_trial(task, "nobody", tmp_path / "b", trial_options)
    with pytest.raises(AkaError, match="sandbox mode"):
        run_trial(task, {"name": "command", "args": {"cmd": "true"}}, tmp_path / "c",
                  TrialOptions(sandbox="maybe"))


def test_prompt_has_card_rules_and_budget(task):
    prompt = build_prompt(task, iteration=2, max_iterations=3, time_left_s=1800,
                          previous_feedback="verdict: incorrect\nreason: wrong",
                          previous_verdict="incorrect", workspace="/ws")
    assert "iteration 2" in prompt and "at most 3" in prompt and "30 minutes" in prompt
    assert "# Task triton2triton/scale_add" in prompt  # the task card
    assert "Only `kernel.py`" in prompt and "./check" in prompt
    assert "Triton kernels" in prompt  # the category's guidance
    assert "make it correct before making it faster" in prompt
    first = build_prompt(task, iteration=1, max_iterations=3)
    assert "What the local check said" not in first


NO_BWRAP = SandboxStatus(False, "bubblewrap (bwrap) is not installed; install it with "
                                "`apt-get install -y bubblewrap`")


@pytest.mark.parametrize("mode", ["on", "required", "auto"])
def test_no_sandbox_refuses_a_program_agent_before_the_trial(task, tmp_path: Path, trial_options,
                                                             monkeypatch, mode):
    monkeypatch.setattr(sandboxing, "bwrap_status", lambda: NO_BWRAP)
    with pytest.raises(AkaError) as caught:
        run_trial(task, {"name": "command", "args": {"cmd": "true"}}, tmp_path / "t",
                  dataclasses.replace(trial_options, sandbox=mode))
    text = str(caught.value)
    assert "bwrap) is not installed" in text  # why, from bwrap_status()
    assert "apt-get install -y bubblewrap" in text and "--sandbox off" in text  # the fixes
    assert not (tmp_path / "t").exists()  # nothing of the trial was made
    # In-process agents run no agent code: nothing to sandbox, nothing refused.
    record = run_trial(task, "noop", tmp_path / "n", dataclasses.replace(trial_options,
                                                                         sandbox=mode))
    assert record["status"] == "completed" and record["sandbox"]["kind"] == "in-process"


def test_sandbox_off_runs_unsandboxed_and_says_so(task, tmp_path: Path, trial_options,
                                                  monkeypatch, caplog):
    monkeypatch.setattr(sandboxing, "bwrap_status", lambda: NO_BWRAP)
    record = run_trial(task, {"name": "command", "args": {"cmd": "true"}}, tmp_path / "t",
                       dataclasses.replace(trial_options, sandbox="off"))
    assert record["status"] == "completed" and record["sandboxed"] is False
    assert record["sandbox"] == {"kind": "none", "sandboxed": False,
                                 "reason": "turned off with --sandbox off"}
    assert "not sandboxed" in record["messages"][0]
    assert any("WITHOUT a sandbox" in r.getMessage() and "not trustworthy" in r.getMessage()
               for r in caplog.records)


def test_unsandboxed_evaluation_worker_is_recorded(task, tmp_path: Path, trial_options, caplog):
    def evaluator(*args, **kwargs):
        return {**evaluate(*args, **kwargs),
                "worker_sandbox": {"sandboxed": False, "reason": "no bwrap for the worker"}}

    record = run_trial(task, "noop", tmp_path / "t",
                       dataclasses.replace(trial_options, evaluator=evaluator))
    assert record["sandboxed"] is True  # the agent's side is fine
    assert "evaluation worker not sandboxed: no bwrap for the worker" in record["messages"]
    assert any("evaluation worker runs WITHOUT a sandbox" in r.getMessage()
               for r in caplog.records)
    plain = run_trial(task, "noop", tmp_path / "p", trial_options)  # no field: unknown
    assert not any("worker" in m for m in plain["messages"])
