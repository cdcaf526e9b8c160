"""Importing task and candidate files into the worker, and describing their failures.

Candidate, baseline and reference are imported as separate packages (`aka_candidate`,
`aka_baseline`, `aka_reference`) so that equal module names never collide, and their errors are
reported with paths relative to the candidate's folder, the way an agent can act on them.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import traceback
import types
from pathlib import Path
from typing import Any

_DEVICE_FAULT_MARKERS = (
    "illegal memory access",
    "illegal address",
    "device-side assert",
    "unspecified launch failure",
    "misaligned address",
    "an illegal instruction",
    "CUDA error",
    "HIP error",
)


def is_device_fault(exc: BaseException) -> bool:
    """A fault that leaves the GPU context unusable: the process must end (verdict `crash`)."""
    text = f"{type(exc).__name__}: {exc}"
    return type(exc).__name__ == "AcceleratorError" or any(m in text for m in _DEVICE_FAULT_MARKERS)


def describe_exception(exc: BaseException, root: Path) -> str:
    """The exception with the frames that are in the candidate's files, paths made relative."""
    root_str = str(root)
    lines: list[str] = []
    if isinstance(exc, SyntaxError) and exc.filename:
        where = os.path.relpath(exc.filename, root_str) if exc.filename.startswith(root_str) \
            else exc.filename
        lines.append(f"{where}:{exc.lineno}: SyntaxError: {exc.msg}")
        if exc.text:
            lines.append("    " + exc.text.rstrip())
        return "\n".join(lines)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.startswith(root_str):
            rel = os.path.relpath(frame.filename, root_str)
            lines.append(f"{rel}:{frame.lineno} in {frame.name}: {(frame.line or '').strip()}")
    message = str(exc).strip()
    if len(message) > 4000:
        message = message[:2000] + "\n...\n" + message[-2000:]
    lines.append(f"{type(exc).__name__}: {message}")
    return "\n".join(lines)


def load_module(root: Path, rel_file: str, package: str) -> types.ModuleType:
    """Import `root/rel_file` as `package.<stem>` so candidate and baseline never share names."""
    if package not in sys.modules:
        pkg = types.ModuleType(package)
        pkg.__path__ = [str(root)]
        sys.modules[package] = pkg
    stem = Path(rel_file).with_suffix("").as_posix().replace("/", ".")
    name = f"{package}.{stem}"
    spec = importlib.util.spec_from_file_location(name, root / rel_file)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {rel_file}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def get_function(module: types.ModuleType, name: str, rel_file: str) -> Any:
    fn = getattr(module, name, None)
    if not callable(fn):
        raise AttributeError(f"{rel_file} defines no function '{name}' (the task's entry)")
    return fn
