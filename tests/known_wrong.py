"""The harness of the known-wrong tests (tests/test_known_wrong_*.py): a plausible wrong
implementation of a task, run on the task's CPU configurations and inputs, must fail the task's
comparison on at least one configuration, while the reference itself (computed in float32 and
rounded to its native output dtypes: what a correct kernel returns) passes on every one.

`aka tasks check` runs a task's declared `wrong_variants` the same way; these tests add the
shortcuts written here in plain PyTorch, one file per task family, and keep the declared ones
exercised by the test suite too.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from typing import Any

import torch

from agentkernelarena.evaluate.compare import compare_values
from agentkernelarena.tasks.loader import discover_tasks

TASKS = {t.id: t for t in discover_tasks()}
SEED = 7


def task_module(task: Any, filename: str) -> Any:
    """A file of the task (`reference`, `wrong.py`, ...) loaded as a fresh module."""
    path = task.root / (filename if filename.endswith(".py") else f"{filename}.py")
    spec = importlib.util.spec_from_file_location(f"kw_{path.stem}_{task.category}_{task.name}",
                                                  path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cast(args: Sequence[Any], dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def in_float32(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` computed in float32 and rounded to the dtypes it returns natively (16-bit
    arithmetic on the CPU is not what a kernel computes)."""
    def run(*args: Any) -> Any:
        native = function(*args)
        out = function(*cast(args, torch.float32))
        if isinstance(native, torch.Tensor):
            return out.to(native.dtype)
        return tuple(o.to(n.dtype) if isinstance(n, torch.Tensor) else o
                     for o, n in zip(out, native, strict=True))
    return run


def declared(task_id: str, name: str) -> Callable[..., Any]:
    """The task's own `wrong.py` variant `name`."""
    def run(*args: Any) -> Any:
        return getattr(task_module(TASKS[task_id], "wrong.py"), name)(*args)
    return run


def verdicts(task: Any, fn: Callable[..., Any]) -> list[bool]:
    """Per CPU configuration: does `fn` pass the task's comparison?"""
    module = task_module(task, task.reference.file)
    make_inputs = getattr(module, task.inputs.function)
    reference = getattr(module, task.reference.function)
    tol = {k: (v.atol, v.rtol) for k, v in task.tolerance.items()}
    passed = []
    for config in task.cpu_visible + task.cpu_held_out:
        args = make_inputs(config.params, SEED, "cpu")
        args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
        ref_args = cast(args, torch.float64) if task.reference_upcast else args
        with torch.no_grad():
            expected = reference(*ref_args)
            got = fn(*args)
        passed.append(compare_values(got, expected, tol) is None)
    return passed


def check_case(task_id: str, what: str, variant: Callable[..., Any]) -> None:
    task = TASKS[task_id]
    reference = getattr(task_module(task, task.reference.file), task.reference.function)
    assert all(verdicts(task, in_float32(reference))), f"{task_id}: the reference itself fails"
    assert not all(verdicts(task, variant)), f"{task_id}: '{what}' passes the tolerance"


def case_ids(cases: Sequence[tuple[Any, ...]]) -> list[str]:
    return [f"{c[0]}:{c[1]}" for c in cases]
