"""The fresh evaluation directory: the pristine task, plus only the editable files of a solution.

Nothing else an agent left in its workspace is ever executed; what it changed besides the
editable files is listed (`ignored_files`) so that the report can show it.
"""

from __future__ import annotations

import ast
import filecmp
import shutil
from pathlib import Path

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks import repository
from agentkernelarena.tasks.spec import Task

# Never copied from a task folder: build products and the task's own solution.
_SKIP = shutil.ignore_patterns("solution", "__pycache__", ".aka_build", "*.pyc")
# Files the arena itself writes into a workspace; their presence is not a change.
WORKSPACE_FILES = {"TASK.md", "check", "check.py", "configs.yaml", ".aka-workspace.json"}
_IGNORED_PARTS = {"__pycache__", ".aka_build", ".git"}


def copy_pristine(task: Task, dest: Path, packages: bool = True) -> None:
    """The task folder; for a repository task laid over its upstream package (`packages`)."""
    if packages:
        repository.copy_packages(task, dest)
    shutil.copytree(task.root, dest, ignore=_SKIP, symlinks=False, dirs_exist_ok=True)


def missing_editable(task: Task, solution_dir: Path) -> list[str]:
    return [rel for rel in task.editable if not (solution_dir / rel).is_file()]


# Larger files are left to the worker's compile, which runs under a deadline: the parse here
# has none.
PARSE_LIMIT_BYTES = 1 << 20


def syntax_errors(task: Task, solution_dir: Path) -> list[str]:
    """The editable Python files that do not parse, each with the parser's message.

    Parsing runs none of the candidate's code, so the supervisor can do it before any worker
    starts: a candidate that cannot even be parsed costs milliseconds, not a worker start-up
    (what an RL trainer's batch is full of). A file built to exhaust the parser (its memory or
    its recursion limit) is such a file too: Python could not import it either."""
    found = []
    for rel in task.editable:
        path = solution_dir / rel
        if path.suffix != ".py" or not path.is_file() \
                or path.stat().st_size > PARSE_LIMIT_BYTES:
            continue
        try:
            ast.parse(path.read_bytes(), filename=rel)
        except SyntaxError as exc:
            where = f"{rel}:{exc.lineno}" if exc.lineno else rel
            found.append(f"{where}: {type(exc).__name__}: {exc.msg}")
        except ValueError as exc:  # a NUL byte in the source (Python < 3.12)
            found.append(f"{rel}: ValueError: {exc}")
        except (RecursionError, MemoryError) as exc:
            found.append(f"{rel}: {type(exc).__name__}: Python's parser gave up on this file")
    return found


def check_solution_dir(task: Task, solution_dir: Path) -> None:
    """A folder that holds none of the editable files is a user error, not a verdict."""
    if not solution_dir.is_dir():
        raise AkaError(f"solution folder {solution_dir} does not exist")
    if len(missing_editable(task, solution_dir)) == len(task.editable):
        raise AkaError(
            f"solution folder {solution_dir} holds none of the task's editable files "
            f"({', '.join(task.editable)})",
            f"put your version of {task.editable[0]} there, or pass the folder that holds it",
        )


def judge_only_files(task: Task) -> set[str]:
    """Files of the task the candidate's process never gets: task.yaml (every split's
    configurations, held-out ones included), the reference and inputs modules, and a separate
    baseline (the judge runs those; the candidate must not call them)."""
    files = {"task.yaml", task.reference.file, task.inputs.file}
    if task.baseline is not None and task.baseline.file != task.entry.file:
        files.add(task.baseline.file)
    return files - set(task.editable) - {task.entry.file}


def copy_inputs(task: Task, dest: Path) -> None:
    """The task's files without task.yaml, for the runner to import the inputs function from
    (the agent's workspace holds the same files)."""
    copy_pristine(task, dest, packages=False)
    (dest / "task.yaml").unlink(missing_ok=True)


def build_candidate(task: Task, solution_dir: Path, dest: Path) -> None:
    """`dest` = pristine task less the judge's files, with the solution's editable files laid
    over it."""
    copy_pristine(task, dest)
    for rel in judge_only_files(task):
        (dest / rel).unlink(missing_ok=True)
    for rel in task.editable:
        source = solution_dir / rel
        if source.is_file() and not source.is_symlink():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest / rel)
        elif source.is_symlink():
            # A link could point at the harness or the reference: take nothing through it.
            (dest / rel).unlink(missing_ok=True)


def ignored_changes(task: Task, solution_dir: Path) -> list[str]:
    """Files in the solution folder, besides the editable ones, that differ from the task's."""
    changed: list[str] = []
    editable = set(task.editable)
    for path in sorted(solution_dir.rglob("*")):
        rel = path.relative_to(solution_dir)
        if path.is_dir() or set(rel.parts) & _IGNORED_PARTS or rel.as_posix() in editable:
            continue
        if rel.as_posix() in WORKSPACE_FILES or rel.parts[0] == "solution":
            continue
        pristine = repository.pristine_path(task, rel.as_posix())
        if not pristine.is_file() or not filecmp.cmp(path, pristine, shallow=False):
            changed.append(rel.as_posix())
    return changed
