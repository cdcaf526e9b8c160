"""Split mode on a GPU machine: the binding object is built once and reused by every kernel.

The fast tests replace the compiler (as test_runnable_flow.py does) so that the caching logic
runs for real without a GPU; the slow test runs torch's cpp_extension for real with a CPU-only
binding and C++ "kernels", which exercises the same mechanism (binding compiled once under its
own module name, a generated init stub, two modules from one binding object in one process).
"""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from agentkernelarena.native import build, compilers, last_load, load
from agentkernelarena.native.toolchain import Target

TaskDir = Callable[[str, dict[str, str]], Path]
Data = Callable[[str], str]

C_MODULE = """
#include <Python.h>
#define STR2(x) #x
#define STR(x) STR2(x)
#define INIT2(n) PyInit_##n
#define INIT(n) INIT2(n)
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, STR(NAME), NULL, -1, NULL};
PyMODINIT_FUNC INIT(NAME)(void) {
  PyObject* m = PyModule_Create(&def);
  PyModule_AddStringConstant(m, "binding_from", STR(BINDING));
  return m;
}
"""


@pytest.fixture
def fake_gpu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, object]]:
    """Pretend to be a CUDA machine; 'build' with cc. Returns one record per build."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler")
    builds: list[dict[str, object]] = []

    def fake_build(split: compilers.SplitRequest):  # type: ignore[no-untyped-def]
        req = split.build
        source = tmp_path / f"{req.name}.c"
        source.write_text(C_MODULE)
        library = req.build_dir / f"{req.name}.so"
        origin = "object" if split.binding_object is not None else "source"
        include = sysconfig.get_paths()["include"]
        subprocess.run(
            [
                cc,
                "-shared",
                "-fPIC",
                f"-I{include}",
                f"-DNAME={req.name}",
                f"-DBINDING={origin}",
                str(source),
                "-o",
                str(library),
            ],
            check=True,
        )
        binding_object = None
        if split.binding_source is not None:
            binding_object = req.build_dir / "binding.o"
            binding_object.write_bytes(b"object of " + split.binding_source.read_bytes())
        decls = split.declarations.read_text() if split.declarations else ""
        builds.append(
            {
                "name": req.name,
                "binding": origin,
                "declarations": decls,
                "module": split.binding_module,
            }
        )
        return build._import(req.name, library), library, binding_object

    monkeypatch.setattr(
        build, "detect_target", lambda language: Target("cuda", "cuda", "sm_90", True)
    )
    monkeypatch.setattr(build, "_compiler_for", lambda target: cc)
    monkeypatch.setattr(compilers, "build_split_extension", fake_build)
    monkeypatch.setattr(build, "_LOADED", {})
    return builds


def _task(task_dir: TaskDir, data: Data, folder: str, kernel: str | None = None) -> Path:
    return task_dir(
        folder,
        {"kernel.cu": kernel or data("split/kernel.cu"), "binding.cpp": data("split/binding.cpp")},
    )


def test_edited_kernel_reuses_the_cached_binding_object(
    fake_gpu: list[dict[str, object]], task_dir: TaskDir, data: Data, cache_dir: Path
) -> None:
    baseline = _task(task_dir, data, "baseline")
    edited = _task(task_dir, data, "candidate", data("split/kernel.cu") + "\n// faster\n")

    first = load(str(baseline), ["kernel.cu"], binding="binding.cpp")
    info = last_load()
    assert info is not None and info.origin == "build" and info.binding == "build"
    assert first.binding_from == "source"
    assert "aka_scale(const void* x, void* y, float s, int64_t n, void* stream);" in str(
        fake_gpu[0]["declarations"]
    )

    second = load(str(edited), ["kernel.cu"], binding="binding.cpp")
    again = last_load()
    assert again is not None and again.origin == "build" and again.binding == "cache"
    assert second.binding_from == "object" and second is not first
    assert again.key != info.key
    # Both modules link the same binding, compiled once under one name.
    assert fake_gpu[0]["module"] == fake_gpu[1]["module"]
    assert str(fake_gpu[0]["module"]).startswith("aka_binding_")

    assert load(str(baseline), ["kernel.cu"], binding="binding.cpp") is first
    assert last_load().origin == "memory"  # type: ignore[union-attr]
    build._LOADED.clear()  # a new process: the whole library comes from the cache
    load(str(_task(task_dir, data, "elsewhere")), ["kernel.cu"], binding="binding.cpp")
    assert last_load().origin == "cache"  # type: ignore[union-attr]
    assert len(fake_gpu) == 2


def test_changed_binding_rebuilds_the_binding(
    fake_gpu: list[dict[str, object]], task_dir: TaskDir, data: Data
) -> None:
    load(str(_task(task_dir, data, "a")), ["kernel.cu"], binding="binding.cpp")
    other = _task(task_dir, data, "b")
    (other.parent / "binding.cpp").write_text(data("split/binding.cpp") + "\n// v2\n")
    load(str(other), ["kernel.cu"], binding="binding.cpp")
    assert last_load().binding == "build"  # type: ignore[union-attr]
    assert fake_gpu[0]["module"] != fake_gpu[1]["module"]


def test_hip_kernel_is_translated_and_the_binding_is_not(
    fake_gpu: list[dict[str, object]], task_dir: TaskDir, data: Data
) -> None:
    module = task_dir(
        "t", {"kernel.hip": data("split/kernel.hip"), "binding.cpp": data("split/binding.cpp")}
    )
    load(str(module), ["kernel.hip"], binding="binding.cpp")
    staged = Path(last_load().build_dir) / "src"  # type: ignore[union-attr]
    assert (staged / "kernel.cu").is_file() and not (staged / "binding.cpp").exists()
    assert "scale_kernel<<<" in (staged / "kernel.cu").read_text()


BINDING_CPU = """
#include <torch/extension.h>
extern "C" int aka_fill(void* y, float v, int64_t n, void* stream);
torch::Tensor forward(torch::Tensor x) {
  auto y = torch::empty_like(x);
  TORCH_CHECK(aka_fill(y.data_ptr(), 1.0f, y.numel(), nullptr) == 0, "launcher failed");
  return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward); }
