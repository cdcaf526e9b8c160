"""Writing the workspace an agent gets (DESIGN.md §4).

It holds the editable files, the reference (the agent must know the semantics), the task card and
a local check; never the held-out configurations, the scoring code, or the task's solution.
"""

from __future__ import annotations

import json
import shutil
import stat
import sys
from pathlib import Path

import yaml

import agentkernelarena
from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.loader import BUNDLED_SUITES
from agentkernelarena.tasks.repository import package_files, pristine_path
from agentkernelarena.tasks.spec import Task

CHECK_SCRIPT = '''#!/usr/bin/env python3
"""Compile, check and time this workspace on the task's visible configurations.

It prints the same verdicts the arena will use for the final evaluation. Any python3 can run
this file: it only uses the standard library, and runs the arena's evaluation with the
interpreter the arena was installed in (recorded below; $AKA_PYTHON overrides it).
"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
socket_path = os.environ.get("AKA_CHECK_SOCKET")
if socket_path:
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(socket_path)
        conn.sendall(b"check\\n")
        while chunk := conn.recv(65536):
            sys.stdout.write(chunk.decode(errors="replace"))
    sys.exit(0)
ARENA_PYTHON = {python!r}
ARENA_PATH = {arena_path!r}  # the folder holding the agentkernelarena package
TASKS_DIR = {tasks_dir!r}
python = os.environ.get("AKA_PYTHON") or (ARENA_PYTHON if os.path.exists(ARENA_PYTHON)
                                          else sys.executable)
env = dict(os.environ)
env["PYTHONPATH"] = os.pathsep.join(p for p in (ARENA_PATH, env.get("PYTHONPATH")) if p)
cmd = [python, "-m", "agentkernelarena", "eval", {task_id!r}, "--solution", here,
       "--visible-only", "--feedback"] + (["--tasks-dir", TASKS_DIR]
                                          if os.path.isdir(TASKS_DIR) else [])
try:
    sys.exit(subprocess.call(cmd, env=env))
except OSError as exc:
    sys.exit(f"check: cannot run the arena's evaluation with {python} ({exc}); set "
             "AKA_PYTHON to the python that has AgentKernelArena installed")
'''


CPU_NOTE = ("This run is on the CPU platform: there is no GPU. Your code is evaluated on the "
            "CPU, on small configurations, and timed with the host clock, so speedups here "
            "are not comparable with GPU runs; keep the code a correct GPU kernel all the "
            "same.")


def _configs_table(task: Task, platform: str | None = None) -> str:
    rows = [f"- `{c.name}`: " + ", ".join(f"{k}={v}" for k, v in c.params.items())
            for c in task.visible]
    small = [f"- `{c.name}`: " + ", ".join(f"{k}={v}" for k, v in c.params.items())
             for c in task.cpu_visible]
    if platform == "cpu" and small:
        return ("On this run's CPU platform these smaller ones are used:\n\n"
                + "\n".join(small) + "\n\nOn a GPU, these:\n\n" + "\n".join(rows))
    text = "\n".join(rows)
    if small:
        text += "\n\nOn a machine without a GPU these smaller ones are used:\n\n" + \
            "\n".join(small)
    return text


def repository_goal(task: Task) -> str:
    """What a repository task asks: a faster target inside the upstream package, whose own
    tests still pass; the entry is the arena's wrapper and stays as it is."""
    up = task.upstream
    assert up is not None
    targets = "; ".join(f"`{rel}`: " + ", ".join(f"`{f}`" for f in fns)
                        for rel, fns in up.functions.items())
    tests = (" The project's own tests of the target (" + ", ".join(f"`{t}`" for t in up.tests.run)
             + ") must still pass." if up.tests else "")
    return (f"This folder holds the whole `{up.project}` {up.version} package (read it freely). "
            f"Make the target faster while it computes the same function as "
            f"`{task.reference}`: {targets}. `{task.entry}` (read-only, the arena's wrapper) "
            f"calls the target the way the library's users do; other code of the package may "
            f"call the target too, so keep its signature and behaviour.{tests}")


