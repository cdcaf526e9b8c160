"""The bubblewrap sandbox that the evaluation runner (candidate code, and every compiler it
starts) lives in. DESIGN.md §5 and §7: no network, a scrubbed environment, writable only its
evaluation folder; the arena's task suites, run folders, other tasks, the home folder and the
shared caches out of reach or read-only.

The root is an allow-list, as for agents (workspace/sandbox.py; both build on bwrap.py), not
`--ro-bind / /`: /usr (which holds the GPU driver libraries on a GPU box,
/usr/lib/x86_64-linux-gnu and /usr/local/nvidia, and /usr/local/cuda), the /etc entries the
loader and Python need, the toolchains in /opt and those named by
CUDA_HOME/ROCM_PATH/LD_LIBRARY_PATH, the interpreter, the arena's source root, and nothing
else. Binding all of `/` would show every file the evaluating user can read (other runs, /work,
/srv, a home outside $HOME) unless each one were listed in `hidden`; with an allow-list a
forgotten folder is absent rather than exposed.

bwrap run as root keeps every capability unless told otherwise, and with CAP_SYS_ADMIN the
runner could `mount -o remount,rw` any bind: so capabilities are dropped (`--cap-drop ALL`), the
sandbox has its own user namespace and may not make another (`--disable-userns`). Its own pid
namespace means that when the runner (under bwrap's pid 1) ends, everything it started ends.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import agentkernelarena
from agentkernelarena.bwrap import (
    ETC_ENTRIES,
    GPU_DEVICES,
    TOOLCHAIN_DIRS,
    SandboxStatus,
    bwrap_status,
    python_paths,
    root_fs,
    under,
)
from agentkernelarena.cache_dir import cache_base

__all__ = ["SRC_ROOT", "WorkerSandbox", "worker_env",
           "worker_sandbox_status"]

PACKAGE = Path(agentkernelarena.__file__).resolve().parent
SRC_ROOT = PACKAGE.parent  # on PYTHONPATH inside: `python -m agentkernelarena.evaluate.runner`
SUITES = PACKAGE / "suites"  # bundled tasks hold held-out configurations
GPU_VARS = ("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
TOOLCHAIN_VARS = ("CUDA_HOME", "CUDA_PATH", "ROCM_PATH", "HIP_PATH", "LD_LIBRARY_PATH", "CC",
                  "CXX")
KEPT_VARS = ("LANG", "LC_ALL", *GPU_VARS, *TOOLCHAIN_VARS, "OMP_NUM_THREADS", "MKL_NUM_THREADS")
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def sandbox_home() -> Path:
    """This process's home: masked by an empty tmpfs inside, and HOME there."""
    return Path(os.path.expanduser("~"))


def _env_toolchains() -> list[Path]:
    """Toolchain folders the environment names (a CUDA outside /usr, a conda lib dir)."""
    paths = [os.environ.get(v, "") for v in ("CUDA_HOME", "CUDA_PATH", "ROCM_PATH", "HIP_PATH")]
    paths += os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep)
    # Compilers Triton and the native builds call (a GPU image may keep gcc in /opt/gcc): the
    # install folder of each, found through CC/CXX or PATH.
    compilers = [os.environ.get(v, "") for v in ("CC", "CXX")]
    compilers += [shutil.which(name) or "" for name in ("gcc", "cc", "g++", "c++", "nvcc",
                                                          "hipcc", "ptxas", "ninja")]
    for compiler in compilers:
        if compiler and os.path.isabs(compiler):
            folder = Path(compiler).resolve().parent
            paths.append(str(folder.parent if folder.name == "bin" else folder))
    return [Path(p) for p in paths if p and os.path.isabs(p) and p != "/"]


@functools.cache
def _has_option(bwrap: str, option: str) -> bool:
    try:
        text = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return option in text.stdout + text.stderr


@dataclass
class WorkerSandbox:
    """A bubblewrap sandbox for one evaluation's runner: `wrap(argv)` gives the argv to run."""

    eval_dir: Path
    device: str  # "cpu" | "cuda" (also ROCm's torch.cuda): GPU nodes are bound only for a GPU
    hidden: list[Path] = field(default_factory=list)
    readable: list[Path] = field(default_factory=list)
    home: Path = field(default_factory=sandbox_home)
    cache_dir: Path = field(default_factory=cache_base)
    bwrap: str = "bwrap"

    def wrap(self, argv: Sequence[str]) -> list[str]:
        eval_dir = self.eval_dir.resolve()
        args = [self.bwrap, "--unshare-all", "--unshare-user", "--cap-drop", "ALL",
                "--die-with-parent", "--new-session"]
        if _has_option(self.bwrap, "--disable-userns"):  # bwrap >= 0.8
            args.append("--disable-userns")
        args += [*root_fs(), "--tmpfs", "/dev/shm"]
        for entry in ETC_ENTRIES:
            path = Path("/etc") / entry
            if path.exists():
                args += ["--ro-bind", str(path), str(path)]
        if self.device != "cpu":
            nodes = sorted(dev for pattern in GPU_DEVICES for dev in glob.glob(pattern))
            for dev in nodes:
                args += ["--dev-bind", dev, dev]
            if nodes:  # the drivers read their topology there (ROCm's kfd, NVML)
                args += ["--ro-bind", "/sys", "/sys"]
        toolchains = [Path(p) for pattern in TOOLCHAIN_DIRS for p in sorted(glob.glob(pattern))]
        read = {p.resolve() for p in [*python_paths(), SRC_ROOT, *toolchains, *_env_toolchains(),
                                      *self.readable] if p.exists()}
        read = {p for p in read if not under(p, Path("/usr")) and p != Path("/")}
        if self.cache_dir.exists():  # bound after the home mask (deeper), so it shows, read-only
            read.add(self.cache_dir.resolve())
        shown = [*read, Path("/usr")]
        # Masks, where a read-only bind would expose them: the suites, the hidden folders, the
        # host's Triton cache. Empty, and read-only once every bind below them is made.
        host_triton = [Path(p) for p in [os.environ.get("TRITON_CACHE_DIR")] if p]
        masks = {p.resolve() for p in [SUITES, *self.hidden, *host_triton] if p.exists()}
        masks = {m for m in masks if any(under(m, p) for p in shown)}
        home = self.home.resolve() if str(self.home) not in ("/", "/tmp") else None
        ops = [(p, 0) for p in read] + [(m, 1) for m in masks] + ([(home, 1)] if home else [])
        # By depth, parents first (a bind at equal depth before a mask, so the mask wins): a
        # mask hides what lies below it, a bind made deeper (the venv under home) still shows.
        for path, kind in sorted(ops, key=lambda op: (len(op[0].parts), op[1])):
            args += ["--ro-bind", str(path), str(path)] if kind == 0 else ["--tmpfs", str(path)]
        # Last, the evaluation folder: it shows even under /tmp or a masked folder.
        args += ["--bind", str(eval_dir), str(eval_dir)]
        for mask in sorted(masks, key=lambda p: len(p.parts)):
            args += ["--remount-ro", str(mask)]  # not recursive: a bind below stays as it is
        # The sandbox's own root becomes read-only: writes outside eval_dir fail, except to the
        # private tmpfs /tmp, /dev/shm and the home mask.
        args += ["--remount-ro", "/", "--chdir", str(eval_dir), "--"]
        return args + list(argv)


