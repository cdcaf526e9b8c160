"""`aka agents list|doctor|trial` as scripts call them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_helpers import SANDBOX, SCALE_ADD, fake_executable

from agentkernelarena.cli import main


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = 0
    try:
        main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_doctor_of_all_agents_exits_0(capsys):
    code, out = _run(capsys, "agents", "doctor")
    assert code == 0 and "noop: ready" in out


def test_list_json(capsys):
    code, out = _run(capsys, "agents", "list", "--json")
    agents = {a["name"]: a for a in json.loads(out)}
    assert code == 0 and {"claude_code", "codex", "openai_compat", "noop"} <= set(agents)
    settings = {s["name"]: s for s in agents["claude_code"]["settings"]}
    assert settings["max_turns"]["type"] == "int" and settings["permission"]["default"] == "tools"
    assert agents["openai_compat"]["in_process"] is True


def test_doctor_reports_install_version_auth_and_fixes(capsys, tmp_path: Path, monkeypatch,
                                                       no_agent_env):
    fake_executable(tmp_path / "bin", "claude", 'echo "9.9.9 (Claude Code)"\n')
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    monkeypatch.setenv("AKA_TOOLS_DIR", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out = _run(capsys, "agents", "doctor", "claude_code", "cursor", "--json")
    assert code == 1  # named agents that are not ready
    data = json.loads(out)
    reports = {r["agent"]: r for r in data["agents"]}
    claude = reports["claude_code"]
    assert claude["installed"] and claude["version"] == "9.9.9 (Claude Code)"
    assert claude["authenticated"] is False and not claude["ready"]
    assert "ANTHROPIC_API_KEY" in claude["problems"][0]["fix"]
    cursor = reports["cursor"]
    assert not cursor["installed"] and "install" in cursor["problems"][0]["fix"]
    assert set(data["sandbox"]) == {"available", "detail", "fix"}

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-x")
    code, out = _run(capsys, "agents", "doctor", "claude_code")
    assert code == 0 and "claude_code: ready" in out and "sandbox:" in out


def test_doctor_bad_settings_is_a_problem_not_a_crash(capsys):
    code, out = _run(capsys, "agents", "doctor", "codex", "--agent-arg", "nope=1", "--json")
    report = json.loads(out)["agents"][0]
    assert code == 1 and not report["ready"] and "nope" in report["problems"][0]["problem"]


def test_unknown_agent_is_a_one_line_error(capsys):
    code, out = _run(capsys, "agents", "doctor", "claud")
    assert code == 2 and "unknown agent 'claud'" in out and "Traceback" not in out


@pytest.mark.parametrize("as_json", [False, True])
def test_trial_command(capsys, tmp_path: Path, as_json: bool):
    argv = ["agents", "trial", "command", "triton2triton/scale_add", "--tasks-dir",
            str(SCALE_ADD.parent.parent), "--agent-arg", "cmd=rm kernel.py", "--out",
            str(tmp_path / "t"), "--max-iterations", "1", "--platform", "cpu",
            *([] if SANDBOX == "on" else ["--sandbox", "off"])]  # no fallback: explicit
    code, out = _run(capsys, *argv, *(["--json"] if as_json else []))
    assert code == 0
    if as_json:
        assert json.loads(out)["verdict"] == "compile_error"
    else:
        assert "verdict compile_error" in out and "trial.json" in out
    assert (tmp_path / "t" / "trial.json").exists()
