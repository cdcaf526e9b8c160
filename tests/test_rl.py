"""The arena for trainers (agentkernelarena.rl): the typed API, the rewards, the environment and
the batched service, on the CPU platform."""

from __future__ import annotations

import math
import os
import threading
import time

import pytest

from agentkernelarena import rl
from agentkernelarena.errors import AkaError
from agentkernelarena.rl import service as service_module
from agentkernelarena.rl.record import EvalRecord

PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")
OPTIONS = rl.EvalOptions(platform=PLATFORM, held_out=False)


def _record(verdict: str, speedup: float | None = None, compiled: bool = True,
            correct: bool | None = None) -> EvalRecord:
    correct = verdict == "ok" if correct is None else correct
    return EvalRecord(task="t", verdict=verdict, compiled=compiled, correct=correct,
                      speedup=speedup, score=0.0)


@pytest.mark.parametrize(("name", "record", "expected"), [
    ("log_speedup", _record("ok", 2.0), math.log(2.0)),
    ("log_speedup", _record("ok", 0.5), math.log(0.5)),
    ("log_speedup", _record("incorrect", 3.0, correct=False), -1.0),
    # Measured fast but a guard rejected it: nothing for the speed.
    ("log_speedup", _record("rejected", 10.0, correct=True), -1.0),
    ("log_speedup", _record("compile_error", None, compiled=False), -2.0),
    ("log_speedup", EvalRecord.failure("t", "boom"), -2.0),
    ("correct", _record("ok", 0.9), 1.0),
    ("correct", _record("rejected", 5.0, correct=True), 0.0),
    ("fast_1.5", _record("ok", 1.6), 1.0),
    ("fast_1.5", _record("ok", 1.4), 0.0),
    ("fast_1.5", _record("timeout", 9.0, correct=True), 0.0),
    ("fast_3", _record("ok", 3.0), 1.0),
    ("fast_3", _record("ok", 2.9), 0.0),
])
def test_rewards(name, record, expected):
    assert rl.get_reward(name)(record) == pytest.approx(expected)


def test_the_score_reward_is_the_benchmark_score():
    record = EvalRecord(task="t", verdict="ok", compiled=True, correct=True, speedup=1.5,
                        score=270.0)
    assert rl.get_reward("score")(record) == 270.0


def test_an_unknown_reward_says_which_exist():
    with pytest.raises(AkaError) as caught:
        rl.get_reward("speed")
    assert "log_speedup" in caught.value.hint


def test_evaluate_files_takes_text_and_returns_the_typed_record(scale_add_task):
    solution = (scale_add_task.solution_dir / "kernel.py").read_text()
    record = rl.evaluate_files(scale_add_task, {"kernel.py": solution}, OPTIONS)
    assert record.ok and record.compiled and record.correct, record.reasons
    assert record.speedup is not None and record.raw["verdict"] == "ok"
    assert record.comparable is (PLATFORM != "cpu")
    wrong = solution.replace("x * alpha + y", "x * alpha - y")
    assert wrong != solution
    bad = rl.evaluate_files(scale_add_task, {"kernel.py": wrong}, OPTIONS)
    assert bad.verdict == "incorrect" and not bad.correct and bad.reasons


def test_held_out_configurations_are_left_out_unless_asked_for(scale_add_task, monkeypatch):
    """Rewards read the visible results only; the held-out ones are for measuring a trained
    policy, so `rl` does not spend GPU time on them (or hand them to a trainer) by default."""
    seen = []
    real = rl.api.evaluate

    def spy(task, folder, options, **kwargs):
        seen.append(options.held_out)
        return real(task, folder, options, **kwargs)

    monkeypatch.setattr(rl.api, "evaluate", spy)
    solution = (scale_add_task.solution_dir / "kernel.py").read_text()
    default = rl.evaluate_files(scale_add_task, {"kernel.py": solution})
    assert default.ok and default.held_out_correct is None
    assert not default.raw["held_out"]["evaluated"]
    asked = rl.evaluate_files(scale_add_task, {"kernel.py": solution},
                              rl.EvalOptions(platform=PLATFORM, held_out=True))
    assert asked.held_out_correct is True
    assert seen == [False, True]
    with rl.KernelEnv(scale_add_task) as env, rl.EvaluationService(cpu_slots=1) as service:
        assert env.options.held_out is False and service.options.held_out is False
    assert rl.training_options(time_limit_s=5).time_limit_s == 5


