"""`aka tasks check` for repository tasks: the pin, the targets, then the baseline.

The baseline of a repository task is the pristine upstream package, so it is evaluated from the
verified cache (not from the task folder, which holds only the arena's wrapper), after checking
that every target file and function exists in the pinned release. The upstream tests run inside
the evaluation (evaluate/evaluator.py); a failure there on the baseline gets its own line,
because the fix is the task's (its test selection or its pin), not a kernel's.

Where the library cannot run under Triton's CPU interpreter (`upstream.cpu_unsupported`), the
CPU check is static and says so: the pin, the targets, and that the entry imports with the
pristine package and with the solution's target files (a solution that drops a name the package
imports fails here, not first on a GPU).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions
from agentkernelarena.evaluate.upstream_tests import run_upstream_tests
from agentkernelarena.platforms import Platform
from agentkernelarena.tasks import repository, upstream_cache
from agentkernelarena.tasks.spec import Task

Evaluate = Callable[[str, Task, Any, EvalOptions, list[str]], "dict[str, Any] | None"]
IMPORT_TIMEOUT_S = 300


def static_only(task: Task, platform: Platform) -> str | None:
    """The reason this platform checks the task statically only, or None."""
    if task.upstream is None or platform.name != "cpu":
        return None
    if not task.upstream.cpu_unsupported:
        return None
    return f"not evaluated on the CPU platform: {task.upstream.cpu_unsupported}"


def import_problem(task: Task, solution_dir: Path | None, label: str) -> str | None:
    """Import the entry with the pristine package (and the solution's target files): the
    module-level code of the whole package runs, so a missing name or a syntax error shows."""
    with tempfile.TemporaryDirectory(prefix=f"aka-import-{task.name}-") as tmp:
        folder = Path(tmp)
        repository.copy_packages(task, folder)
        shutil.copyfile(task.root / task.entry.file, folder / task.entry.file)
        for rel in task.editable if solution_dir is not None else []:
            shutil.copyfile(solution_dir / rel, folder / rel)
        code = ("import importlib.util, sys; sys.path.insert(0, '.'); "
                f"spec = importlib.util.spec_from_file_location('entry', {task.entry.file!r}); "
                "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
                f"assert callable(getattr(m, {task.entry.function!r}))")
        env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            proc = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env,
                                  capture_output=True, text=True, timeout=IMPORT_TIMEOUT_S,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return f"{label}: importing {task.entry.file} took over {IMPORT_TIMEOUT_S} s"
    if proc.returncode == 0:
        return None
    lines = proc.stderr.strip().splitlines()
    return f"{label}: {task.entry.file} does not import: {lines[-1] if lines else proc.returncode}"


def _static_check(task: Task, problems: list[str]) -> None:
    for label, folder in (("baseline", None), ("solution", task.solution_dir)):
        if label == "solution" and folder is None:
            continue
        missing = [rel for rel in task.editable if folder and not (folder / rel).is_file()]
        if missing:
            problems.append(f"solution/: lacks the editable file(s) {missing}")
            continue
        problem = import_problem(task, folder, label)
        if problem:
            problems.append(problem)


def check_baseline(task: Task, platform: Platform, options: EvalOptions, problems: list[str],
                   evaluate: Evaluate) -> dict[str, Any] | None:
    try:
        upstream_cache.check_targets(task)
    except AkaError as exc:
        problems.append(str(exc))
        return None
    if static_only(task, platform):
        _static_check(task, problems)
        return None
    with tempfile.TemporaryDirectory(prefix=f"aka-baseline-{task.name}-") as tmp:
        # Only the packages: other files of the release would be listed as ignored changes.
        repository.copy_packages(task, Path(tmp))
        baseline = evaluate("baseline", task, Path(tmp), options, problems)
    tests = (baseline or {}).get("upstream_tests") or {}
    if tests.get("ran") and not tests.get("ok"):
        # The pristine release is the task's own code: its output may be shown in full.
        rerun = run_upstream_tests(task, None, platform, options.sandbox)
        detail = rerun.get("reason") or tests.get("reason")
        problems.append(f"task {task.id}: the upstream tests fail on the pristine baseline "
                        f"({detail}); select tests that pass on this release "
                        "(upstream.tests.run/args) or pin another version")
        if rerun.get("output_tail"):
            problems.append("upstream test output (last lines): "
                            + " | ".join(rerun["output_tail"].splitlines()[-6:]))
    elif tests.get("ok") is False:
        problems.append(f"task {task.id}: {tests.get('reason')}")
    return baseline
