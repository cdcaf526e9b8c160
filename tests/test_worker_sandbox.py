"""The runner's sandbox (evaluate/sandbox.py) against a hostile script, on the CPU.

One script tries everything a candidate might (read secrets, write the arena, the caches, run
folders, reach the network, the test process, outlive the sandbox) and records each attempt;
the tests read that record, and check from outside that nothing outside eval_dir changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentkernelarena.evaluate.sandbox import (
    SRC_ROOT,
    WorkerSandbox,
    worker_env,
    worker_sandbox_status,
)
from agentkernelarena.native import build, cache

STATUS = worker_sandbox_status()
needs_sandbox = pytest.mark.skipif(not STATUS.available, reason=STATUS.reason)
KEY = "ab" * 32
PACKAGE = SRC_ROOT / "agentkernelarena"

HOSTILE = r"""
import json, os, signal, socket, subprocess, sys, time
from pathlib import Path
import agentkernelarena.evaluate
from agentkernelarena.native import cache
cfg = json.load(open(sys.argv[1]))
P, T, out = {k: Path(v) for k, v in cfg["paths"].items()}, cfg["token"], {}

def write(path, mode="w"):  # appending "" changes nothing, should the open succeed
    with open(path, mode) as handle:
        handle.write("" if "a" in mode else "pwned")

def run_ok(*argv):
    if subprocess.run(argv, capture_output=True).returncode != 0:
        raise PermissionError(argv)

def procs_holding(needle, kind):
    hits = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            hits += [pid] if needle in Path(f"/proc/{pid}/{kind}").read_bytes() else []
        except OSError:
            pass
    return hits

def secret_holders():
    if not (hits := procs_holding(b"s3cret", "environ")):
        raise LookupError("no process holds the secret")
    return hits

Path("artifact.so").write_text("x")
ATTEMPTS = {
    "secret_env": "os.environ['AKA_TEST_SECRET']", "api_key_env": "os.environ['ANTHROPIC_API_KEY']",
    "secret_proc": "secret_holders()",
    "package_new": "write(P['package'] / f'_pwn_{T}.py', 'x')",
    "package_append": "write(P['package'] / '__init__.py', 'a')",
    "suites_read": "(P['package'] / 'suites/triton2triton/softmax/task.yaml').read_text()",
    "suites_list": "os.listdir(P['package'] / 'suites')",
    "cache_read": "(P['entry'] / 'meta.json').read_text()",
    "cache_overwrite": "write(P['entry'] / 'lib.so', 'r+')",
    "cache_new": "os.makedirs(P['entry'].parent / 'evil')",
    "cache_lookup": "str(cache.lookup(cfg['key']))",
    "cache_store": "str(cache.store('cd' * 32, [Path('artifact.so')], {}))",
    "home_triton_read": "Path('~/.triton/cache/planted').expanduser().read_text()",
    **{f"{n}_read": f"(P['{n}'] / 'planted').read_text()" for n in cfg["planted"]},
    **{f"{n}_write": f"write(P['{n}'] / 'pwn')" for n in cfg["planted"]},
    "plain_mkdir": "os.makedirs(P['plain'] / 'sub')", "root_write": "write(f'/pwn-{T}')",
    "claude_list": "os.listdir(Path('~/.claude').expanduser())",
    "real_claude_list": "os.listdir(P['real_home'] / '.claude')",
    "connect_local": "socket.create_connection(('127.0.0.1', cfg['port']), timeout=3)",
    "connect_remote": "socket.create_connection(('1.1.1.1', 80), timeout=3)",
    "dns": "socket.getaddrinfo('example.com', 80)",
    "connect_abstract": "socket.socket(socket.AF_UNIX).connect(chr(0) + T)",
    "remount_root": "run_ok('mount', '-o', 'remount,rw', '/')",
    "remount_src": "run_ok('mount', '-o', 'remount,rw', str(P['src']))",
    "remount_readable": "run_ok('mount', '-o', 'remount,rw', str(P['exposed']))",
    "new_userns": "run_ok('unshare', '-Ur', 'true')",
    "kill_test": "os.kill(cfg['test_pid'], 0)",
    "eval_write": "write('written-in-eval')", "tmp_write": "write('/tmp/x')",
    "home_write": "write(Path('~/x').expanduser())",
}
for name, expr in ATTEMPTS.items():
    try:
        out[name] = ["done", repr(eval(expr))[:300]]
    except BaseException as exc:
        out[name] = ["failed", f"{type(exc).__name__}: {exc}"]
