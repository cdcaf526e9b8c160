"""Pieces of the trial record: usage totals, the agent's patch, atomic writes.

The record is written once, atomically, when the trial ends: a reader (a resuming run, a
report) sees either no trial.json or a complete one, never half of one.
"""

from __future__ import annotations

import difflib
import json
import os
import secrets
from pathlib import Path
from typing import Any

from agentkernelarena.agents.base import AgentOutcome
from agentkernelarena.tasks.spec import Task


def usage_totals(outcomes: list[AgentOutcome]) -> dict[str, Any]:
    """Sums over the iterations; a field stays None when no iteration reported it."""

    def total(field: str) -> Any:
        values = [getattr(o, field) for o in outcomes if getattr(o, field) is not None]
        return sum(values) if values else None

    sources = {o.cost_source for o in outcomes if o.cost_usd is not None}
    cost = total("cost_usd")
    return {
        "turns": total("turns"),
        "tokens_in": total("tokens_in"),
        "tokens_out": total("tokens_out"),
        "tokens_cached": total("tokens_cached"),
        "cost_usd": round(cost, 6) if cost is not None else None,
        "cost_source": (sources.pop() if len(sources) == 1 else "mixed") if sources else None,
        "agent_wall_s": round(sum(o.wall_s for o in outcomes), 3),
    }


def workspace_patch(task: Task, workspace: Path) -> tuple[list[str], str]:
    """The editable files the agent changed, and a unified diff against the baseline."""
    changed, chunks = [], []
    for rel in task.editable:
        before_path, after_path = task.root / rel, workspace / rel
        before = before_path.read_text(errors="replace") if before_path.is_file() else ""
        if after_path.is_symlink() or not after_path.is_file():
            after = ""
        else:
            after = after_path.read_text(errors="replace")
        if before != after:
            changed.append(rel)
            chunks.extend(difflib.unified_diff(before.splitlines(keepends=True),
                                               after.splitlines(keepends=True),
                                               fromfile=f"a/{rel}", tofile=f"b/{rel}"))
    return changed, "".join(chunks)


def _create_temp(path: Path) -> tuple[int, str]:
    """A new file beside `path`, created with mode 0666 less the umask, as open() does (a
    mkstemp file would be 0600 whatever the umask, and results are meant to be shared: the
    records hold no secrets, agent settings name key variables, never keys)."""
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), str(tmp)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def write_json_atomic(path: Path, payload: Any) -> None:
    """`payload` as JSON at `path`, atomically (a temporary file renamed over it); the file's
    mode follows the umask."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create_temp(path)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(payload, fh, indent=2, default=str)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def missing_result(task: Task, platform: str, comparable: bool, reason: str) -> dict[str, Any]:
    """An evaluation record for a workspace that holds none of the editable files."""
    return {"task": task.id, "category": task.category, "platform": platform,
            "comparable": comparable, "verdict": "compile_error",
            "compiled": False, "correct": False, "speedup": None, "speedup_arith": None,
            "score": 0.0, "reasons": [reason], "configs": [],
            "held_out": {"evaluated": False, "correct": None, "speedup": None}}
