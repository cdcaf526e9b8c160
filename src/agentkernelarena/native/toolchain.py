"""Which GPU we build for, with which compiler, and whether the result can run here.

Three situations, decided from torch (the build must match the torch that loads it):
- CUDA torch with a GPU: `.cu` builds with nvcc for the device's arch; `.hip` is translated first.
- ROCm torch with a GPU: hipcc for the device's gfx arch (cpp_extension hipifies `.cu` itself).
- no GPU (CI, a laptop, PyTorch's CPU build): a compile-only gate for a fixed reference arch:
  sm_90 (H200) for `.cu`, gfx90a (MI200; Debian's clang 15 has no gfx942) for `.hip` (or, with
  AKA_NATIVE_HIP_VIA_CUDA=1 or without hipcc, the HIP source translated and compiled for sm_90).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Target",
    "detect_target",
    "find_cuda_home",
    "find_hipcc",
    "hip_via_cuda",
    "tool_version",
]

COMPILE_ONLY_CUDA_ARCH = "sm_90"
COMPILE_ONLY_HIP_ARCH = "gfx90a"


@dataclass(frozen=True)
class Target:
    """What a build produces: for which platform and arch, and whether it can run here."""

    platform: str  # "cuda" | "rocm" | "cpu" (compile-only)
    language: str  # what the compiler sees: "cuda" | "hip"
    arch: str  # "sm_90", "gfx942", ...
    runnable: bool
    why_not_runnable: str = ""


def _force_compile_only() -> bool:
    return os.environ.get("AKA_NATIVE_COMPILE_ONLY", "") not in ("", "0")


def hip_via_cuda() -> bool:
    """Check HIP sources as the NVIDIA build would (translated, nvcc) instead of with hipcc.

    Asked for with AKA_NATIVE_HIP_VIA_CUDA=1, or the fallback when hipcc is missing and nvcc
    is not: a CI machine with only the CUDA toolkit still checks HIP tasks.
    """
    if os.environ.get("AKA_NATIVE_HIP_VIA_CUDA", "") not in ("", "0"):
        return True
    return find_hipcc() is None and find_cuda_home() is not None


def detect_target(source_language: str) -> Target:
    """The build target for sources in `source_language` ("cuda" or "hip") on this machine."""
    import torch

    available_gpu = torch.cuda.is_available()
    available = available_gpu and not _force_compile_only()
    if available and torch.version.hip:
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        arch = str(getattr(props, "gcnArchName", "gfx942")).split(":", 1)[0]
        return Target("rocm", "hip", arch, True)
    if available and torch.version.cuda:
        major, minor = torch.cuda.get_device_capability()
        return Target("cuda", "cuda", f"sm_{major}{minor}", True)
    why = "AKA_NATIVE_COMPILE_ONLY is set" if available_gpu else "no GPU on this machine"
    if source_language == "hip" and not hip_via_cuda():
        arch = os.environ.get("AKA_NATIVE_HIP_ARCH", COMPILE_ONLY_HIP_ARCH)
        return Target("cpu", "hip", arch, False, why)
    arch = os.environ.get("AKA_NATIVE_CUDA_ARCH", COMPILE_ONLY_CUDA_ARCH)
    return Target("cpu", "cuda", arch, False, why)


def find_cuda_home() -> Path | None:
    """A CUDA toolkit root holding bin/nvcc and include/cuda_runtime.h."""
    from torch.utils import cpp_extension

    candidates = [cpp_extension.CUDA_HOME, os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    if nvcc := shutil.which("nvcc"):
        candidates.append(str(Path(nvcc).resolve().parent.parent))
    candidates.append("/usr/local/cuda")
    for cand in candidates:
        if cand and (Path(cand) / "bin" / "nvcc").is_file():
            if (Path(cand) / "include" / "cuda_runtime.h").is_file():
                return Path(cand)
    return None


def find_hipcc() -> Path | None:
    """hipcc from ROCm (ROCM_HOME/ROCM_PATH) or the PATH (Debian's package)."""
    from torch.utils import cpp_extension

    roots = [
        getattr(cpp_extension, "ROCM_HOME", None),
        os.environ.get("ROCM_PATH"),
        os.environ.get("ROCM_HOME"),
    ]
    for root in roots:
        if root and (Path(root) / "bin" / "hipcc").is_file():
            return Path(root) / "bin" / "hipcc"
    if found := shutil.which("hipcc"):
        return Path(found)
    if Path("/opt/rocm/bin/hipcc").is_file():
        return Path("/opt/rocm/bin/hipcc")
    return None


def hip_env() -> dict[str, str]:
    """hipcc's environment: with a CUDA toolkit present it would default to the nvidia platform."""
    return {**os.environ, "HIP_PLATFORM": "amd"}


@functools.cache
def tool_version(tool: str) -> tuple[str, str]:
    """(full `--version` output for the cache key, short name for messages), per process."""
    env = hip_env() if Path(tool).name.startswith("hipcc") else None
    try:
        proc = subprocess.run(
            [tool, "--version"], capture_output=True, text=True, timeout=60, env=env, check=False
        )
        text = (proc.stdout + proc.stderr).strip()
    except (OSError, subprocess.SubprocessError) as exc:
        return f"unavailable: {exc}", Path(tool).name
    name = Path(tool).name
    if m := re.search(r"release (\d+\.\d+)", text):
        return text, f"{name} {m.group(1)}"
    if m := re.search(r"HIP version: (\S+)", text):
        return text, f"{name} HIP {m.group(1)}"
    first = text.splitlines()[0] if text else ""
    return text, f"{name} ({first})" if first else name


def host_compiler() -> str:
    """The C++ compiler cpp_extension uses (CXX or c++)."""
    return os.environ.get("CXX") or "c++"
