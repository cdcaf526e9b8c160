"""Evaluations sharing a GPU (evaluate/gate.py): untimed parts together, timed rounds alone.
The unit tests drive the gate from threads; the last one runs real evaluations through the RL
service with two lanes on one slot and checks, from inside the gate, that no timed round ever
began while another evaluation held the GPU."""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager

import pytest

from agentkernelarena import rl
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate.gate import DeviceGate

PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")


def _in_thread(target) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def _wait_until(predicate, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.005)
    return predicate()


def test_untimed_parts_run_together():
    gate = DeviceGate()
    inside = threading.Barrier(3, timeout=5)

    def untimed_part():
        with gate.untimed():
            inside.wait()  # all three inside at once, or the barrier times out

    threads = [_in_thread(untimed_part) for _ in range(3)]
    for thread in threads:
        thread.join(10)
    assert not inside.broken


def test_a_timed_round_waits_for_the_others_untimed_parts_and_blocks_new_ones():
    gate = DeviceGate()
    log: list[str] = []
    release_other = threading.Event()
    other_inside = threading.Event()

    def other():
        with gate.untimed():
            other_inside.set()
            release_other.wait(10)
            log.append("other untimed ends")

    def timing():
        with gate.untimed():
            with gate.timed():
                log.append("timed starts")
                time.sleep(0.1)
                log.append("timed ends")

    t_other = _in_thread(other)
    assert other_inside.wait(5)
    t_timing = _in_thread(timing)
    assert _wait_until(lambda: gate._writers_waiting == 1)
    # A newcomer waits while a timed round waits: the writer cannot starve.
    newcomer_in = threading.Event()

    def newcomer():
        with gate.untimed():
            newcomer_in.set()
            log.append("newcomer untimed")

    t_new = _in_thread(newcomer)
    time.sleep(0.1)
    assert not newcomer_in.is_set() and log == []
    release_other.set()
    for thread in (t_other, t_timing, t_new):
        thread.join(10)
    assert log == ["other untimed ends", "timed starts", "timed ends", "newcomer untimed"]
    assert gate._shared == 0 and gate._owner is None


def test_timed_rounds_never_overlap_and_the_caller_keeps_its_shared_hold():
    gate = DeviceGate()
    active = 0
    most = 0
    lock = threading.Lock()

    def evaluation():
        nonlocal active, most
        with gate.untimed():
            for _ in range(5):
                with gate.timed():
                    with lock:
                        active += 1
                        most = max(most, active)
                    time.sleep(0.002)
                    with lock:
                        active -= 1
                # Back in the untimed part: its shared hold is counted again.
                assert gate._shared >= 1

    threads = [_in_thread(evaluation) for _ in range(4)]
    for thread in threads:
        thread.join(20)
    assert most == 1
    assert gate._shared == 0 and gate._owner is None and gate._writers_waiting == 0


class _WatchedGate(DeviceGate):
    """Logs every hold with its thread and times, to check afterwards that no timed round
    overlapped another thread's shared hold."""

    def __init__(self) -> None:
        super().__init__("watched")
        self.log: list[tuple[str, int, float, float]] = []
        self._opened: dict[int, list[float]] = {}

    def acquire_shared(self) -> float:
        waited = super().acquire_shared()
        self._opened.setdefault(threading.get_ident(), []).append(time.monotonic())
        return waited

    def release_shared(self) -> None:
        began = self._opened[threading.get_ident()].pop()
        self.log.append(("shared", threading.get_ident(), began, time.monotonic()))
        super().release_shared()

    @contextmanager
    def timed(self):
        with super().timed() as waited:
            began = time.monotonic()
            yield waited
            self.log.append(("timed", threading.get_ident(), began, time.monotonic()))


def test_the_service_shares_a_slot_between_lanes_and_times_alone(scale_add_task, monkeypatch):
    from agentkernelarena.evaluate.session import Session

    unguarded: list[str] = []
    ask_judge, receive = Session._ask_judge, Session._receive_runner_reply

    def judged(self, command, **fields):
        if not (self.gate.held_here() or self.gate.timing_here()):
            unguarded.append(f"judge {command}")
        return ask_judge(self, command, **fields)

    def received(self, command):
        if not (self.runner_holds_gate or self.gate.timing_here()):
            unguarded.append(f"runner {command}")
        return receive(self, command)

    monkeypatch.setattr(Session, "_ask_judge", judged)
    monkeypatch.setattr(Session, "_receive_runner_reply", received)
    solution = (scale_add_task.solution_dir / "kernel.py").read_text()
    baseline = (scale_add_task.root / "kernel.py").read_text()
    broken = solution.replace("def forward(", "def forward(  # unclosed\n  (")
    options = rl.EvalOptions(platform=PLATFORM, held_out=True)
    with rl.EvaluationService(options, cpu_slots=1, lanes=3) as service:
        (slot_name,) = service.gates
        gate = service.gates[slot_name] = _WatchedGate()
        batch = [(scale_add_task, {"kernel.py": text})
                 for text in (solution, broken, baseline, solution, baseline)]
        records = service.evaluate_batch(batch)
    assert [r.verdict for r in records] == ["ok", "compile_error", "ok", "ok", "ok"], \
        [r.reasons for r in records]
    assert unguarded == []  # every command of every evaluation went through the gate
    timed = [entry for entry in gate.log if entry[0] == "timed"]
    shared = [entry for entry in gate.log if entry[0] == "shared"]
    assert len(timed) == 8  # four measured evaluations, visible and held-out
    assert len({entry[1] for entry in shared}) >= 2  # the lanes did share the slot
    overlaps = [(t, s) for t in timed for s in shared
                if s[1] != t[1] and s[2] < t[3] and t[2] < s[3]]
    assert overlaps == []
    assert gate._shared == 0 and gate._owner is None
    assert all(r.raw.get("shared_gpu") is True for r in records if r.compiled)


