"""Judging a worker's device trace (device_trace.py) against what it reported, in the supervisor.

Per timed round the trace must hold the harness's two marks on one stream (the pad before the
start event, the marker after the end event); between them lies the call's window. Rules:

- every kernel running during a window is on the timed stream (no side streams);
- the span of the kernels in a window agrees with the time the worker reported (a forged
  reading shows as kernels running far longer than the reported time, to the microsecond);
- in a task whose entry may not compute with PyTorch, every kernel in a window is one of the
  candidate's own (a Triton kernel or a `__global__` of its editable files) or allocation work
  (fills, copies, memsets): no ATen, cuBLAS or cuDNN kernels;
- none of the candidate's own kernels runs outside a window (work done while inputs were
  staged, or left for the handover).

The judge's trace goes through the same structural rules first: where the harness's own trace
does not come out right on this machine, the candidate's is not judged (recorded, never a
false alarm).
"""

from __future__ import annotations

import ast
import bisect
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_TRACE_BYTES = 64 << 20
HARNESS_MARK = "spin_kernel"  # torch.cuda._sleep: the pad and the end marker
# Kernels an entry may run besides its own: allocation, initialisation and layout copies.
ALLOCATION_WORK = ("FillFunctor", "fill_kernel", "copy_kernel", "direct_copy", "Memset",
                   "Memcpy", "arange")
# A window may exceed the reported time by the events' own recording, not more.
AGREE_ABS_MS, AGREE_SHARE = 0.01, 0.03
LOOK_BACK = 64


@dataclass
class Kernel:
    name: str
    stream: int
    start: int  # ns
    end: int


class TraceError(Exception):
    pass


