"""Run a split-mode kernel source on the CPU, through the emulator in emu/aka_emu.h.

`build(kernel, binding, out_dir, warp_size)` compiles the kernel source with g++ (CUDA's
`k<<<grid, block, shmem, stream>>>(args)` rewritten to a call, everything else as written) into
a shared library, with the binding's launcher declarations forced in as on a real build, and
returns its launchers as Python callables whose argument types come from those declarations.
Tensors go in as CPU `data_ptr()`s. Tests only: slow (a thread per CUDA thread) and blind to
timing, but it executes every index computation, barrier and shuffle of the real source.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentkernelarena.native.sources import declarations_header, launcher_declarations

EMU = Path(__file__).parent / "emu"
_LAUNCH = re.compile(r"<<<")
_CTYPES = {
    "void*": ctypes.c_void_p,
    "int64_t": ctypes.c_int64,
    "int32_t": ctypes.c_int32,
    "int": ctypes.c_int,
    "unsigned": ctypes.c_uint,
    "float": ctypes.c_float,
    "double": ctypes.c_double,
    "size_t": ctypes.c_size_t,
}


def compiler() -> str | None:
    return shutil.which("g++")


def _kernel_start(text: str, end: int) -> int:
    """Start of the kernel expression that ends at `end` (`name`, `ns::name<T, 4>`)."""
    i = end
    while i > 0 and text[i - 1].isspace():
        i -= 1
    if text[i - 1] == ">":
        depth = 0
        while i > 0:
            i -= 1
            depth += {">": 1, "<": -1}.get(text[i], 0)
            if depth == 0:
                break
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_:"):
        i -= 1
    return i


def _split_top(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def rewrite_launches(text: str) -> str:
    """`k<T><<<g, b, s, st>>>(args)` -> `aka_emu::launch(k<T>, g, b, s, st, args)`."""
    while m := _LAUNCH.search(text):
        start = _kernel_start(text, m.start())
        close = text.index(">>>", m.end())
        config = _split_top(text[m.end() : close])
        config += ["0", "nullptr"][len(config) - 2 :] if len(config) < 4 else []
        paren = text.index("(", close)
        depth, j = 0, paren
        while True:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        args = text[paren + 1 : j]
        call = f"aka_emu::launch({text[start : m.start()].strip()}, {', '.join(config)}"
        call += f", {args})" if args.strip() else ")"
        text = text[:start] + call + text[j + 1 :]
    return text


def _ctype(declaration: str) -> Any:
    compact = declaration.replace("const", "").replace("__restrict__", "")
    compact = re.sub(r"\s+", "", re.sub(r"\b\w+$", "", compact.strip()))
    if compact.endswith("*"):
        return ctypes.c_void_p
    if compact not in _CTYPES:
        raise ValueError(f"no ctypes mapping for parameter {declaration!r}")
    return _CTYPES[compact]


def build(kernel: Path, binding: Path, out_dir: Path, warp_size: int = 32,
          sm_count: int = 2) -> dict[str, Callable[..., int]]:  # fmt: skip
    """Compile `kernel` for the emulator; return its launchers by name."""
    cxx = compiler()
    if cxx is None:
        raise RuntimeError("g++ not found")
    out_dir.mkdir(parents=True, exist_ok=True)
    source = out_dir / f"{kernel.stem}.emu.cpp"
    source.write_text(f'#line 1 "{kernel}"\n' + rewrite_launches(kernel.read_text()))
    declared = launcher_declarations(binding)
    decls = declarations_header(binding, out_dir / "aka_launchers.h", declared)
    library = out_dir / f"{kernel.stem}.emu.so"
    cmd = [cxx, "-std=c++20", "-O1", "-g0", "-fPIC", "-shared", "-pthread",
           "-Wno-unknown-pragmas", f"-I{EMU / 'include'}", "-include", str(EMU / "aka_emu.h"),
           *(["-include", str(decls)] if decls else []), f"-I{kernel.parent}",
           str(source), "-o", str(library)]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"emulator build of {kernel} failed:\n{proc.stderr[-6000:]}")
    lib = ctypes.CDLL(str(library))
    lib.aka_emu_configure(ctypes.c_int(warp_size), ctypes.c_int(sm_count))
    launchers: dict[str, Callable[..., int]] = {}
    for _, name, decl in declared:
        params = decl[decl.index("(") + 1 : decl.rindex(")")]
        fn = getattr(lib, name)
        fn.argtypes = [_ctype(p) for p in _split_top(params) if p.strip() != "void"]
        fn.restype = ctypes.c_int
        launchers[name] = fn
    return launchers
