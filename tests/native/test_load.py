"""load(): source checks, the compile-only gate, error reports, and the shared cache.

The fast tests build `standin.cu`/`standin.hip` (a few seconds: no torch or pybind11 headers);
the `slow` ones build real torch extensions (a minute or more on 2 cores); the `gpu` ones run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from agentkernelarena.native import (
    NativeBuildError,
    NativeCompiledNotRun,
    last_load,
    load,
)

TaskDir = Callable[[str, dict[str, str]], Path]
Data = Callable[[str], str]


def test_missing_binding_is_a_clear_error(task_dir: TaskDir) -> None:
    module = task_dir("t", {"kernel.cu": "__global__ void k() {}\n// PYBIND11_MODULE(x, m)\n"})
    with pytest.raises(NativeBuildError, match=r"kernel.cu: no pybind11 bindings") as err:
        load(str(module), ["kernel.cu"])
    assert "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)" in str(err.value)


def test_binding_with_a_fixed_module_name_is_refused(task_dir: TaskDir) -> None:
    module = task_dir("t", {"kernel.cu": "PYBIND11_MODULE(my_ext, m) {}\n"})
    with pytest.raises(NativeBuildError, match=r"not PYBIND11_MODULE\(my_ext, m\)"):
        load(str(module), ["kernel.cu"])


def test_two_bindings_are_refused(task_dir: TaskDir) -> None:
    body = "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n"
    module = task_dir("t", {"a.cu": body, "b.cu": body})
    with pytest.raises(NativeBuildError, match="appears 2 times"):
        load(str(module), ["a.cu", "b.cu"])


@pytest.mark.parametrize(
    ("sources", "message"),
    [
        (["missing.cu"], "no such file"),
        (["../outside.cu"], "inside the module's folder"),
        (["kernel.cpp"], r"\.cu \(CUDA\) or \.hip"),
        (["kernel.cu", "other.hip"], "not a mix"),
    ],
)
def test_bad_source_lists(task_dir: TaskDir, sources: list[str], message: str) -> None:
    files = {"kernel.cu": "", "kernel.cpp": "", "other.hip": ""}
    module = task_dir("t", files)
    (module.parent.parent / "outside.cu").write_text("")
    with pytest.raises(NativeBuildError, match=message):
        load(str(module), sources)


def test_binding_in_a_local_header_counts(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None
) -> None:
    kernel = data("standin.cu").replace(
        "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { (void)m; }", '#include "bind.h"'
    )
    module = task_dir(
        "t",
        {"kernel.cu": kernel, "bind.h": "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { (void)m; }\n"},
    )
    with pytest.raises(NativeCompiledNotRun):
        load(str(module), ["kernel.cu"])


def test_compile_error_reports_the_line(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None
) -> None:
    broken = data("standin.cu").replace("x[i] *= s;", "x[i] *= s + undefined_name;")
    line = broken.splitlines().index("  if (i < n) x[i] *= s + undefined_name;") + 1
    module = task_dir("t", {"kernel.cu": broken})
    with pytest.raises(NativeBuildError) as err:
        load(str(module), ["kernel.cu"])
    message = str(err.value)
    assert f'kernel.cu:{line}: error: identifier "undefined_name" is undefined' in message
    assert str(module.parent) not in message  # paths relative to the task folder
    assert "-isystem" not in message  # no compiler command lines
    assert (module.parent / ".aka_build").is_dir()
    info = last_load()
    assert info is not None and info.outcome == "failed"
    assert err.value.errors and err.value.log


def test_compile_only_cuda_then_cache_hit_from_another_directory(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None, cache_dir: Path
) -> None:
    first = task_dir("eval1", {"standin.cu": data("standin.cu")})
    second = task_dir("eval2", {"standin.cu": data("standin.cu")})
    with pytest.raises(NativeCompiledNotRun, match=r"compiled standin.cu for sm_90 with nvcc"):
        load(str(first), ["standin.cu"])
    info = last_load()
    assert info is not None and not info.cache_hit and info.outcome == "compiled"
    assert Path(info.build_dir).parent == first.parent / ".aka_build"
    entry = cache_dir / info.key
    assert (entry / "meta.json").is_file() and list(entry.glob("*.o"))
    assert json.loads((entry / "meta.json").read_text())["name"] == info.name

    with pytest.raises(NativeCompiledNotRun, match=r"\(cached\)") as err:
        load(str(second), ["standin.cu"])
    again = last_load()
    assert again is not None and again.cache_hit and again.origin == "cache"
    assert again.key == info.key and again.seconds < 5
    assert all(Path(a).is_file() for a in err.value.artifacts)


def test_changed_source_or_flags_miss_the_cache(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None
) -> None:
    module = task_dir("t", {"standin.cu": data("standin.cu")})
    with pytest.raises(NativeCompiledNotRun):
        load(str(module), ["standin.cu"])
    key = last_load().key  # type: ignore[union-attr]
    with pytest.raises(NativeCompiledNotRun):
        load(str(module), ["standin.cu"], extra_cuda_cflags=["-DVARIANT=1"])
    assert last_load().key != key and not last_load().cache_hit  # type: ignore[union-attr]
    (module.parent / "standin.cu").write_text(data("standin.cu") + "\n// edited\n")
    with pytest.raises(NativeCompiledNotRun):
        load(str(module), ["standin.cu"])
    assert last_load().key != key and not last_load().cache_hit  # type: ignore[union-attr]


def test_compile_only_hip_for_gfx90a_and_cache_hit(
    task_dir: TaskDir, data: Data, hipcc: str, no_gpu: None
) -> None:
    first = task_dir("eval1", {"standin.hip": data("standin.hip")})
    second = task_dir("eval2", {"standin.hip": data("standin.hip")})
    with pytest.raises(NativeCompiledNotRun, match=r"compiled standin.hip for gfx90a with hipcc"):
        load(str(first), ["standin.hip"])
    assert not last_load().cache_hit  # type: ignore[union-attr]
    with pytest.raises(NativeCompiledNotRun, match=r"\(cached\)"):
        load(str(second), ["standin.hip"])
    assert last_load().cache_hit  # type: ignore[union-attr]


def test_hip_compile_error_reports_the_line(
    task_dir: TaskDir, data: Data, hipcc: str, no_gpu: None
) -> None:
    broken = data("standin.hip").replace("x[i] *= s;", "x[i] *= s + undefined_name;")
    line = broken.splitlines().index("  if (i < n) x[i] *= s + undefined_name;") + 1
    module = task_dir("t", {"kernel.hip": broken})
    with pytest.raises(NativeBuildError, match=rf"kernel.hip:{line}:\d+: error: use of undeclared"):
        load(str(module), ["kernel.hip"])


def test_hip_warp_size_warnings_reach_the_load_info(
    task_dir: TaskDir, data: Data, hipcc: str, no_gpu: None
) -> None:
    source = data("standin.hip").replace("x[i] *= s;", "x[i] *= s + (threadIdx.x & 63);")
    module = task_dir("t", {"kernel.hip": source})
    with pytest.raises(NativeCompiledNotRun):
        load(str(module), ["kernel.hip"])
    warnings = last_load().warnings  # type: ignore[union-attr]
    assert len(warnings) == 1 and "64-lane" in warnings[0].message


def test_hip_translated_to_cuda_compile_only(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What an NVIDIA machine does with a .hip task (translate, nvcc), checked without a GPU."""
    monkeypatch.setenv("AKA_NATIVE_HIP_VIA_CUDA", "1")
    module = task_dir("t", {"standin.hip": data("standin.hip")})
    with pytest.raises(NativeCompiledNotRun, match="compiled standin.hip for sm_90 with nvcc"):
        load(str(module), ["standin.hip"])
    staged = Path(last_load().build_dir) / "src" / "standin.cu"  # type: ignore[union-attr]
    assert "scale<<<dim3((n + 255) / 256), dim3(256), 0, 0>>>(x, s, n);" in staged.read_text()

    broken = data("standin.hip").replace("x[i] *= s;", "x[i] *= s + undefined_name;")
    line = broken.splitlines().index("  if (i < n) x[i] *= s + undefined_name;") + 1
    module = task_dir("t2", {"kernel.hip": broken})
    with pytest.raises(NativeBuildError, match=rf"kernel.hip:{line}: error: identifier"):
        load(str(module), ["kernel.hip"])


