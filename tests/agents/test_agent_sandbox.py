"""The sandbox: how bubblewrap is called, the check socket, and what an agent cannot reach."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from agent_helpers import REPO

import agentkernelarena
from agentkernelarena.workspace.check_server import CheckServer, CheckService, ask
from agentkernelarena.workspace.sandbox import Sandbox, bwrap_status, install_paths

needs_bwrap = pytest.mark.skipif(not bwrap_status().available,
                                 reason=f"no sandbox here: {bwrap_status().reason}")


def _pairs(argv: list[str], flag: str) -> list[tuple[str, str]]:
    return [(argv[i + 1], argv[i + 2]) for i, a in enumerate(argv) if a == flag]


def test_bwrap_argv(tmp_path: Path):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    cli = tmp_path / "node_modules" / "@x" / "cli" / "bin" / "cli"
    cli.parent.mkdir(parents=True)
    cli.write_text("")
    sandbox = Sandbox(workspace=workspace, rw_paths=[tmp_path / "sock"],
                      home=Path("/root-home"))
    (tmp_path / "sock").mkdir()
    argv = sandbox.wrap(["agent", "--flag"], ro=install_paths(cli))
    assert argv[0] == "bwrap" and argv[-3:] == ["--", "agent", "--flag"]
    for flag in ("--unshare-all", "--share-net", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert ("/usr", "/usr") in _pairs(argv, "--ro-bind")
    ro = dict(_pairs(argv, "--ro-bind"))
    assert str(tmp_path / "node_modules") in ro  # the CLI's whole npm tree, read-only
    assert str(Path(sys.prefix).resolve()) in ro  # the arena's Python (toolchains)
    rw = dict(_pairs(argv, "--bind"))
    assert str(workspace) in rw and str(tmp_path / "sock") in rw
    # Nothing of the repository besides what is listed: not the source, not the tests.
    assert not any(p.startswith(str(REPO / "src")) or p.startswith(str(REPO / "tests"))
                   for p in [*ro, *rw])
    # tmpfs /tmp and HOME come before the binds that may lie below them.
    tmpfs = [argv[i + 1] for i, a in enumerate(argv) if a == "--tmpfs"]
    assert "/tmp" in tmpfs and "/root-home" in tmpfs
    assert argv.index("/root-home") < argv.index(str(workspace))
    assert argv[argv.index("--chdir") + 1] == str(workspace)


def test_arena_package_is_masked_when_a_bind_would_show_it(tmp_path: Path):
    package = Path(agentkernelarena.__file__).resolve().parent
    sandbox = Sandbox(workspace=tmp_path, ro_paths=[package.parent])
    argv = sandbox.wrap(["true"])
    tmpfs = [argv[i + 1] for i, a in enumerate(argv) if a == "--tmpfs"]
    assert str(package) in tmpfs
    assert argv.index(str(package)) > argv.index(str(package.parent))


def test_other_trials_are_masked_even_under_a_broad_bind(tmp_path: Path):
    run = tmp_path / "runs" / "r1"
    workspace = run / "t1" / "workspace"
    workspace.mkdir(parents=True)
    (run / "t2").mkdir()
    sandbox = Sandbox(workspace=workspace, ro_paths=[tmp_path], hidden=[run])
    argv = sandbox.wrap(["true"])
    bind_ro = argv.index(str(tmp_path))
    mask = argv.index(str(run))
    assert argv[mask - 1] == "--tmpfs" and bind_ro < mask < argv.index(str(workspace))


def test_install_paths():
    assert install_paths("/a/node_modules/@s/pkg/bin/x") == [Path("/a/node_modules")]
    assert install_paths("/opt/geak/bin/geak-agent") == [Path("/opt/geak")]
    assert install_paths("/opt/tool/tool") == [Path("/opt/tool")]


def test_check_server_answers_with_feedback(task, workspace: Path):
    results = [{"task": task.id, "platform": "cpu", "verdict": "incorrect", "compiled": True,
                "correct": False, "speedup": None, "score": 20.0, "reasons": ["wrong at N1"],
                "held_out": {"evaluated": True, "correct": False}}]
    seen = []

    def fake_evaluate(t, folder, options):
        seen.append(options)
        return results[0]

    service = CheckService(task, workspace, platform="cpu", evaluator=fake_evaluate)
    with CheckServer(service) as server:
        text = ask(server.socket_path)
    assert "verdict: incorrect" in text and "wrong at N1" in text
    assert "held-out" not in text  # the agent never learns about held-out results
    assert seen[0].held_out is False
    assert service.pop_calls()[0]["verdict"] == "incorrect"
    assert not server.folder.exists()  # the socket's folder goes with the server


PROBE = r'''
probe() {{ if eval "$2" >/dev/null 2>&1; then echo "$1: REACHED"; else echo "$1: blocked"; fi; }}
probe held_out_configs "cat {task_yaml}"
probe suites "ls {suites}"
probe harness "cat {harness}"
probe harness_import "python3 -c 'import agentkernelarena'"
probe other_trial "cat {other}"
echo x > {trial_dir}/escape.txt  # lands in the sandbox's private /tmp, if anywhere
probe write_repo "echo x > {repo}/escape.txt && test -e {repo_marker}"
probe write_home "echo x > {home}/escape.txt && test -e {host_marker}"
probe socket "test -S $AKA_CHECK_SOCKET"
./check > check.out 2>&1
{edit}
'''


@needs_bwrap
def test_sandboxed_agent_cannot_reach_the_arena_and_the_trial_still_scores(
        task, tmp_path: Path, trial_options):
    from fake_model_server import SED_EDIT

    from agentkernelarena.runner import run_trial

    other = tmp_path / "run" / "other-trial" / "workspace"
    other.mkdir(parents=True)
    (other / "kernel.py").write_text("# another agent's secret kernel\n")
    marker = Path.home() / ".aka-sandbox-test-marker"
    marker.write_text("host home")
    # A write "succeeds" inside the sandbox when it lands in its private tmpfs (a checkout under
    # /tmp, say); it only counts as reached when the host's folder is what the agent sees.
    repo_marker = REPO / ".aka-sandbox-test-marker"
    repo_marker.write_text("host repo")
    package = Path(agentkernelarena.__file__).resolve().parent
    try:
        cmd = PROBE.format(task_yaml=task.root / "task.yaml", suites=package / "suites",
                           harness=package / "evaluate" / "evaluator.py", other=other / "kernel.py",
                           trial_dir=tmp_path / "run" / "this-trial", repo=REPO,
                           home=Path.home(), host_marker=marker, repo_marker=repo_marker,
                           edit=SED_EDIT)
        record = run_trial(task, {"name": "command", "args": {"cmd": cmd}},
                           tmp_path / "run" / "this-trial", trial_options)
    finally:
        marker.unlink()
        repo_marker.unlink()
    workspace = Path(record["workspace"])
    out = (tmp_path / "run" / "this-trial" / "iterations" / "1" / "stdout.log").read_text()
    verdicts = dict(line.split(": ") for line in out.splitlines() if ": " in line)
    assert verdicts.pop("socket") == "REACHED", out
    assert set(verdicts.values()) == {"blocked"}, out
    assert not (tmp_path / "run" / "this-trial" / "escape.txt").exists()
    assert not (REPO / "escape.txt").exists() and not (Path.home() / "escape.txt").exists()
    # The local check worked through the socket, and the edit made inside was scored.
    assert "verdict:" in (workspace / "check.out").read_text()
    assert record["sandboxed"] is True and record["sandbox"]["kind"] == "bwrap"
    assert record["iterations"][0]["agent_checks"][0]["verdict"]
    assert record["changed_files"] == ["kernel.py"]
    assert record["evaluation"]["compiled"] and record["status"] == "completed"


# Appended to the workspace's kernel.py by the agent: at import, inside the evaluation's process,
# it looks for what the agent must not learn and raises with whatever it found (a check's
# feedback carries the error back to the agent).
SNOOP = r'''
import glob as _glob, os as _os, pathlib as _pathlib
_found = []
for _key in _os.environ:
    if "SECRET" in _key or "API_KEY" in _key:
        _found.append("env " + _key)
for _pattern in {patterns!r}:
    for _path in _glob.glob(_pattern)[:20]:
        try:
            if "held_out" in _pathlib.Path(_path).read_text():
                _found.append("read " + _path)
        except OSError:
            pass
try:
    _pathlib.Path({workspace!r}, "from-the-evaluation.txt").write_text("x")
    _found.append("wrote into the workspace")
except OSError:
    pass
if _found:
    raise RuntimeError("SNOOPED: " + "; ".join(_found))
'''


@needs_bwrap
def test_check_from_a_sandboxed_agent_brings_back_nothing_but_its_feedback(
        task, tmp_path: Path, trial_options, monkeypatch):
    """The agent's way through its own sandbox: ./check runs the agent's code in the
    evaluation's process. That process is sandboxed too, so the code finds nothing to report."""
    from agentkernelarena.evaluate.sandbox import worker_sandbox_status
    from agentkernelarena.runner import run_trial

    if not worker_sandbox_status().available:
        pytest.skip(worker_sandbox_status().reason)
    monkeypatch.setenv("AKA_TEST_SECRET", "planted")
    package = Path(agentkernelarena.__file__).resolve().parent
    trial_dir = tmp_path / "run" / "this-trial"
    patterns = [str(task.root / "task.yaml"), str(package / "suites" / "*" / "*" / "task.yaml"),
                "/tmp/aka-eval-*/task/task.yaml", "/tmp/*/task/task.yaml"]
    snippet = SNOOP.format(patterns=patterns, workspace=str(trial_dir / "workspace"))
    cmd = ("cp kernel.py kernel.orig\ncat >> kernel.py <<'AKA_EOF'\n" + snippet + "\nAKA_EOF\n"
           "./check > check.out 2>&1\nmv kernel.orig kernel.py\n")
    record = run_trial(task, {"name": "command", "args": {"cmd": cmd}}, trial_dir,
                       trial_options)
    feedback = (Path(record["workspace"]) / "check.out").read_text()
    assert "verdict:" in feedback, feedback
    assert "SNOOPED" not in feedback and "held_out" not in feedback, feedback
    assert not (Path(record["workspace"]) / "from-the-evaluation.txt").exists()
    assert record["iterations"][0]["agent_checks"][0]["verdict"] == "ok"
