"""Helpers shared by the agent tests (imported by name: tests/agents is on sys.path)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from agentkernelarena.workspace.sandbox import bwrap_status

REPO = Path(__file__).resolve().parents[2]
SAMPLES = Path(__file__).parent / "samples"
SCALE_ADD = REPO / "tests" / "fixtures" / "tasks" / "triton2triton" / "scale_add"
# Fast evaluation for the trials of these tests: fewer timing rounds (the verdicts are the same).
FAST_TIMING = {"min_rounds": 1, "max_rounds": 2, "budget_s": 0.2}
# The trials of these tests run agents under bubblewrap where it works and, explicitly, without
# it elsewhere: the arena itself no longer falls back (`on`, the default, refuses without it).
SANDBOX = "on" if bwrap_status().available else "off"


def sample(name: str) -> str:
    return (SAMPLES / name).read_text()


def tool(name: str) -> str | None:
    """A real agent program: from the project's .tools (install-agent-clis.sh), PATH or venv."""
    for candidate in (REPO / ".tools" / "node_modules" / ".bin" / name,
                      Path(sys.executable).parent / name):
        if candidate.exists():
            return str(candidate.resolve())
    return shutil.which(name)


def fake_executable(folder: Path, name: str, script: str) -> Path:
    """A stand-in for an agent CLI: a shell script that prints what the real one would."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    return path
