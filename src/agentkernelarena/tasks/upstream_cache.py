"""The local cache of upstream releases: fetched once with network, used offline afterwards.

Layout under `$AKA_CACHE_DIR/upstream` (the same base as the native build cache,
cache_dir.py's `cache_base`): the release file as published, and beside it
`<file>.d/`, its unpacked contents with a marker holding the sha256 it was unpacked from. A GPU
machine without network gets the cache as a carried folder (`AKA_CACHE_DIR=/path/to/it`).

Every use verifies the release file's sha256 against task.yaml before it unpacks, so a task
always sees exactly the pinned code; a tampered or truncated file is an error, not a result.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from agentkernelarena.cache_dir import cache_base
from agentkernelarena.errors import AkaError
from agentkernelarena.tasks import package_index
from agentkernelarena.tasks.spec import Task
from agentkernelarena.tasks.upstream import Requirement, Upstream

MARKER = ".aka-upstream.json"
Release = Upstream | Requirement  # what pins one release file


def cache_root() -> Path:
    return cache_base() / "upstream"


def archive_path(upstream: Release) -> Path:
    return cache_root() / upstream.file


def unpacked_path(upstream: Release) -> Path:
    return cache_root() / f"{upstream.file}.d"


def _upstream(task: Task) -> Upstream:
    if task.upstream is None:
        raise AkaError(f"task {task.id} is not a repository task (no 'upstream' field)")
    return task.upstream


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _fetch_hint(task: Task) -> str:
    return (f"run `aka tasks fetch {task.id}` on a machine that reaches the package index, then "
            f"carry {cache_root().parent} here and set AKA_CACHE_DIR to it")


def _download(task: Task, upstream: Release, dest: Path) -> None:
    try:
        url = upstream.url or package_index.release_url(upstream.project, upstream.file)
        print(f"fetching {upstream.file} for {task.id} from {url}", file=sys.stderr)
        package_index.download(url, dest)
    except (OSError, ValueError) as exc:
        raise AkaError(f"task {task.id}: {upstream.file} is not in the cache ({cache_root()}) "
                       f"and could not be downloaded: {exc}", _fetch_hint(task)) from None


def _check_sha(task: Task, upstream: Release, path: Path) -> None:
    got = sha256_of(path)
    if got != upstream.sha256:
        raise AkaError(f"task {task.id}: checksum mismatch for {upstream.file}: sha256 {got}, "
                       f"task.yaml pins {upstream.sha256}",
                       f"delete {path} and run `aka tasks fetch {task.id}` again; if the index "
                       "serves this file, the pin in task.yaml is wrong (fix it only from a "
                       "release you have verified)")


def _safe_members(names: list[str], archive: Path) -> None:
    for name in names:
        parts = PurePosixPath(name).parts
        if PurePosixPath(name).is_absolute() or ".." in parts:
            raise AkaError(f"{archive}: member {name!r} would unpack outside its folder",
                           "the release file is not a plain distribution; check the pin")


def _unpack(archive: Path, dest: Path) -> None:
    if archive.name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as zipped:
            _safe_members(zipped.namelist(), archive)
            zipped.extractall(dest)
        return
    with tarfile.open(archive) as tar:
        _safe_members(tar.getnames(), archive)
        members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, members=members, filter="data")
        else:  # Python < 3.10.12: members already restricted to plain files and folders
            tar.extractall(dest, members=members)  # noqa: S202


def _is_unpacked(upstream: Release) -> bool:
    marker = unpacked_path(upstream) / MARKER
    try:
        return json.loads(marker.read_text()).get("sha256") == upstream.sha256
    except (OSError, ValueError):
        return False


def fetch(task: Task) -> Path:
    """Download (if needed), verify and unpack the task's release and the releases it requires;
    returns the release's unpacked folder.

    Without network this succeeds when the cache already holds the verified releases."""
    upstream = _upstream(task)
    for requirement in upstream.requires:
        _fetch_release(task, requirement)
    return _fetch_release(task, upstream)


def _fetch_release(task: Task, upstream: Release) -> Path:
    if _is_unpacked(upstream):
        return unpacked_path(upstream)
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    archive = archive_path(upstream)
    if not archive.is_file():
        partial = Path(tempfile.mkstemp(prefix=upstream.file, suffix=".part", dir=root)[1])
        try:
            _download(task, upstream, partial)
            _check_sha(task, upstream, partial)
            os.replace(partial, archive)
        finally:
            partial.unlink(missing_ok=True)
    _check_sha(task, upstream, archive)
    scratch = Path(tempfile.mkdtemp(prefix=f"{upstream.file}.", suffix=".tmp", dir=root))
    try:
        _unpack(archive, scratch)
        (scratch / MARKER).write_text(json.dumps({"file": upstream.file,
                                                  "sha256": upstream.sha256}))
        final = unpacked_path(upstream)
        if final.exists():  # an older unpacking without a valid marker
            shutil.rmtree(final)
        os.replace(scratch, final)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return unpacked_path(upstream)


def package_root(task: Task) -> Path:
    """The folder holding the task's import packages, pristine, from the verified cache;
    fetched first when missing (an error naming the task and what to do without network)."""
    upstream = _upstream(task)
    root = fetch(task) / upstream.root
    missing = [p for p in upstream.packages if not (root / p).is_dir()]
    if missing:
        raise AkaError(f"task {task.id}: {upstream.file} holds no package {missing} under "
                       f"'{upstream.root}'", "fix upstream.root or upstream.packages in task.yaml")
    return root


def requirement_roots(task: Task) -> list[tuple[Path, list[str]]]:
    """(folder, import packages) of each release the package requires, from the cache."""
    upstream = _upstream(task)
    fetch(task)
    found = []
    for requirement in upstream.requires:
        root = unpacked_path(requirement) / requirement.root
        missing = [p for p in requirement.packages if not (root / p).exists()]
        if missing:
            raise AkaError(f"task {task.id}: {requirement.file} holds no package {missing} "
                           f"under '{requirement.root}'", "fix upstream.requires in task.yaml")
        found.append((root, list(requirement.packages)))
    return found


def _defined_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return {node.name for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def check_targets(task: Task) -> None:
    """Every target file, and every function named in it, exists in the pinned release."""
    upstream = _upstream(task)
    root = package_root(task)
    for rel, functions in upstream.functions.items():
        path = root / rel
        if not path.is_file():
            raise AkaError(f"task {task.id}: target file {rel} does not exist in "
                           f"{upstream.project} {upstream.version}",
                           "fix 'editable' and 'upstream.functions' in task.yaml to name a file "
                           "of this version (or pin the version that has it)")
        missing = sorted(set(functions) - _defined_names(path))
        if missing:
            raise AkaError(f"task {task.id}: {rel} of {upstream.project} {upstream.version} "
                           f"defines no {', '.join(missing)}",
                           "fix 'upstream.functions' in task.yaml")


def ready(task: Task, platform: str) -> None:
    """Before a run: a repository task's release is in the cache (fetched now if it can be),
    and the platform can evaluate it; raises the one-line error otherwise."""
    if task.upstream is None:
        return
    if platform == "cpu" and task.upstream.cpu_unsupported:
        raise AkaError(f"task {task.id} cannot be evaluated on the CPU platform: "
                       f"{task.upstream.cpu_unsupported}", "run it on a GPU, or leave it out")
    fetch(task)
