"""Pre-flight: every problem of a run found before anything starts, all of them at once; an
agent that `aka agents doctor` finds not installed stops `aka run` and `--dry-run`."""

from __future__ import annotations

from pathlib import Path

from run_helpers import FIXTURE_TASKS, write_config

from agentkernelarena.errors import AkaError, ManyProblems, ProblemList
from agentkernelarena.runner.config import config_from_mapping, merge_config
from agentkernelarena.runner.preflight import prepare

TASK = "triton2triton/scale_add"
BASE = ("run", "--tasks-dir", str(FIXTURE_TASKS), "--platform", "cpu")
MISSING_SHELL = ("--agent", "command", "--agent-arg", "shell=/nonexistent/sh",
                 "--agent-arg", "cmd=true")


def test_config_fields_are_all_reported():
    problems = ProblemList()
    config = config_from_mapping({"agents": ["noop"], "tasks": [TASK], "attempts": 0,
                                  "sandbox": "maybe", "atempts": 2}, "run config x", None,
                                 problems)
    text = "\n".join(str(p) for p in problems)
    assert len(problems) == 3
    assert "unknown field(s) atempts" in text and "'attempts'" in text and "'sandbox'" in text
    assert config.agents[0].name == "noop" and config.attempts == 1  # the rest still parsed
    assert problems.fields == {"attempts", "sandbox"}
    try:
        problems.raise_all()
    except ManyProblems as exc:
        assert exc.message.startswith("3 problems") and len(exc.problems) == 3
    else:
        raise AssertionError("no error")


def test_three_problems_in_one_go(aka, tmp_path: Path):
    config = write_config(tmp_path / "bad.yaml", agents=["nosuch"], tasks=["nosuch/*"],
                          attempts=0)
    code, _, stderr = aka("run", "-c", str(config), "--out", str(tmp_path / "o"))
    assert code == 2 and stderr.startswith("error: 3 problems")
    assert "unknown agent 'nosuch'" in stderr
    assert "task selector 'nosuch/*' matches no task" in stderr
    assert "field 'attempts'" in stderr
    assert "no agent given" not in stderr  # an invalid field is not reported again as missing
    assert "Traceback" not in stderr and not (tmp_path / "o").exists()


def test_problems_of_flags_and_checks_together(tmp_path: Path):
    problems = ProblemList()
    config = merge_config(None, None, {"agents": [{"name": "nosuch"}, {"name": "noop"}],
                                       "tasks": ["nope"], "tasks_dirs": [str(FIXTURE_TASKS)],
                                       "platform": "nosuchplatform", "seed": "x",
                                       "out": str(tmp_path / "o")}, problems)
    try:
        prepare(config, problems=problems)
    except ManyProblems as exc:
        text = exc.message
    else:
        raise AssertionError("no error")
    for part in ("field 'seed'", "unknown agent 'nosuch'", "'nope' matches no task",
                 "platform"):
        assert part in text, text
    assert not (tmp_path / "o").exists()


def test_dry_run_with_a_missing_agent_exits_non_zero(aka, tmp_path: Path):
    code, stdout, stderr = aka(*BASE, *MISSING_SHELL, "--tasks", TASK, "--out",
                               str(tmp_path / "o"), "--dry-run")
    assert code == 2 and "is not installed" in stderr and "/nonexistent/sh" in stderr
    assert "aka agents doctor command" in stderr and "run folder" not in stdout
    code, _, stderr = aka(*BASE, *MISSING_SHELL, "--tasks", TASK, "--out", str(tmp_path / "o"))
    assert code == 2 and "is not installed" in stderr  # a real run as well
    assert not (tmp_path / "o").exists()


def test_skip_agent_check_starts_anyway(aka, tmp_path: Path):
    code, stdout, stderr = aka(*BASE, *MISSING_SHELL, "--tasks", TASK, "--out",
                               str(tmp_path / "o"), "--dry-run", "--skip-agent-check",
                               "--sandbox", "off")
    assert code == 0, stderr
    assert "1 trial(s)" in stdout


def test_single_problem_stays_one_line():
    config = config_from_mapping({"agents": ["noop"], "tasks": [TASK],
                                  "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu",
                                  "gpus": [0]}, "t")
    try:
        prepare(config)
    except AkaError as exc:
        assert not isinstance(exc, ManyProblems) and "\n" not in exc.message
    else:
        raise AssertionError("no error")


def test_command_path_outside_the_sandbox_warns_up_front(aka, tmp_path: Path):
    args = (*BASE, "--agent", "command", "--agent-arg", "cmd=/opt/nowhere/optimize.sh --fast",
            "--tasks", TASK, "--out", str(tmp_path / "o"), "--dry-run")
    code, _, stderr = aka(*args)
    assert code == 0, stderr
    assert "its command names /opt/nowhere/optimize.sh, which the sandbox does not show" in stderr
    code, _, stderr = aka(*args, "--sandbox", "off")
    assert code == 0 and "sandbox does not show" not in stderr
    code, _, stderr = aka(*BASE, "--agent", "command", "--agent-arg", "cmd=/bin/true",
                          "--tasks", TASK, "--out", str(tmp_path / "o"), "--dry-run")
    assert code == 0 and "sandbox does not show" not in stderr
