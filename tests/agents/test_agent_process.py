"""Running agent programs: /dev/null stdin, the deadline kills the whole tree, watchers, PATH."""

from __future__ import annotations

import os
import time
from pathlib import Path

from agent_helpers import fake_executable

from agentkernelarena.agents.base import NOT_AUTHENTICATED
from agentkernelarena.agents.process import find_executable, run_process


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def test_deadline_kills_the_process_tree(tmp_path: Path):
    pids = tmp_path / "pids"
    # A child in its own session and a grandchild: neither may outlive the deadline.
    script = (f"setsid sh -c 'echo $$ >> {pids}; sleep 300' &\n"
              f"sh -c 'echo $$ >> {pids}; sleep 300' &\n"
              "echo started; sleep 300\n")
    started = time.monotonic()
    result = run_process(["/bin/sh", "-c", script], cwd=tmp_path, env=dict(os.environ),
                         deadline=time.monotonic() + 1.5, stdout_path=tmp_path / "out",
                         stderr_path=tmp_path / "err")
    assert result.timed_out and result.returncode is None
    assert time.monotonic() - started < 8
    assert result.stdout().strip() == "started"
    time.sleep(0.2)
    children = [int(p) for p in pids.read_text().split()]
    assert len(children) == 2
    assert not any(_alive(pid) for pid in children)


def test_stdin_is_dev_null_and_exit_code_is_kept(tmp_path: Path):
    result = run_process(["/bin/sh", "-c", "cat; echo done; exit 3"], cwd=tmp_path,
                         env=dict(os.environ), deadline=time.monotonic() + 10,
                         stdout_path=tmp_path / "out", stderr_path=tmp_path / "err")
    assert result.returncode == 3 and not result.timed_out
    assert result.stdout() == "done\n"  # `cat` saw EOF at once


def test_watcher_stops_a_run_early(tmp_path: Path):
    def watch(line: str):
        return (NOT_AUTHENTICATED, "bad key") if "401" in line else None

    started = time.monotonic()
    result = run_process(["/bin/sh", "-c", "echo ok; echo 'status 401'; sleep 300"],
                         cwd=tmp_path, env=dict(os.environ), deadline=time.monotonic() + 60,
                         stdout_path=tmp_path / "out", stderr_path=tmp_path / "err", watch=watch)
    assert result.stopped == (NOT_AUTHENTICATED, "bad key")
    assert time.monotonic() - started < 10


def test_missing_program(tmp_path: Path):
    result = run_process([str(tmp_path / "nope")], cwd=tmp_path, env=dict(os.environ),
                         deadline=time.monotonic() + 5, stdout_path=tmp_path / "out",
                         stderr_path=tmp_path / "err")
    assert result.not_found and "cannot start" in result.stderr_tail()


def test_find_executable(tmp_path: Path, monkeypatch):
    exe = fake_executable(tmp_path / "bin", "my-agent", "exit 0\n")
    assert find_executable(str(exe)) == str(exe)
    assert find_executable(str(tmp_path / "missing")) is None
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert find_executable(None, "nothing", "my-agent") == str(exe)
    tools = tmp_path / "tools" / "node_modules" / ".bin"
    fake_executable(tools, "other-agent", "exit 0\n")
    monkeypatch.setenv("AKA_TOOLS_DIR", str(tmp_path / "tools"))
    assert find_executable(None, "other-agent") == str(tools / "other-agent")