def read_trace(path: Path) -> list[Kernel]:
    """A trace file from a worker, read defensively: a regular file, size-capped, one schema."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise TraceError(f"no trace file ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_TRACE_BYTES:
            raise TraceError("the trace file is not a regular file of a sane size")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = json.loads(handle.read(MAX_TRACE_BYTES + 1))
    except (ValueError, UnicodeDecodeError):
        raise TraceError("the trace file is not JSON") from None
    finally:
        os.close(fd)
    try:
        names = [str(n) for n in data["names"]]
        kernels = [Kernel(names[int(i)], int(s), int(a), int(b))
                   for i, s, a, b in data["kernels"]]
    except (KeyError, TypeError, ValueError, IndexError):
        raise TraceError("the trace file does not have the trace's layout") from None
    kernels.sort(key=lambda k: k.start)
    return kernels


def base_name(name: str) -> str:
    """`void ns::my_kernel<float, 4>(float const*, int)` -> `my_kernel`; Triton: as is."""
    text = name.strip().removeprefix("void ").strip()
    text = re.split(r"[(<]", text, maxsplit=1)[0]
    return text.rsplit("::", 1)[-1].strip()


def windows(kernels: list[Kernel], rounds: int) -> tuple[list[tuple[int, int, int]], str | None]:
    """(stream, start, end) of each round's call, from the harness's marks; or why not."""
    marks = [k for k in kernels if HARNESS_MARK in k.name]
    if len(marks) != 2 * rounds:
        return [], (f"the device trace holds {len(marks)} of the harness's {2 * rounds} marks "
                    "for its timed rounds: the trace stopped, or was tampered with")
    found = []
    for pad, end in zip(marks[0::2], marks[1::2], strict=True):
        if pad.stream != end.stream or end.start < pad.end:
            return [], "the harness's marks in the device trace are out of order"
        found.append((pad.stream, pad.end, end.start))
    return found, None


def in_window(kernels: list[Kernel], starts: list[int], start: int,
              end: int) -> Iterator[int]:
    """Indices of the kernels (marks aside) that run during [start, end): those begun in the
    window, and a few begun before it that may still run into it (kernels are in start
    order)."""
    for index in range(max(0, bisect.bisect_left(starts, start) - LOOK_BACK),
                       bisect.bisect_left(starts, end)):
        kernel = kernels[index]
        if kernel.end > start and kernel.start < end and HARNESS_MARK not in kernel.name:
            yield index


def busy_span(kernels: list[Kernel], starts: list[int], start: int, end: int) -> int:
    """Nanoseconds from the first kernel's start to the last one's end within a window.

    The marks' window also holds the device's idle time while the host had not yet enqueued
    the call (or the end marker): on a loaded host that is tens of microseconds, which the
    events around the call rightly do not count. The kernels themselves are what a forged
    reading cannot hide: the events bracket them, so the reported time is at least their span.
    """
    first, last = None, None
    for index in in_window(kernels, starts, start, end):
        kernel = kernels[index]
        begin, finish = max(kernel.start, start), min(kernel.end, end)
        first = begin if first is None else min(first, begin)
        last = finish if last is None else max(last, finish)
    return 0 if first is None else last - first


def structural_problem(kernels: list[Kernel], reported_ms: list[float]) -> str | None:
    """The marks and the agreement of each window with the reported time (any worker)."""
    found, problem = windows(kernels, len(reported_ms))
    if problem:
        return problem
    off = []
    starts = [k.start for k in kernels]
    for (_, start, end), said in zip(found, reported_ms, strict=True):
        window_ms = busy_span(kernels, starts, start, end) / 1e6
        if window_ms - said > AGREE_ABS_MS + AGREE_SHARE * window_ms:
            off.append((window_ms, said))
    if len(off) > max(1, len(reported_ms) // 10):
        window_ms, said = off[0]
        return (f"the timings it reported are not what the device ran: {len(off)} of "
                f"{len(reported_ms)} rounds, e.g. {said:.4f} ms reported for a call the device "
                f"trace shows took {window_ms:.4f} ms")
    return None


def outside_names(kernels: list[Kernel], reported_ms: list[float]) -> set[str]:
    """Base names of the kernels a worker ran outside its calls (the judge's: what staging
    the inputs and handing over launch)."""
    found, _ = windows(kernels, len(reported_ms))
    names = set()
    for kernel in kernels:
        if not any(kernel.start < end and kernel.end > start for _, start, end in found):
            names.add(base_name(kernel.name))
    return names


def candidate_problems(kernels: list[Kernel], reported_ms: list[float], own: set[str],
                       forbid_torch_compute: bool,
                       staging: set[str] | None = None) -> list[str]:
    problem = structural_problem(kernels, reported_ms)
    if problem:
        return [problem]
    found, _ = windows(kernels, len(reported_ms))
    problems: list[str] = []
    inside: set[int] = set()
    starts = [k.start for k in kernels]
    for stream, start, end in found:
        for index in in_window(kernels, starts, start, end):
            kernel = kernels[index]
            inside.add(index)
            if kernel.stream != stream and not _allocation(kernel.name):
                problems.append(f"ran kernel {base_name(kernel.name)} on another stream "
                                f"({kernel.stream}) than the timed one ({stream}) during its "
                                "call (device trace)")
            elif forbid_torch_compute and base_name(kernel.name) not in own \
                    and not _allocation(kernel.name):
                problems.append(f"ran kernel {kernel.name[:120]} during its call, which is none "
                                "of its own kernels: this task allows no ATen, cuBLAS or cuDNN "
                                "work (device trace)")
            if problems:
                return problems
    staging = staging or set()
    for index, kernel in enumerate(kernels):
        if index in inside or HARNESS_MARK in kernel.name:
            continue
        name = base_name(kernel.name)
        # Outside its calls the candidate's process runs only what the judge's runs there
        # (the task's inputs function, copies): its own kernels, or any other kernel that is
        # not PyTorch's, mean work moved out of the timed window.
        if name in own or (name not in staging and "at::" not in kernel.name
                           and not _allocation(kernel.name)):
            return [f"ran kernel {name} outside its timed calls (while its inputs were staged "
                    "or its output handed over; device trace)"]
    return problems


def _allocation(name: str) -> bool:
    return any(part in name for part in ALLOCATION_WORK)


_GLOBAL = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
                     r"(?:static\s+|inline\s+)*void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
                     r"([A-Za-z_]\w*)")


def own_kernel_names(root: Path, editable: list[str]) -> set[str]:
    """The kernels the candidate's editable files define: Triton functions (decorated with
    anything ending in `jit`, or autotuned) and CUDA/HIP `__global__` functions."""
    names: set[str] = set()
    for rel in editable:
        path = root / rel
        if not path.is_file() or path.is_symlink():
            continue
        text = path.read_text(errors="replace")
        if path.suffix == ".py":
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and any(
                        _is_kernel_decorator(d) for d in node.decorator_list):
                    names.add(node.name)
            # Kernel sources embedded as strings (load_inline): their __global__ functions.
            names.update(_GLOBAL.findall(text))
        else:
            names.update(_GLOBAL.findall(text))
    return names


def _is_kernel_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    text = ast.unparse(target)
    return text.endswith("jit") or text.endswith("autotune") or text.endswith("heuristics")


def trace_verdict(judge_trace: Path, runner_trace: Path, judge_ms: list[float],
                  runner_ms: list[float], own: set[str],
                  forbid_torch_compute: bool) -> tuple[list[str], dict[str, Any]]:
    """Problems with the candidate's trace (reasons to reject) and the record's fields."""
    try:
        judge_kernels = read_trace(judge_trace)
        judge_problem = structural_problem(judge_kernels, judge_ms)
    except TraceError as exc:
        judge_problem = str(exc)
    if judge_problem:
        return [], {"device_trace": {"checked": False,
                                     "why": f"the baseline's own trace: {judge_problem}"[:300]}}
    try:
        kernels = read_trace(runner_trace)
    except TraceError as exc:
        return [f"its device trace could not be read: {exc}"], {
            "device_trace": {"checked": True, "kernels": 0}}
    problems = candidate_problems(kernels, runner_ms, own, forbid_torch_compute,
                                  outside_names(judge_kernels, judge_ms))
    names = sorted({base_name(k.name) for k in kernels if base_name(k.name) in own})
    return problems, {"device_trace": {"checked": True, "kernels": len(kernels),
                                       "own_kernels_seen": names[:20]}}
