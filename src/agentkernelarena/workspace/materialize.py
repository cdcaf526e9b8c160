"""Writing the workspace an agent gets (DESIGN.md §4).

It holds the editable files, the reference (the agent must know the semantics), the task card and
a local check; never the held-out configurations, the scoring code, or the task's solution.
"""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import yaml

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.spec import Task

CHECK_SCRIPT = '''#!/usr/bin/env python3
"""Compile, check and time this workspace on the task's visible configurations.

It prints the same verdicts the arena will use for the final evaluation.
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
cmd = [sys.executable, "-m", "agentkernelarena", "eval", {task_id!r}, "--solution", here,
       "--visible-only", "--feedback"]
try:
    sys.exit(subprocess.call(cmd))
except OSError as exc:
    sys.exit(f"check: cannot run the arena's evaluation ({exc}); run it where AgentKernelArena "
             "is installed, or through the arena's agent loop")
'''


def _configs_table(task: Task, platform_note: str) -> str:
    rows = [f"- `{c.name}`: " + ", ".join(f"{k}={v}" for k, v in c.params.items())
            for c in task.visible]
    small = [f"- `{c.name}`: " + ", ".join(f"{k}={v}" for k, v in c.params.items())
             for c in task.cpu_visible]
    text = "\n".join(rows)
    if small:
        text += f"\n\n{platform_note}\n\n" + "\n".join(small)
    return text


def task_card(task: Task) -> str:
    tolerances = "\n".join(f"- {dtype}: atol={t.atol:g}, rtol={t.rtol:g}"
                           for dtype, t in task.tolerance.items())
    editable = ", ".join(f"`{p}`" for p in task.editable)
    in_place_rule = ("the entry may modify its inputs in place" if task.in_place
                     else "inputs must not be modified")
    context = ("\nRead-only here, for reference: " + ", ".join(f"`{p}`" for p in task.context)
               + " (pristine in every evaluation).\n") if task.context else ""
    notes = f"\n## Hardware notes\n\n{task.hardware_notes}\n" if task.hardware_notes else ""
    goal = (f"`{task.entry}` is a skeleton that does not compute the function yet: make it "
            f"compute the same function as `{task.reference}`, faster than the baseline "
            "(the PyTorch model, eager)." if task.skeleton else
            f"Make `{task.entry}` faster while computing the same function as `{task.reference}`.")
    return f"""# Task {task.id}

{task.description}

## What to deliver

{goal}
Only {editable} will be taken from this folder; anything else you change is ignored.{context}
Keep the signature of `{task.entry.function}`. Category `{task.category}`: the entry must do its
work in {task.language} kernels; PyTorch may allocate, view and reshape, not compute the result.

## Configurations you are scored on

{_configs_table(task, "On a machine without a GPU these smaller ones are used:")}

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


def materialize(task: Task, dest: Path) -> Path:
    """Write the workspace for `task` into `dest` (which must be empty or absent)."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise AkaError(f"workspace folder {dest} is not empty", "pass a new or empty folder")
    dest.mkdir(parents=True, exist_ok=True)
    files = set(task.editable) | {task.reference.file, task.inputs.file} | set(task.context)
    for rel in sorted(files):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(task.root / rel, target)
        if rel in task.context:  # read-only: the evaluation takes only editable files anyway
            target.chmod(0o444)
    (dest / "TASK.md").write_text(task_card(task))
    check = dest / "check"
    check.write_text(CHECK_SCRIPT.replace("{task_id!r}", repr(task.id)))
    check.chmod(check.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    shutil.copyfile(check, dest / "check.py")
    meta = {"task": task.id, "editable": task.editable,
            "visible_configs": [c.to_json() for c in task.visible]}
    (dest / ".aka-workspace.json").write_text(json.dumps(meta, indent=2))
    (dest / "configs.yaml").write_text(yaml.safe_dump(
        {"visible": [c.to_json() for c in task.visible],
         "cpu_visible": [c.to_json() for c in task.cpu_visible]}, sort_keys=False))
    return dest
