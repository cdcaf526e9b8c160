"""End to end with the REAL agent programs against the local fake model server.

Claude Code and Codex come from npm, mini-swe-agent from PyPI (scripts/install-agent-clis.sh
pins them); each test skips cleanly when its program is missing. Each trial runs in the sandbox
where bubblewrap works, so these also prove that the CLIs run inside it and reach both the
model (shared network) and the local check (unix socket). Cursor has no public package: it is
tested with a fake executable that prints its stream-json (see test_agent_bad_input.py too).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from agent_helpers import fake_executable, sample, tool
from fake_model_server import MARKER, SED_EDIT, USAGE

from agentkernelarena.agents.registry import create_agent
from agentkernelarena.runner import run_trial

pytestmark = pytest.mark.e2e
PER_CALL = USAGE["input"] + USAGE["cached"]


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLIs keep state in $HOME; without a sandbox it would be the tester's real one."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))


def _require(name: str) -> str:
    path = tool(name)
    if path is None:
        pytest.skip(f"{name} is not installed (scripts/install-agent-clis.sh installs it)")
    return path


def _assert_edit_evaluated(record: dict, fake) -> dict:
    workspace = Path(record["workspace"])
    assert MARKER in (workspace / "kernel.py").read_text(), record["messages"]
    assert record["changed_files"] == ["kernel.py"]
    assert record["status"] == "completed" and record["agent_failure"] == "ok", record["messages"]
    assert record["evaluation"]["compiled"], record["evaluation"]["reasons"]
    assert record["evaluation"]["held_out"]["evaluated"]
    iteration = record["iterations"][0]
    # The agent ran ./check inside its sandbox; the arena evaluated and answered it.
    assert iteration["agent_checks"] and iteration["agent_checks"][0]["verdict"]
    assert fake.conversation.saw_check_output
    return iteration["outcome"]


def test_claude_code(task, tmp_path: Path, fake_model, trial_options, no_agent_env,
                     monkeypatch):
    exe = _require("claude")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-fake-for-tests")
    record = run_trial(task, {"name": "claude_code", "args": {
        "executable": exe, "model": "fake-model", "base_url": fake_model.url}},
        tmp_path / "t", trial_options)
    outcome = _assert_edit_evaluated(record, fake_model)
    calls = len(fake_model.conversation.requests)  # Read, Edit, Bash(./check), answer
    assert calls == 4
    assert outcome["turns"] == 4
    assert outcome["tokens_in"] == calls * PER_CALL
    assert outcome["tokens_cached"] == calls * USAGE["cached"]
    assert outcome["tokens_out"] == calls * USAGE["output"]
    assert outcome["cost_source"] == "agent" and outcome["cost_usd"] > 0
    assert record["usage"]["tokens_in"] == outcome["tokens_in"]


def test_claude_code_unauthenticated_stops_early(tmp_path: Path, fake_model_factory, make_run,
                                                 no_agent_env, monkeypatch):
    exe = _require("claude")
    server = fake_model_factory("unauthorized")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-wrong")
    agent = create_agent("claude_code", {"executable": exe, "base_url": server.url,
                                         "model": "fake-model"})
    started = time.monotonic()
    outcome = agent.run(make_run(seconds=120))
    assert outcome.failure == "not_authenticated", outcome.message
    assert "ANTHROPIC_API_KEY" in outcome.message
    assert time.monotonic() - started < 30  # not Claude Code's minutes of retries


def test_codex(task, tmp_path: Path, fake_model, trial_options, no_agent_env, monkeypatch):
    exe = _require("codex")
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text(f'''model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "{fake_model.url}/v1"
wire_api = "responses"
env_key = "FAKE_MODEL_KEY"

[features]
plugins = false
remote_plugin = false
apps = false

[analytics]
enabled = false

[feedback]
enabled = false
''')
    monkeypatch.setenv("FAKE_MODEL_KEY", "sk-fake")
    record = run_trial(task, {"name": "codex", "args": {
        "executable": exe, "codex_home": str(home), "price_in": "1.25", "price_out": "10"}},
        tmp_path / "t", trial_options)
    outcome = _assert_edit_evaluated(record, fake_model)
    calls = len(fake_model.conversation.requests)  # cat, sed, ./check, answer
    assert calls == 4
    assert outcome["tokens_in"] == calls * PER_CALL
    assert outcome["tokens_cached"] == calls * USAGE["cached"]
    assert outcome["tokens_out"] == calls * USAGE["output"]
    # Codex reports no cost: the harness priced the tokens and says so.
    assert outcome["cost_source"] == "harness"
    assert outcome["cost_usd"] == pytest.approx(
        (calls * USAGE["input"] * 1.25 + calls * USAGE["cached"] * 1.25
         + calls * USAGE["output"] * 10) / 1e6)
    if record["sandboxed"]:  # its state (sessions, sqlite) stayed on the sandbox's tmpfs
        assert sorted(p.name for p in home.iterdir()) == ["config.toml"]


def test_mini_swe_agent(task, tmp_path: Path, fake_model, trial_options, no_agent_env,
                        monkeypatch):
    exe = _require("mini")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    record = run_trial(task, {"name": "mini_swe_agent", "args": {
        "executable": exe, "model": "openai/fake-model", "base_url": f"{fake_model.url}/v1",
        "price_in": "1", "price_out": "2", "price_cached": "0.5"}},
        tmp_path / "t", trial_options)
    outcome = _assert_edit_evaluated(record, fake_model)
    calls = len(fake_model.conversation.requests)  # cat, sed, ./check, submit
    assert outcome["turns"] == calls == 4
    assert outcome["tokens_in"] == calls * PER_CALL
    assert outcome["tokens_out"] == calls * USAGE["output"]
    assert outcome["cost_source"] == "harness"
    assert outcome["transcript"].endswith("traj.json")
    assert not (Path(record["workspace"]) / "traj.json").exists()


def test_cursor_with_a_fake_executable(task, tmp_path: Path, trial_options):
    stream = sample("cursor_success.jsonl").replace("'", "'\\''")
    exe = fake_executable(tmp_path / "cursor-install" / "bin", "cursor-agent", (
        'case "$1" in --version) echo "2025.11.25-fake"; exit 0;; esac\n'
        f"{SED_EDIT}\n./check > /dev/null\nprintf '%s' '{stream}'\n"))
    record = run_trial(task, {"name": "cursor", "args": {
        "executable": str(exe), "model": "sonnet-4.5", "price_in": "3", "price_out": "15",
        "price_cached": "0.3"}}, tmp_path / "t", trial_options)
    workspace = Path(record["workspace"])
    assert MARKER in (workspace / "kernel.py").read_text()
    assert record["evaluation"]["compiled"] and record["agent_failure"] == "ok"
    outcome = record["iterations"][0]["outcome"]
    assert (outcome["tokens_in"], outcome["tokens_out"], outcome["tokens_cached"]) == \
        (2600, 120, 500)
    assert outcome["cost_source"] == "harness"
    assert outcome["cost_usd"] == pytest.approx((2100 * 3 + 500 * 0.3 + 120 * 15) / 1e6)
    assert record["iterations"][0]["agent_checks"]