def worker_env(base: Mapping[str, str], eval_dir: Path, device: str) -> dict[str, str]:
    """The runner's environment, built from nothing: no key, token or secret of `base` passes.

    Only what running and building kernels needs is carried; the caches that would let one
    evaluation reach the next point into `eval_dir` (the shared native cache is read-only).
    """
    eval_dir = Path(eval_dir).resolve()
    env = {"PATH": base.get("PATH") or DEFAULT_PATH}
    env.update({key: base[key] for key in KEPT_VARS if key in base})
    if device == "cpu" and "TRITON_INTERPRET" in base:
        env["TRITON_INTERPRET"] = base["TRITON_INTERPRET"]
    home = sandbox_home()
    env.update({
        "HOME": str(home) if str(home) not in ("/", "/tmp") else "/tmp",
        "TMPDIR": "/tmp",
        "PYTHONPATH": str(SRC_ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "TRITON_CACHE_DIR": str(eval_dir / ".triton-cache"),
        "TORCH_EXTENSIONS_DIR": str(eval_dir / ".torch-extensions"),
        "AKA_CACHE_DIR": str(cache_base(base)),
        "AKA_CACHE_WRITE_DIR": str(eval_dir / ".aka-cache"),
    })
    return env


_PROBE = """
import os, socket
assert os.getpid() < 10, f"pid {os.getpid()}: no pid namespace"
names = [n for _, n in socket.if_nameindex()]
assert names == ["lo"], f"network interfaces {names}: no network namespace"
caps = [ln for ln in open("/proc/self/status") if ln.startswith("CapEff")][0].split()[1]
assert int(caps, 16) == 0, f"capabilities {caps} kept"
try:
    open("/aka-probe", "w")
except OSError:
    print("aka-probe-ok")
else:
    raise AssertionError("the root is writable")
"""


@functools.cache
def worker_sandbox_status() -> SandboxStatus:
    """Whether the runner's sandbox (no network, own pid namespace, no capabilities) works here.

    Probed by running the real `wrap` once with this Python: it fails early, with a reason
    that says what to change, instead of every evaluation failing later.
    """
    status = bwrap_status()
    if not status.available or status.executable is None:
        return status
    with tempfile.TemporaryDirectory(prefix="aka-sandbox-probe-") as tmp:
        sandbox = WorkerSandbox(Path(tmp), "cpu", bwrap=status.executable)
        argv = sandbox.wrap([sys.executable, "-c", _PROBE])
        try:
            probe = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                                   stdin=subprocess.DEVNULL, env=worker_env(os.environ, tmp,
                                                                            "cpu"))
        except (OSError, subprocess.SubprocessError) as exc:
            return SandboxStatus(False, f"bwrap failed to start: {exc}", status.executable)
    if probe.returncode == 0 and "aka-probe-ok" in probe.stdout:
        return SandboxStatus(True, "bubblewrap (no network, own pid namespace, no capabilities)",
                             status.executable)
    lines = (probe.stderr or probe.stdout).strip().splitlines()
    detail = lines[-1] if lines else f"exit {probe.returncode}"
    if detail.startswith("AssertionError"):  # made, but not tight: a bwrap that ignores a flag
        return SandboxStatus(False, f"the evaluation sandbox leaks here ({detail}); check the "
                             "bubblewrap version (>= 0.8) and how it was installed (setuid?)",
                             status.executable)
    return SandboxStatus(False, (
        f"bwrap cannot make the evaluation sandbox here ({detail}). It needs user, network, pid "
        "and mount namespaces: enable unprivileged user namespaces (sysctl "
        "kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ also "
        "kernel.apparmor_restrict_unprivileged_userns=0), or in a container allow unshare "
        "(e.g. docker --security-opt seccomp=unconfined --cap-add SYS_ADMIN); bubblewrap "
        ">= 0.8 is best"), status.executable)
