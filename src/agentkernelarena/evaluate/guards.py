"""Integrity guards that run inside the worker, around the candidate's calls (docs/integrity.md).

- `LaunchCounter`: every Triton launch is counted (and its stream noted); a candidate call that
  launches no kernel of the task's language did its work some other way.
- `OpAudit`: a dispatch mode that records the aten operators a candidate call runs. The entry
  may allocate, view and reshape with PyTorch; computing the result with it (or by calling the
  reference) is what the task forbids.
- `TamperWatch`: identities of the functions the harness relies on (torch, triton, time, the
  harness modules, the reference and the baseline), taken before the candidate is imported and
  compared after each of its steps. Patching a timer, a comparison or the baseline is caught
  even when the candidate undoes it by the time it returns, as long as it lasts until the next
  check; a patch that hides itself completely cannot change what the harness measures either,
  because the harness holds its own references.
- `process_changes`: threads and child processes the candidate left behind (work hidden from
  the timer, or a process slowing the GPU for the baseline).
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import types
from collections import Counter
from pathlib import Path
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

# aten operators an entry may run itself: allocation, initialisation, views and metadata.
ALLOWED_OPS = frozenset({
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided",
    "zeros", "zeros_like", "new_zeros", "ones", "ones_like", "new_ones", "full", "full_like",
    "new_full", "fill_", "zero_", "arange", "scalar_tensor", "lift_fresh",
    "view", "_unsafe_view", "_reshape_alias", "reshape", "view_as", "as_strided", "permute",
    "transpose", "t", "expand", "expand_as", "select", "slice", "unsqueeze", "squeeze", "alias",
    "detach", "split", "split_with_sizes", "chunk", "unbind", "narrow", "movedim", "unflatten",
    "flatten", "view_as_real", "view_as_complex", "sym_size", "sym_stride", "sym_numel",
    "sym_storage_offset", "_local_scalar_dense", "is_same_size", "record_stream",
})


class LaunchCounter:
    """Counts Triton kernel launches, on the GPU and under the interpreter alike."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.count = 0
        self.foreign_streams = 0
        self.installed = False
        self._expected_stream: int | None = None

    def install(self) -> None:
        try:
            from triton.runtime.jit import JITFunction
        except ImportError:
            return
        classes: list[type] = [JITFunction]
        try:
            from triton.runtime.interpreter import InterpretedFunction

            classes.append(InterpretedFunction)
        except ImportError:
            pass
        for cls in classes:
            cls.run = self._wrap(cls.run)  # type: ignore[method-assign]
        self.installed = True

    def _wrap(self, original: Any) -> Any:
        counter = self

        def run(fn_self: Any, *args: Any, **kwargs: Any) -> Any:
            counter.count += 1
            if counter.device == "cuda" and counter._expected_stream is not None:
                if torch.cuda.current_stream().cuda_stream != counter._expected_stream:
                    counter.foreign_streams += 1
            # Triton's own launch machinery may use torch; it is not the candidate's compute.
            with _disable_current_modes():
                return original(fn_self, *args, **kwargs)

        run.__wrapped__ = original  # type: ignore[attr-defined]
        return run

    def reset(self) -> None:
        self.count = 0
        self.foreign_streams = 0
        if self.device == "cuda":
            self._expected_stream = torch.cuda.current_stream().cuda_stream


class OpAudit(TorchDispatchMode):
    """Records aten operators outside `ALLOWED_OPS` run while it is active."""

    def __init__(self) -> None:
        super().__init__()
        self.disallowed: Counter[str] = Counter()

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        # Newer torch wraps dispatch handlers to keep Dynamo out of them, which imports Dynamo
        # (seconds) and patches torch.manual_seed; this mode never runs under torch.compile.
        return False

    def __torch_dispatch__(self, func: Any, types_: Any, args: Any = (),
                           kwargs: Any = None) -> Any:
        name = func.__name__.split(".")[0]
        if name not in ALLOWED_OPS:
            self.disallowed[f"{func.namespace}.{name}"] += 1
        return func(*args, **(kwargs or {}))