def task_card(task: Task, platform: str | None = None) -> str:
    """TASK.md; `platform` "cpu" adds what a CPU run means (small configurations, host-clock
    timings), so an agent does not tune for a GPU it does not have."""
    tolerances = "\n".join(f"- {dtype}: atol={t.atol:g}, rtol={t.rtol:g}"
                           for dtype, t in task.tolerance.items())
    editable = ", ".join(f"`{p}`" for p in task.editable)
    in_place_rule = ("the entry may modify its inputs in place" if task.in_place
                     else "inputs must not be modified")
    context = ("\nRead-only here, for reference: " + ", ".join(f"`{p}`" for p in task.context)
               + " (pristine in every evaluation).\n") if task.context else ""
    notes = f"\n## Hardware notes\n\n{task.hardware_notes}\n" if task.hardware_notes else ""
    cpu = f"\n## Platform\n\n{CPU_NOTE}\n" if platform == "cpu" else ""
    goal = (f"`{task.entry}` is a skeleton that does not compute the function yet: make it "
            f"compute the same function as `{task.reference}`, faster than the baseline "
            "(the PyTorch model, eager)." if task.skeleton else
            f"Make `{task.entry}` faster while computing the same function as `{task.reference}`.")
    rules = (f"Keep the signature of `{task.entry.function}`. Category `{task.category}`: the "
             f"entry must do its\nwork in {task.language} kernels; PyTorch may allocate, view "
             "and reshape, not compute the result.")
    if task.upstream is not None:
        goal = repository_goal(task)
        rules = (f"The target's work must run in {task.language} kernels; PyTorch glue of the "
                 "kind the library already\nhas (allocation, views, small reductions) may stay.")
    return f"""# Task {task.id}

{task.description}
{cpu}
## What to deliver

{goal}
Only {editable} will be taken from this folder; anything else you change is ignored.{context}
{rules}

## Configurations you are scored on

{_configs_table(task, platform)}

The final evaluation also runs configurations you do not see (other sizes, aspect ratios and
alignments): do not hard-code shapes.

## Correctness

Compared with the reference (run in float64) on fresh random inputs, several seeds per
configuration, element by element, within atol + rtol * |reference| for the output's dtype:

{tolerances}

Outputs must have exactly the reference's type, shape, dtype and device; NaN or inf where the
reference is finite fails; {in_place_rule}.

## Speed

Baseline and your version are timed in one process, interleaved, with device events and a cache
flush before each call; the speedup per configuration is baseline time / your time, combined by
the geometric mean. Score: 20 for compiling, 100 for correctness, 100 x speedup when correct.

## Local check

Run `./check` (or `python3 check.py`) here: it compiles, checks and times your current version on
the visible configurations and prints the verdict the arena will use.
{notes}"""


def check_script(task: Task) -> str:
    """The workspace's ./check, pointing at this arena's interpreter and package."""
    arena_path = str(Path(agentkernelarena.__file__).resolve().parent.parent)
    suite = task.root.resolve().parent.parent
    bundled = suite == BUNDLED_SUITES.resolve()  # found without --tasks-dir (no duplicates)
    return (CHECK_SCRIPT.replace("{task_id!r}", repr(task.id))
            .replace("{python!r}", repr(sys.executable))
            .replace("{arena_path!r}", repr(arena_path))
            .replace("{tasks_dir!r}", repr("" if bundled else str(suite))))


def repository_view(task: Task) -> set[str]:
    """What a repository task's workspace shows besides the usual files: every file of the
    upstream packages and the entry wrapper that calls the target (empty for other tasks)."""
    if task.upstream is None:
        return set()
    return set(package_files(task)) | {task.entry.file}


def materialize(task: Task, dest: Path, platform: str | None = None) -> Path:
    """Write the workspace for `task` into `dest` (which must be empty or absent); `platform`:
    the evaluation platform's name, for the task card."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise AkaError(f"workspace folder {dest} is not empty", "pass a new or empty folder")
    dest.mkdir(parents=True, exist_ok=True)
    files = set(task.editable) | {task.reference.file, task.inputs.file} | set(task.context)
    # A repository task: the whole upstream package (to read), and the arena's entry wrapper.
    read_only = set(task.context) | repository_view(task)
    for rel in sorted(files | read_only):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pristine_path(task, rel), target)
        if rel in read_only - set(task.editable):  # the evaluation takes only editable files
            target.chmod(0o444)
    (dest / "TASK.md").write_text(task_card(task, platform))
    check = dest / "check"
    check.write_text(check_script(task))
    check.chmod(check.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    shutil.copyfile(check, dest / "check.py")
    meta = {"task": task.id, "editable": task.editable,
            "visible_configs": [c.to_json() for c in task.visible]}
    (dest / ".aka-workspace.json").write_text(json.dumps(meta, indent=2))
    (dest / "configs.yaml").write_text(yaml.safe_dump(
        {"visible": [c.to_json() for c in task.visible],
         "cpu_visible": [c.to_json() for c in task.cpu_visible]}, sort_keys=False))
    return dest
