"""Bubblewrap primitives shared by the two sandboxes: the agent's (workspace/sandbox.py) and
the evaluation workers' (evaluate/sandbox.py). At the bottom of the package so that neither
floor imports the other for them: whether bwrap works here, the read-only root every sandbox
starts from, and the paths a program and the arena's own code occupy.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import agentkernelarena

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
    argv = [exe, "--unshare-all", "--share-net", "--die-with-parent", *root_fs(), "--", "true"]
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


def root_fs() -> list[str]:
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


def under(path: Path, parent: Path) -> bool:
    try:
        path.relative_to(parent)
        return True
    except ValueError:
        return False