out["info"] = {"pid": os.getpid(), "ppid": os.getppid(), "env": sorted(os.environ),
               "triton": os.environ["TRITON_CACHE_DIR"]}
out["capeff"] = Path("/proc/self/status").read_text().split("CapEff:")[1].split()[0]
if os.fork() == 0:  # a double-forked daemon in its own session, meant to outlive the runner
    os.setsid()
    if os.fork() == 0:
        code = "import sys, time; time.sleep(30); open(sys.argv[1], 'w').write('alive')"
        os.execv(sys.executable, [sys.executable, "-c", code, str(P["daemon"]), T])
    os._exit(0)
time.sleep(0.5)
out["daemon_seen"] = bool(set(procs_holding(T.encode(), "cmdline")) - {str(os.getpid())})
json.dump(out, open("results.json", "w"))
os.kill(os.getppid(), signal.SIGKILL)  # the sandbox's pid 1: ignored, so the line below runs
print("HOSTILE-DONE", flush=True)
"""


def _snapshot(*roots: Path) -> dict[str, str]:
    """Every file's hash and every entry's mtime at and below `roots` (bytecode caches aside)."""
    state: dict[str, str] = {}
    for root in roots:
        for path in sorted([root, *root.rglob("*")]):
            if "__pycache__" in path.parts:
                continue
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
            state[str(path)] = f"{digest} {path.lstat().st_mtime_ns}"
    return state


def _token_processes(token: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            found += [pid] if token.encode() in Path(f"/proc/{pid}/cmdline").read_bytes() else []
    return found


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """Run the hostile script once; yield its record and what the test saw outside."""
    if not STATUS.available:
        pytest.skip(STATUS.reason)
    if not os.access("/var/tmp", os.W_OK):
        pytest.skip("needs a writable /var/tmp (folders outside /tmp, which is private inside)")
    outside = Path(tempfile.mkdtemp(prefix="aka-sbx-", dir="/var/tmp"))
    try:
        yield _run_hostile(outside, tmp_path_factory.mktemp("eval"))
    finally:
        shutil.rmtree(outside, ignore_errors=True)


def _run_hostile(outside: Path, eval_dir: Path) -> dict:
    token = f"aka-daemon-{uuid.uuid4().hex}"
    exposed = outside / "exposed"  # readable inside, so the masks below it must work
    home = exposed / "home"
    paths = {n: exposed / n for n in ("run", "workspace", "task", "triton", "data")}
    paths["plain"] = outside / "plain"  # neither readable nor hidden: simply not there
    files = {home / ".claude/settings.json": "{}", home / ".triton/cache/planted": "t",
             home / f".cache/agentkernelarena/native/{KEY}/meta.json": "{}",
             home / f".cache/agentkernelarena/native/{KEY}/lib.so": "good bytes",
             **{path / "planted": "held-out sizes: [4096]" for path in paths.values()}}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    server = socket.create_server(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind("\0" + token)
    abstract.listen()
    cfg = {"token": token, "key": KEY, "port": server.getsockname()[1], "test_pid": os.getpid(),
           "planted": sorted(paths),
           "paths": {**{k: str(v) for k, v in paths.items()}, "package": str(PACKAGE),
                     "src": str(SRC_ROOT), "exposed": str(exposed),
                     "entry": str(home / f".cache/agentkernelarena/native/{KEY}"),
                     "real_home": os.path.expanduser("~"), "daemon": str(eval_dir / "daemon")}}
    (eval_dir / "cfg.json").write_text(json.dumps(cfg))
    (eval_dir / "hostile.py").write_text(HOSTILE)
    # The package itself is edited live in a shared checkout: only the files attacked here.
    attacked = [PACKAGE / "__init__.py", PACKAGE / "suites/triton2triton/softmax/task.yaml"]
    before = _snapshot(outside, *attacked)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.delenv("AKA_CACHE_DIR", raising=False)
        mp.setenv("TRITON_CACHE_DIR", str(paths["triton"]))
        sandbox = WorkerSandbox(eval_dir, "cpu", hidden=[paths[n] for n in ("run", "workspace",
                                "task")], readable=[exposed], bwrap=STATUS.executable or "bwrap")
        env = worker_env(os.environ | {"AKA_TEST_SECRET": "s3cret",
                                       "ANTHROPIC_API_KEY": "sk-test"}, eval_dir, "cpu")
        argv = sandbox.wrap([sys.executable, str(eval_dir / "hostile.py"), "cfg.json"])
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    after = _snapshot(outside, *attacked)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    changed += [str(p) for p in PACKAGE.glob(f"_pwn_{token}.py")]
    seen = {"proc": proc, "leftover": _token_processes(token), "changed": changed,
            "eval_dir": eval_dir, "home": home, "accepted": False}
    for sock in (server, abstract):  # a connection would wait in the backlog
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError), sock:
            sock.accept()
            seen["accepted"] = True
    for leak in PACKAGE.glob(f"_pwn_{token}.py"):
        leak.unlink()
    return {"results": json.loads((eval_dir / "results.json").read_text()), **seen}


# What must fail inside, by threat; `planted` names the folders the script reads and writes.
MUST_FAIL = {
    "secrets": ("secret_env", "api_key_env", "secret_proc"),
    "arena": ("package_new", "package_append", "suites_read"),
    "native_cache": ("cache_overwrite", "cache_new"),
    "triton_home": ("triton_read", "triton_write", "home_triton_read", "claude_list",
                    "real_claude_list"),
    "folders": ("run_read", "run_write", "workspace_read", "workspace_write", "task_read",
                "task_write", "plain_read", "plain_write", "plain_mkdir", "data_write",
                "root_write"),
    "network": ("connect_local", "connect_remote", "dns", "connect_abstract"),
    "remount": ("remount_root", "remount_src", "remount_readable", "new_userns"),
    "processes": ("kill_test",),
}


@needs_sandbox
@pytest.mark.parametrize("threat", sorted(MUST_FAIL))
def test_attempts_fail(hostile: dict, threat: str) -> None:
    for name in MUST_FAIL[threat]:
        assert hostile["results"][name][0] == "failed", (name, hostile["results"][name])


@needs_sandbox
def test_script_ran_and_wrote_only_its_folders(hostile: dict) -> None:
    res, eval_dir = hostile["results"], hostile["eval_dir"]
    assert "HOSTILE-DONE" in hostile["proc"].stdout, hostile["proc"].stderr  # outlived kill(1)
    for name in ("eval_write", "tmp_write", "home_write", "cache_read", "data_read"):
        assert res[name][0] == "done", (name, res[name])
    assert (eval_dir / "written-in-eval").read_text() == "pwned"
    assert hostile["changed"] == [], "changed outside eval_dir"
    assert res["suites_list"] == ["done", "[]"] and "ANTHROPIC_API_KEY" not in res["info"]["env"]
    assert res["info"]["triton"] == str(eval_dir / ".triton-cache")
    assert hostile["accepted"] is False and int(res["capeff"], 16) == 0


@needs_sandbox
def test_native_cache_read_only_with_private_writes(hostile: dict) -> None:
    res, lib = hostile["results"], hostile["home"] / f".cache/agentkernelarena/native/{KEY}"
    assert res["cache_lookup"][1] == repr(str(lib))  # the shared entry is found ...
    assert str(hostile["eval_dir"] / ".aka-cache" / "native") in res["cache_store"][1]
    assert (lib / "lib.so").read_text() == "good bytes"  # ... and stays as it was


@needs_sandbox
def test_processes_stay_inside(hostile: dict) -> None:
    info = hostile["results"]["info"]
    assert os.getpid() not in (info["pid"], info["ppid"])
    assert hostile["results"]["daemon_seen"] is True  # the daemon did start ...
    assert hostile["leftover"] == []  # ... and died with the sandbox
    assert not (hostile["eval_dir"] / "daemon").exists()


def test_worker_env_scrubs(tmp_path: Path) -> None:
    base = {"PATH": "/usr/bin", "ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k",
            "GITHUB_TOKEN": "t", "AKA_TEST_SECRET": "s", "LD_PRELOAD": "/evil.so",
            "PYTHONPATH": "/evil", "CUDA_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "2",
            "ROCR_VISIBLE_DEVICES": "3", "TRITON_INTERPRET": "1", "AKA_CACHE_DIR": "/c",
            "CUDA_HOME": "/usr/local/cuda"}
    gpu = worker_env(base, tmp_path, "cuda")
    assert not {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GITHUB_TOKEN", "AKA_TEST_SECRET",
                "LD_PRELOAD", "TRITON_INTERPRET"} & set(gpu)
    assert (gpu["CUDA_VISIBLE_DEVICES"], gpu["HIP_VISIBLE_DEVICES"],
            gpu["ROCR_VISIBLE_DEVICES"]) == ("1", "2", "3")
    assert gpu["PYTHONPATH"] == str(SRC_ROOT) and gpu["CUDA_HOME"] == "/usr/local/cuda"
    assert gpu["AKA_CACHE_DIR"] == "/c"
    assert gpu["AKA_CACHE_WRITE_DIR"] == str(tmp_path.resolve() / ".aka-cache")
    assert worker_env(base, tmp_path, "cpu")["TRITON_INTERPRET"] == "1"


def test_gpu_nodes_only_for_a_gpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("agentkernelarena.evaluate.sandbox.GPU_DEVICES", ("/dev/nul*",))
    gpu = " ".join(WorkerSandbox(tmp_path, "cuda").wrap(["true"]))
    cpu = " ".join(WorkerSandbox(tmp_path, "cpu").wrap(["true"]))
    assert "--dev-bind /dev/null /dev/null" in gpu and "--ro-bind /sys /sys" in gpu
    assert "--dev-bind" not in cpu and "/sys" not in cpu


def test_native_cache_write_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared, private = tmp_path / "shared", tmp_path / "private"
    (shared / "native" / KEY).mkdir(parents=True)
    (shared / "native" / KEY / "meta.json").write_text("{}")
    artifact = tmp_path / "lib.so"
    artifact.write_text("bytes")
    monkeypatch.setenv("AKA_CACHE_DIR", str(shared))
    monkeypatch.setenv("AKA_CACHE_WRITE_DIR", str(private))
    before = _snapshot(shared)
    assert cache.lookup(KEY) == shared / "native" / KEY
    assert cache.store("cd" * 32, [artifact], {}) == private / "native" / ("cd" * 32)
    assert cache.store(KEY, [artifact], {}) == private / "native" / KEY
    assert cache.lookup(KEY) == private / "native" / KEY  # the private dir is searched first
    assert _snapshot(shared) == before
    assert build._build_dir(artifact, "m") == private / "build" / "m"  # src dir unusable
    monkeypatch.delenv("AKA_CACHE_WRITE_DIR")
    assert cache.store("ef" * 32, [artifact], {}) == shared / "native" / ("ef" * 32)
