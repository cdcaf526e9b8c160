"""The GPU-machine path of load() (build, cache, import), exercised without a GPU.

The compiler is replaced by a C compiler making a tiny real Python extension with the name
load() asks for, so everything after the compiler runs for real: storing the library in the
cache, installing it into another evaluation's build directory, importing it, and returning the
same module on a second load in one process.
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

C_MODULE = """
#include <Python.h>
#define STR2(x) #x
#define STR(x) STR2(x)
#define INIT2(n) PyInit_##n
#define INIT(n) INIT2(n)
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, STR(NAME), NULL, -1, NULL};
PyMODINIT_FUNC INIT(NAME)(void) {
  PyObject* m = PyModule_Create(&def);
  PyModule_AddStringConstant(m, "built_from", STR(SOURCE));
  return m;
}
"""


@pytest.fixture
def fake_gpu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Pretend to be a CUDA machine; 'compile' with cc. Returns the names built."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler")
    built: list[str] = []

    def fake_build(req: compilers.BuildRequest):  # type: ignore[no-untyped-def]
        source = tmp_path / f"{req.name}.c"
        source.write_text(C_MODULE)
        library = req.build_dir / f"{req.name}.so"
        include = sysconfig.get_paths()["include"]
        subprocess.run(
            [cc, "-shared", "-fPIC", f"-I{include}", f"-DNAME={req.name}",
             f"-DSOURCE={req.sources[0].name}", str(source), "-o", str(library)],
            check=True,
        )  # fmt: skip
        built.append(req.name)
        return build._import(req.name, library), library

    monkeypatch.setattr(
        build, "detect_target", lambda language: Target("cuda", "cuda", "sm_90", True)
    )
    monkeypatch.setattr(build, "_compiler_for", lambda target: cc)
    monkeypatch.setattr(compilers, "build_extension", fake_build)
    monkeypatch.setattr(build, "_LOADED", {})  # each test is a fresh process
    return built


def test_build_then_cache_then_memory(
    fake_gpu: list[str], task_dir: Callable[[str, dict[str, str]], Path], cache_dir: Path
) -> None:
    source = "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n"
    first = task_dir("eval1", {"kernel.cu": source})
    second = task_dir("eval2", {"kernel.cu": source})

    ext = load(str(first), ["kernel.cu"])
    info = last_load()
    assert info is not None and info.origin == "build" and info.outcome == "loaded"
    assert ext.built_from == "kernel.cu" and ext.__name__ == info.name
    assert (cache_dir / info.key / f"{info.name}.so").is_file()

    again = load(str(first), ["kernel.cu"])
    assert again is ext and last_load().origin == "memory"  # type: ignore[union-attr]

    build._LOADED.clear()  # a new process: the library comes from the cache, not the compiler
    other = load(str(second), ["kernel.cu"])
    assert last_load().origin == "cache" and last_load().cache_hit  # type: ignore[union-attr]
    assert (second.parent / ".aka_build" / info.name / f"{info.name}.so").is_file()
    assert other.built_from == "kernel.cu"
    assert fake_gpu == [info.name]


def test_baseline_and_candidate_get_distinct_modules(
    fake_gpu: list[str], task_dir: Callable[[str, dict[str, str]], Path]
) -> None:
    base = task_dir("baseline", {"kernel.cu": "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n"})
    cand = task_dir(
        "candidate", {"kernel.cu": "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n// v2\n"}
    )
    a = load(str(base), ["kernel.cu"])
    b = load(str(cand), ["kernel.cu"])
    assert a is not b and a.__name__ != b.__name__
    assert len(fake_gpu) == 2


def test_hip_on_cuda_is_translated_into_the_build_dir(
    fake_gpu: list[str], task_dir: Callable[[str, dict[str, str]], Path]
) -> None:
    hip = (
        '#include <hip/hip_runtime.h>\n#include "util.h"\n'
        "void f() { hipLaunchKernelGGL(k, 1, 64, 0, 0, 1); }\n"
        "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n"
    )
    module = task_dir("t", {"kernel.hip": hip, "util.h": "#define WARP 64\nhipStream_t s;\n"})
    ext = load(str(module), ["kernel.hip"])
    staged = Path(last_load().build_dir) / "src"  # type: ignore[union-attr]
    assert ext.built_from == "kernel.cu"
    text = (staged / "kernel.cu").read_text()
    assert text.startswith(f'#line 1 "{module.parent / "kernel.hip"}"\n')
    assert "k<<<1, 64, 0, 0>>>(1);" in text and "<cuda_runtime.h>" in text
    assert "cudaStream_t s;" in (staged / "util.h").read_text()
    assert (module.parent / "kernel.hip").read_text() == hip  # the agent's file is untouched
