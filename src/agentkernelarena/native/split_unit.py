"""What one split-mode load knows before compiling (split.py builds it, gate.py compiles its
kernel source alone): its own module, so that the gate and the loader both use it without
importing each other."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path

from agentkernelarena.native import build, cache, compilers
from agentkernelarena.native.errors import NativeBuildError
from agentkernelarena.native.sources import (
    LANGUAGES,
    check_bindings,
    check_kernel_sources,
    launcher_declarations,
    resolve_binding,
    resolve_sources,
)
from agentkernelarena.native.toolchain import Target
from agentkernelarena.native.warpsize import PortabilityWarning, check_warp_size

__all__ = ["Split"]


class Split:
    """Everything one split-mode load knows before compiling."""

    def __init__(
        self,
        module_file: str,
        sources: Sequence[str],
        binding: str,
        name: str | None,
        cflags: Sequence[str],
        cuda_cflags: Sequence[str],
    ) -> None:
        self.start = time.perf_counter()
        self.src_dir = Path(module_file).resolve().parent
        self.paths = resolve_sources(self.src_dir, sources)
        self.language = LANGUAGES[self.paths[0].suffix]
        self.binding = resolve_binding(self.src_dir, binding)
        self.headers = cache.local_includes(self.paths, self.src_dir)
        self.binding_headers = cache.local_includes([self.binding], self.src_dir)
        self.binding_rel = self.rel(self.binding)
        check_kernel_sources(self.paths + self.headers, self.src_dir, self.binding_rel)
        check_bindings([self.binding, *self.binding_headers], self.src_dir)
        # The binding's extern "C" launchers: forced into kernel compiles, checked, quoted.
        self.launchers = launcher_declarations(self.binding)
        self.base = build.module_base(name, self.paths[0])
        self.cflags = [*build.DEFAULT_CFLAGS, *cflags]
        self.cuda_cflags = [*build.DEFAULT_CUDA_CFLAGS, *cuda_cflags]
        self.names = ", ".join(self.rel(p) for p in self.paths)
        self.warnings: list[PortabilityWarning] = []
        if self.language == "hip":
            self.warnings = [w for p in self.paths for w in check_warp_size(p.read_text())]

    def rel(self, path: Path) -> str:
        return path.relative_to(self.src_dir).as_posix()

    def info(
        self,
        target: Target,
        name: str,
        key: str,
        compiler: str,
        outcome: str,
        origin: str,
        build_dir: Path,
        binding_origin: str = "",
    ) -> build.LoadInfo:
        return build.LoadInfo(
            name,
            key,
            target.platform,
            target.arch,
            compiler,
            outcome,
            origin,
            str(build_dir),
            time.perf_counter() - self.start,
            list(self.warnings),
            binding_origin,
        )

    def fail(
        self,
        failed: compilers.CompilerFailed,
        compiler: str,
        target: Target,
        build_dir: Path,
        renames: dict[str, str],
    ) -> NativeBuildError:
        """The build error, plus the binding's declaration of every launcher it mentions."""
        error = build._build_error(
            failed.output,
            self.names,
            compiler,
            target,
            self.src_dir,
            build_dir,
            self.warnings,
            renames,
        )
        shown = "\n".join(error.errors)
        notes = [
            f"  {self.binding_rel}:{line}: {' '.join(decl.split())}"
            for line, name, decl in self.launchers
            if re.search(rf"\b{re.escape(name)}\b", shown)
        ]
        if not notes:
            return error
        message = (
            f"{error}\nthe binding ({self.binding_rel}, not editable) declares:\n"
            + "\n".join(notes)
        )
        return NativeBuildError(message, log=error.log, errors=error.errors)
