"""Finding task folders, loading them, and selecting tasks by id, glob, category or suite."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml

from agentkernelarena.errors import AkaError, TaskError
from agentkernelarena.tasks.spec import CATEGORIES, Task, parse_task

BUNDLED_SUITES = Path(__file__).resolve().parent.parent / "suites"
# Suites beyond the categories: a tag in task.yaml puts a task in the suite of that name.
SUITE_ALL = "all"


def load_task(task_dir: Path) -> Task:
    """Load and validate one task folder; every referenced file must exist."""
    task_yaml = task_dir / "task.yaml"
    if not task_yaml.is_file():
        raise TaskError(f"{task_dir}: no task.yaml here", "a task folder holds task.yaml")
    try:
        raw = yaml.safe_load(task_yaml.read_text())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise TaskError(f"{task_yaml}:{line}: not valid YAML: {problem}") from None
    task = parse_task(raw, task_yaml)
    expected = task_dir.resolve()
    # A repository task's editable files live in the upstream release (checked on fetch).
    in_folder = [] if task.upstream is not None else task.editable
    for label, rel in [("entry", task.entry.file), ("reference", task.reference.file),
                       ("inputs", task.inputs.file)] + [("editable", p) for p in in_folder] \
            + [("context", p) for p in task.context] \
            + ([("baseline", task.baseline.file)] if task.baseline else []) \
            + ([("min_bytes", task.min_bytes.file)] if task.min_bytes else []) \
            + [("wrong_variants", r.file) for r in task.wrong_variants] \
            + [("input_checks", r.file) for r in task.input_checks]:
        if not (expected / rel).is_file():
            raise TaskError(f"{task_yaml}: field '{label}': file '{rel}' does not exist",
                            f"add {rel} to {task_dir} or fix the field")
    if task.entry.file not in task.editable and task.language in ("triton", "torch") \
            and task.upstream is None:
        raise TaskError(f"{task_yaml}: field 'editable': the entry file '{task.entry.file}' "
                        "must be editable for a Python-kernel task")
    return task


def _task_dirs(root: Path) -> Iterable[Path]:
    if (root / "task.yaml").is_file():
        yield root
        return
    for task_yaml in sorted(root.rglob("task.yaml")):
        if "solution" in task_yaml.relative_to(root).parts[:-1]:
            continue
        yield task_yaml.parent


def discover_tasks(extra_dirs: Sequence[Path] = (), include_bundled: bool = True) -> list[Task]:
    """All tasks of the bundled suites and of `extra_dirs`, sorted by id; ids must be unique."""
    roots = ([BUNDLED_SUITES] if include_bundled else []) + [Path(d) for d in extra_dirs]
    tasks: dict[str, Task] = {}
    for root in roots:
        if not root.is_dir():
            raise AkaError(f"tasks dir {root}: not a folder", "pass an existing folder")
        for task_dir in _task_dirs(root):
            task = load_task(task_dir)
            if task.id in tasks:
                raise TaskError(f"{task_dir}/task.yaml: task id '{task.id}' is also defined in "
                                f"{tasks[task.id].root}", "task ids must be unique")
            tasks[task.id] = task
    return [tasks[k] for k in sorted(tasks)]


def find_task(task_id: str, extra_dirs: Sequence[Path] = ()) -> Task:
    tasks = {t.id: t for t in discover_tasks(extra_dirs)}
    if task_id in tasks:
        return tasks[task_id]
    close = [t for t in tasks if task_id in t or t.endswith("/" + task_id)]
    hint = f"did you mean {', '.join(close[:3])}?" if close else "list them with `aka tasks list`"
    raise AkaError(f"unknown task '{task_id}'", hint)


def select_tasks(selectors: Sequence[str], tasks: Sequence[Task]) -> list[Task]:
    """Tasks matching any selector: an id, a glob over ids, a category, a tag, 'all', or a
    named set shipped with the arena ('@arena-44': tasks/sets.py)."""
    from agentkernelarena.tasks.sets import SET_PREFIX, set_task_ids

    chosen: dict[str, Task] = {}
    by_id = {t.id: t for t in tasks}
    for selector in selectors:
        if selector.startswith(SET_PREFIX):
            for task_id in set_task_ids(selector, set(by_id)):
                chosen[task_id] = by_id[task_id]
            continue
        matched = [
            t for t in tasks
            if selector in (t.id, SUITE_ALL, t.category)
            or selector in t.tags
            or fnmatch.fnmatchcase(t.id, selector)
        ]
        if not matched:
            known = ", ".join(sorted({t.category for t in tasks} & set(CATEGORIES)))
            raise AkaError(f"task selector '{selector}' matches no task",
                           f"use an id, a glob like 'triton2triton/*', a category ({known}), "
                           "a tag, 'all', or a task set like '@smoke' (`aka tasks sets`)")
        for task in matched:
            chosen[task.id] = task
    return [chosen[k] for k in sorted(chosen)]
