"""Running the upstream project's own tests of a repository task's target.

The arena's correctness gate checks the target operation on its configurations; the project's
tests check what the arena does not (other arguments, the backward pass, its autograd wrapper).
They run on a copy of the release's test files beside the pristine package with a candidate's
target files laid over it, with the project's own pytest configuration, in the evaluation
sandbox (the tests import candidate code). Their result is pass/fail only: no number is ever
read from their output.

Trust: the candidate's code runs inside the pytest process, so a hostile candidate could forge
its exit status and output. The upstream tests are therefore an extra screen for honest
mistakes (a broken backward pass, an option the arena's configurations do not exercise), never
the guard against cheating: that stays with the arena's own gates, whose judge never loads
candidate code. For the same reason an evaluation record keeps only the verdict
(`evaluation_record`), not the output text.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate.sandbox import WorkerSandbox, worker_env, worker_sandbox_status
from agentkernelarena.platforms import Platform
from agentkernelarena.tasks import repository, upstream_cache
from agentkernelarena.tasks.spec import Task

TAIL_LINES = 25
MIN_TIMEOUT_S = 900.0


def _skipped(reason: str) -> dict[str, Any]:
    return {"ran": False, "ok": None, "reason": reason}


def _tree(task: Task, solution_dir: Path | None, dest: Path) -> Path:
    """The release's test files and package, the solution's targets laid over; returns the
    folder pytest runs in."""
    up = task.upstream
    assert up is not None and up.tests is not None
    release = upstream_cache.fetch(task)
    tests_root = dest / up.tests.dir
    for rel in up.tests.files:
        source = release / up.tests.dir / rel
        if not source.exists():
            raise AkaError(f"task {task.id}: upstream test file {rel} does not exist in "
                           f"{up.project} {up.version}", "fix 'upstream.tests.files'")
        target = tests_root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            shutil.copyfile(source, target)
    packages = dest / up.root
    repository.copy_packages(task, packages)
    for rel in task.editable if solution_dir is not None else []:
        source = solution_dir / rel
        if source.is_file() and not source.is_symlink():
            shutil.copyfile(source, packages / rel)
    return tests_root


def _command(task: Task, platform: Platform, folder: Path, cwd: Path,
             sandbox: str) -> tuple[list[str], bool]:
    up = task.upstream
    assert up is not None and up.tests is not None
    # Absolute test paths: the sandbox starts in `folder`, and pytest finds the project's
    # configuration (and its rootdir) from the paths it is given.
    run = [str(cwd / item) if (cwd / item.split("::")[0]).exists() else item
           for item in up.tests.run]
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE",
            *up.tests.args, *run]
    if sandbox == "off":
        return argv, False
    status = worker_sandbox_status()
    if status.available:
        wrapper = WorkerSandbox(eval_dir=folder, device=platform.device, hidden=[task.root],
                                bwrap=status.executable or "bwrap")
        return wrapper.wrap(argv), True
    if sandbox == "auto":
        return argv, False
    raise AkaError(f"cannot sandbox the upstream tests of {task.id}: {status.reason}",
                   "install bubblewrap, or pass --sandbox off")


def run_upstream_tests(task: Task, solution_dir: Path | None, platform: Platform,
                       sandbox: str = "on") -> dict[str, Any]:
    """The project's tests of the target on the pristine package (`solution_dir` None) or with
    the solution's target files. {ran, ok, reason, output_tail, wall_s, sandboxed}."""
    up = task.upstream
    if up is None or up.tests is None:
        return _skipped("the task declares no upstream tests")
    if up.tests.device == "cuda" and platform.device == "cpu":
        return _skipped(f"{up.project}'s tests of the target need a GPU (not run on the CPU "
                        "platform)")
    if importlib.util.find_spec("pytest") is None:
        return {"ran": False, "ok": False,
                "reason": f"pytest is not installed in {sys.executable}: the upstream tests of "
                          f"{task.id} cannot run (pip install pytest)"}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"aka-upstream-tests-{task.name}-") as tmp:
        folder = Path(tmp)
        cwd = _tree(task, solution_dir, folder)
        argv, sandboxed = _command(task, platform, folder, cwd, sandbox)
        env = worker_env(os.environ, folder, platform.device)
        env.update(platform.worker_env)
        env["PYTHONPATH"] = os.pathsep.join([str(folder / up.root), env["PYTHONPATH"]])
        timeout = max(MIN_TIMEOUT_S, task.timeouts["correctness"])
        try:
            proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return {"ran": True, "ok": False, "sandboxed": sandboxed,
                    "reason": f"the upstream tests did not finish within {timeout:.0f} s",
                    "wall_s": round(time.monotonic() - started, 1)}
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    summary = lines[-1] if lines else f"exit {proc.returncode}"
    passed = proc.returncode == 0 and " passed" in summary
    reason = "" if passed else (
        f"no upstream test passed ({summary})" if proc.returncode == 0 else
        f"upstream tests failed: {summary}")
    return {"ran": True, "ok": passed, "reason": reason, "sandboxed": sandboxed,
            "output_tail": "\n".join(lines[-TAIL_LINES:]),
            "wall_s": round(time.monotonic() - started, 1)}


def evaluation_record(tests: dict[str, Any]) -> dict[str, Any]:
    """What an evaluation keeps of a candidate's upstream test run: the outcome and the
    arena's own words, none of the text the candidate's process printed."""
    kept = {k: tests[k] for k in ("ran", "ok", "sandboxed", "wall_s") if k in tests}
    if tests.get("ran") and not tests.get("ok"):
        kept["reason"] = "the project's tests of the target did not pass"
    else:
        kept["reason"] = tests.get("reason", "")
    return kept
