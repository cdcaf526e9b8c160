"""Every native task's baseline and solution compile through the compile-only gate.

Each case lays the version over a copy of the task (as the evaluator does) and imports its
entry module, which calls `load(__file__, [kernel], binding="binding.cpp")`: CUDA sources are
compiled for sm_90 with nvcc, HIP sources for gfx90a with hipcc and, translated to CUDA, for
sm_90 with nvcc. Torch-free kernel sources: a few seconds each. Skips what the machine lacks.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from suite_helpers import NATIVE

from agentkernelarena.native import NativeCompiledNotRun, last_load
from agentkernelarena.native.toolchain import find_cuda_home, find_hipcc

CASES = [
    pytest.param(task, variant, id=f"{task.id}-{variant}")
    for task in NATIVE
    # A task may ship no solution (no demonstrated headroom, CONTRIBUTING.md).
    for variant in (("baseline", "solution") if task.solution_dir else ("baseline",))
]


def _copy(task: Any, variant: str, dest: Path) -> Path:
    shutil.copytree(task.root, dest, ignore=shutil.ignore_patterns("solution", ".aka_build",
                                                                   "__pycache__"))  # fmt: skip
    if variant == "solution":
        assert task.solution_dir is not None, f"{task.id} has no solution"
        for rel in task.editable:
            shutil.copyfile(task.solution_dir / rel, dest / rel)
    return dest / task.entry.file


def test_there_are_native_tasks_of_every_category() -> None:
    categories = {t.category for t in NATIVE}
    assert {"hip2hip", "cuda2cuda", "torch2cuda", "torch2hip"} <= categories


@pytest.mark.parametrize(("task", "variant"), CASES)
def test_compiles_for_the_reference_gpus(
    task: Any, variant: str, tmp_path: Path, no_gpu: None
) -> None:
    nvcc, hipcc = find_cuda_home() is not None, find_hipcc() is not None
    if task.language == "cuda" and not nvcc:
        pytest.skip("nvcc not found")
    if task.language == "hip" and not (nvcc or hipcc):
        pytest.skip("neither hipcc nor nvcc found")
    entry = _copy(task, variant, tmp_path / "task")
    spec = importlib.util.spec_from_file_location(f"aka_entry_{tmp_path.name}", entry)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(NativeCompiledNotRun) as err:
        spec.loader.exec_module(module)
    sys.modules.pop(spec.name, None)
    message = str(err.value)
    info = last_load()
    assert info is not None and info.outcome == "compiled", message
    source = task.editable[0]
    if task.language == "cuda":
        assert f"compiled {source} for sm_90 with nvcc" in message
    else:
        if hipcc:
            assert f"compiled {source} for gfx90a with hipcc" in message
        if nvcc:
            assert "translated to CUDA, for sm_90 with nvcc" in message
        assert info.warnings == [], f"warp-size lint: {info.warnings}"
    assert "binding.cpp is built with torch on a GPU machine" in message
