"""The compile-only gate of split mode: the kernel source alone, for the reference GPUs.

On a machine without a GPU (CI, a laptop) a split-mode task's kernel source is compiled by
the plain compiler, without torch (kernel_only.py): `.cu` with nvcc for sm_90; `.hip` with
hipcc for gfx90a and, translated to CUDA, with nvcc for sm_90 (what an NVIDIA machine will
build). The binding is not compiled here (that is the slow part, and it is pristine); its
launcher declarations are forced into each compile and every launcher it declares must be
defined by the objects. Success raises NativeCompiledNotRun; the objects are cached.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from agentkernelarena.native import build, cache, compilers, kernel_only
from agentkernelarena.native.errors import (
    NativeBuildError,
    NativeCompiledNotRun,
    NativeToolchainError,
)
from agentkernelarena.native.sources import (
    DECLARATIONS,
    declarations_header,
    stage,
)
from agentkernelarena.native.toolchain import (
    COMPILE_ONLY_CUDA_ARCH,
    COMPILE_ONLY_HIP_ARCH,
    Target,
    find_cuda_home,
    find_hipcc,
    hip_via_cuda,
    tool_version,
)

if TYPE_CHECKING:
    from agentkernelarena.native.split_unit import Split

__all__ = ["compile_only"]


def _gate_units(split: Split) -> list[tuple[str, str, str]]:
    """(kind, compiler, arch) per check: "cuda", "hip" (hipcc), "hip2cuda" (translated, nvcc)."""
    cuda_home = find_cuda_home()
    nvcc = str(cuda_home / "bin" / "nvcc") if cuda_home is not None else None
    cuda_arch = os.environ.get("AKA_NATIVE_CUDA_ARCH", COMPILE_ONLY_CUDA_ARCH)
    if split.language == "cuda":
        if nvcc is None:
            raise NativeToolchainError("nvcc not found (set CUDA_HOME); cannot compile .cu sources")
        return [("cuda", nvcc, cuda_arch)]
    units = []
    hipcc = find_hipcc()
    if hipcc is not None and not hip_via_cuda():
        units.append(
            ("hip", str(hipcc), os.environ.get("AKA_NATIVE_HIP_ARCH", COMPILE_ONLY_HIP_ARCH))
        )
    if nvcc is not None:
        units.append(("hip2cuda", nvcc, cuda_arch))
    if not units:
        raise NativeToolchainError(
            "neither hipcc nor nvcc found; cannot compile .hip sources "
            "(see scripts/install-hip-toolchain.sh)"
        )
    return units


def compile_only(split: Split, target: Target) -> None:
    """Compile the kernel sources for every reference target; raise NativeCompiledNotRun."""
    units = _gate_units(split)
    versions = [tool_version(compiler) for _, compiler, _ in units]
    parts = {
        **build.environment_parts(),
        "mode": "split-gate",
        "units": [
            (kind, arch, text) for (kind, _, arch), (text, _) in zip(units, versions, strict=True)
        ],
        "name": split.base,
        "cflags": split.cflags,
        "cuda_cflags": split.cuda_cflags,
    }
    files = [*split.paths, *split.headers, split.binding]
    key = cache.compute_key(parts, files, split.src_dir)
    ext_name = f"{split.base}_{key[:12]}"
    build_dir = build._build_dir(split.src_dir, ext_name)
    arch = "+".join(arch for _, _, arch in units)
    compiler = " + ".join(short for _, short in versions)
    gate_target = Target("cpu", split.language, arch, False, target.why_not_runnable)
    with build._locked(build_dir):
        declarations = declarations_header(
            split.binding, build_dir / DECLARATIONS, split.launchers
        )
        expected = [
            f"{p.stem}.{'hip' if kind == 'hip' else 'cuda'}.o"
            for kind, _, _ in units
            for p in split.paths
        ]
        entry = cache.lookup(key)
        if entry is not None and all((entry / n).is_file() for n in expected):
            objects, origin = [entry / n for n in expected], "cache"
        else:
            objects, origin = [], "build"
            # The units (hipcc for gfx90a, nvcc for the translation) are independent compiler
            # runs: side by side they take the time of the slower one.
            with ThreadPoolExecutor(max_workers=len(units)) as pool:
                futures = [
                    pool.submit(_compile_unit, split, kind, tool, arch_, build_dir, declarations)
                    for kind, tool, arch_ in units
                ]
            for (kind, _, unit_arch), (_, short), future in zip(
                units, versions, futures, strict=True
            ):
                unit = Target("cpu", "hip" if kind == "hip" else "cuda", unit_arch, False)
                short = f"{short}, HIP translated to CUDA" if kind == "hip2cuda" else short
                try:
                    objects += future.result()
                except compilers.CompilerFailed as failed:
                    build._record(
                        split.info(
                            gate_target, ext_name, key, compiler, "failed", "build", build_dir
                        )
                    )
                    renames = {
                        str(build_dir / "src" / split.rel(p.with_suffix(".cu"))): split.rel(p)
                        for p in split.paths
                    }
                    raise split.fail(failed, short, unit, build_dir, renames) from None
        _check_launchers(split, units, objects)
        if origin == "build":
            cache.store(
                key,
                objects,
                {
                    "name": ext_name,
                    "sources": split.names,
                    "units": parts["units"],
                    "created": time.time(),
                },
            )
    build._record(split.info(gate_target, ext_name, key, compiler, "compiled", origin, build_dir))
    done = []
    for (kind, _, unit_arch), (_, short) in zip(units, versions, strict=True):
        how = "translated to CUDA, " if kind == "hip2cuda" else ""
        done.append(f"{how}for {unit_arch} with {short}")
    cached = " (cached)" if origin == "cache" else ""
    raise NativeCompiledNotRun(
        f"compiled {split.names} {' and, '.join(done)}{cached}; {split.binding_rel} is built "
        f"with torch on a GPU machine, not here; not run: {target.why_not_runnable}",
        artifacts=[str(o) for o in objects],
    )


def _compile_unit(
    split: Split, kind: str, tool: str, arch: str, build_dir: Path, declarations: Path | None
) -> list[Path]:
    objects = []
    if kind == "hip":
        for path in split.paths:
            objects.append(
                kernel_only.compile_hip_object(
                    tool,
                    path,
                    build_dir / f"{path.stem}.hip.o",
                    arch=arch,
                    include_dirs=[split.src_dir],
                    cflags=split.cflags,
                    cuda_cflags=split.cuda_cflags,
                    declarations=declarations,
                )
            )
        return objects
    sources, include_dirs = split.paths, [split.src_dir]
    if kind == "hip2cuda":
        sources, found = stage(split.paths, split.headers, split.src_dir, build_dir / "src", True)
        split.warnings = sorted({*split.warnings, *found}, key=lambda w: (w.line, w.message))
        include_dirs = [build_dir / "src", split.src_dir]
    for source in sources:
        objects.append(
            kernel_only.compile_cuda_object(
                tool,
                source,
                build_dir / f"{source.stem}.cuda.o",
                arch=arch,
                include_dirs=include_dirs,
                cuda_cflags=split.cuda_cflags,
                declarations=declarations,
            )
        )
    return objects


def _check_launchers(split: Split, units: list[tuple[str, str, str]], objects: list[Path]) -> None:
    """Every launcher the binding declares is defined by the kernel objects (else the GPU
    build would fail at import with an undefined symbol)."""
    declared = split.launchers
    if not declared:
        return
    per_unit = len(split.paths)
    for index, (_, _, arch) in enumerate(units):
        defined = kernel_only.defined_symbols(objects[index * per_unit : (index + 1) * per_unit])
        if defined is None:
            return
        missing = [(line, name) for line, name, _ in declared if name not in defined]
        if missing:
            listed = ", ".join(f"{name} ({split.binding_rel}:{line})" for line, name in missing)
            raise NativeBuildError(
                f"{split.names}: does not define {listed}, which {split.binding_rel} calls; "
                f'define each launcher with the declared name and signature (extern "C"), '
                f"checked for {arch}"
            )
