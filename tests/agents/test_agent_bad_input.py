"""Agent programs that are missing, unauthenticated, crash, print garbage or never exit:
each gives a clear failure class and a message saying what to fix (adapters run directly,
no evaluation, so these are fast)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from agent_helpers import fake_executable

from agentkernelarena.agents.registry import create_agent

CLAUDE_AUTH_ERROR = json.dumps({
    "type": "result", "subtype": "success", "is_error": True, "num_turns": 1,
    "result": "Invalid API key · Please run /login", "total_cost_usd": 0,
    "usage": {"input_tokens": 0, "output_tokens": 0}})


@pytest.mark.parametrize("agent, script, failure, needle", [
    ("claude_code", "echo 'Segmentation fault (core dumped)' >&2; exit 139", "crashed", "139"),
    ("claude_code", "echo '\\x00garbage{{{'; echo 'not json'; exit 0", "crashed",
     "no result event"),
    ("claude_code", f"echo '{CLAUDE_AUTH_ERROR}'; exit 1", "not_authenticated", "/login"),
    ("codex", "echo 'Error: unexpected status 401 Unauthorized' >&2; exit 1",
     "not_authenticated", "OPENAI_API_KEY"),
    ("codex", "echo '{\"type\": \"thread.started\"}'; exit 0", "crashed", "turn.completed"),
    ("cursor", "echo 'Authentication required: set CURSOR_API_KEY' >&2; exit 1",
     "not_authenticated", "CURSOR_API_KEY"),
    ("cursor", "echo 'rate limit exceeded (429)' >&2; exit 2", "rate_limited", "rate-limited"),
    ("mini_swe_agent", "exit 1", "crashed", "no trajectory"),
])
def test_bad_programs_are_classified(agent, script, failure, needle, tmp_path: Path, make_run):
    exe = fake_executable(tmp_path / "bin", "fake-cli", script)
    args = {"executable": str(exe)}
    if agent == "mini_swe_agent":
        args["model"] = "openai/x"
    outcome = create_agent(agent, args).run(make_run())
    assert outcome.failure == failure, outcome.message
    assert needle in outcome.message, outcome.message


def test_program_that_never_exits_is_stopped(tmp_path: Path, make_run):
    exe = fake_executable(tmp_path / "bin", "claude", "echo '{\"type\": \"system\"}'\nsleep 600\n")
    started = time.monotonic()
    outcome = create_agent("claude_code", {"executable": str(exe)}).run(make_run(seconds=2))
    assert outcome.failure == "timed_out"
    assert time.monotonic() - started < 2 + 5


@pytest.mark.parametrize("agent", ["claude_code", "codex", "cursor", "mini_swe_agent", "geak"])
def test_missing_program_says_how_to_install(agent, make_run, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("AKA_TOOLS_DIR", str(tmp_path))
    args = {"executable": str(tmp_path / "nope")} if agent != "geak" else {
        "template": f"{tmp_path}/nope {{workspace}}"}
    if agent == "mini_swe_agent":
        args["model"] = "openai/x"
    outcome = create_agent(agent, args).run(make_run())
    assert outcome.failure == "not_installed"
    assert "install" in outcome.message or "executable=" in outcome.message


def test_geak_template_runs_with_usage_file(tmp_path: Path, make_run):
    exe = fake_executable(tmp_path / "geak" / "bin", "geak-agent", (
        'echo "$@" > "$AKA_WORKSPACE/args.txt"\n'
        'echo \'{"tokens_in": 10, "tokens_out": 5, "cost_usd": 0.5, "turns": 2}\''
        ' > "$2/usage.json"\n'))
    agent = create_agent("geak", {"template": f"{exe} {{entry_file}} {{out_dir}} --x",
                                  "usage_file": "usage.json"})
    run = make_run()
    outcome = agent.run(run)
    assert outcome.failure == "ok", outcome.message
    assert (run.workspace / "args.txt").read_text().split()[:3] == \
        ["kernel.py", str(run.out_dir), "--x"]
    assert (outcome.tokens_in, outcome.cost_usd, outcome.cost_source) == (10, 0.5, "agent")
