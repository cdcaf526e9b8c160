"""Fixtures for run tests: the CLI in-process, and a finished A/B run shared by the report,
held-out and compare tests (helpers live in run_helpers.py)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from run_helpers import SCALE_ADD, aka_subprocess, write_config

from agentkernelarena.cli import main

DRAWS = "  held_out_draws: {count: 1, params: {N: {int: [50, 6000]}, dtype: float32}}\n"


@pytest.fixture
def aka(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """The CLI in-process: (exit status, stdout, stderr)."""

    def call(*args: str) -> tuple[int, str, str]:
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return call


@pytest.fixture(scope="session")
def draws_tasks_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture task, plus held-out configurations drawn per seed."""
    root = tmp_path_factory.mktemp("tasks")
    dest = root / "triton2triton" / "scale_add"
    shutil.copytree(SCALE_ADD, dest)
    text = (dest / "task.yaml").read_text().replace("  held_out:\n", DRAWS + "  held_out:\n")
    (dest / "task.yaml").write_text(text)
    return root


@pytest.fixture(scope="session")
def finished_run(tmp_path_factory: pytest.TempPathFactory, draws_tasks_dir: Path) -> Path:
    """A finished A/B run: oracle and noop, one trial each, on the CPU."""
    folder = tmp_path_factory.mktemp("run")
    config = write_config(folder / "run.yaml", tasks_dirs=[str(draws_tasks_dir)],
                          agents=[{"name": "oracle", "label": "solution"}, "noop"],
                          label="ab-test", seed=1234, concurrency=2)
    result = aka_subprocess("run", "-c", str(config), "--out", str(folder / "out"),
                            "--progress", "plain")
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "out"