@pytest.mark.slow
def test_torch_extension_cu_compiles_for_sm90_once(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None
) -> None:
    """The real thing: torch/extension.h through nvcc (~75 s on 2 cores), then a cache hit."""
    first = task_dir("eval1", {"kernel.cu": data("torch_ext.cu")})
    second = task_dir("eval2", {"kernel.cu": data("torch_ext.cu")})
    with pytest.raises(NativeCompiledNotRun, match="for sm_90"):
        load(str(first), ["kernel.cu"])
    with pytest.raises(NativeCompiledNotRun, match="cached"):
        load(str(second), ["kernel.cu"])
    assert last_load().cache_hit  # type: ignore[union-attr]


@pytest.mark.slow
def test_torch_extension_hip_compiles_for_gfx90a(
    task_dir: TaskDir, data: Data, hipcc: str, no_gpu: None
) -> None:
    """torch/extension.h through Debian's hipcc (clang 15, the thrust shim, C++17)."""
    module = task_dir("t", {"kernel.hip": data("torch_ext.hip")})
    with pytest.raises(NativeCompiledNotRun, match="for gfx90a"):
        load(str(module), ["kernel.hip"])


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("source", ["torch_ext.cu", "torch_ext.hip"])
def test_builds_and_runs_on_the_gpu(task_dir: TaskDir, data: Data, gpu: str, source: str) -> None:
    import torch

    if gpu == "rocm" and source.endswith(".cu"):
        pytest.skip("CUDA sources on ROCm go through cpp_extension's own hipify; not a goal here")
    suffix = Path(source).suffix
    first = task_dir("eval1", {f"kernel{suffix}": data(source)})
    second = task_dir("eval2", {f"kernel{suffix}": data(source)})
    ext = load(str(first), [f"kernel{suffix}"])
    assert not last_load().cache_hit  # type: ignore[union-attr]
    a = torch.randn(10_000, device="cuda")
    b = torch.randn(10_000, device="cuda")
    torch.testing.assert_close(ext.forward(a, b, 0.5), a * 0.5 + b)
    assert load(str(first), [f"kernel{suffix}"]) is ext
    assert last_load().origin == "memory"  # type: ignore[union-attr]
    # A different name is a different module in the same process (baseline and candidate).
    other = load(str(second), [f"kernel{suffix}"], name="candidate")
    assert other is not ext
    torch.testing.assert_close(other.forward(a, b, 2.0), a * 2.0 + b)


@pytest.mark.gpu
@pytest.mark.slow
def test_cache_hit_on_gpu_from_another_directory(
    task_dir: TaskDir, data: Data, gpu: str, cache_dir: Path
) -> None:
    """A second evaluation elsewhere imports the cached library instead of rebuilding."""
    import subprocess
    import sys

    first = task_dir("eval1", {"kernel.cu": data("torch_ext.cu")})
    second = task_dir("eval2", {"kernel.cu": data("torch_ext.cu")})
    script = (
        "import sys; from agentkernelarena.native import load, last_load\n"
        "load(sys.argv[1], ['kernel.cu']); print(last_load().origin)\n"
    )
    import agentkernelarena.native

    src = str(Path(agentkernelarena.native.__file__).parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    origins = [
        subprocess.run(
            [sys.executable, "-c", script, str(m)],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout.strip()
        for m in (first, second)
    ]
    assert origins == ["build", "cache"]
