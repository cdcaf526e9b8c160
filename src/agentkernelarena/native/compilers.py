"""The three ways a native source is compiled: a real torch extension, and two compile-only gates.

Real builds go through `torch.utils.cpp_extension.load`, so flags, ABI and linking match what
PyTorch users get. Without a GPU:
- `.cu`: the same `cpp_extension.load`, with `CUDA_HOME` pointed at the local toolkit (PyTorch's
  CPU build forces it to None) and the arch pinned. nvcc compiles the objects; linking then
  fails on the CPU build (no c10_cuda/torch_cuda libraries), which is expected: the objects are
  the result. Same flags as a real build, so "compiles here" means "compiles on the GPU box".
- `.hip`: hipcc (Debian's clang 15 is enough) with cpp_extension's HIP flags, for gfx90a,
  `-c` only. Two adjustments for torch headers: a <thrust/complex.h> stand-in (hipshim) and
  `-std=c++17`, because clang 15 crashes on torch 2.13's headers in C++20 mode.
All compiler output is captured; failures raise `CompilerFailed` with the raw text.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import sysconfig
import tempfile
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from agentkernelarena.native.errors import NativeToolchainError
from agentkernelarena.native.hipshim import write_shim
from agentkernelarena.native.toolchain import Target, find_cuda_home, find_hipcc, hip_env

_NO_NINJA = "ninja is required to build native sources (pip install ninja)"


class CompilerFailed(Exception):
    """Internal: the compiler (or the import of its result) failed; `output` is the raw log."""

    def __init__(self, output: str) -> None:
        super().__init__(output[:200])
        self.output = output


@dataclass
class BuildRequest:
    """One extension to build: its unique name, the files the compiler sees, and flags."""

    name: str
    sources: list[Path]
    src_dir: Path
    build_dir: Path
    target: Target
    cflags: list[str] = field(default_factory=list)
    cuda_cflags: list[str] = field(default_factory=list)


@dataclass
class _Captured:
    text: str = ""


@contextlib.contextmanager
def capture_output() -> Iterator[_Captured]:
    """Capture everything written to fds 1 and 2 (Python and C code alike) while building."""
    result = _Captured()
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with tempfile.TemporaryFile(mode="w+b") as sink:
        try:
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            yield result
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            sink.seek(0)
            result.text = sink.read().decode(errors="replace")


@contextlib.contextmanager
def _environ(values: dict[str, str]) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def torch_arch_list(arch: str) -> str:
    """sm_90 -> 9.0, sm_90a -> 9.0a, sm_100 -> 10.0 (TORCH_CUDA_ARCH_LIST's spelling)."""
    digits = arch.removeprefix("sm_")
    suffix = "a" if digits.endswith(("a", "f")) else ""
    digits = digits.rstrip("af")
    return f"{digits[:-1]}.{digits[-1]}{suffix}"


def _arch_env(target: Target) -> dict[str, str]:
    if target.language == "hip":
        return {"PYTORCH_ROCM_ARCH": target.arch}
    return {"TORCH_CUDA_ARCH_LIST": torch_arch_list(target.arch)}


def _forget(name: str) -> None:
    """Drop cpp_extension's in-process record of `name`, so a retry really rebuilds.

    After a failed build cpp_extension still believes `name` is up to date and would skip
    straight to importing a library that does not exist.
    """
    from torch.utils import cpp_extension

    versioner = getattr(cpp_extension, "JIT_EXTENSION_VERSIONER", None)
    entries = getattr(versioner, "entries", None)
    if isinstance(entries, dict):
        entries.pop(name, None)


def _cpp_extension_load(req: BuildRequest, extra_ldflags: Sequence[str] = ()) -> types.ModuleType:
    from torch.utils import cpp_extension

    return cpp_extension.load(
        name=req.name,
        sources=[str(s) for s in req.sources],
        extra_cflags=list(req.cflags),
        extra_cuda_cflags=list(req.cuda_cflags),
        extra_ldflags=list(extra_ldflags) or None,
        extra_include_paths=[str(req.src_dir)],
        build_directory=str(req.build_dir),
        verbose=False,
    )


def build_extension(req: BuildRequest,
                    extra_ldflags: Sequence[str] = ()) -> tuple[types.ModuleType, Path]:
    """Build and import a torch extension on a GPU machine; return (module, library path)."""
    from torch.utils import cpp_extension

    if not cpp_extension.is_ninja_available():
        raise NativeToolchainError(_NO_NINJA)
    req.build_dir.mkdir(parents=True, exist_ok=True)
    with _environ(_arch_env(req.target)), capture_output() as captured:
        try:
            module = _cpp_extension_load(req, extra_ldflags)
        except ImportError as exc:
            _forget(req.name)
            failure: Exception | None = exc
            prefix = "the library was built but could not be imported: "
        except (RuntimeError, OSError, ValueError, subprocess.SubprocessError) as exc:
            _forget(req.name)
            failure, prefix = exc, ""
        else:
            failure = None
    if failure is not None:
        raise CompilerFailed(f"{prefix}{failure}\n{captured.text}") from failure
    library = req.build_dir / f"{req.name}{getattr(cpp_extension, 'LIB_EXT', '.so')}"
    return module, library


def _clean_objects(build_dir: Path) -> None:
    """Remove old objects and ninja state so only this run's objects count as results."""
    for pattern in ("*.o", "build.ninja", ".ninja_log", ".ninja_deps"):
        for path in build_dir.glob(pattern):
            path.unlink(missing_ok=True)


def compile_only_cuda(req: BuildRequest) -> list[Path]:
    """nvcc -c through cpp_extension (same flags as a real build); return the object files."""
    from torch.utils import cpp_extension

    cuda_home = find_cuda_home()
    if cuda_home is None:
        raise NativeToolchainError("nvcc not found (set CUDA_HOME); cannot compile .cu sources")
    if not cpp_extension.is_ninja_available():
        raise NativeToolchainError(_NO_NINJA)
    req.build_dir.mkdir(parents=True, exist_ok=True)
    _clean_objects(req.build_dir)
    saved_home = cpp_extension.CUDA_HOME
    cpp_extension.CUDA_HOME = str(cuda_home)
    output = ""
    try:
        with _environ(_arch_env(req.target)), capture_output() as captured:
            try:
                _cpp_extension_load(req)
            except (
                RuntimeError,
                OSError,
                ValueError,
                ImportError,
                subprocess.SubprocessError,
            ) as exc:
                output = str(exc)
    finally:
        cpp_extension.CUDA_HOME = saved_home
        _forget(req.name)
    objects = [req.build_dir / f"{s.stem}.cuda.o" for s in req.sources]
    if all(o.is_file() for o in objects):
        return objects
    raise CompilerFailed(f"{output}\n{captured.text}")


def _hip_flags(req: BuildRequest, hipcc: Path) -> list[str]:
    from torch.utils import cpp_extension

    common_hip = getattr(cpp_extension, "COMMON_HIP_FLAGS", ["-D__HIP_PLATFORM_AMD__=1"])
    common_hipcc = getattr(cpp_extension, "COMMON_HIPCC_FLAGS", [])
    includes = [*cpp_extension.include_paths("cpu"), sysconfig.get_paths()["include"]]
    flags = [
        f"--offload-arch={req.target.arch}",
        "-fno-gpu-rdc",
        "-fPIC",
        "-std=c++17",
        f"-DTORCH_EXTENSION_NAME={req.name}",
        "-DTORCH_API_INCLUDE_EXTENSION_H",
        "-DWITH_HIP",
        *common_hip,
        *common_hipcc,
        f"-I{req.src_dir}",
    ]
    flags += [f"-isystem{inc}" for inc in includes]
    if not (hipcc.resolve().parent.parent / "include" / "thrust" / "complex.h").is_file():
        flags.append(f"-isystem{write_shim(req.build_dir / 'aka_hip_shim')}")
    return [*flags, *req.cflags, *req.cuda_cflags]


def compile_only_hip(req: BuildRequest) -> list[Path]:
    """hipcc -c for the target gfx arch; return the object files."""
    hipcc = find_hipcc()
    if hipcc is None:
        raise NativeToolchainError(
            "hipcc not found; cannot compile .hip sources (scripts/install-hip-toolchain.sh)"
        )
    req.build_dir.mkdir(parents=True, exist_ok=True)
    flags = _hip_flags(req, hipcc)
    objects = []
    for source in req.sources:
        obj = req.build_dir / f"{source.stem}.hip.o"
        obj.unlink(missing_ok=True)
        cmd = [str(hipcc), *flags, "-c", str(source), "-o", str(obj)]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=hip_env(), check=False)
        (req.build_dir / f"{source.stem}.hip.log").write_text(
            " ".join(cmd) + "\n" + proc.stdout + proc.stderr
        )
        if proc.returncode != 0 or not obj.is_file():
            raise CompilerFailed(proc.stdout + proc.stderr)
        objects.append(obj)
    return objects


