"""The pristine tree of a repository task: the task folder laid over the upstream package.

For every other task the task folder is the pristine tree. A repository task's folder holds only
the arena's files (task.yaml, the entry wrapper, the reference); its target files and everything
they import come from the verified upstream release in the cache. Workspaces, evaluation folders
and the upstream tests are built from this one view, so that "pristine" means the same thing in
each: the release as published, plus the arena's wrapper.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

from agentkernelarena.tasks.spec import Task

_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc")


def is_repository(task: Task) -> bool:
    return task.upstream is not None


def package_root(task: Task) -> Path:
    from agentkernelarena.tasks.upstream_cache import package_root as cached_root

    return cached_root(task)


def copy_packages(task: Task, dest: Path) -> None:
    """The upstream import packages and those of the releases they require, pristine, into
    `dest` (no-op for other tasks)."""
    if task.upstream is None:
        return
    from agentkernelarena.tasks.upstream_cache import requirement_roots

    for root, packages in [(package_root(task), task.upstream.packages),
                           *requirement_roots(task)]:
        for package in packages:
            source = root / package
            if source.is_dir():
                shutil.copytree(source, dest / package, ignore=_SKIP, dirs_exist_ok=True)
            else:  # a single-module distribution (a .py file)
                shutil.copyfile(source, dest / package)


def package_files(task: Task) -> Iterator[str]:
    """Relative paths of the upstream packages' files (what a workspace shows read-only)."""
    if task.upstream is None:
        return
    root = package_root(task)
    for package in task.upstream.packages:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path.relative_to(root).as_posix()


def pristine_path(task: Task, rel: str) -> Path:
    """Where the pristine version of `rel` lives: the task folder, else the upstream package."""
    local = task.root / rel
    if local.exists() or task.upstream is None:
        return local
    if rel.split("/", 1)[0] in task.upstream.packages:
        return package_root(task) / rel
    return local
