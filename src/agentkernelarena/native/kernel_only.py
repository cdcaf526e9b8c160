"""Compile a torch-free kernel source to an object file: the compile-only gate of split mode.

In split mode (`load(..., binding="binding.cpp")`) the editable source holds kernels and
`extern "C"` launchers only, so a machine without a GPU checks it with the plain compiler,
without torch's headers: seconds instead of the minutes `torch/extension.h` costs. The flags
mirror what `torch.utils.cpp_extension` passes on a GPU machine (its NVCC/HIP defines such as
`__CUDA_NO_HALF_OPERATORS__`, -O3, -fPIC), so "compiles here" predicts "compiles there".
The binding's launcher declarations are forced into the compile (`-include`), so a launcher
whose signature drifted from the binding's is a compile error here too.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from agentkernelarena.native.compilers import CompilerFailed
from agentkernelarena.native.toolchain import hip_env

__all__ = ["compile_cuda_object", "compile_hip_object", "defined_symbols", "nvcc_flags"]

# Used when torch.utils.cpp_extension does not say (older or newer torch).
_FALLBACK_NVCC_FLAGS = [
    "-D__CUDA_NO_HALF_OPERATORS__",
    "-D__CUDA_NO_HALF_CONVERSIONS__",
    "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
    "-D__CUDA_NO_HALF2_OPERATORS__",
    "--expt-relaxed-constexpr",
]
_FALLBACK_HIP_FLAGS = ["-D__HIP_PLATFORM_AMD__=1", "-DUSE_ROCM=1", "-fPIC"]
_FALLBACK_HIPCC_FLAGS = [
    "-DCUDA_HAS_FP16=1",
    "-D__HIP_NO_HALF_OPERATORS__=1",
    "-D__HIP_NO_HALF_CONVERSIONS__=1",
]
COMPILE_TIMEOUT_S = 600


def nvcc_flags() -> list[str]:
    """cpp_extension's defines for nvcc (half/bfloat16 operators off, relaxed constexpr)."""
    from torch.utils import cpp_extension

    return list(getattr(cpp_extension, "COMMON_NVCC_FLAGS", _FALLBACK_NVCC_FLAGS))


def _hip_common_flags() -> list[str]:
    from torch.utils import cpp_extension

    return [
        *getattr(cpp_extension, "COMMON_HIP_FLAGS", _FALLBACK_HIP_FLAGS),
        *getattr(cpp_extension, "COMMON_HIPCC_FLAGS", _FALLBACK_HIPCC_FLAGS),
    ]


def _compile(cmd: list[str], obj: Path, env: dict[str, str] | None = None) -> Path:
    """Run one compiler command that writes `obj`; its output goes to `obj`'s .log."""
    obj.unlink(missing_ok=True)
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, env=env, check=False, timeout=COMPILE_TIMEOUT_S
        )
    except subprocess.TimeoutExpired as exc:
        raise CompilerFailed(f"the compiler ran longer than {COMPILE_TIMEOUT_S} s: {exc}") from exc
    output = proc.stdout + proc.stderr
    obj.with_suffix(".log").write_text(" ".join(cmd) + "\n" + output)
    if proc.returncode != 0:
        raise CompilerFailed(output or f"{cmd[0]} exited with status {proc.returncode}")
    if not obj.is_file():
        raise CompilerFailed(f"{cmd[0]} reported success but wrote no {obj.name}")
    return obj


def _forced_include(declarations: Path | None) -> list[str]:
    return ["-include", str(declarations)] if declarations is not None else []


def compile_cuda_object(
    nvcc: str,
    source: Path,
    obj: Path,
    *,
    arch: str,
    include_dirs: Sequence[Path],
    cuda_cflags: Sequence[str],
    declarations: Path | None,
) -> Path:
    """`nvcc -c -arch=<arch>` with cpp_extension's defines; returns the object file."""
    cmd = [
        nvcc,
        "-c",
        f"-arch={arch}",
        "-std=c++17",
        "--compiler-options",
        "-fPIC",
        *nvcc_flags(),
        *(f"-I{d}" for d in include_dirs),
        *_forced_include(declarations),
        *cuda_cflags,
        str(source),
        "-o",
        str(obj),
    ]
    return _compile(cmd, obj)


def compile_hip_object(
    hipcc: str,
    source: Path,
    obj: Path,
    *,
    arch: str,
    include_dirs: Sequence[Path],
    cflags: Sequence[str],
    cuda_cflags: Sequence[str],
    declarations: Path | None,
) -> Path:
    """`hipcc --offload-arch=<arch> -c` with cpp_extension's HIP defines; returns the object."""
    cmd = [
        hipcc,
        f"--offload-arch={arch}",
        "-fno-gpu-rdc",
        "-fPIC",
        "-std=c++17",
        *_hip_common_flags(),
        *(f"-I{d}" for d in include_dirs),
        *_forced_include(declarations),
        *cflags,
        *cuda_cflags,
        "-c",
        str(source),
        "-o",
        str(obj),
    ]
    return _compile(cmd, obj, env=hip_env())


def defined_symbols(objects: Sequence[Path]) -> set[str] | None:
    """Global symbols the objects define (`nm`), or None when nm is not available."""
    nm = shutil.which("nm")
    if nm is None:
        return None
    names: set[str] = set()
    for obj in objects:
        try:
            proc = subprocess.run(
                [nm, "-g", "--defined-only", str(obj)],
                capture_output=True,
                text=True,
                check=False,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if proc.returncode != 0:
            return None
        names.update(line.split()[-1] for line in proc.stdout.splitlines() if line.strip())
    return names
