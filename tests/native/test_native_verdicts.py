"""Broken native candidates through the whole evaluator: each one is a verdict, never a crash
of the arena, and the machine stays usable for the next evaluation.

The candidates are versions of cuda2cuda/softmax's kernel.cu. On the CPU (compile-only gate)
the compile error and the missing launcher are checked; with AKA_TEST_PLATFORM=cuda on a GPU
also the device fault, the deadlock and the build cache seen from the evaluator's result.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import pytest

from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.native.toolchain import find_cuda_home
from agentkernelarena.tasks.loader import find_task

PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")
GATES = EvalOptions(platform=PLATFORM, measure=False, held_out=False)
LAUNCHER = "aka_softmax_forward"

pytestmark = pytest.mark.skipif(find_cuda_home() is None, reason="nvcc not found")
on_gpu = pytest.mark.skipif(PLATFORM == "cpu", reason="runs kernels: AKA_TEST_PLATFORM=cuda")


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("aka-cache")


@pytest.fixture(autouse=True)
def cache_dir(shared_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One cache for the module (overrides conftest's per-test one): the torch binding is
    compiled once on a GPU machine, not once per test."""
    monkeypatch.setenv("AKA_CACHE_DIR", str(shared_cache))
    return shared_cache / "native"


@pytest.fixture
def task() -> Any:
    task = find_task("cuda2cuda/softmax")
    task.timeouts.update(compile=300.0, correctness=30.0)
    return task


def candidate(task: Any, folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kernel.cu").write_text(text)
    return folder


def edited(task: Any, old: str, new: str) -> str:
    text = (task.root / "kernel.cu").read_text()
    assert old in text, f"{old!r} not in {task.id}'s kernel.cu"
    return text.replace(old, new)


def test_compile_error_names_the_file_and_line(task: Any, tmp_path: Path) -> None:
    text = (task.root / "kernel.cu").read_text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("namespace {"))
    lines.insert(at + 1, "int aka_broken = ;")
    result = evaluate(task, candidate(task, tmp_path / "c", "\n".join(lines) + "\n"), GATES)
    assert result["verdict"] == "compile_error", result["reasons"]
    assert result["score"] == 0
    assert f"kernel.cu:{at + 2}" in result["reasons"][0], result["reasons"][0]


def test_missing_launcher_is_a_compile_error_naming_it(task: Any, tmp_path: Path) -> None:
    text = edited(task, f'extern "C" int {LAUNCHER}(', 'extern "C" int aka_softmax_renamed(')
    result = evaluate(task, candidate(task, tmp_path / "c", text), GATES)
    assert result["verdict"] == "compile_error", result["reasons"]
    assert LAUNCHER in result["reasons"][0], result["reasons"][0]


# A launcher with the binding's signature whose kernel writes far outside any allocation.
FAULT = """
#include <cstdint>
#include <cuda_runtime.h>

__global__ void aka_fault(float* bogus) { bogus[threadIdx.x] = 1.f; }

extern "C" int aka_softmax_forward(const void* x, void* y, int64_t M, int64_t N, int dtype,
                                   void* stream) {
  aka_fault<<<1, 32, 0, static_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<float*>(0x7ff00000000ull));
  return static_cast<int>(cudaGetLastError());
}
"""


@on_gpu
@pytest.mark.gpu
def test_illegal_address_is_a_crash_and_the_next_evaluation_runs(
    task: Any, tmp_path: Path
) -> None:
    result = evaluate(task, candidate(task, tmp_path / "c", FAULT), GATES)
    assert result["verdict"] == "crash", result["reasons"]
    assert "illegal" in " ".join(result["reasons"]).lower(), result["reasons"]
    after = evaluate(task, task.root, GATES)
    assert after["verdict"] == "ok", after["reasons"]


# The launcher works on its first call (the compile gate), then launches a kernel that never
# ends before the real one: the correctness gate hangs on the device.
SPIN = """
__device__ int aka_never_set;
__global__ void aka_spin() {
  while (atomicAdd(&aka_never_set, 0) == 0) {
  }
}
"""


@on_gpu
@pytest.mark.gpu
def test_deadlocked_kernel_is_a_timeout_and_the_next_evaluation_runs(
    task: Any, tmp_path: Path
) -> None:
    text = (task.root / "kernel.cu").read_text()
    marker = f'extern "C" int {LAUNCHER}('
    head, tail = text.rsplit(marker, 1)
    body_start = tail.index("{") + 1
    tail = (tail[:body_start] + "\n  static int aka_calls = 0;\n  if (++aka_calls > 1) "
            "aka_spin<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>();"
            + tail[body_start:])  # fmt: skip
    result = evaluate(task, candidate(task, tmp_path / "c", head + SPIN + marker + tail), GATES)
    assert result["verdict"] == "timeout", result["reasons"]
    assert "correctness" in " ".join(result["reasons"]), result["reasons"]
    after = evaluate(task, task.root, GATES)
    assert after["verdict"] == "ok", after["reasons"]


@on_gpu
@pytest.mark.gpu
def test_unchanged_source_is_not_rebuilt_and_an_edit_reuses_the_binding(
    task: Any, tmp_path: Path
) -> None:
    # The baseline's own source comes from the shared cache, which the judge fills from the
    # pristine files; a candidate's build goes to its evaluation's private cache only (in the
    # sandbox the shared one is read-only), so the same edited source is built again next time.
    unchanged = evaluate(task, task.root, GATES)
    assert unchanged["verdict"] == "ok", unchanged["reasons"]
    assert unchanged["build"]["origin"] == "cache", unchanged["build"]

    base = (task.root / "kernel.cu").read_text()
    first = candidate(task, tmp_path / "a1", base + f"// {uuid.uuid4().hex}\n")
    built = evaluate(task, first, GATES)
    assert built["verdict"] == "ok", built["reasons"]
    assert built["build"]["origin"] == "build", built["build"]

    again = candidate(task, tmp_path / "a2", (first / "kernel.cu").read_text())
    rebuilt = evaluate(task, again, GATES)
    assert rebuilt["verdict"] == "ok", rebuilt["reasons"]
    assert rebuilt["build"]["origin"] == "build" and rebuilt["build"]["binding"] == "cache", \
        rebuilt["build"]

    other = candidate(task, tmp_path / "b", base + f"// {uuid.uuid4().hex}\n")
    edit = evaluate(task, other, GATES)
    assert edit["build"]["origin"] == "build", edit["build"]
    assert edit["build"]["binding"] == "cache", edit["build"]
