"""`load()`: build a task's `.cu`/`.hip` sources into a Python module, through a shared cache.

A task's Python entry module calls `load(__file__, ["kernel.cu"])`. Everything about the build
is decided here, centrally, so that the baseline and every candidate are built the same way:
the target (toolchain.py), the flags, the cache key (cache.py), HIP -> CUDA translation on
NVIDIA (hipify.py), and what a failure looks like to the agent (errors.py). The module name is
unique per content hash, so a baseline and a candidate can live in one process.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import importlib.util
import platform
import re
import sys
import sysconfig
import time
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agentkernelarena.native import cache, compilers
from agentkernelarena.native.errors import (
    NativeBuildError,
    NativeCompiledNotRun,
    NativeToolchainError,
    format_compiler_output,
)
from agentkernelarena.native.sources import LANGUAGES, check_bindings, resolve_sources, stage
from agentkernelarena.native.toolchain import (
    Target,
    detect_target,
    find_cuda_home,
    find_hipcc,
    host_compiler,
    tool_version,
)
from agentkernelarena.native.warpsize import PortabilityWarning, check_warp_size

__all__ = ["BUILD_DIR_NAME", "LoadInfo", "last_load", "load_whole"]

BUILD_DIR_NAME = ".aka_build"
DEFAULT_CFLAGS = ("-O3",)
DEFAULT_CUDA_CFLAGS = ("-O3",)
_LOADED: dict[str, types.ModuleType] = {}
_LAST: list[LoadInfo] = []


@dataclass(frozen=True)
class LoadInfo:
    """What the last `load()` did; for reports and tests.

    origin: "build" (compiled now), "cache" (from the shared cache), "memory" (already loaded
    in this process). outcome: "loaded", "compiled" (compile-only), or "failed".
    """

    name: str
    key: str
    platform: str
    arch: str
    compiler: str
    outcome: str
    origin: str
    build_dir: str
    seconds: float
    warnings: list[PortabilityWarning] = field(default_factory=list)
    # Split mode (a binding source): where the binding's object came from ("build", "cache"),
    # "" when there is no separate binding or it was not compiled here (compile-only gate).
    binding: str = ""

    @property
    def cache_hit(self) -> bool:
        return self.origin in ("cache", "memory")


def last_load() -> LoadInfo | None:
    """The LoadInfo of the most recent `load()` call in this process (None before any)."""
    return _LAST[-1] if _LAST else None


def _compiler_for(target: Target) -> str:
    if target.language == "cuda":
        home = find_cuda_home()
        if home is None:
            raise NativeToolchainError("nvcc not found (set CUDA_HOME); cannot build .cu sources")
        return str(home / "bin" / "nvcc")
    hipcc = find_hipcc()
    if hipcc is None:
        raise NativeToolchainError(
            "hipcc not found; cannot build .hip sources (see scripts/install-hip-toolchain.sh)"
        )
    return str(hipcc)


@functools.cache
def _layer_fingerprint() -> str:
    """Hash of this package's code: a change to flags or translation invalidates the cache."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def module_base(name: str | None, first_source: Path) -> str:
    """The base of the module name: `name` or the first source's stem, as an identifier."""
    base = re.sub(r"\W", "_", name or first_source.stem)
    return base if base[:1].isalpha() else f"k_{base}"


def environment_parts() -> dict[str, object]:
    """What every cache key holds besides sources and flags: this layer, torch, Python, host."""
    import torch

    return {
        "layer": _layer_fingerprint(),
        "host_compiler": tool_version(host_compiler())[0],
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "torch_hip": torch.version.hip,
        "python": sys.implementation.cache_tag,
        "machine": platform.machine(),
        "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
    }


def _build_dir(src_dir: Path, name: str) -> Path:
    """`<module dir>/.aka_build/<name>`; else beside the cache that takes writes (the private
    write dir inside the sandbox, where the shared cache is read-only)."""
    cache_base = (cache.write_root() or cache.cache_root()).parent
    for base in (src_dir / BUILD_DIR_NAME, cache_base / "build"):
        try:
            (base / name).mkdir(parents=True, exist_ok=True)
            return base / name
        except OSError:
            continue
    raise NativeToolchainError(f"cannot create a build directory for {name}")


