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

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agentkernelarena.bwrap import (
    ETC_ENTRIES,
    GPU_DEVICES,
    TOOLCHAIN_DIRS,
    SandboxStatus,
    arena_paths,
    bwrap_status,
    install_paths,
    python_paths,
    root_fs,
    under,
)

__all__ = ["Sandbox", "SandboxStatus", "bwrap_status", "install_paths"]


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
                *root_fs()]
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
        read = {p for p in read if not under(p, Path("/usr")) and p != Path("/")}
        # Masks only where a read-only bind would expose an arena path (its package, the task,
        # the run's other trials); ordered with the binds by depth, so a mask hides what lies
        # below it and a bind made deeper (a CLI inside a masked tree) still shows.
        masks = set()
        for hidden in [*arena_paths(), *self.hidden]:
            hidden = hidden.resolve()
            if hidden.exists() and any(under(hidden, p) for p in [*read, Path("/usr")]):
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
