"""Fixtures for the agent tests: the fake model server, workspaces, runs, and the real CLIs."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentkernelarena.agents.base import AgentRun
from agentkernelarena.runner import TrialOptions
from agentkernelarena.tasks import load_task
from agentkernelarena.workspace import materialize

sys.path.insert(0, str(Path(__file__).parent))
from agent_helpers import FAST_TIMING, SANDBOX, SCALE_ADD  # noqa: E402
from fake_model_server import FakeModelServer  # noqa: E402


@pytest.fixture
def task():
    return load_task(SCALE_ADD)


@pytest.fixture
def fake_model() -> Iterator[FakeModelServer]:
    with FakeModelServer() as server:
        yield server


@pytest.fixture
def fake_model_factory() -> Iterator[object]:
    servers: list[FakeModelServer] = []

    def make(mode: str = "ok") -> FakeModelServer:
        server = FakeModelServer(mode).__enter__()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.__exit__(None, None, None)


@pytest.fixture
def workspace(tmp_path: Path, task) -> Path:
    return materialize(task, tmp_path / "trial" / "workspace")


@pytest.fixture
def make_run(workspace: Path, task, tmp_path: Path):
    """An AgentRun on the fixture workspace, no sandbox, `seconds` to live."""

    def make(seconds: float = 60, prompt: str = "Optimize kernel.py", **kw) -> AgentRun:
        return AgentRun(task=task, workspace=workspace, prompt=prompt,
                        out_dir=tmp_path / "trial" / "iterations" / "1",
                        deadline=time.monotonic() + seconds, **kw)

    return make


@pytest.fixture
def trial_options() -> TrialOptions:
    return TrialOptions(max_iterations=1, platform="cpu", timing=FAST_TIMING, time_limit_s=300,
                        sandbox=SANDBOX)


@pytest.fixture
def no_agent_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No real credentials leak into a test (and none are needed)."""
    for key in list(os.environ):
        if key.endswith("_API_KEY") or key.startswith(("ANTHROPIC_", "CODEX_", "CLAUDE_")):
            monkeypatch.delenv(key, raising=False)
