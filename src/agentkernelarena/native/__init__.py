"""Build native (CUDA/HIP) task sources into Python modules: the arena's one build helper.

A CUDA or HIP task's entry module does

    from agentkernelarena.native import load
    _ext = load(__file__, ["kernel.cu"], binding="binding.cpp")

and calls `_ext.forward(...)`. The kernel source holds kernels and extern "C" launchers, the
pristine binding the torch side (split mode, split.py; without `binding` the sources define the
module themselves). Where it runs decides what happens (see docs/native.md): a real build on a
GPU machine (HIP translated to CUDA on NVIDIA, the binding compiled once and cached apart), a
compile-only check without a GPU (the kernel source alone, raising NativeCompiledNotRun), and a
shared cache so that unchanged sources never rebuild.
"""

from agentkernelarena.native.build import BUILD_DIR_NAME, LoadInfo, last_load
from agentkernelarena.native.cache import cache_root
from agentkernelarena.native.errors import (
    NativeBuildError,
    NativeCompiledNotRun,
    NativeToolchainError,
)
from agentkernelarena.native.hipify import hip_to_cuda
from agentkernelarena.native.loader import load
from agentkernelarena.native.warpsize import PortabilityWarning, check_warp_size

__all__ = [
    "BUILD_DIR_NAME",
    "LoadInfo",
    "NativeBuildError",
    "NativeCompiledNotRun",
    "NativeToolchainError",
    "PortabilityWarning",
    "cache_root",
    "check_warp_size",
    "hip_to_cuda",
    "last_load",
    "load",
]
