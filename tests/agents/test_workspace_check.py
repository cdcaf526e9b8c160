"""The workspace's ./check runs the arena's evaluation with the arena's own interpreter (a
shell's python3 without the package works too); CPU runs say so in the prompt and task card."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from agentkernelarena.agents.prompts import build_prompt
from agentkernelarena.workspace.materialize import CPU_NOTE, materialize, task_card

SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin")


def _lacks_arena(python: str) -> bool:
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([python, "-c", "import agentkernelarena"], env=clean,
                          capture_output=True, timeout=60).returncode != 0


@pytest.mark.skipif(SYSTEM_PYTHON is None or _lacks_arena(SYSTEM_PYTHON) is False,
                    reason="needs a python3 without the arena installed")
def test_check_runs_from_a_python_without_the_arena(task, tmp_path: Path):
    workspace = materialize(task, tmp_path / "ws", "cpu")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "AKA_CHECK_SOCKET", "AKA_PYTHON")}
    env["PATH"] = "/usr/bin:/bin"
    done = subprocess.run([SYSTEM_PYTHON, "check.py"], cwd=workspace, env=env, text=True,
                          capture_output=True, timeout=600)
    assert "No module named" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, done.stderr[-2000:]
    assert "verdict:" in done.stdout and "held-out" not in done.stdout.lower()


def test_check_names_the_fix_when_the_interpreter_is_gone(task, tmp_path: Path):
    workspace = materialize(task, tmp_path / "ws")
    env = {**os.environ, "AKA_PYTHON": str(tmp_path / "no-such-python")}
    env.pop("AKA_CHECK_SOCKET", None)
    done = subprocess.run([shutil.which("python3") or "python3", str(workspace / "check")],
                          env=env, text=True, capture_output=True, timeout=60)
    assert done.returncode != 0 and "AKA_PYTHON" in done.stderr


def test_cpu_runs_say_so_in_prompt_and_task_card(task, tmp_path: Path):
    assert CPU_NOTE in task_card(task, "cpu") and CPU_NOTE not in task_card(task)
    assert CPU_NOTE in (materialize(task, tmp_path / "ws", "cpu") / "TASK.md").read_text()
    prompt = build_prompt(task, iteration=1, max_iterations=2, platform="cpu")
    assert prompt.count(CPU_NOTE) == 2  # the prompt's opening and its task card
    assert CPU_NOTE not in build_prompt(task, iteration=1, max_iterations=2, platform="cuda")
