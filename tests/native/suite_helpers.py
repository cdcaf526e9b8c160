"""Helpers shared by the bundled-native-task tests (imported by name: conftest.py puts
tests/native on sys.path, as tests/agents does)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import torch

from agentkernelarena.tasks.loader import discover_tasks

NATIVE = [t for t in discover_tasks() if t.language in ("cuda", "hip")]


def module_from_path(path: Path, name: str | None = None) -> ModuleType:
    """Import a file by path (task references, baselines, test helpers)."""
    spec = importlib.util.spec_from_file_location(name or f"aka_ref_{abs(hash(path))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def as_tuple(value: Any) -> tuple[torch.Tensor, ...]:
    """A task's output: one tensor or a tuple of them (the evaluator accepts both)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def upcast(args: Any, enabled: bool = True) -> tuple[Any, ...]:
    """The reference's float64 call: floating tensors upcast; integer tensors and plain Python
    values (a top-k's k, a group count) as they are. `enabled`: the task's reference_upcast."""
    return tuple(a.double() if enabled and isinstance(a, torch.Tensor) and a.is_floating_point()
                 else a for a in args)
