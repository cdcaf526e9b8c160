"""A lint for GPU code that hard-codes a warp size (or uses AMD-only features).

AMD's CDNA GPUs (MI200/MI300) run 64-lane wavefronts; NVIDIA runs 32-lane warps. A HIP kernel
written for 64 lanes still compiles after HIP -> CUDA translation and then computes the wrong
thing (a shuffle reduction that starts at offset 32 adds each lane to itself; a 64-bit ballot
mask has its upper half empty). Compilers say nothing, so the arena says it: each finding is a
`PortabilityWarning` with the line, shown to the agent and kept in the report. The checks are
heuristics on the text (comments and strings removed); they aim to catch the usual idioms, not
to prove anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["PortabilityWarning", "blank_comments_and_strings", "check_warp_size"]


@dataclass(frozen=True)
class PortabilityWarning:
    """One finding: the 1-based line in the checked source and what is wrong there."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


_SIZE_NOTE = "a wavefront is 64 lanes on AMD CDNA, a warp 32 on NVIDIA; use warpSize"
_CMP = r"(?:==|!=|<=|>=|<|>)"
_WARPSIZE_CMP = re.compile(rf"\bwarpSize\s*{_CMP}\s*(32|64)\b|\b(32|64)\s*{_CMP}\s*warpSize\b")
_WARP_NAME = r"\w*(?:warp|wave|WARP|WAVE|Warp|Wave)\w*"
_WARP_CONST = re.compile(
    rf"#\s*define\s+({_WARP_NAME})\s+\(?\s*(32|64)\b"
    rf"|\b({_WARP_NAME})\s*=\s*\(?\s*(32|64)\b(?!\s*[*/+%-])"
)
_BALLOT_64 = re.compile(
    r"\b(?:uint64_t|unsigned\s+long\s+long|unsigned\s+long|long\s+long|u64|size_t)\s+\w+\s*=\s*"
    r"(?:\(\s*\w[\w\s]*\)\s*)?__ballot"
    r"|__(?:popcll|ffsll|clzll)\s*\(\s*__ballot"
)
_THREAD_EXPR = (
    r"(?:threadIdx\.[xyz]|hipThreadIdx_[xyz]|\b\w*(?:tid|Tid|TID|lane|Lane|LANE|thread|Thread)\w*)"
)
_LANE_MATH = re.compile(rf"({_THREAD_EXPR})\s*(%|&|/|>>)\s*(64|63|32|31|6|5)\b(?!\.)")
_LANE_SIZES = {
    ("%", "64"): 64,
    ("&", "63"): 64,
    ("/", "64"): 64,
    (">>", "6"): 64,
    ("%", "32"): 32,
    ("&", "31"): 32,
    ("/", "32"): 32,
    (">>", "5"): 32,
}
_LOOP_DOWN = re.compile(r"\bfor\s*\([^;]*=\s*(32|16)\s*;[^;]*;[^)]*(?:>>=\s*1|/=\s*2)")
_LOOP_UP = re.compile(r"\bfor\s*\([^;]*;\s*\w+\s*<=?\s*(64|32)\s*;[^)]*(?:<<=\s*1|\*=\s*2)")
_SHFL = re.compile(r"\b__shfl(?:_down|_up|_xor)?(?:_sync)?\s*\(")
_MASK_64 = re.compile(r"\b0x[fF]{16}")
_AMD_ONLY = [
    (re.compile(r"\b__AMDGCN_WAVEFRONT_SIZE\b"), "__AMDGCN_WAVEFRONT_SIZE is AMD-only (64)"),
    (re.compile(r"\b__builtin_amdgcn_\w+"), "AMD-only builtin {0} has no CUDA equivalent"),
    (re.compile(r"\b__lane_id\s*\("), "__lane_id() is HIP-only (CUDA: threadIdx.x % warpSize)"),
    (re.compile(r"\basm\s*(?:volatile\s*)?\("), "inline assembly is specific to one GPU ISA"),
]


def blank_comments_and_strings(source: str) -> str:
    """Replace comments and string/char literals by spaces, keeping every newline."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        two = source[i : i + 2]
        if two == "//":
            end = source.find("\n", i)
            end = n if end < 0 else end
        elif two == "/*":
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif source[i] in "\"'":
            quote, end = source[i], i + 1
            while end < n and source[end] not in (quote, "\n"):
                end += 2 if source[end] == "\\" else 1
            end = min(end + 1, n)
        else:
            out.append(source[i])
            i += 1
            continue
        out.append("".join(c if c == "\n" else " " for c in source[i:end]))
        i = end
    return "".join(out)


def _shuffle_widths(line: str) -> list[str]:
    """The explicit width argument of each shuffle call on the line, if any."""
    widths = []
    for m in _SHFL.finditer(line):
        depth, start, args = 0, m.end(), []
        for j in range(m.end(), len(line)):
            ch = line[j]
            if ch in "([":
                depth += 1
            elif ch in ")]" and depth:
                depth -= 1
            elif ch == ")" or (ch == "," and depth == 0):
                args.append(line[start:j].strip())
                start = j + 1
                if ch == ")":
                    break
        is_sync = "_sync" in m.group(0)
        if len(args) == (4 if is_sync else 3):
            widths.append(args[-1])
    return widths


def check_warp_size(source: str) -> list[PortabilityWarning]:
    """Find code that assumes a 64- or 32-lane warp, or that only AMD compiles."""
    lines = blank_comments_and_strings(source).split("\n")
    found: list[PortabilityWarning] = []

    def add(index: int, message: str) -> None:
        warning = PortabilityWarning(index + 1, message)
        if warning not in found:
            found.append(warning)

    for i, line in enumerate(lines):
        for m in _WARPSIZE_CMP.finditer(line):
            add(i, f"compares warpSize with {m.group(1) or m.group(2)}: {_SIZE_NOTE}")
        for m in _WARP_CONST.finditer(line):
            name, size = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            add(i, f"hard-codes a warp size of {size} in {name}: {_SIZE_NOTE}")
        if _BALLOT_64.search(line):
            add(
                i,
                "keeps a __ballot mask in 64 bits: a CUDA ballot has 32 bits, one per lane "
                "of a 32-lane warp; AMD's has 64",
            )
        for width in _shuffle_widths(line):
            if width in ("32", "64"):
                add(i, f"shuffle with width {width} hard-codes the warp size: {_SIZE_NOTE}")
        for m in _LANE_MATH.finditer(line):
            size = _LANE_SIZES.get((m.group(2), m.group(3)))
            if size:
                expr = f"{m.group(1)} {m.group(2)} {m.group(3)}"
                add(i, f"'{expr}' assumes {size}-lane warps: {_SIZE_NOTE}")
        window = "\n".join(lines[i : i + 4])
        if _SHFL.search(window):
            if m := _LOOP_DOWN.search(line):
                lanes = 2 * int(m.group(1))
                add(
                    i,
                    f"shuffle loop starting at offset {m.group(1)} reduces over {lanes} lanes: "
                    f"{_SIZE_NOTE} (start at warpSize / 2)",
                )
            if m := _LOOP_UP.search(line):
                add(
                    i,
                    f"shuffle loop bounded by {m.group(1)} assumes {m.group(1)}-lane warps: "
                    f"{_SIZE_NOTE}",
                )
        if _MASK_64.search(line):
            add(i, "a 64-bit lane mask assumes 64-lane wavefronts (CUDA masks have 32 bits)")
        for pattern, message in _AMD_ONLY:
            if m := pattern.search(line):
                add(i, message.format(m.group(0)))
    return found
