"""Named task sets shipped with the package: `--tasks @arena-44`, `aka tasks list --set smoke`.

A set is a YAML file in suites/sets/NAME.yaml with a `description`, where its tasks come from
(`source`, and `composition` where the set departs from its source) and an explicit list of
task ids. Explicit ids, not globs: an experiment's task list must not change because a suite
grew. A set that names a task which does not exist is an error naming it, never a smaller set.

Besides the files, growing suites: `@full` (every task) and one per category
(`@triton2triton`, ...). They change as tasks are added, by design: they are for covering the
arena (validation, CI), while an experiment to compare across versions names a file set.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from agentkernelarena.errors import AkaError

SETS_DIR = Path(__file__).resolve().parent.parent / "suites" / "sets"
SET_PREFIX = "@"


@dataclass(frozen=True)
class TaskSet:
    name: str
    description: str
    source: str
    composition: str | None
    task_ids: tuple[str, ...]
    path: Path

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "source": self.source,
                "composition": self.composition, "tasks": list(self.task_ids),
                "path": str(self.path)}


def set_names(sets_dir: Path = SETS_DIR) -> list[str]:
    return sorted(p.stem for p in sets_dir.glob("*.yaml")) if sets_dir.is_dir() else []


def _text(raw: dict[str, Any], key: str, path: Path, required: bool = True) -> str | None:
    value = raw.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise AkaError(f"task set {path}: field '{key}': expected text")
    return " ".join(value.split())


def load_set(name: str, sets_dir: Path = SETS_DIR) -> TaskSet:
    """The set NAME (with or without the leading '@'); an unknown one lists the known ones."""
    name = name.removeprefix(SET_PREFIX)
    path = sets_dir / f"{name}.yaml"
    if not path.is_file():
        known = ", ".join(SET_PREFIX + n for n in [*set_names(sets_dir), *growing_suites()])
        raise AkaError(f"unknown task set '{SET_PREFIX}{name}'",
                       f"the sets shipped with the arena: {known} (`aka tasks sets` lists them)")
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise AkaError(f"task set {path}: not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise AkaError(f"task set {path}: expected a mapping with description, source, tasks")
    unknown = set(raw) - {"description", "source", "composition", "tasks"}
    if unknown:
        raise AkaError(f"task set {path}: unknown field(s) {', '.join(sorted(unknown))}")
    ids = raw.get("tasks")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise AkaError(f"task set {path}: field 'tasks': expected a list of task ids")
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise AkaError(f"task set {path}: task(s) listed twice: {', '.join(twice)}")
    return TaskSet(name=name, description=_text(raw, "description", path) or "",
                   source=_text(raw, "source", path) or "",
                   composition=_text(raw, "composition", path, required=False),
                   task_ids=tuple(ids), path=path)


FULL_SUITE = "full"


def growing_suites() -> dict[str, str]:
    """The suites made from the tasks present, name -> what they hold."""
    from agentkernelarena.tasks.spec import CATEGORIES

    suites = {FULL_SUITE: "every task (bundled and --tasks-dir); grows with the arena"}
    suites.update({c: f"every {c} task; grows with the arena" for c in CATEGORIES})
    return suites


def set_task_ids(selector: str, known_ids: set[str], sets_dir: Path = SETS_DIR) -> list[str]:
    """The ids of the set a `@NAME` selector names; every one must be a known task."""
    name = selector.removeprefix(SET_PREFIX)
    if not (sets_dir / f"{name}.yaml").is_file() and name in growing_suites():
        return sorted(i for i in known_ids
                      if name == FULL_SUITE or i.split("/", 1)[0] == name)
    task_set = load_set(selector, sets_dir)
    missing = [i for i in task_set.task_ids if i not in known_ids]
    if missing:
        raise AkaError(f"task set '{SET_PREFIX}{task_set.name}' names task(s) that do not "
                       f"exist: {', '.join(missing)}",
                       f"fix {task_set.path}, or pass --tasks-dir with the folder that holds "
                       "them")
    return list(task_set.task_ids)