@contextlib.contextmanager
def _locked(build_dir: Path) -> Iterator[None]:
    """One build per directory at a time; the OS drops the lock if the process dies."""
    with open(build_dir.parent / f".{build_dir.name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        (build_dir / "lock").unlink(missing_ok=True)  # cpp_extension's baton, if a build died
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _import(name: str, library: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, library)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {library}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record(info: LoadInfo) -> None:
    _LAST[:] = [info]


def load_whole(
    module_file: str,
    sources: Sequence[str],
    *,
    name: str | None = None,
    extra_cflags: Sequence[str] = (),
    extra_cuda_cflags: Sequence[str] = (),
) -> types.ModuleType:
    """The extension whose sources define the Python module themselves (PYBIND11_MODULE),
    built or fetched from the cache; `loader.load` is the public entry (split mode goes to
    split.py). Raises as `loader.load` says."""
    start = time.perf_counter()
    src_dir = Path(module_file).resolve().parent
    paths = resolve_sources(src_dir, sources)
    language = LANGUAGES[paths[0].suffix]
    headers = cache.local_includes(paths, src_dir)
    check_bindings(paths + headers, src_dir)
    target = detect_target(language)
    compiler = _compiler_for(target)
    version_text, compiler_short = tool_version(compiler)
    cflags = [*DEFAULT_CFLAGS, *extra_cflags]
    cuda_cflags = [*DEFAULT_CUDA_CFLAGS, *extra_cuda_cflags]
    base = module_base(name, paths[0])
    translate = language == "hip" and target.language == "cuda"
    parts = {
        **environment_parts(),
        "runnable": target.runnable,
        "platform": target.platform,
        "language": target.language,
        "arch": target.arch,
        "translate": translate,
        "name": base,
        "cflags": cflags,
        "cuda_cflags": cuda_cflags,
        "compiler": version_text,
    }
    key = cache.compute_key(parts, paths + headers, src_dir)
    ext_name = f"{base}_{key[:12]}"
    build_dir = _build_dir(src_dir, ext_name)
    names = ", ".join(p.relative_to(src_dir).as_posix() for p in paths)

    def info(outcome: str, origin: str, warnings: list[PortabilityWarning]) -> LoadInfo:
        return LoadInfo(
            ext_name,
            key,
            target.platform,
            target.arch,
            compiler_short,
            outcome,
            origin,
            str(build_dir),
            time.perf_counter() - start,
            warnings,
        )

    warnings = [w for p in paths if language == "hip" for w in check_warp_size(p.read_text())]
    if key in _LOADED:
        _record(info("loaded", "memory", warnings))
        return _LOADED[key]
    build_sources = paths
    with _locked(build_dir):
        if translate:
            build_sources, warnings = stage(paths, headers, src_dir, build_dir / "src", True)
        elif target.platform == "rocm":
            build_sources, _ = stage(paths, headers, src_dir, build_dir / "src", False)
        req = compilers.BuildRequest(
            ext_name, build_sources, src_dir, build_dir, target, cflags, cuda_cflags
        )
        meta = {
            "name": ext_name,
            "sources": names,
            "target": target.__dict__,
            "compiler": compiler_short,
            "created": time.time(),
        }
        entry = cache.lookup(key)
        try:
            if target.runnable:
                module, origin = _load_runnable(req, entry, key, meta)
                _LOADED[key] = module
                _record(info("loaded", origin, warnings))
                return module
            if entry is not None and (objects := sorted(entry.glob("*.o"))):
                origin = "cache"
            else:
                compile_only = (
                    compilers.compile_only_hip
                    if target.language == "hip"
                    else compilers.compile_only_cuda
                )
                objects = compile_only(req)
                origin = "build"
                cache.store(key, objects, meta)
        except compilers.CompilerFailed as failed:
            _record(info("failed", "build", warnings))
            renames = {
                str(staged): orig.relative_to(src_dir).as_posix()
                for staged, orig in zip(build_sources, paths, strict=True)
            }
            raise _build_error(
                failed.output, names, compiler_short, target, src_dir, build_dir, warnings, renames
            ) from None
    _record(info("compiled", origin, warnings))
    cached = " (cached)" if origin == "cache" else ""
    raise NativeCompiledNotRun(
        f"compiled {names} for {target.arch} with {compiler_short}{cached}; "
        f"not run: {target.why_not_runnable}",
        artifacts=[str(o) for o in objects],
    )


def _load_runnable(
    req: compilers.BuildRequest, entry: Path | None, key: str, meta: dict[str, object]
) -> tuple[types.ModuleType, str]:
    """Import the cached library if there is one, else build, cache and import."""
    cached = cached_library(entry, req.name, req.build_dir)
    if cached is not None:
        return cached, "cache"
    module, library = compilers.build_extension(req)
    cache.store(key, [library], meta)
    return module, "build"


def cached_library(entry: Path | None, name: str, build_dir: Path) -> types.ModuleType | None:
    """The library of a cache entry, installed into `build_dir` and imported; None when there
    is none or it does not import (a broken entry: the caller rebuilds and overwrites it)."""
    if entry is None:
        return None
    libraries = [p for p in entry.iterdir() if p.name.startswith(name) and p.suffix == ".so"]
    if not libraries:
        return None
    local = build_dir / libraries[0].name
    cache.install(libraries[0], local)
    try:
        return _import(name, local)
    except ImportError:
        return None


def _build_error(
    output: str,
    names: str,
    compiler: str,
    target: Target,
    src_dir: Path,
    build_dir: Path,
    warnings: list[PortabilityWarning],
    renames: dict[str, str],
) -> NativeBuildError:
    """The agent's view of a failure: its own file names, the first errors, where the log is."""
    rel_build = f"{BUILD_DIR_NAME}/{build_dir.name}/"
    if not build_dir.is_relative_to(src_dir):
        rel_build = f"{build_dir}/"
    replacements = {f"{build_dir}/src/": "", f"{build_dir}/": rel_build, f"{src_dir}/": ""}
    replacements.update(renames)  # staged copies (kernel.cu from kernel.hip) -> the original
    report, selected, log = format_compiler_output(output, replacements)
    log_note = ""
    with contextlib.suppress(OSError):
        (build_dir / "build.log").write_text(log)
        log_note = f"\n(full log: {rel_build}build.log)"
    hints = ""
    if warnings:
        hints = "\nportability warnings:\n" + "\n".join(f"  {w}" for w in warnings[:5])
    message = f"{names}: build failed ({compiler}, {target.arch}):\n{report}{hints}{log_note}"
    return NativeBuildError(message, log=log, errors=selected)
