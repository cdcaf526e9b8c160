"""`load(__file__, sources, binding=...)`: the one entry a native task's module calls.

It only chooses between the two ways of building (the sources define the module themselves:
build.py; kernels plus a pristine binding: split.py), so that neither of those modules needs
the other.
"""

from __future__ import annotations

import types
from collections.abc import Sequence

from agentkernelarena.native.build import load_whole
from agentkernelarena.native.split import load_split

__all__ = ["load"]


def load(
    module_file: str,
    sources: Sequence[str],
    *,
    name: str | None = None,
    binding: str | None = None,
    extra_cflags: Sequence[str] = (),
    extra_cuda_cflags: Sequence[str] = (),
) -> types.ModuleType:
    """Build (or fetch from the cache) the extension made of `sources` and return it.

    `sources` are relative to the folder of `module_file` (pass `__file__`). Without
    `binding`, the sources define the Python module themselves (PYBIND11_MODULE). With
    `binding="binding.cpp"` (split mode) the sources hold kernels and `extern "C"` launchers
    only and the binding, compiled once and cached apart, defines the module.
    Raises NativeBuildError with the first compiler errors, NativeCompiledNotRun when the
    sources compiled but this machine has no GPU to run them, NativeToolchainError when a tool
    is missing.
    """
    if binding is not None:
        return load_split(module_file, sources, binding, name=name, extra_cflags=extra_cflags,
                          extra_cuda_cflags=extra_cuda_cflags)
    return load_whole(module_file, sources, name=name, extra_cflags=extra_cflags,
                      extra_cuda_cflags=extra_cuda_cflags)
