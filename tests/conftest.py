"""Shared fixtures: a tiny Triton task that the CPU interpreter evaluates in about a second."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agentkernelarena.tasks import load_task

FIXTURE_TASKS = Path(__file__).parent / "fixtures" / "tasks"
SCALE_ADD = FIXTURE_TASKS / "triton2triton" / "scale_add"


def _has_gpu() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _has_gpu():
        return
    skip = pytest.mark.skip(reason="needs a GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def scale_add_task():
    return load_task(SCALE_ADD)


@pytest.fixture
def fixture_tasks_dir() -> Path:
    return FIXTURE_TASKS


@pytest.fixture
def solution_factory(tmp_path: Path):
    """Write a candidate kernel.py (from the baseline, edited, or from scratch) into a folder."""

    def make(code: str | None = None, *, replace: tuple[str, str] | None = None,
             name: str = "candidate") -> Path:
        folder = tmp_path / name
        folder.mkdir()
        text = (SCALE_ADD / "kernel.py").read_text() if code is None else code
        if replace is not None:
            assert replace[0] in text, f"{replace[0]!r} not in the kernel"
            text = text.replace(*replace)
        (folder / "kernel.py").write_text(text)
        return folder

    return make


@pytest.fixture
def task_copy(tmp_path: Path):
    """A writable copy of the fixture task, for tests that break its files."""

    def make() -> Path:
        dest = tmp_path / "tasks" / "triton2triton" / "scale_add"
        shutil.copytree(SCALE_ADD, dest)
        return dest

    return make
