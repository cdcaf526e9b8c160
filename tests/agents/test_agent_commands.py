"""Each adapter's command building: argv lists (not shell strings), env, what the sandbox shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentkernelarena.agents.claude_code.command import ClaudeCodeSettings
from agentkernelarena.agents.claude_code.command import build_command as claude_command
from agentkernelarena.agents.codex.command import CodexSettings
from agentkernelarena.agents.codex.command import build_command as codex_command
from agentkernelarena.agents.cursor.command import CursorSettings
from agentkernelarena.agents.cursor.command import build_command as cursor_command
from agentkernelarena.agents.geak import fill_template
from agentkernelarena.agents.mini_swe_agent.command import MiniSweAgentSettings
from agentkernelarena.agents.mini_swe_agent.command import build_command as mini_command
from agentkernelarena.agents.registry import create_agent

PROMPT = "--tricky prompt; with $(quotes) 'and' \"spaces\""
EXE = "/opt/tools/node_modules/@scope/cli/bin/cli"


def test_claude_code_headless_stream_json_with_prompt_last():
    command = claude_command(ClaudeCodeSettings(model="claude-sonnet-4-5", max_turns=40),
                             EXE, PROMPT)
    argv = command.argv
    assert argv[:5] == [EXE, "-p", "--output-format", "stream-json", "--verbose"]
    assert argv[argv.index("--model") + 1] == "claude-sonnet-4-5"
    assert argv[argv.index("--max-turns") + 1] == "40"
    # The prompt is one argv element after `--`, so a leading dash cannot become an option.
    assert argv[-2:] == ["--", PROMPT]
    assert "--allowedTools" in argv and "--dangerously-skip-permissions" not in argv
    assert command.env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"
    assert Path("/opt/tools/node_modules") in command.ro_paths


def test_claude_code_bypass_permissions_sets_is_sandbox():
    command = claude_command(ClaudeCodeSettings(permission="bypass", base_url="http://x"),
                             EXE, PROMPT)
    assert "--dangerously-skip-permissions" in command.argv
    assert command.env["IS_SANDBOX"] == "1"
    assert command.env["ANTHROPIC_BASE_URL"] == "http://x"
    with pytest.raises(ValueError):
        claude_command(ClaudeCodeSettings(permission="ask"), EXE, PROMPT)


def test_codex_exec_json_bypasses_its_own_sandbox(tmp_path: Path):
    home = tmp_path / "codex"
    home.mkdir()
    (home / "config.toml").write_text('model = "m"\n')
    command = codex_command(CodexSettings(model="gpt-5", codex_home=str(home),
                                          config=["model_reasoning_effort=high"]), EXE, PROMPT)
    argv = command.argv
    assert argv[:5] == [EXE, "exec", "--json", "--skip-git-repo-check",
                        "--dangerously-bypass-approvals-and-sandbox"]
    assert argv[argv.index("-m") + 1] == "gpt-5"
    assert argv[argv.index("-c") + 1] == "model_reasoning_effort=high"
    assert argv[-2:] == ["--", PROMPT]
    assert command.env["CODEX_HOME"] == str(home)
    # config.toml is shown read-only; auth.json only when it exists.
    assert home / "config.toml" in command.ro_paths
    assert home / "auth.json" not in command.ro_paths


def test_cursor_print_mode_with_force():
    command = cursor_command(CursorSettings(model="sonnet-4.5"), EXE, PROMPT)
    assert command.argv[:5] == [EXE, "-p", "--output-format", "stream-json", "--force"]
    assert command.argv[-1] == PROMPT
    assert command.argv[command.argv.index("--model") + 1] == "sonnet-4.5"


def test_mini_swe_agent_writes_its_trajectory_outside_the_workspace(tmp_path: Path):
    out = tmp_path / "iterations" / "1"
    command = mini_command(MiniSweAgentSettings(model="openai/gpt-5-mini", base_url="http://h/v1",
                                                step_limit=7), "/venv/bin/mini", PROMPT, out)
    argv = command.argv
    assert argv[argv.index("-t") + 1] == PROMPT
    assert argv[argv.index("-o") + 1] == str(out / "traj.json")
    assert "-y" in argv and "--exit-immediately" in argv
    assert "agent.step_limit=7" in argv
    assert command.env["MSWEA_CONFIGURED"] == "true"
    assert command.env["OPENAI_API_BASE"] == "http://h/v1"
    assert command.env["MSWEA_COST_TRACKING"] == "ignore_errors"
    assert command.rw_paths == [out]


def test_geak_template_is_split_before_filling():
    argv = fill_template("geak-agent {entry_file} --prompt {prompt} --out '{out_dir}/x y'",
                         {"entry_file": "kernel.py", "prompt": PROMPT, "out_dir": "/o"})
    assert argv == ["geak-agent", "kernel.py", "--prompt", PROMPT, "--out", "/o/x y"]


def test_command_agent_runs_the_shell_string_as_one_argument(make_run):
    agent = create_agent("command", {"cmd": "echo hi && ./check"})
    run = make_run()
    command = agent.build_command("/bin/sh", run)
    assert command.argv == ["/bin/sh", "-c", "echo hi && ./check"]
    assert command.env["AKA_PROMPT"] == run.prompt
    assert Path(command.env["AKA_PROMPT_FILE"]).read_text() == run.prompt
    assert command.env["AKA_ITERATION"] == "1"
