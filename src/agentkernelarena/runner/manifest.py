"""The run manifest: what produced a run's results (versions, hardware, git revisions, config).

A result is only worth keeping if it can be traced back to the code, the tasks and the machine
that produced it; the manifest records all three once per run, plus one entry per session
(start, resume) so that a run resumed on another machine says so.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform as host_platform
import socket
import subprocess
import sys
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Any

import agentkernelarena
from agentkernelarena.errors import AkaError
from agentkernelarena.runner.record import write_json_atomic
from agentkernelarena.tasks.spec import Task

MANIFEST = "manifest.json"
SCHEMA = 1
KIND = "aka-run"
_SKIP_PARTS = {"__pycache__", ".aka_build", ".git"}


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def versions() -> dict[str, Any]:
    out: dict[str, Any] = {"arena": agentkernelarena.__version__,
                           "python": sys.version.split()[0]}
    for module in ("torch", "triton"):
        try:
            out[module] = __import__(module).__version__
        except Exception:  # not installed, or broken: say so instead of failing the run
            out[module] = None
    try:
        import torch

        out["cuda"] = torch.version.cuda
        out["hip"] = getattr(torch.version, "hip", None)
    except Exception:
        pass
    return out


def hardware(gpu_names: list[str]) -> dict[str, Any]:
    memory_gb = None
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        memory_gb = round(pages * page_size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    cpu = host_platform.processor() or host_platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"host": socket.gethostname(), "os": host_platform.platform(), "cpu": cpu,
            "cpu_count": os.cpu_count(), "memory_gb": memory_gb, "gpu_count": len(gpu_names),
            "gpus": gpu_names}


@cache
def git_revision(path: Path) -> dict[str, Any] | None:
    """{repo, revision, dirty} of the git checkout holding `path`, or None outside one."""
    folder = path if path.is_dir() else path.parent
    try:
        def git(*args: str) -> str:
            return subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                                  text=True, timeout=10, check=True).stdout.strip()

        top = git("rev-parse", "--show-toplevel")
        revision = git("rev-parse", "HEAD")
        dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return None
    return {"repo": top, "revision": revision, "dirty": dirty}


def task_hash(task: Task) -> str:
    """A digest of a task folder's files (solution included): tells a changed task on resume."""
    digest = hashlib.sha256()
    for path in sorted(task.root.rglob("*")):
        rel = path.relative_to(task.root)
        if path.is_dir() or set(rel.parts) & _SKIP_PARTS or path.suffix == ".pyc":
            continue
        digest.update(rel.as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def task_suites(tasks: list[Task]) -> list[dict[str, Any]]:
    """The git checkouts the tasks come from, with the ids of their tasks."""
    suites: dict[str, dict[str, Any]] = {}
    for task in tasks:
        info = git_revision(task.root) or {"repo": None, "revision": None, "dirty": None}
        key = info["repo"] or str(task.root.parent.parent)
        entry = suites.setdefault(key, {**info, "path": key, "tasks": []})
        entry["tasks"].append(task.id)
    return list(suites.values())


def build_manifest(*, config: dict[str, Any], identity: dict[str, Any], run_seed: int,
                   plan: list[dict[str, Any]], tasks: list[Task], gpu_names: list[str],
                   platform: str, comparable: bool) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "kind": KIND,
        "created_at": now_iso(),
        "label": config.get("label"),
        "platform": platform,
        "comparable": comparable,
        "run_seed": run_seed,
        "identity": identity,
        "config": config,
        "versions": versions(),
        "hardware": hardware(gpu_names),
        "git": {"arena": git_revision(Path(agentkernelarena.__file__).resolve()),
                "tasks": task_suites(tasks)},
        "tasks": {t.id: {"root": str(t.root), "category": t.category, "hash": task_hash(t)}
                  for t in tasks},
        "plan": plan,
        "sessions": [],
    }


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    """The manifest of `run_dir`, None when there is none; AkaError when it is not one."""
    path = run_dir / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise AkaError(f"{path}: unreadable run manifest: {exc}",
                       "restore it, or start the run in a new folder") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != KIND:
        raise AkaError(f"{path}: not an aka run manifest")
    return manifest


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    write_json_atomic(run_dir / MANIFEST, manifest)
