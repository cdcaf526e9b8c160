"""Split mode: a torch-free kernel source plus a pristine binding.cpp (docs/native.md).

The fast tests compile only kernel sources (a few seconds each, no torch headers): the
compile-only gate, its cache, the checks that run before any compiler, and the binding's
launcher declarations forced into the kernel compile. The GPU-machine path (binding object
built once and reused) runs with a fake compiler here and for real in the slow test.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from agentkernelarena.native import (
    NativeBuildError,
    NativeCompiledNotRun,
    last_load,
    load,
)
from agentkernelarena.native.sources import launcher_declarations

TaskDir = Callable[[str, dict[str, str]], Path]
Data = Callable[[str], str]


def _split_task(
    task_dir: TaskDir, data: Data, folder: str, suffix: str = ".cu", kernel: str | None = None
) -> Path:
    files = {
        f"kernel{suffix}": kernel or data(f"split/kernel{suffix}"),
        "binding.cpp": data("split/binding.cpp"),
    }
    return task_dir(folder, files)


def test_launcher_declarations_single_and_block_forms(tmp_path: Path) -> None:
    binding = tmp_path / "binding.cpp"
    binding.write_text(
        "#include <torch/extension.h>\n"
        '// extern "C" int commented_out(int);\n'
        'extern "C" int aka_a(const void* x, int64_t n, void* stream);\n'
        'extern "C" {\n'
        "  // returns a cudaError_t\n"
        "  int aka_b(const void* x,\n"
        "            void* y, void* stream);\n"
        "  void aka_c(void);\n"
        "}\n"
        'extern "C" int defined_here(int v) { return v; }\n'
    )
    found = launcher_declarations(binding)
    assert [(line, name) for line, name, _ in found] == [(3, "aka_a"), (6, "aka_b"), (8, "aka_c")]
    assert found[1][2].split() == "int aka_b(const void* x, void* y, void* stream);".split()


def test_kernel_source_with_torch_headers_is_refused(task_dir: TaskDir, data: Data) -> None:
    kernel = "// #include <torch/extension.h> in a comment is fine\n" + data("split/kernel.cu")
    kernel = kernel.replace("#include <cstdint>", "#include <ATen/ATen.h>")
    module = _split_task(task_dir, data, "t", kernel=kernel)
    with pytest.raises(NativeBuildError, match=r"kernel.cu:5: includes #include <ATen/ATen.h>"):
        load(str(module), ["kernel.cu"], binding="binding.cpp")


def test_kernel_source_with_its_own_module_is_refused(task_dir: TaskDir, data: Data) -> None:
    kernel = data("split/kernel.cu") + "\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n"
    module = _split_task(task_dir, data, "t", kernel=kernel)
    with pytest.raises(NativeBuildError, match=r"bindings live in binding.cpp \(not editable\)"):
        load(str(module), ["kernel.cu"], binding="binding.cpp")


def test_binding_problems_are_reported_before_compiling(task_dir: TaskDir, data: Data) -> None:
    module = task_dir("t", {"kernel.cu": data("split/kernel.cu"), "binding.cpp": "int x;\n"})
    with pytest.raises(NativeBuildError, match="binding.cpp: no pybind11 bindings"):
        load(str(module), ["kernel.cu"], binding="binding.cpp")
    with pytest.raises(NativeBuildError, match="missing.cpp: no such file"):
        load(str(module), ["kernel.cu"], binding="missing.cpp")
    with pytest.raises(NativeBuildError, match=r"the binding is a C\+\+ file"):
        load(str(module), ["kernel.cu"], binding="kernel.cu")


def test_compile_only_cuda_kernel_in_seconds_then_cached(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None, cache_dir: Path
) -> None:
    first = _split_task(task_dir, data, "eval1")
    second = _split_task(task_dir, data, "eval2")
    started = time.monotonic()
    with pytest.raises(NativeCompiledNotRun) as err:
        load(str(first), ["kernel.cu"], binding="binding.cpp")
    elapsed = time.monotonic() - started
    message = str(err.value)
    assert message.startswith("compiled kernel.cu for sm_90 with nvcc")
    assert "binding.cpp is built with torch on a GPU machine, not here" in message
    info = last_load()
    assert info is not None and info.outcome == "compiled" and info.origin == "build"
    assert info.binding == "" and elapsed < 60  # no torch headers: seconds, not minutes
    assert [Path(a).name for a in err.value.artifacts] == ["kernel.cuda.o"]
    with pytest.raises(NativeCompiledNotRun, match=r"\(cached\)"):
        load(str(second), ["kernel.cu"], binding="binding.cpp")
    assert last_load().origin == "cache"  # type: ignore[union-attr]


def test_hip_kernel_compiles_for_gfx90a_and_translated_for_sm90(
    task_dir: TaskDir, data: Data, hipcc: str, nvcc: str, no_gpu: None
) -> None:
    module = _split_task(task_dir, data, "t", ".hip")
    with pytest.raises(NativeCompiledNotRun) as err:
        load(str(module), ["kernel.hip"], binding="binding.cpp")
    message = str(err.value)
    assert "for gfx90a with hipcc" in message
    assert "translated to CUDA, for sm_90 with nvcc" in message
    assert sorted(Path(a).name for a in err.value.artifacts) == ["kernel.cuda.o", "kernel.hip.o"]
    info = last_load()
    assert info is not None and info.arch == "gfx90a+sm_90" and info.warnings == []
    staged = Path(info.build_dir) / "src" / "kernel.cu"
    assert "scale_kernel<<<" in staged.read_text()


def test_hip_error_in_the_translation_names_the_hip_file(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AKA_NATIVE_HIP_VIA_CUDA", "1")
    broken = data("split/kernel.hip").replace("y[i] = x[i] * s;", "y[i] = x[i] * s + oops;")
    line = broken.splitlines().index("    y[i] = x[i] * s + oops;") + 1
    module = _split_task(task_dir, data, "t", ".hip", kernel=broken)
    with pytest.raises(NativeBuildError) as err:
        load(str(module), ["kernel.hip"], binding="binding.cpp")
    assert f'kernel.hip:{line}: error: identifier "oops" is undefined' in str(err.value)
    assert "HIP translated to CUDA" in str(err.value)


def test_launcher_signature_differing_from_the_binding_is_a_compile_error(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None
) -> None:
    kernel = data("split/kernel.cu").replace(
        "float s, int64_t n, void* stream)", "float s, int n, void* stream)"
    )
    module = _split_task(task_dir, data, "t", kernel=kernel)
    with pytest.raises(NativeBuildError) as err:
        load(str(module), ["kernel.cu"], binding="binding.cpp")
    message = str(err.value)
    assert 'kernel.cu:15: error: more than one instance of overloaded function "aka_scale"' in (
        message
    )
    assert "the binding (binding.cpp, not editable) declares:" in message
    assert "binding.cpp:6: int aka_scale(const void* x, void* y, float s, int64_t n" in message


def test_missing_launcher_is_reported(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None
) -> None:
    kernel = data("split/kernel.cu").replace('extern "C" int aka_scale(', 'extern "C" int other(')
    module = _split_task(task_dir, data, "t", kernel=kernel)
    with pytest.raises(NativeBuildError, match=r"does not define aka_scale \(binding.cpp:6\)"):
        load(str(module), ["kernel.cu"], binding="binding.cpp")


def test_single_source_mode_is_unchanged(
    task_dir: TaskDir, data: Data, nvcc: str, no_gpu: None
) -> None:
    module = task_dir("t", {"standin.cu": data("standin.cu")})
    with pytest.raises(NativeCompiledNotRun, match=r"compiled standin.cu for sm_90 with nvcc"):
        load(str(module), ["standin.cu"])
    assert last_load().binding == ""  # type: ignore[union-attr]
