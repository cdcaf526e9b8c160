"""Workers started ahead of their evaluation (evaluate/standby.py): used when they match, never
when they do not, replaced when they died, and never shared between two candidates."""

from __future__ import annotations

import os
import signal

from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.evaluate.standby import WarmStart, start_standby
from agentkernelarena.platforms import get_platform
from agentkernelarena.tasks.loader import discover_tasks, select_tasks

PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")
OPTIONS = EvalOptions(platform=PLATFORM, held_out=False)


def _gone(standby) -> bool:
    return all(p.proc.poll() is not None for p in (standby.judge, standby.runner)) \
        and not standby.root.exists()


def test_a_standby_serves_the_next_evaluation_and_is_used_once(scale_add_task, solution_factory):
    wrong = solution_factory(replace=("x * alpha + y", "x * alpha - y"))
    with WarmStart() as warm:
        first = evaluate(scale_add_task, wrong, OPTIONS, warm=warm, next_task=scale_add_task)
        assert first["warm_start"] is False and first["verdict"] == "incorrect"
        pending = warm.pending
        assert pending is not None
        second = evaluate(scale_add_task, scale_add_task.solution_dir, OPTIONS, warm=warm)
        assert second["warm_start"] is True
        assert second["verdict"] == "ok", second["reasons"]
        assert second["worker_sandbox"] == first["worker_sandbox"]
        # Used by one candidate only: its workers ended with the evaluation, nothing pending.
        assert warm.pending is None and _gone(pending)


def test_the_next_pair_finishes_starting_before_the_first_timed_round(scale_add_task):
    with WarmStart() as warm:
        result = evaluate(scale_add_task, scale_add_task.root, OPTIONS, warm=warm,
                          next_task=scale_add_task)
        assert result["verdict"] == "ok", result["reasons"]
        assert "standby.settle" in result["eval_cost"]["commands"]
        assert warm.pending is not None and warm.pending.ready is True


def test_a_standby_for_another_task_or_other_options_is_closed_not_used(scale_add_task):
    other = select_tasks(["triton2triton/gelu_bias"], discover_tasks())[0]
    platform = get_platform(PLATFORM)
    with WarmStart() as warm:
        warm.start(other, platform, OPTIONS)
        stale = warm.pending
        result = evaluate(scale_add_task, scale_add_task.root, OPTIONS, warm=warm)
        assert result["warm_start"] is False and result["verdict"] == "ok", result["reasons"]
        assert _gone(stale)
        changed = EvalOptions(platform=PLATFORM, held_out=False, env={"AKA_PROBE": "1"})
        warm.start(scale_add_task, platform, OPTIONS)
        stale = warm.pending
        result = evaluate(scale_add_task, scale_add_task.root, changed, warm=warm)
        assert result["warm_start"] is False and result["verdict"] == "ok", result["reasons"]
        assert _gone(stale)


def test_a_standby_that_died_is_replaced(scale_add_task):
    platform = get_platform(PLATFORM)
    with WarmStart() as warm:
        warm.start(scale_add_task, platform, OPTIONS)
        dead = warm.pending
        os.killpg(dead.runner.proc.pid, signal.SIGKILL)
        result = evaluate(scale_add_task, scale_add_task.root, OPTIONS, warm=warm)
        assert dead.ready is False
        assert result["warm_start"] is False and result["verdict"] == "ok", result["reasons"]
        assert _gone(dead)


def test_a_candidate_that_kills_what_it_can_does_not_reach_the_next_pair(scale_add_task,
                                                                        solution_factory):
    # Everything the candidate's process can signal: its sandbox's pid namespace only (or,
    # unsandboxed on a machine without bubblewrap, its own process group).
    hostile = solution_factory(replace=(
        "def forward(", "import os as _os, signal as _signal\n"
        "for _pid in [int(p) for p in _os.listdir('/proc') if p.isdigit()]:\n"
        "    if _pid not in (1, _os.getpid()):\n"
        "        try:\n"
        "            _os.kill(_pid, _signal.SIGKILL)\n"
        "        except OSError:\n"
        "            pass\n\n"
        "def forward("))
    with WarmStart() as warm:
        evaluate(scale_add_task, hostile, OPTIONS, warm=warm, next_task=scale_add_task)
        standby = warm.pending
        assert standby is not None and standby.settle() is True
        result = evaluate(scale_add_task, scale_add_task.root, OPTIONS, warm=warm)
        assert result["warm_start"] is True and result["verdict"] == "ok", result["reasons"]


def test_settle_reports_a_pair_that_cannot_start(scale_add_task):
    standby = start_standby(scale_add_task, get_platform(PLATFORM), OPTIONS)
    try:
        standby.judge.kill()
        assert standby.settle(timeout_s=60) is False
        assert standby.settle() is False  # remembered, not read again
    finally:
        standby.close()
    assert _gone(standby)
