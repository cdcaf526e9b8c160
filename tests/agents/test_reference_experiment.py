"""The shipped reference-experiment configs: found by name, valid, planned with stub agent
CLIs on PATH; `aka agents doctor -c` names each missing agent; the keyless variant runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_helpers import fake_executable

from agentkernelarena.agents.registry import get_agent_info
from agentkernelarena.cli import main
from agentkernelarena.errors import AkaError
from agentkernelarena.runner.config import load_config_file, merge_config
from agentkernelarena.runner.shipped import resolve_config, shipped_names

LABELS = ["geak-opus-4.6", "cursor-opus-4.6", "cursor-gpt-5.3-codex", "cursor-composer-2",
          "claude-opus-4.6", "claude-sonnet-4.6"]


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = 0
    try:
        main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    except AkaError as exc:  # main() prints these in real use; the test wants the text
        return 2, exc.message + " " + (exc.hint or "")
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def stub_clis(tmp_path: Path, monkeypatch, no_agent_env) -> Path:
    """claude, cursor-agent and geak-agent stand-ins on PATH, keys set."""
    bin_dir = tmp_path / "bin"
    fake_executable(bin_dir, "claude", 'echo "9.9.9 (Claude Code)"\n')
    fake_executable(bin_dir, "cursor-agent", 'echo "2026.1"\n')
    fake_executable(bin_dir, "geak-agent", 'echo "geak 3"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("AKA_TOOLS_DIR", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    monkeypatch.setenv("CURSOR_API_KEY", "cur-test")
    return bin_dir


def test_shipped_configs_load_and_name_registered_agents():
    assert {"reference-experiment", "reference-experiment-nokeys"} <= set(shipped_names())
    path = resolve_config(Path("reference-experiment"))
    config = merge_config(load_config_file(path), path, {})
    assert [a.label for a in config.agents] == LABELS
    assert config.tasks == ["@arena-44"] and config.time_limit_s == 3600
    assert config.max_iterations == 3 and config.attempts == 1
    models = {a.label: a.args.get("model") for a in config.agents}
    assert models["claude-sonnet-4.6"] == "claude-sonnet-4-6"
    for spec in config.agents:
        assert get_agent_info(spec.name).error is None
        spec.create()  # the settings parse
    nokeys = resolve_config(Path("reference-experiment-nokeys.yaml"))
    assert [a.name for a in merge_config(load_config_file(nokeys), nokeys, {}).agents] == [
        "noop", "tune", "oracle"]


def test_a_file_path_wins_and_an_unknown_name_lists_the_shipped(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("reference-experiment").write_text("agents: [noop]\ntasks: [triton2triton/softmax]\n")
    assert resolve_config(Path("reference-experiment")) == Path("reference-experiment")
    with pytest.raises(AkaError) as info:
        resolve_config(Path("nosuch"))
    assert "reference-experiment-nokeys" in (info.value.hint or "")


def test_the_experiment_plans_with_stub_clis(stub_clis: Path, tmp_path: Path, capsys):
    code, out = _run(capsys, "run", "-c", "reference-experiment", "--dry-run", "--sandbox",
                     "off", "--out", str(tmp_path / "run"))
    assert code == 0, out
    assert "44 task(s) x 1 attempt(s) = 264 trial(s)" in out
    assert all(label in out for label in LABELS)
    code, out = _run(capsys, "run", "-c", "reference-experiment", "--dry-run", "--sandbox",
                     "off", "--attempts", "3", "--out", str(tmp_path / "run"))
    assert code == 0 and "x 3 attempt(s) = 792 trial(s)" in out


def test_doctor_c_names_each_missing_agent(tmp_path: Path, monkeypatch, capsys, no_agent_env):
    bin_dir = tmp_path / "bin"
    fake_executable(bin_dir, "claude", 'echo "9.9.9 (Claude Code)"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("AKA_TOOLS_DIR", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out = _run(capsys, "agents", "doctor", "-c", "reference-experiment", "--json")
    assert code == 1
    reports = {r["label"]: r for r in json.loads(out)["agents"]}
    assert list(reports) == LABELS
    for label in ("geak-opus-4.6", "cursor-opus-4.6", "cursor-gpt-5.3-codex",
                  "cursor-composer-2"):
        assert not reports[label]["installed"] and reports[label]["problems"][0]["fix"]
    claude = reports["claude-opus-4.6"]
    assert claude["installed"] and claude["authenticated"] is False
    assert "ANTHROPIC_API_KEY" in claude["problems"][0]["fix"]
    code, out = _run(capsys, "agents", "doctor", "-c", "reference-experiment")
    assert code == 1 and "cursor-composer-2 (cursor): not ready" in out
    assert "0 of 6 agent configuration(s) ready" in out
    # The run refuses the same agents before anything starts.
    code, out = _run(capsys, "run", "-c", "reference-experiment", "--dry-run", "--sandbox",
                     "off", "--out", str(tmp_path / "run"))
    assert code == 2 and "geak-opus-4.6 (geak) is not installed" in out


def test_doctor_c_of_the_keyless_config_is_ready(capsys, no_agent_env):
    code, out = _run(capsys, "agents", "doctor", "-c", "reference-experiment-nokeys")
    assert code == 0 and "3 of 3 agent configuration(s) ready" in out


def test_doctor_c_with_names_is_refused(capsys):
    code, out = _run(capsys, "agents", "doctor", "noop", "-c", "reference-experiment")
    assert code == 2 and "not both" in out


def test_keyless_variant_dry_runs(tmp_path: Path, capsys, no_agent_env):
    code, out = _run(capsys, "run", "-c", "reference-experiment-nokeys", "--dry-run",
                     "--platform", "cpu", "--sandbox", "off", "--out", str(tmp_path / "run"))
    assert code == 0, out
    assert "agents noop, tune, oracle; 44 task(s)" in out


@pytest.mark.slow
def test_keyless_variant_runs_end_to_end_on_a_smoke_task(tmp_path: Path, capsys,
                                                         no_agent_env):
    """About 4 minutes on two CPU cores (tune's search through the interpreter)."""
    out_dir = tmp_path / "run"
    code, out = _run(capsys, "run", "-c", "reference-experiment-nokeys", "--tasks",
                     "triton2triton/gelu_bias", "--platform", "cpu", "--sandbox", "off",
                     "--progress", "plain", "--out", str(out_dir))
    assert code == 0, out
    records = [json.loads(p.read_text()) for p in (out_dir / "trials").glob("*/trial.json")]
    assert sorted(r["agent"] for r in records) == ["noop", "oracle", "tune"]
    assert all(r["verdict"] == "ok" for r in records)
    code, out = _run(capsys, "leaderboard", str(out_dir), "--published", "--format", "md")
    assert code == 0 and "| measured here | oracle |" in out