def test_evaluate_files_refuses_files_that_are_not_editable(scale_add_task):
    with pytest.raises(AkaError, match="not an editable file"):
        rl.evaluate_files(scale_add_task, {"reference.py": "x = 1"}, OPTIONS)
    with pytest.raises(AkaError, match="not text"):
        rl.evaluate_files(scale_add_task, {"kernel.py": b"bytes"}, OPTIONS)


def test_the_environment_runs_an_episode(scale_add_task):
    solution = (scale_add_task.solution_dir / "kernel.py").read_text()
    with rl.KernelEnv(scale_add_task, reward="correct", options=OPTIONS, max_steps=2) as env:
        observation, info = env.reset()
        assert observation["files"] == rl.starting_files(scale_add_task)
        assert "kernel.py" in observation["card"] and info["max_steps"] == 2
        observation, reward, terminated, truncated, info = env.step(
            {"kernel.py": solution.replace("x * alpha + y", "x * alpha - y")})
        assert reward == 0.0 and not terminated and not truncated
        assert info["record"].verdict == "incorrect"
        assert "held-out" not in observation["feedback"]
        observation, reward, terminated, truncated, info = env.step({"kernel.py": solution})
        assert reward == 1.0 and truncated, info["record"].reasons
        assert info["record"].raw["warm_start"] is True  # started during the first step
        with pytest.raises(RuntimeError, match="reset"):
            env.step({"kernel.py": solution})


def test_the_service_keeps_submission_order_and_reports_every_outcome(scale_add_task):
    solution = (scale_add_task.solution_dir / "kernel.py").read_text()
    wrong = solution.replace("x * alpha + y", "x * alpha - y")
    broken = solution.replace("def forward(", "def forward(  # unclosed\n  (")
    batch = [(scale_add_task, {"kernel.py": text}) for text in (wrong, solution, broken)]
    with rl.EvaluationService(OPTIONS, cpu_slots=2) as service:
        records = service.evaluate_batch(batch)
        assert [r.verdict for r in records] == ["incorrect", "ok", "compile_error"], \
            [r.reasons for r in records]
        assert service.evaluated == 3


def test_the_service_kills_a_candidate_past_its_time_limit(scale_add_task):
    hanging = (scale_add_task.root / "kernel.py").read_text().replace(
        "def forward(", "import time as _t\n_t.sleep(600)\n\ndef forward(")
    options = rl.EvalOptions(platform=PLATFORM, held_out=False, time_limit_s=20)
    started = time.monotonic()
    with rl.EvaluationService(options, cpu_slots=1) as service:
        (record,) = service.evaluate_batch([(scale_add_task, {"kernel.py": hanging})])
    assert record.verdict == "timeout", record.reasons
    assert time.monotonic() - started < 120


def test_the_service_applies_back_pressure_and_survives_its_own_failures(scale_add_task,
                                                                        monkeypatch):
    release = threading.Event()
    calls: list[str] = []

    def stalled(task, files, options, warm=None, next_task=None, gate=None):
        calls.append(files["kernel.py"])
        release.wait(30)
        if files["kernel.py"] == "fail":
            raise RuntimeError("the arena broke")
        return EvalRecord(task=task.id, verdict="ok", compiled=True, correct=True,
                          speedup=1.0, score=220.0)

    monkeypatch.setattr(service_module, "evaluate_files", stalled)
    with rl.EvaluationService(OPTIONS, cpu_slots=1, max_pending=1) as service:
        first = service.submit(scale_add_task, {"kernel.py": "fail"})
        deadline = time.monotonic() + 10
        while not calls and time.monotonic() < deadline:  # the thread took the first job
            time.sleep(0.01)
        second = service.submit(scale_add_task, {"kernel.py": "a"})  # fills the queue
        third_done = threading.Event()
        threading.Thread(target=lambda: (service.submit(scale_add_task, {"kernel.py": "b"}),
                                         third_done.set()), daemon=True).start()
        assert not third_done.wait(0.5), "submit did not wait for room in the queue"
        release.set()
        assert third_done.wait(10)
        failed = first.result(10)
        assert failed.verdict == "error" and "the arena broke" in failed.error
        assert second.result(10).ok
    assert calls == ["fail", "a", "b"]