def _watched_namespaces(extra_modules: list[str]) -> dict[str, Any]:
    watched: dict[str, Any] = {
        "torch": torch, "torch.Tensor": torch.Tensor, "torch._C.TensorBase": torch._C.TensorBase,
        "torch.cuda": torch.cuda, "torch.cuda.Event": torch.cuda.Event,
        "torch.nn.functional": torch.nn.functional, "torch.testing": torch.testing,
        "time": sys.modules["time"], "os": os, "builtins": sys.modules["builtins"],
    }
    for name in ("triton", "triton.language", "triton.runtime.jit", "triton.testing",
                 "triton.runtime.interpreter", "triton.runtime.autotuner", *extra_modules):
        module = sys.modules.get(name)
        if module is not None:
            watched[name] = module
    try:
        from triton import knobs

        watched["triton.knobs.runtime"] = knobs.runtime
    except ImportError:
        pass
    return watched


def _identity(value: Any) -> tuple[int, ...]:
    """The object, and for functions (and Triton kernels) the code inside them, which can be
    swapped without replacing the object."""
    code = getattr(value, "__code__", None)
    inner = getattr(value, "fn", None) if not isinstance(value, types.ModuleType) else None
    return (id(value), id(code), id(inner), id(getattr(inner, "__code__", None)))


def _identities(namespace: Any) -> dict[str, tuple[int, ...]]:
    try:
        mapping = vars(namespace)
    except TypeError:
        return {}
    return {key: _identity(value) for key, value in list(mapping.items())}


def _file_hashes(roots: list[Path]) -> dict[str, str]:
    hashes = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and not {"__pycache__", ".aka_build"} & set(path.parts):
                hashes[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes


class TamperWatch:
    """Snapshot of what the harness relies on; `changes()` names what differs since."""

    def __init__(self, extra_modules: list[str], pristine_dirs: list[Path]) -> None:
        self._pristine_dirs = pristine_dirs
        self._files = _file_hashes(pristine_dirs)
        self._watched = _watched_namespaces(extra_modules)
        self._snapshot = {name: _identities(ns) for name, ns in self._watched.items()}
        self._modules = {name: id(sys.modules[name]) for name in extra_modules
                         if name in sys.modules}

    def changes(self) -> list[str]:
        found: list[str] = []
        for name, before in self._snapshot.items():
            now = _identities(self._watched[name])
            for key, ident in before.items():
                if key in ("__warningregistry__",):
                    continue
                if now.get(key) != ident:
                    found.append(f"{name}.{key}")
        for name, ident in self._modules.items():
            if id(sys.modules.get(name)) != ident:
                found.append(f"sys.modules[{name!r}]")
        now_files = _file_hashes(self._pristine_dirs)
        found += [f"file {path}" for path in sorted(set(self._files) | set(now_files))
                  if self._files.get(path) != now_files.get(path)]
        return found


def child_processes() -> list[int]:
    """Direct children of this process (Linux /proc), e.g. a GPU hog started by the candidate."""
    children: list[int] = []
    task_dir = f"/proc/{os.getpid()}/task"
    try:
        for tid in os.listdir(task_dir):
            with open(f"{task_dir}/{tid}/children") as handle:
                children += [int(p) for p in handle.read().split()]
    except OSError:
        return []
    return children


class ProcessWatch:
    """Threads and child processes present before the candidate ran.

    Those the harness itself started earlier (torch.compile's helpers for the vs-compile
    comparison, say) are not the candidate's doing and must not read as hidden work."""

    def __init__(self) -> None:
        self._threads = {t.ident for t in threading.enumerate()}
        self._children = set(child_processes())

    def changes(self) -> list[str]:
        found = [f"a thread '{t.name}' it started is still running"
                 for t in threading.enumerate()
                 if t.ident not in self._threads and t.is_alive()]
        found += [f"a child process (pid {pid}) it started is still running"
                  for pid in child_processes() if pid not in self._children]
        return found


def module_names(*packages: str) -> list[str]:
    """Every loaded module under the given package prefixes (harness, reference, baseline)."""
    return sorted(name for name, module in sys.modules.items()
                  if isinstance(module, types.ModuleType)
                  and any(name == p or name.startswith(p + ".") for p in packages))
