"""Split mode: `load(__file__, ["kernel.cu"], binding="binding.cpp")`.

Compiling anything that includes `torch/extension.h` takes minutes on a small machine, so a
native task keeps torch out of the file the agent edits. The kernel source holds kernels and
`extern "C"` launchers that take raw device pointers, sizes and a stream; a pristine
`binding.cpp` (torch/extension.h + pybind11) declares those launchers and exposes functions on
tensors. Then:

- GPU machine: the binding is compiled once per binding content (its own cache key, always
  as module `aka_binding_<key>`), and each kernel version is compiled and linked with that
  object plus a two-line init stub (compilers.build_split_extension). An edited kernel costs
  an nvcc/hipcc run on the kernel alone and a link.
- No GPU: only the kernel source is compiled, by the plain compiler without torch's headers
  (kernel_only.py): `.cu` for sm_90; `.hip` for gfx90a with hipcc and, translated to CUDA,
  for sm_90 with nvcc. Seconds. Then NativeCompiledNotRun.

Both paths force the binding's launcher declarations into the kernel compile, so a launcher
whose signature differs from the binding's is a compile error, not a wrong call at run time.
"""

from __future__ import annotations

import time
import types
from collections.abc import Sequence

from agentkernelarena.native import build, cache, compilers, gate
from agentkernelarena.native.sources import (
    DECLARATIONS,
    declarations_header,
    stage,
)
from agentkernelarena.native.split_unit import Split
from agentkernelarena.native.toolchain import Target, tool_version

__all__ = ["Split", "load_split"]  # Split: re-exported from split_unit


def load_split(
    module_file: str,
    sources: Sequence[str],
    binding: str,
    *,
    name: str | None = None,
    extra_cflags: Sequence[str] = (),
    extra_cuda_cflags: Sequence[str] = (),
) -> types.ModuleType:
    """`load()` in split mode (see the module docstring and docs/native.md)."""
    split = Split(module_file, sources, binding, name, extra_cflags, extra_cuda_cflags)
    target = build.detect_target(split.language)
    if target.runnable:
        return _load_runnable(split, target)
    gate.compile_only(split, target)
    raise AssertionError("unreachable: the compile-only gate always raises")


# --- GPU machine -------------------------------------------------------------------------------


def _load_runnable(split: Split, target: Target) -> types.ModuleType:
    compiler = build._compiler_for(target)
    version_text, compiler_short = tool_version(compiler)
    translate = split.language == "hip" and target.language == "cuda"
    binding_parts = {
        **build.environment_parts(),
        "mode": "binding",
        "platform": target.platform,
        "language": target.language,
        "compiler": version_text,
        "cflags": split.cflags,
    }
    binding_files = [split.binding, *split.binding_headers]
    bkey = cache.compute_key(binding_parts, binding_files, split.src_dir)
    binding_module = f"aka_binding_{bkey[:16]}"
    parts = {
        **binding_parts,
        "mode": "split",
        "binding_key": bkey,
        "arch": target.arch,
        "translate": translate,
        "name": split.base,
        "cuda_cflags": split.cuda_cflags,
    }
    key = cache.compute_key(parts, split.paths + split.headers, split.src_dir)
    ext_name = f"{split.base}_{key[:12]}"
    build_dir = build._build_dir(split.src_dir, ext_name)

    def record(origin: str, binding_origin: str, outcome: str = "loaded") -> None:
        build._record(
            split.info(
                target, ext_name, key, compiler_short, outcome, origin, build_dir, binding_origin
            )
        )

    if key in build._LOADED:
        record("memory", "memory")
        return build._LOADED[key]
    with build._locked(build_dir):
        kernels, binding_source = split.paths, split.binding
        if translate:
            kernels, found = stage(
                split.paths, split.headers, split.src_dir, build_dir / "src", True
            )
            split.warnings = found
        elif target.platform == "rocm":  # cpp_extension hipifies next to its inputs: copies
            staged, _ = stage(
                [*split.paths, split.binding],
                split.headers + split.binding_headers,
                split.src_dir,
                build_dir / "src",
                False,
            )
            kernels, binding_source = staged[:-1], staged[-1]
        cached = build.cached_library(cache.lookup(key), ext_name, build_dir)
        if cached is not None:
            build._LOADED[key] = cached
            record("cache", "cache")
            return cached
        request = compilers.SplitRequest(
            compilers.BuildRequest(
                ext_name, kernels, split.src_dir, build_dir, target, split.cflags, split.cuda_cflags
            ),
            binding_module,
            declarations=declarations_header(
                split.binding, build_dir / DECLARATIONS, split.launchers
            ),
        )
        binding_entry = cache.lookup(bkey)
        objects = sorted(binding_entry.glob("*.o")) if binding_entry is not None else []
        if len(objects) == 1:
            request.binding_object = build_dir / "prebuilt" / objects[0].name
            cache.install(objects[0], request.binding_object)
            binding_origin = "cache"
        else:
            request.binding_source = binding_source
            binding_origin = "build"
        try:
            module, library, binding_object = compilers.build_split_extension(request)
        except compilers.CompilerFailed as failed:
            record("build", binding_origin, "failed")
            renames = {str(s): split.rel(p) for s, p in zip(kernels, split.paths, strict=True)}
            renames[str(binding_source)] = split.binding_rel
            raise split.fail(failed, compiler_short, target, build_dir, renames) from None
        meta = {
            "name": ext_name,
            "sources": split.names,
            "binding": split.binding_rel,
            "target": target.__dict__,
            "compiler": compiler_short,
            "created": time.time(),
        }
        if binding_object is not None:
            cache.store(bkey, [binding_object], {**meta, "name": binding_module})
        cache.store(key, [library], meta)
        build._LOADED[key] = module
        record("build", binding_origin)
        return module

