"""The OpenAI-compatible agent against the fake server: the scripted edit, and every failure."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fake_model_server import MARKER, USAGE

from agentkernelarena.agents.openai_compat.tools import ToolError, Tools, resolve_inside
from agentkernelarena.agents.registry import create_agent
from agentkernelarena.runner import run_trial


def _agent(url: str, **extra: str):
    return create_agent("openai_compat", {"base_url": f"{url}/v1", "model": "fake-model",
                                          **extra})


@pytest.mark.e2e
def test_scripted_edit_is_made_checked_evaluated_and_counted(task, tmp_path: Path, fake_model,
                                                             trial_options):
    args = {"base_url": f"{fake_model.url}/v1", "model": "gpt-5-mini"}
    record = run_trial(task, {"name": "openai_compat", "args": args}, tmp_path / "t",
                       trial_options)
    assert MARKER in (Path(record["workspace"]) / "kernel.py").read_text()
    assert record["changed_files"] == ["kernel.py"]
    assert record["evaluation"]["compiled"] and record["status"] == "completed"
    outcome = record["iterations"][0]["outcome"]
    assert outcome["failure"] == "ok" and outcome["details"]["finished"]
    assert outcome["turns"] == 4  # read, write, check, finish
    assert outcome["tokens_in"] == 4 * (USAGE["input"] + USAGE["cached"])
    assert outcome["tokens_cached"] == 4 * USAGE["cached"]
    assert outcome["tokens_out"] == 4 * USAGE["output"]
    assert outcome["cost_source"] == "harness" and outcome["cost_usd"] > 0
    assert record["iterations"][0]["agent_checks"][0]["verdict"]  # run_check went through
    assert fake_model.conversation.saw_check_output  # and its verdict reached the model
    assert Path(outcome["transcript"]).read_text().count("\n") >= 8


@pytest.mark.parametrize("mode, failure", [("unauthorized", "not_authenticated"),
                                           ("rate_limited", "rate_limited"),
                                           ("context_overflow", "context_overflow"),
                                           ("garbage", "crashed")])
def test_api_failures_are_classified(mode, failure, fake_model_factory, make_run, monkeypatch):
    monkeypatch.setattr("agentkernelarena.agents.openai_compat.client.time.sleep",
                        lambda s: None)  # no backoff waits in tests
    server = fake_model_factory(mode)
    outcome = _agent(server.url).run(make_run())
    assert outcome.failure == failure, outcome.message
    assert outcome.message


def test_unreachable_endpoint_and_deadline(make_run):
    outcome = _agent("http://127.0.0.1:9").run(make_run())
    assert outcome.failure == "crashed" and "cannot reach" in outcome.message
    outcome = _agent("http://127.0.0.1:9").run(make_run(seconds=-1))
    assert outcome.failure == "timed_out"


def test_unauthenticated_trial_is_an_error_with_a_fix(task, tmp_path: Path, fake_model_factory,
                                                      trial_options):
    server = fake_model_factory("unauthorized")
    started = time.monotonic()
    record = run_trial(task, {"name": "openai_compat", "args": {
        "base_url": f"{server.url}/v1", "model": "m"}}, tmp_path / "t", trial_options)
    assert record["status"] == "error" and record["verdict"] == "agent_error"
    assert record["agent_failure"] == "not_authenticated"
    assert "401" in record["messages"][-1]
    assert time.monotonic() - started < 30


def test_turn_limit(fake_model, make_run):
    outcome = _agent(fake_model.url, max_turns="2").run(make_run())
    assert outcome.failure == "ok" and outcome.turns == 2
    assert "turn limit" in outcome.message


def test_tools_stay_inside_the_workspace(workspace: Path, tmp_path: Path):
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    (workspace / "link.txt").symlink_to(outside)
    tools = Tools(workspace, check=lambda: "verdict: ok")
    for bad in ("../secret.txt", str(outside), "link.txt"):
        assert tools.call("read_file", f'{{"path": "{bad}"}}').startswith("error:"), bad
        assert tools.call("write_file", f'{{"path": "{bad}", "content": "x"}}') \
            .startswith("error:"), bad
    assert outside.read_text() == "secret"
    assert "forward" in tools.call("read_file", '{"path": "kernel.py"}')
    assert tools.call("write_file", '{"path": "sub/new.py", "content": "x"}') == "wrote sub/new.py"
    assert tools.call("run_check", "{}") == "verdict: ok"
    assert tools.call("nope", "{}").startswith("error: unknown tool")
    assert tools.call("read_file", "not json").startswith("error:")
    with pytest.raises(ToolError):
        resolve_inside(workspace, "/etc/passwd")
