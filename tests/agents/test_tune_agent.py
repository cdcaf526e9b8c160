"""The tune agent in real trials on the CPU: the sandbox, the real local check (Triton's
interpreter), bundled tasks, a block size that breaks correctness, the time limit, `aka run`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from agentkernelarena.agents import available_agents, create_agent
from agentkernelarena.agents.tune import transcript_events
from agentkernelarena.agents.tune.searcher.params import find_params
from agentkernelarena.agents.tune.searcher.rewrite import rewrite
from agentkernelarena.errors import AkaError
from agentkernelarena.runner import TrialOptions, run_trial
from agentkernelarena.tasks import load_task
from agentkernelarena.tasks.loader import find_task

sys.path.insert(0, str(Path(__file__).parent))
from agent_helpers import FAST_TIMING, SANDBOX  # noqa: E402

TUNE_TASKS = Path(__file__).parent / "tune_tasks" / "triton2triton"


def _trial(task, tmp_path: Path, time_limit_s: float = 300, **args: object) -> dict:
    options = TrialOptions(max_iterations=3, platform="cpu", timing=FAST_TIMING,
                           time_limit_s=time_limit_s, sandbox=SANDBOX)
    return run_trial(task, {"name": "tune", "args": args}, tmp_path / "trial", options)


def _events(record: dict, kind: str | None = None) -> list[dict]:
    path = Path(record["workspace"]).parent / "iterations" / "1" / "transcript.jsonl"
    events = transcript_events(path)
    return [e for e in events if kind is None or e["event"] == kind]  # type: ignore[misc]


def test_registered_with_typed_settings() -> None:
    info = {a.name: a for a in available_agents()}["tune"]
    assert "launch parameters" in info.description and info.settings_cls is not None
    agent = create_agent("tune", {"seed": "7", "max_checks": "5", "launch_options": "off"})
    assert agent.settings.seed == 7 and agent.settings.launch_options is False  # type: ignore
    assert agent.iterative is False and agent.in_process is False  # type: ignore[attr-defined]
    with pytest.raises(AkaError, match="max_checks"):
        create_agent("tune", {"max_checks": "0"}).validate()  # type: ignore[attr-defined]
    assert agent.doctor().ready  # type: ignore[attr-defined]


@pytest.mark.parametrize("task_id, checks", [
    ("triton2triton/transpose", 2),
    pytest.param("triton2triton/column_sum", 3, marks=pytest.mark.slow),
    pytest.param("triton2triton/softmax", 3, marks=pytest.mark.slow),
])
def test_bundled_task_is_tuned_through_its_check_and_stays_correct(task_id: str, checks: int,
                                                                   tmp_path: Path) -> None:
    task = find_task(task_id)
    record = _trial(task, tmp_path, max_checks=checks, seed=1)
    assert record["status"] == "completed" and record["agent_failure"] == "ok"
    assert record["sandboxed"] and record["correct"] and record["verdict"] == "ok"
    assert record["held_out"]["correct"]
    measured = _events(record, "check")
    assert len(measured) == checks and all(c["verdict"] == "ok" for c in measured)
    assert all(c["changed"] for c in measured[1:])  # each variant rewrote a parameter
    # Every measurement went through the workspace's ./check: the arena saw each one.
    assert len(record["iterations"][0]["agent_checks"]) == checks
    (summary,) = _events(record, "summary")
    shipped = (task.root / "kernel.py").read_text()
    final = (Path(record["workspace"]) / "kernel.py").read_text()
    found = find_params(shipped, "kernel.py")
    values = {key: new for key, (_, new) in summary["changed"].items()}
    assert final == rewrite(shipped, found.params, values)  # launch parameters only
    assert (final != shipped) == (summary["kept"] == "tuned") == bool(record["changed_files"])
    assert record["usage"]["cost_usd"] == 0.0


def test_untunable_kernel_is_left_unchanged(tmp_path: Path) -> None:
    task = load_task(TUNE_TASKS / "untunable")
    record = _trial(task, tmp_path)
    outcome = record["iterations"][0]["outcome"]
    assert outcome["failure"] == "ok" and outcome["message"].startswith("nothing tunable")
    assert "next_power_of_2" in outcome["message"] and "_warps(block)" in outcome["message"]
    assert record["changed_files"] == [] and record["correct"]
    assert record["iterations"][0]["agent_checks"] == []  # nothing to measure


def test_stops_at_the_trial_time_limit(tmp_path: Path) -> None:
    # Well under the search's length: on this fixture it converges after 5 checks of about
    # 2 s each (2026-12-03; evaluations got faster, and 20 s no longer stopped it early).
    task = load_task(TUNE_TASKS / "row_sum")
    started = time.monotonic()
    record = _trial(task, tmp_path, time_limit_s=5, max_checks=100, min_gain=0.0)
    agent_s = record["iterations"][0]["outcome"]["wall_s"]
    assert record["agent_failure"] == "ok" and not record["timed_out"]
    assert agent_s < 5, agent_s
    (summary,) = _events(record, "summary")
    assert summary["stop_reason"].startswith("time limit") and summary["checks"] < 100
    assert record["correct"]  # the workspace holds a measured, correct version
    assert time.monotonic() - started < 120


def test_aka_run_rejects_a_block_size_that_breaks_correctness(tmp_path: Path) -> None:
    """`aka run` end to end. row_sum needs BLOCK >= N (N up to 1000 in its visible
    configurations): BLOCK 512 must fail the check and be rejected. BLOCK is its only parameter
    without launch options, and with a min_gain so high that nothing is kept, both of its
    neighbours are tried."""
    config = tmp_path / "run.yaml"
    args = {"max_checks": 3, "seed": 0, "launch_options": False, "min_gain": 1000.0}
    config.write_text(yaml.safe_dump({
        "agents": [{"name": "tune", "args": args}],
        "tasks": ["triton2triton/row_sum"], "tasks_dirs": [str(TUNE_TASKS.parent)],
        "platform": "cpu", "timing": FAST_TIMING, "sandbox": SANDBOX, "attempts": 1}))
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    done = subprocess.run([sys.executable, "-m", "agentkernelarena", "run", "-c", str(config),
                           "--out", str(out), "--progress", "plain"], text=True,
                          capture_output=True, timeout=240, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    (record_path,) = (out / "trials").glob("*/trial.json")
    record = json.loads(record_path.read_text())
    assert record["agent"] == "tune" and record["correct"] and record["status"] == "completed"
    assert record["iterations"][0]["outcome"]["details"]["checks"] == 3
    checks = _events(record, "check")
    (down,) = [c for c in checks if [1024, 512] in c["changed"].values()]
    assert down["verdict"] == "incorrect" and down["correct"] is False
    (up,) = [c for c in checks if [1024, 2048] in c["changed"].values()]
    assert up["verdict"] == "ok"
    assert record["changed_files"] == []  # nothing beat the shipped kernel by 1000x
    assert (Path(record["workspace"]) / "kernel.py").read_text() == \
        (TUNE_TASKS / "row_sum" / "kernel.py").read_text()
    report = subprocess.run([sys.executable, "-m", "agentkernelarena", "report", str(out),
                             "--format", "json"], text=True, capture_output=True, timeout=60,
                            env=env)
    assert report.returncode == 0 and "tune" in report.stdout
