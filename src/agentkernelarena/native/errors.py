"""The two outcomes of a native build that are not a module, and compiler output an agent can read.

A failed build's raw log is thousands of lines (ninja commands with 40 include flags, template
back-traces, absolute paths of a directory the agent never saw). The agent gets the first errors
with paths relative to its own source folder; the whole log stays in the build directory.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = [
    "NativeBuildError",
    "NativeCompiledNotRun",
    "NativeToolchainError",
    "format_compiler_output",
]

MAX_ERRORS = 8
MAX_LINES = 60
MAX_LINE_CHARS = 300

# gcc/clang: "file:12:5: error: ..." ; nvcc front end: "file(12): error: ..."
_DIAGNOSTIC = re.compile(
    r"^(?P<file>[^\s:()][^:()]*?)(?::(?P<line>\d+)(?::\d+)?:|\((?P<line2>\d+)\):)\s*"
    r"(?P<kind>fatal error|error|catastrophic error|warning|note|remark)\b"
)
_OTHER_ERROR = re.compile(
    r"(undefined reference|cannot find -l|error:|Error:|ERROR:|\berror\b.*detected|"
    r"ld returned|ptxas fatal|Segmentation fault|Killed)"
)
_NOISE = re.compile(r"^(\[\d+/\d+\]|FAILED:|ninja: |Error building extension)")
_SUMMARY = re.compile(r"^\d+ errors? (detected|generated)")


class NativeBuildError(Exception):
    """A native source did not build. The message holds the first compiler errors.

    `log` is the complete compiler output (paths made relative), `errors` the selected lines.
    """

    def __init__(self, message: str, *, log: str = "", errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.log = log
        self.errors = errors or []


class NativeCompiledNotRun(Exception):
    """The sources compiled, but this machine cannot run them (no GPU): a compile-only verdict.

    Raised on purpose so that callers cannot mistake a compile check for a usable module.
    """

    def __init__(self, message: str, *, artifacts: list[str] | None = None) -> None:
        super().__init__(message)
        self.artifacts = artifacts or []


class NativeToolchainError(Exception):
    """The machine lacks a tool the build needs (nvcc, hipcc, ninja): not the source's fault."""


def relativize(text: str, replacements: Mapping[str, str]) -> str:
    """Replace absolute paths (longest first) by the names the agent knows."""
    for old in sorted(replacements, key=len, reverse=True):
        text = text.replace(old, replacements[old])
    return text


def _is_command(line: str) -> bool:
    """A compiler command line echoed by ninja (long, full of -I/-D flags)."""
    return len(line) > 400 and (" -c " in line or " -o " in line)


def format_compiler_output(
    output: str, replacements: Mapping[str, str]
) -> tuple[str, list[str], str]:
    """Return (short report, selected lines, full relativized log) for a failed build.

    The report keeps the first MAX_ERRORS errors, each with the lines the compiler printed
    under it (source line, caret, notes), then the compiler's own error count.
    """
    log = relativize(output, replacements)
    lines = [ln.rstrip() for ln in log.splitlines()]
    selected: list[str] = []
    errors = 0
    in_error = False
    summary = ""
    for line in lines:
        if _NOISE.match(line) or _is_command(line):
            in_error = False
            continue
        if _SUMMARY.match(line.strip()) or "errors detected in the compilation" in line:
            summary = summary or line.strip()
            in_error = False
            continue
        m = _DIAGNOSTIC.match(line)
        if m:
            kind = m.group("kind")
            if "error" in kind:
                errors += 1
                in_error = errors <= MAX_ERRORS
            elif kind == "warning":
                in_error = False
            # notes (and "In file included from") stay with the error above them
        elif line.startswith("In file included from") or line.startswith("                 from"):
            continue
        if in_error and line.strip():
            if m and m.group("line2"):  # nvcc's "file(12): error" -> "file:12: error", as gcc
                line = f"{m.group('file')}:{m.group('line2')}:{line[m.end('line2') + 2 :]}"
            selected.append(line[:MAX_LINE_CHARS])
        if len(selected) >= MAX_LINES:
            break
    if not selected:
        # No file:line diagnostics (a link error, a crash): keep what looks like an error,
        # else the tail of the log.
        candidates = [ln for ln in lines if not _NOISE.match(ln) and not _is_command(ln)]
        flagged = [ln for ln in candidates if _OTHER_ERROR.search(ln)]
        selected = [ln[:MAX_LINE_CHARS] for ln in (flagged or candidates)[-25:]]
    if errors > MAX_ERRORS:
        selected.append(f"... ({errors - MAX_ERRORS} more errors not shown)")
    if summary:
        selected.append(summary)
    return "\n".join(selected), selected, log