"""
KERNEL_CPU = """
#include <cstdint>
extern "C" int aka_fill(void* y, float v, int64_t n, void* stream) {
  for (int64_t i = 0; i < n; ++i) static_cast<float*>(y)[i] = v * FACTOR;
  return 0;
}
"""


@pytest.mark.slow
def test_cpp_extension_links_one_binding_object_into_two_modules(tmp_path: Path) -> None:
    """The real mechanism, with PyTorch's CPU build: ~1-7 min for the binding, ~1 s after."""
    import torch

    if shutil.which("ninja") is None:
        pytest.skip("needs ninja")
    (tmp_path / "binding.cpp").write_text(BINDING_CPU)
    modules = []
    binding_object: Path | None = None
    for factor in (1, 2):
        kernel = tmp_path / f"k{factor}.cpp"
        kernel.write_text(KERNEL_CPU.replace("FACTOR", str(factor)))
        build_dir = tmp_path / f"build{factor}"
        req = compilers.BuildRequest(
            f"mod{factor}",
            [kernel],
            tmp_path,
            build_dir,
            Target("cpu", "cuda", "sm_90", False),
            ["-O1"],
            [],
        )
        split = compilers.SplitRequest(req, "aka_binding_test")
        if binding_object is None:
            split.binding_source = tmp_path / "binding.cpp"
        else:
            split.binding_object = binding_object
        module, library, obj = compilers.build_split_extension(split)
        assert library.is_file()
        binding_object = binding_object or obj
        assert binding_object is not None and binding_object.name == "binding.o"
        modules.append(module)
    x = torch.zeros(3)
    assert modules[0].forward(x).tolist() == [1.0] * 3
    assert modules[1].forward(x).tolist() == [2.0] * 3
    assert modules[0].forward(x).tolist() == [1.0] * 3  # each module keeps its own kernel