def test_a_nested_shared_hold_does_not_queue_behind_a_waiting_writer():
    gate = DeviceGate()
    gate.acquire_shared()  # this thread's runner command in flight
    writer_in = threading.Event()

    def writer():
        with gate.timed():
            writer_in.set()

    thread = _in_thread(writer)
    assert _wait_until(lambda: gate._writers_waiting == 1)
    with gate.untimed():  # the judge command meanwhile: must not wait for the writer
        assert not writer_in.is_set()
    gate.release_shared()
    thread.join(5)
    assert writer_in.is_set()
    with pytest.raises(RuntimeError, match="did not take"):
        gate.release_shared()


def test_lanes_must_be_positive_and_exclude_the_warm_start():
    with pytest.raises(AkaError, match="lanes must be at least 1"):
        rl.EvaluationService(rl.EvalOptions(platform="cpu"), lanes=0)
    with rl.EvaluationService(rl.EvalOptions(platform="cpu"), cpu_slots=1, lanes=2) as service:
        assert service.warm_start is False and len(service.gates) == 1
    with rl.EvaluationService(rl.EvalOptions(platform="cpu"), cpu_slots=1) as service:
        assert service.lanes == 1 and service.gates == {}


def test_a_hanging_lane_delays_the_other_but_costs_it_nothing(scale_add_task):
    """A candidate that hangs inside an untimed command (here its import) holds the gate until
    its time limit kills it; the other lane's timed rounds wait for that, then run, and the
    gate is free afterwards. (Whether the wait is kept out of the other's own limit is not
    isolated here: on this fixture its timed calls are too short for a spent limit to bite.)"""
    solution = (scale_add_task.solution_dir / "kernel.py").read_text()
    hanging = "import time as _t\n_t.sleep(600)\n" + solution
    options = rl.EvalOptions(platform=PLATFORM, held_out=False, time_limit_s=25)
    with rl.EvaluationService(options, cpu_slots=1, lanes=2) as service:
        (gate,) = service.gates.values()
        # The honest one starts a moment earlier and reaches its timed rounds while the other
        # hangs in its import.
        honest = service.submit(scale_add_task, {"kernel.py": solution})
        time.sleep(0.3)
        hung = service.submit(scale_add_task, {"kernel.py": hanging})
        assert hung.result(timeout=120).verdict == "timeout"
        record = honest.result(timeout=120)
    assert record.verdict == "ok", record.reasons
    assert record.raw["eval_cost"]["commands"]["gate.wait"]["ms"] > 5000  # it did wait
    assert gate._shared == 0 and gate._owner is None


class _Answer:
    data = {"ok": True}
    wall_ms = 1.0


class _FakeJudge:
    """A judge that answers at once and remembers when it was asked."""

    def __init__(self) -> None:
        self.asked_at: list[float] = []

    def request(self, command, timeout, **fields):
        self.asked_at.append(time.monotonic())
        return _Answer()


def test_time_waiting_at_the_gate_moves_the_waiting_evaluations_deadlines(tmp_path):
    """Another evaluation's timed rounds hold the GPU for 0.4 s; this one's command waits for
    them, and that wait is added to its deadlines (phase and whole evaluation), so a candidate
    is never timed out for time it spent queued behind another."""
    from agentkernelarena.evaluate.channel import WorkerChannel

    gate = DeviceGate()
    judge = _FakeJudge()
    channel = WorkerChannel({}, tmp_path, judge, None, {"total": 0.2, "startup": 0.2},
                            freezer=None, gate=gate)
    total, phase = channel.total_deadline, channel.phase_deadline
    timing = threading.Event()

    def other_evaluation_times():
        with gate.timed():
            timing.set()
            time.sleep(0.4)

    thread = _in_thread(other_evaluation_times)
    assert timing.wait(5)
    asked = time.monotonic()
    channel.ask_judge("ping")
    thread.join(5)
    waited = judge.asked_at[0] - asked
    assert waited > 0.3
    assert channel.total_deadline - total == pytest.approx(waited, abs=0.05)
    assert channel.phase_deadline - phase == pytest.approx(waited, abs=0.05)
    assert channel.cost["gate.shared_wait"][1] >= 300  # milliseconds, in the evaluation's cost
    # Without a wait nothing moves.
    before = channel.total_deadline
    channel.ask_judge("ping")
    assert channel.total_deadline == before
