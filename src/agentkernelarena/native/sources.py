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


# --- split mode: a torch-free kernel source plus a pristine binding (docs/native.md) ----------

BINDING_SUFFIXES = (".cpp", ".cc", ".cxx")
DECLARATIONS = "aka_launchers.h"  # the binding's launcher declarations, in the build dir
# Headers that pull torch or pybind11 into a kernel source (minutes of compile time).
_TORCH_INCLUDE = re.compile(
    r"^\s*#\s*include\s*[<\"](torch/|ATen/|c10/|pybind11/|caffe2/)[^>\"]*[>\"]", re.MULTILINE
)
_EXTERN_C = re.compile(r"\bextern\b")


def resolve_binding(src_dir: Path, binding: str) -> Path:
    """The binding source (`binding.cpp`), next to the entry module."""
    if not isinstance(binding, str) or not binding:
        raise NativeBuildError("binding= names one C++ file, e.g. binding='binding.cpp'")
    path = (src_dir / binding).resolve()
    if not path.is_relative_to(src_dir):
        raise NativeBuildError(f"{binding}: the binding must be inside the module's folder")
    if not path.is_file():
        raise NativeBuildError(f"{binding}: no such file next to the entry module")
    if path.suffix not in BINDING_SUFFIXES:
        raise NativeBuildError(f"{binding}: the binding is a C++ file (.cpp)")
    return path


def check_kernel_sources(files: list[Path], src_dir: Path, binding: str) -> None:
    """In split mode the kernel sources hold kernels and launchers only: no torch, no pybind11.

    Refused before any compiler runs: on a machine without a GPU they are compiled without
    torch's include paths (that is what makes the check take seconds), and on a GPU machine the
    binding already defines the module.
    """
    for path in files:
        raw = path.read_text(errors="replace")
        text = blank_comments_and_strings(raw)
        rel = path.relative_to(src_dir).as_posix()
        if _BINDING.search(text):
            raise NativeBuildError(
                f"{rel}: defines PYBIND11_MODULE, but this task's Python bindings live in "
                f'{binding} (not editable); keep only kernels and extern "C" launchers here'
            )
        for m in _TORCH_INCLUDE.finditer(raw):
            line = raw.count("\n", 0, m.start()) + 1
            if text.split("\n")[line - 1].strip():  # not inside a comment
                raise NativeBuildError(
                    f"{rel}:{line}: includes {m.group(0).strip()}: in this task the kernel source "
                    f"holds CUDA/HIP code only (raw pointers, sizes, a stream); {binding} does "
                    "the torch side"
                )


def launcher_declarations(binding: Path) -> list[tuple[int, str, str]]:
    """The `extern "C"` declarations in the binding: (line, name, declaration text).

    Both forms count: `extern "C" int f(...);` and `extern "C" { int f(...); ... }`.
    Definitions (with a body) are skipped: only what the kernel source must define is returned.
    """
    raw = binding.read_text(errors="replace")
    text = blank_comments_and_strings(raw)
    found: list[tuple[int, str, str]] = []
    for m in _EXTERN_C.finditer(text):
        pos = m.end()
        while pos < len(raw) and raw[pos].isspace():
            pos += 1
        if not raw.startswith('"C"', pos):
            continue
        pos += 3
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if text.startswith("{", pos):
            close = _matching_brace(text, pos)
            body_start, body = pos + 1, text[pos + 1 : close]
        else:
            end = text.find(";", pos)
            body_start, body = pos, text[pos : end + 1 if end >= 0 else len(text)]
        offset = body_start
        for decl in body.split(";"):
            stripped = decl.strip()
            if stripped and "{" not in stripped and "(" in stripped:
                head = stripped.split("(", 1)[0].split()
                start = offset + len(decl) - len(decl.lstrip())
                if head:
                    found.append(
                        (text.count("\n", 0, start) + 1, head[-1].lstrip("*&"), stripped + ";")
                    )
            offset += len(decl) + 1
    return found


def _matching_brace(text: str, open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def declarations_header(
    binding: Path, out: Path, declarations: list[tuple[int, str, str]] | None = None
) -> Path | None:
    """Write the binding's launcher declarations as a header forced into each kernel compile.

    A kernel whose launcher disagrees with the binding's declaration (another parameter list,
    another return type) then fails to compile, naming both lines, instead of being called
    with the wrong arguments at run time. None if the binding declares no launchers.
    `declarations`: launcher_declarations(binding) where the caller has them already.
    """
    if declarations is None:
        declarations = launcher_declarations(binding)
    if not declarations:
        return None
    lines = [
        "// Generated by agentkernelarena.native: the launchers the binding calls.",
        "#pragma once",
        "#include <cstddef>",
        "#include <cstdint>",
    ]
    for line, _, decl in declarations:
        lines += [f'#line {line} "{binding}"', f'extern "C" {" ".join(decl.split())}']
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    return out
