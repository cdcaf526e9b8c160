"""The arena as a library: load a task, lay out its workspace, evaluate files given as text.

No folder is needed to evaluate: `evaluate_files` takes the editable files as a mapping of
name to text (what a model emits) and returns the record `aka eval --json` prints, typed.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.evaluate.gate import DeviceGate
from agentkernelarena.evaluate.standby import WarmStart
from agentkernelarena.rl.record import EvalRecord
from agentkernelarena.tasks.loader import discover_tasks, find_task
from agentkernelarena.tasks.loader import load_task as _load_dir
from agentkernelarena.tasks.repository import pristine_path
from agentkernelarena.tasks.spec import Task
from agentkernelarena.workspace.materialize import materialize, task_card


def training_options(**overrides: Any) -> EvalOptions:
    """What `rl` evaluates with when given no options: everything `aka eval` does on the visible
    configurations, the held-out ones left out.

    Why off: every reward reads the visible results only, so timing the held-out configurations
    for each of thousands of candidates spends GPU time (about half of an evaluation's timed
    work) on numbers the trainer should not use; a held-out set that feeds training, as a
    reward or as a filter, no longer measures generalization. Evaluate a trained policy's
    kernels with `EvalOptions(held_out=True)` (or `aka eval`) to get the held-out figures.
    """
    return dataclasses.replace(EvalOptions(held_out=False), **overrides)


def load_task(task: str | Path, tasks_dirs: Sequence[Path] = ()) -> Task:
    """A task by id (`triton2triton/softmax`) or by its folder."""
    path = Path(task)
    if (path / "task.yaml").is_file():
        return _load_dir(path)
    return find_task(str(task), tasks_dirs)


def load_tasks(selectors: Sequence[str], tasks_dirs: Sequence[Path] = ()) -> list[Task]:
    """Tasks by id, glob, category, tag or set (`@smoke`), as the CLI selects them."""
    from agentkernelarena.tasks.loader import select_tasks

    return select_tasks(list(selectors), discover_tasks(tasks_dirs))


def starting_files(task: Task) -> dict[str, str]:
    """The editable files as the agent first sees them (the baseline, or a skeleton)."""
    return {rel: pristine_path(task, rel).read_text() for rel in task.editable}


def card(task: Task, platform: str | None = None) -> str:
    """The task card (TASK.md of its workspace): what to do, the rules, the configurations."""
    return task_card(task, platform)


def make_workspace(task: Task, dest: Path, platform: str | None = None) -> Path:
    """The folder an agent gets (editable files, reference, TASK.md, ./check)."""
    return materialize(task, dest, platform)


def check_files(task: Task, files: Mapping[str, str]) -> None:
    """Only the task's editable files may be given, as text."""
    unknown = sorted(set(files) - set(task.editable))
    if unknown:
        raise AkaError(f"{task.id}: {', '.join(unknown)} is not an editable file of the task",
                       f"give only {', '.join(task.editable)}")
    bad = [name for name, text in files.items() if not isinstance(text, str)]
    if bad:
        raise AkaError(f"{task.id}: the content of {', '.join(bad)} is not text",
                       "give each file's content as a str")


def evaluate_files(task: Task, files: Mapping[str, str], options: EvalOptions | None = None,
                   *, warm: WarmStart | None = None, next_task: Task | None = None,
                   gate: DeviceGate | None = None) -> EvalRecord:
    """Evaluate `files` (editable file name -> text; a file left out keeps its starting
    version) against `task`. `warm`/`next_task`: see evaluate/standby.py; `gate`: see
    evaluate/gate.py. Without `options`: `training_options()` (no held-out configurations)."""
    check_files(task, files)
    with tempfile.TemporaryDirectory(prefix="aka-candidate-") as tmp:
        folder = Path(tmp)
        for rel in task.editable:
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            text = files.get(rel)
            target.write_text(text if text is not None else pristine_path(task, rel).read_text())
        result = evaluate(task, folder, options or training_options(), warm=warm,
                          next_task=next_task, gate=gate)
    return EvalRecord.from_result(result)
