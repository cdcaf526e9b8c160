"""A task's native sources: which files, whether they bind to Python, and staged copies.

Everything here is checked before any compiler runs, so a wrong file list or a missing
PYBIND11_MODULE costs the agent milliseconds, not a 75-second compile.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from agentkernelarena.native.errors import NativeBuildError
from agentkernelarena.native.hipify import hip_to_cuda
from agentkernelarena.native.warpsize import PortabilityWarning, blank_comments_and_strings

__all__ = ["LANGUAGES", "check_bindings", "resolve_sources", "stage"]

LANGUAGES = {".cu": "cuda", ".hip": "hip"}
# A use, not a #define of it (a test or a header may define a stand-in macro).
_BINDING = re.compile(r"^(?!\s*#).*?\bPYBIND11_MODULE\s*\(\s*(\w+)", re.MULTILINE)


def resolve_sources(src_dir: Path, sources: Sequence[str]) -> list[Path]:
    """Absolute paths of `sources` (relative to the entry module's folder), validated."""
    if isinstance(sources, str) or not sources:
        raise NativeBuildError("load() needs a list of source files, e.g. ['kernel.cu']")
    paths = []
    for rel in sources:
        path = (src_dir / rel).resolve()
        if not path.is_relative_to(src_dir):
            raise NativeBuildError(f"{rel}: sources must be inside the module's folder")
        if not path.is_file():
            raise NativeBuildError(f"{rel}: no such file next to the entry module")
        if path.suffix not in LANGUAGES:
            raise NativeBuildError(f"{rel}: native sources are .cu (CUDA) or .hip (HIP)")
        paths.append(path)
    if len({LANGUAGES[p.suffix] for p in paths}) > 1:
        raise NativeBuildError("one extension is all .cu or all .hip, not a mix")
    return paths


def check_bindings(files: list[Path], src_dir: Path) -> None:
    """Exactly one PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) in the sources and local headers."""
    found = []
    for path in files:
        text = blank_comments_and_strings(path.read_text(errors="replace"))
        rel = path.relative_to(src_dir).as_posix()
        found += [(rel, m.group(1)) for m in _BINDING.finditer(text)]
    names = ", ".join(p.relative_to(src_dir).as_posix() for p in files)
    if not found:
        raise NativeBuildError(
            f"{names}: no pybind11 bindings. Python calls the kernel through them; add e.g.\n"
            'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward); }'
        )
    if len(found) > 1:
        where = ", ".join(f for f, _ in found)
        raise NativeBuildError(
            f"PYBIND11_MODULE appears {len(found)} times ({where}): "
            "one extension has exactly one module definition"
        )
    file, module_name = found[0]
    if module_name != "TORCH_EXTENSION_NAME":
        raise NativeBuildError(
            f"{file}: write PYBIND11_MODULE(TORCH_EXTENSION_NAME, m), not "
            f"PYBIND11_MODULE({module_name}, m): the arena names every build uniquely"
        )


def stage(
    paths: list[Path], headers: list[Path], src_dir: Path, out: Path, translate: bool
) -> tuple[list[Path], list[PortabilityWarning]]:
    """Copy the sources and their local headers under `out` (same layout), translated if asked.

    Translation (HIP on NVIDIA) needs copies; so does ROCm, whose cpp_extension runs hipify on
    the sources and writes its output next to them, which must not be the agent's folder.
    `#line` keeps compiler errors on the original file's lines.
    """
    sources: list[Path] = []
    warnings: list[PortabilityWarning] = []
    for path in [*paths, *headers]:
        rel = path.relative_to(src_dir)
        text = path.read_text(errors="replace")
        if translate:
            text, found = hip_to_cuda(text)
            if path in paths:
                warnings += found
                rel = rel.with_suffix(".cu")
        if path in paths:
            sources.append(out / rel)
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(f'#line 1 "{path}"\n{text}')
    return sources, warnings
