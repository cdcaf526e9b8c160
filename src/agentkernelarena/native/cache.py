"""A content-addressed cache of native build results, shared by all evaluations on a machine.

Every evaluation runs in a fresh directory, so without a shared cache the same unchanged
baseline would be rebuilt for every trial (a torch extension takes a minute or more). The key
is a sha256 over everything that changes the binary: the sources and the local headers they
include, the flags, the compiler's version, torch, Python, the platform and the arch. An entry
is a directory `<key>/` holding the artifacts and `meta.json`; it is written under a temporary
name and renamed into place, so a reader sees a complete entry or none, and two processes that
build the same thing at once both succeed (the second rename loses and is discarded).

Inside the evaluation sandbox the shared cache is read-only (a candidate must not plant a
binary that a later trial would load); `$AKA_CACHE_WRITE_DIR` then names a private folder that
takes new entries and is searched first. Without it, the shared cache is read and written.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import uuid
from collections.abc import Iterable
from pathlib import Path

from agentkernelarena.cache_dir import cache_base

__all__ = ["cache_root", "compute_key", "install", "local_includes", "lookup", "store",
           "write_root"]

_QUOTE_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def cache_root() -> Path:
    """`$AKA_CACHE_DIR/native`, default `~/.cache/agentkernelarena/native`."""
    return cache_base() / "native"


def write_root() -> Path | None:
    """`$AKA_CACHE_WRITE_DIR/native`: where new entries go when the shared cache is read-only."""
    base = os.environ.get("AKA_CACHE_WRITE_DIR")
    return Path(base).expanduser() / "native" if base else None


def local_includes(sources: Iterable[Path], root: Path) -> list[Path]:
    """Headers under `root` reached through `#include "..."` from `sources`, recursively.

    They change the binary as much as the sources do, so they are hashed (and, for HIP on
    NVIDIA, translated) with them. System and torch headers are covered by the versions.
    """
    root = root.resolve()
    seen: set[Path] = set()
    found: list[Path] = []
    todo = [Path(s).resolve() for s in sources]
    while todo:
        current = todo.pop()
        try:
            text = current.read_text(errors="replace")
        except OSError:
            continue
        for name in _QUOTE_INCLUDE.findall(text):
            for base in (current.parent, root):
                cand = (base / name).resolve()
                if cand.is_file() and cand.is_relative_to(root):
                    if cand not in seen:
                        seen.add(cand)
                        found.append(cand)
                        todo.append(cand)
                    break
    return sorted(found)


def compute_key(parts: dict[str, object], files: Iterable[Path], root: Path) -> str:
    """sha256 of `parts` (JSON) and of each file's path relative to `root` and its bytes."""
    digest = hashlib.sha256()
    digest.update(json.dumps(parts, sort_keys=True, default=str).encode())
    for path in files:
        digest.update(b"\0file\0" + path.resolve().relative_to(root.resolve()).as_posix().encode())
        digest.update(b"\0" + hashlib.sha256(path.read_bytes()).hexdigest().encode())
    return digest.hexdigest()


def _complete(entry: Path) -> Path | None:
    return entry if (entry / "meta.json").is_file() else None


def lookup(key: str) -> Path | None:
    """The entry for `key` in the write dir, else the shared cache; None without meta.json."""
    roots = [root for root in (write_root(), cache_root()) if root is not None]
    return next((e for r in roots if (e := _complete(r / key)) is not None), None)


def store(key: str, artifacts: Iterable[Path], meta: dict[str, object]) -> Path | None:
    """Copy `artifacts` into the entry for `key` atomically; None if the cache is not writable.

    A cache that cannot be written (read-only home, full disk) must not fail a build that
    succeeded, so errors here only mean "not cached".
    """
    root = write_root() or cache_root()
    final = root / key
    tmp = root / f".tmp-{key[:16]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        tmp.mkdir(parents=True)
        for artifact in artifacts:
            shutil.copy2(artifact, tmp / artifact.name)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True, default=str))
        try:
            os.rename(tmp, final)
        except OSError:
            if _complete(final) is None:  # not a lost race: a broken leftover entry; replace it
                shutil.rmtree(final, ignore_errors=True)
                os.rename(tmp, final)
    except OSError:
        return lookup(key)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final


def install(src: Path, dest: Path) -> None:
    """Copy a cached file into a build directory without disturbing a process that maps it.

    Copy to a temporary name then rename: a running process that loaded the old file keeps
    its inode; nobody ever sees a half-written shared library.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    try:
        shutil.copy2(src, tmp)
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
