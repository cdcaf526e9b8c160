"""The `upstream` field of a `repository` task: which release of which project, pinned.

A repository task optimizes a target inside a real kernel library. The library is named by an
exact release file and its sha256 (never a moving branch), so that every run of the task, now or
in a year, sees the same code; the file is fetched into a local cache (tasks/upstream_cache.py)
and never copied into this repository.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from agentkernelarena.errors import TaskError

_FIELDS = ("project", "version", "file", "sha256", "root", "packages", "functions", "tests",
           "url", "cpu_unsupported", "requires")
_RELEASE_FIELDS = ("project", "version", "file", "sha256", "root", "packages", "url")
_TEST_FIELDS = ("dir", "files", "run", "args", "device")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
# Where upstream tests can run: "cuda" tests need a GPU (most kernel libraries' tests do).
TEST_DEVICES = ("cuda", "any")


@dataclass(frozen=True)
class UpstreamTests:
    """The project's own tests of the target, from its source distribution.

    `files` (relative to `dir`) are copied beside the package, in the layout the project's
    pytest configuration expects; `run` are the pytest arguments that select the tests.
    """

    dir: str
    files: list[str]
    run: list[str]
    args: list[str] = field(default_factory=list)
    device: str = "cuda"


@dataclass(frozen=True)
class Requirement:
    """A pure-Python dependency of the upstream package (fla-core needs einops), pinned the same
    way: it is put beside the package in evaluations, never editable, never in workspaces."""

    project: str
    version: str
    file: str
    sha256: str
    root: str
    packages: list[str]
    url: str | None = None


@dataclass(frozen=True)
class Upstream:
    project: str  # the package index's project name, e.g. liger-kernel
    version: str
    file: str  # the release file's name on the index: an sdist (.tar.gz) or a wheel (.whl)
    sha256: str
    root: str  # folder inside the unpacked file that holds the import packages ("." in a wheel)
    packages: list[str]  # import packages copied into workspaces and evaluations
    functions: dict[str, list[str]]  # target file -> the functions the task is about
    tests: UpstreamTests | None = None
    url: str | None = None  # a direct download address; default: found on the package index
    # Why the pristine target cannot run under Triton's CPU interpreter (the library uses what
    # the interpreter lacks); such a task is evaluated on GPUs only, and its CPU check is static.
    cpu_unsupported: str | None = None
    requires: list[Requirement] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"project": self.project, "version": self.version, "file": self.file,
                "sha256": self.sha256, "packages": list(self.packages),
                "functions": {k: list(v) for k, v in self.functions.items()},
                "tests": list(self.tests.run) if self.tests else [],
                "cpu_unsupported": self.cpu_unsupported,
                "requires": [f"{r.project}=={r.version}" for r in self.requires]}


def _fail(where: Path, name: str, problem: str, hint: str | None = None) -> TaskError:
    return TaskError(f"{where}: field 'upstream.{name}': {problem}", hint)


def _relative(value: Any, where: Path, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(where, name, f"expected a relative path, got {value!r}")
    path = PurePosixPath(value)
    if path.is_absolute() or ".." in path.parts:
        raise _fail(where, name, f"expected a relative path inside the release, got {value!r}")
    return path.as_posix()


def _str_list(value: Any, where: Path, name: str, required: bool = True) -> list[str]:
    if value is None and not required:
        return []
    if not isinstance(value, list) or (required and not value) or not all(
            isinstance(v, str) and v for v in value):
        raise _fail(where, name, "expected a non-empty list of strings")
    return [str(v) for v in value]


def _parse_tests(raw: Any, where: Path) -> UpstreamTests | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _fail(where, "tests", "expected a mapping with 'dir', 'files' and 'run'")
    for key in raw:
        if key not in _TEST_FIELDS:
            raise _fail(where, f"tests.{key}", "unknown field", f"known: {', '.join(_TEST_FIELDS)}")
    device = raw.get("device", "cuda")
    if device not in TEST_DEVICES:
        raise _fail(where, "tests.device", f"unknown device {device!r}",
                    f"one of {', '.join(TEST_DEVICES)}")
    return UpstreamTests(
        dir=_relative(raw.get("dir"), where, "tests.dir"),
        files=[_relative(f, where, "tests.files") for f in
               _str_list(raw.get("files"), where, "tests.files")],
        run=_str_list(raw.get("run"), where, "tests.run"),
        args=_str_list(raw.get("args"), where, "tests.args", required=False),
        device=str(device))


def _release_fields(raw: dict[str, Any], where: Path, prefix: str) -> dict[str, Any]:
    """The fields that pin one release file, validated."""
    for key in ("project", "version", "file", "sha256"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise _fail(where, prefix + key, "missing or not a text",
                        "quote values YAML would read as numbers" if key in raw else None)
    version, file = str(raw["version"]), str(raw["file"])
    if version not in file or not file.endswith((".tar.gz", ".whl", ".zip")):
        raise _fail(where, prefix + "file", f"{file!r} is not a release file of version {version}",
                    "the exact file name on the package index, e.g. name-1.2.3.tar.gz")
    sha = str(raw["sha256"]).lower()
    if not _SHA256.match(sha):
        raise _fail(where, prefix + "sha256", "expected 64 hexadecimal digits")
    url = raw.get("url")
    if url is not None and (not isinstance(url, str) or not url.startswith(("https://",
                                                                            "file://"))):
        raise _fail(where, prefix + "url", "expected an https:// or file:// address")
    return {"project": str(raw["project"]), "version": version, "file": file, "sha256": sha,
            "root": _relative(raw.get("root", "."), where, prefix + "root"),
            "packages": _str_list(raw.get("packages"), where, prefix + "packages"), "url": url}


def _parse_requires(raw: Any, where: Path) -> list[Requirement]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(where, "requires", "expected a list of pinned releases")
    found = []
    for index, item in enumerate(raw):
        prefix = f"requires[{index}]."
        if not isinstance(item, dict):
            raise _fail(where, prefix[:-1], "expected a mapping (project, version, file, ...)")
        for key in item:
            if key not in _RELEASE_FIELDS:
                raise _fail(where, prefix + str(key), "unknown field",
                            f"known: {', '.join(_RELEASE_FIELDS)}")
        found.append(Requirement(**_release_fields(item, where, prefix)))
    return found


def parse_upstream(raw: Any, where: Path) -> Upstream:
    """Validate task.yaml's `upstream` mapping; errors name the field and what to write."""
    if not isinstance(raw, dict):
        raise TaskError(f"{where}: field 'upstream': expected a mapping (project, version, file, "
                        "sha256, root, packages, functions)", "see docs/task-format.md")
    for key in raw:
        if key not in _FIELDS:
            raise _fail(where, str(key), "unknown field", f"known: {', '.join(_FIELDS)}")
    release = _release_fields(raw, where, "")
    functions = raw.get("functions")
    if not isinstance(functions, dict) or not functions:
        raise _fail(where, "functions", "expected a mapping target file -> [function names]")
    targets = {_relative(k, where, "functions"): _str_list(v, where, f"functions.{k}")
               for k, v in functions.items()}
    cpu = raw.get("cpu_unsupported")
    if cpu is not None and (not isinstance(cpu, str) or not cpu.strip()):
        raise _fail(where, "cpu_unsupported", "expected the reason, as a text")
    return Upstream(**release, functions=targets, tests=_parse_tests(raw.get("tests"), where),
                    cpu_unsupported=cpu.strip() if cpu else None,
                    requires=_parse_requires(raw.get("requires"), where))


def check_editable(upstream: Upstream, editable: list[str], where: Path) -> None:
    """Editable files of a repository task are its targets: files inside the package."""
    outside = [p for p in editable if PurePosixPath(p).parts[0] not in upstream.packages]
    if outside:
        raise TaskError(f"{where}: field 'editable': {outside} are not inside the upstream "
                        f"package(s) {upstream.packages}",
                        "a repository task's editable files are its target files, e.g. "
                        f"{upstream.packages[0]}/ops/kernel.py")
    if set(upstream.functions) != set(editable):
        raise TaskError(f"{where}: field 'upstream.functions': must name the functions of "
                        f"each editable file, and only those (editable: {editable})")