# --- split mode on a GPU machine: the binding object is compiled once and reused -------------

_STUB = """// Generated by agentkernelarena.native. The binding was compiled once, as module
// {binding_module}; this module's init function is that one's, under this module's name.
#include <Python.h>
extern "C" PyObject* PyInit_{binding_module}(void);
PyMODINIT_FUNC PyInit_{name}(void) {{ return PyInit_{binding_module}(); }}
"""


@dataclass
class SplitRequest:
    """A split-mode build: kernel sources plus either the binding source or its cached object.

    The binding is always compiled as module `binding_module` (a name derived from its own
    cache key, not from the kernel's), so its object is the same whatever kernel it is linked
    with; a generated stub gives the library the init function its real name needs.
    """

    build: BuildRequest
    binding_module: str
    binding_source: Path | None = None
    binding_object: Path | None = None
    declarations: Path | None = None


def build_split_extension(split: SplitRequest) -> tuple[types.ModuleType, Path, Path | None]:
    """Build and import kernel + binding; return (module, library, the binding's object).

    With `binding_object` set, only the kernel sources and the stub are compiled (seconds) and
    the object is linked in; otherwise the binding is compiled too and its object returned
    for the cache (None if it cannot be told apart from the other objects).
    """
    req = split.build
    req.build_dir.mkdir(parents=True, exist_ok=True)
    stub = req.build_dir / "aka_pyinit.cpp"
    stub.write_text(_STUB.format(binding_module=split.binding_module, name=req.name))
    sources = [*req.sources, stub]
    ldflags: list[str] = []
    if split.binding_object is not None:
        ldflags.append(str(split.binding_object))
    elif split.binding_source is not None:
        sources.insert(0, split.binding_source)
    else:
        raise ValueError("a split build needs the binding's source or its object")
    cflags = [
        *req.cflags,
        "-UTORCH_EXTENSION_NAME",
        f"-DTORCH_EXTENSION_NAME={split.binding_module}",
    ]
    cuda_cflags = list(req.cuda_cflags)
    if split.declarations is not None:
        cuda_cflags += ["-include", str(split.declarations)]
    module, library = build_extension(
        replace(req, sources=sources, cflags=cflags, cuda_cflags=cuda_cflags), ldflags)
    binding_object = None
    if split.binding_source is not None:
        kernel_objects = {f"{s.stem}.cuda.o" for s in req.sources} | {"aka_pyinit.o"}
        found = [
            o
            for o in req.build_dir.glob("*.o")
            if o.name not in kernel_objects and o.stem.startswith(split.binding_source.stem)
        ]
        binding_object = found[0] if len(found) == 1 else None
    return module, library, binding_object
