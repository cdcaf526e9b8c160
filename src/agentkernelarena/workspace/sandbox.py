"""Running an agent under bubblewrap, so that the workspace is all of the arena it can see.

DESIGN.md §4: the agent sees its workspace (writable), toolchains, Python and its own CLI and
config (read-only), and nothing else of the arena: no task suites (held-out configurations), no
harness source, no other trials or runs. Its network is shared (its model API is outside), its
local check reaches the arena through a unix socket bound in, and the home folder is an empty
tmpfs (CLIs write their state there; the user's real home stays out of reach).

Every path is bound at the same path it has outside, so transcripts, prompts and error messages
name real files. Binds are ordered parents first, so a tmpfs (/tmp, $HOME) never hides a bind
made below it, and the arena's own package is masked last wherever a bind would expose it.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import agentkernelarena

if TYPE_CHECKING:
    from agentkernelarena.agents.base import AgentRun
    from agentkernelarena.agents.process import Command, ProcessResult

# /etc entries programs need for DNS, TLS, users, shared libraries and alternatives; not /etc.
ETC_ENTRIES = ("resolv.conf", "hosts", "host.conf", "nsswitch.conf", "gai.conf", "ssl",
               "ca-certificates", "ca-certificates.conf", "pki", "passwd", "group", "localtime",
               "timezone", "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
               "os-release", "mime.types")
GPU_DEVICES = ("/dev/nvidia*", "/dev/kfd", "/dev/dri")
TOOLCHAIN_DIRS = ("/opt/rocm*", "/opt/nvidia", "/opt/cuda*")


@dataclass
class SandboxStatus:
    available: bool
    reason: str
    executable: str | None = None


@functools.cache
def bwrap_status() -> SandboxStatus:
    """Whether bubblewrap is installed and can make a sandbox here (user namespaces, root)."""
    if os.environ.get("AKA_NO_SANDBOX") == "1":
        return SandboxStatus(False, "disabled by AKA_NO_SANDBOX=1")
    exe = shutil.which("bwrap")
    if exe is None:
        return SandboxStatus(False, "bubblewrap (bwrap) is not installed; "
                             "install it with `apt-get install -y bubblewrap`")
    argv = [exe, "--unshare-all", "--share-net", "--die-with-parent", *_root_fs(), "--", "true"]
    try:
        probe = subprocess.run(argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        return SandboxStatus(False, f"bwrap failed to start: {exc}", exe)
    if probe.returncode != 0:
        detail = probe.stderr.decode(errors="replace").strip().splitlines()
        return SandboxStatus(False, "bwrap cannot create a sandbox here ("
                             + (detail[-1] if detail else f"exit {probe.returncode}")
                             + "); user namespaces may be disabled", exe)
    return SandboxStatus(True, "bubblewrap", exe)


def _root_fs() -> list[str]:
    """/usr read-only, the merged-/usr links, /proc, /dev and an empty /tmp."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        top = Path("/") / name
        if top.is_symlink():
            args += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            args += ["--ro-bind", str(top), str(top)]
    return args + ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]


def install_paths(executable: str | Path) -> list[Path]:
    """What must be readable to run `executable`: its npm tree, or its install folder."""
    real = Path(executable).resolve()
    parts = real.parts
    if "node_modules" in parts:
        # The nearest node_modules holds the package and its platform-binary siblings.
        index = len(parts) - 1 - parts[::-1].index("node_modules")
        return [Path(*parts[: index + 1])]
    folder = real.parent
    return [folder.parent if folder.name == "bin" else folder]


def python_paths() -> list[Path]:
    """The interpreter the arena runs (a venv and the Python it was made from)."""
    paths = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(),
             Path(sys.executable).resolve().parent.parent}
    return sorted(paths)


def arena_paths() -> list[Path]:
    """The arena's own code and bundled suites: masked wherever a bind would show them."""
    package = Path(agentkernelarena.__file__).resolve().parent
    return [package]


def _under(path: Path, parent: Path) -> bool:
    try:
        path.relative_to(parent)
        return True
    except ValueError:
        return False


@dataclass
class Sandbox:
    """A bubblewrap sandbox for one trial: `wrap(argv)` gives the argv to run instead."""

    workspace: Path
    ro_paths: list[Path] = field(default_factory=list)
    rw_paths: list[Path] = field(default_factory=list)
    hidden: list[Path] = field(default_factory=list)
    home: Path = field(default_factory=lambda: Path(os.path.expanduser("~")))
    bwrap: str = "bwrap"

    def wrap(self, argv: Sequence[str], ro: Sequence[Path] = (),
             rw: Sequence[Path] = ()) -> list[str]:
        workspace = self.workspace.resolve()
        args = [self.bwrap, "--unshare-all", "--share-net", "--die-with-parent", "--new-session",
                *_root_fs()]
        for entry in ETC_ENTRIES:
            path = Path("/etc") / entry
            if path.exists():
                args += ["--ro-bind", str(path), str(path)]
        for pattern in GPU_DEVICES:
            for dev in sorted(glob.glob(pattern)):
                args += ["--dev-bind", dev, dev]
        if any(glob.glob(p) for p in GPU_DEVICES):
            args += ["--ro-bind", "/sys", "/sys"]
        if str(self.home) not in ("/", "/tmp"):
            args += ["--tmpfs", str(self.home)]
        toolchains = [Path(p) for pattern in TOOLCHAIN_DIRS for p in sorted(glob.glob(pattern))]
        read = {p.resolve() for p in [*python_paths(), *toolchains, *self.ro_paths, *ro]
                if p.exists()}
        read = {p for p in read if not _under(p, Path("/usr")) and p != Path("/")}
        # Masks only where a read-only bind would expose an arena path (its package, the task,
        # the run's other trials); ordered with the binds by depth, so a mask hides what lies
        # below it and a bind made deeper (a CLI inside a masked tree) still shows.
        masks = set()
        for hidden in [*arena_paths(), *self.hidden]:
            hidden = hidden.resolve()
            if hidden.exists() and any(_under(hidden, p) for p in [*read, Path("/usr")]):
                masks.add(hidden)
        ops = [(p, 0) for p in read] + [(m, 1) for m in masks]
        for path, kind in sorted(ops, key=lambda op: (len(op[0].parts), op[1])):
            args += ["--ro-bind", str(path), str(path)] if kind == 0 else ["--tmpfs", str(path)]
        # Last, the writable binds: the workspace always shows, whatever was masked above it.
        write = {workspace, *(p.resolve() for p in [*self.rw_paths, *rw] if p.exists())}
        for path in sorted(write, key=lambda p: len(p.parts)):
            args += ["--bind", str(path), str(path)]
        # The sandbox's own root (where bwrap made the mount points) becomes read-only: writes
        # outside the workspace fail, except to the private tmpfs /tmp and $HOME.
        args += ["--remount-ro", "/", "--chdir", str(workspace), "--"]
        return args + list(argv)

    def launcher(self, command: Command, run: AgentRun) -> ProcessResult:
        """An AgentRun launcher: the command, sandboxed, under the run's deadline."""
        from agentkernelarena.agents.process import agent_env, run_process

        env = agent_env({**run.env, **command.env})
        env["HOME"] = str(self.home)
        env["TMPDIR"] = "/tmp"  # the host's TMPDIR may not exist inside
        argv = self.wrap(command.argv, ro=command.ro_paths, rw=command.rw_paths)
        result = run_process(argv, cwd=run.workspace, env=env, deadline=run.deadline,
                             stdout_path=run.out_dir / command.transcript_name,
                             stderr_path=run.out_dir / "stderr.log", watch=command.watch)
        result.sandboxed = True
        return result
