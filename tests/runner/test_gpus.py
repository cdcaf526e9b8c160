"""The evaluation pool with fake GPUs: one evaluation per GPU, each sees only its own."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from run_helpers import FIXTURE_TASKS

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions
from agentkernelarena.platforms import PLATFORMS
from agentkernelarena.runner.gpus import (
    DevicePool,
    Slot,
    lane_slots,
    make_slots,
    shared_slots,
    visible_device_ids,
)

CUDA, ROCM, CPU = PLATFORMS["cuda"], PLATFORMS["rocm"], PLATFORMS["cpu"]


def test_slots_from_fake_gpu_counts():
    slots = make_slots(CUDA, device_ids=["0", "1", "2", "3"])
    assert [s.device for s in slots] == ["0", "1", "2", "3"]
    assert slots[1].env == {"CUDA_VISIBLE_DEVICES": "1", "HIP_VISIBLE_DEVICES": "1"}
    chosen = make_slots(CUDA, gpus=[1, 3], device_ids=["0", "1", "2", "3"])
    assert [s.device for s in chosen] == ["1", "3"]
    with pytest.raises(AkaError, match="shows 2 GPU"):
        make_slots(CUDA, gpus=[2], device_ids=["0", "1"])
    with pytest.raises(AkaError, match="no GPU is visible"):
        make_slots(CUDA, device_ids=[])
    assert [s.env for s in make_slots(CPU, cpu_slots=3)] == [{}, {}, {}]
    with pytest.raises(AkaError, match="platform is cpu"):
        make_slots(CPU, gpus=[0])


def test_shared_slots_put_several_untimed_evaluations_on_each_gpu():
    slots = shared_slots(CUDA, 3, gpus=[1, 2], device_ids=["0", "1", "2"])
    assert sorted(s.device for s in slots) == ["1", "1", "1", "2", "2", "2"]
    assert [s.index for s in slots] == list(range(6))
    assert all(s.env == {"CUDA_VISIBLE_DEVICES": s.device, "HIP_VISIBLE_DEVICES": s.device}
               for s in slots)
    cpu = shared_slots(CPU, 5)
    assert len(cpu) == 5 and all(s.device is None for s in cpu)


def test_visible_ids_respect_the_runners_own_restriction():
    # Started with CUDA_VISIBLE_DEVICES=2,3: torch's GPU 0 is physical 2.
    assert visible_device_ids(CUDA, 2, {"CUDA_VISIBLE_DEVICES": "2,3"}) == ["2", "3"]
    assert visible_device_ids(CUDA, 2, {}) == ["0", "1"]
    assert visible_device_ids(ROCM, 1, {"HIP_VISIBLE_DEVICES": "5",
                                        "CUDA_VISIBLE_DEVICES": "0,1"}) == ["5"]
    assert visible_device_ids(CPU, 4, {}) == []
    uuid = "GPU-8a9b"
    assert visible_device_ids(CUDA, 1, {"CUDA_VISIBLE_DEVICES": uuid}) == [uuid]


@pytest.mark.parametrize("gpus, evaluations", [(1, 4), (2, 8), (3, 9)])
def test_one_evaluation_per_gpu_at_a_time(gpus: int, evaluations: int):
    pool = DevicePool(make_slots(CUDA, device_ids=[str(i) for i in range(gpus)]))
    lock = threading.Lock()
    busy: dict[str, int] = {}
    seen: list[tuple[str, dict[str, str]]] = []
    overlap = []

    def fake_evaluate(task, solution_dir, options: EvalOptions):
        device = options.env["CUDA_VISIBLE_DEVICES"]
        with lock:
            busy[device] = busy.get(device, 0) + 1
            overlap.append(busy[device])
            seen.append((device, dict(options.env)))
        time.sleep(0.05)
        with lock:
            busy[device] -= 1
        return {"verdict": "ok"}

    evaluate = pool.wrap(fake_evaluate)
    with ThreadPoolExecutor(max_workers=evaluations) as executor:
        results = list(executor.map(
            lambda _: evaluate(None, Path("."), EvalOptions(env={"KEEP": "1"})),
            range(evaluations)))
    assert max(overlap) == 1  # never two evaluations on one GPU
    assert pool.max_in_use == gpus  # and every GPU used
    assert {d for d, _ in seen} == {str(i) for i in range(gpus)}
    assert all(env["HIP_VISIBLE_DEVICES"] == d and env["KEEP"] == "1" for d, env in seen)
    assert all(r["scheduler"]["slot"].startswith("gpu") for r in results)
    assert pool.stats()["evaluations"] == evaluations


def test_cpu_permits_limit_concurrency():
    pool = DevicePool([Slot(0), Slot(1)])
    running, peak = [0], [0]
    lock = threading.Lock()

    def fake(task, solution_dir, options):
        assert options.env is None  # a CPU permit adds nothing
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return {}

    evaluate = pool.wrap(fake)
    with ThreadPoolExecutor(max_workers=6) as executor:
        list(executor.map(lambda _: evaluate(None, Path("."), None), range(6)))
    assert peak[0] == 2


def _ok_record(task) -> dict:
    """What a fake evaluator returns: an ok verdict at 1x."""
    return {"task": task.id, "category": task.category, "platform": "cuda",
            "comparable": True, "verdict": "ok", "compiled": True, "correct": True,
            "speedup": 1.0, "score": 220.0, "reasons": [], "configs": [], "seed": 1,
            "held_out": {"evaluated": False, "correct": None, "speedup": None}}


def test_a_run_schedules_its_evaluations_on_fake_gpus(tmp_path: Path, monkeypatch):
    """The whole local executor with 2 fake GPUs and a fake evaluator: 6 trials, 4 agents at
    once, never two evaluations on one GPU, each trial's evaluation tagged with its GPU."""
    from agentkernelarena.runner import run as run_module
    from agentkernelarena.runner.config import config_from_mapping
    from agentkernelarena.runner.preflight import prepare

    lock = threading.Lock()
    busy: dict[str, int] = {}
    worst = [0]

    def fake_evaluate(task, solution_dir, options):
        device = options.env["CUDA_VISIBLE_DEVICES"]
        with lock:
            busy[device] = busy.get(device, 0) + 1
            worst[0] = max(worst[0], busy[device])
        time.sleep(0.2)
        with lock:
            busy[device] -= 1
        return _ok_record(task)

    config = config_from_mapping({"agents": ["noop"], "tasks": ["triton2triton/scale_add"],
                                  "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu",
                                  "attempts": 6, "concurrency": 4,
                                  "out": str(tmp_path / "run")}, "test")
    plan = prepare(config)
    plan.platform = CUDA  # pretend: this machine has two GPUs
    monkeypatch.setattr(run_module, "evaluate", fake_evaluate)
    monkeypatch.setattr(run_module, "lane_slots", lambda platform, lanes, gpus, cpu:
                        lane_slots(CUDA, lanes, device_ids=["0", "1"]))
    outcome = run_module.execute(plan, live=False)
    assert outcome.finished == 6 and not outcome.failed
    assert worst[0] == 1 and outcome.pool["max_in_use"] == 2
    records = [p.read_text() for p in (tmp_path / "run" / "trials").glob("*/trial.json")]
    assert len(records) == 6
    assert all('"visible_devices": "0"' in r or '"visible_devices": "1"' in r for r in records)


def test_lane_slots_share_each_gpu_behind_one_gate():
    slots, gates = lane_slots(CUDA, 3, device_ids=["0", "1"])
    assert sorted(s.device for s in slots) == ["0", "0", "0", "1", "1", "1"]
    assert sorted(gates) == ["0", "1"] and gates["0"] is not gates["1"]
    assert lane_slots(CUDA, 1, device_ids=["0", "1"])[1] == {}
    cpu_slots, cpu_gates = lane_slots(CPU, 4, cpu_slots=2)
    assert len(cpu_slots) == 2 and cpu_gates == {}


def test_a_run_with_lanes_times_alone_on_each_gpu(tmp_path: Path, monkeypatch):
    """Two fake GPUs, two lanes each: up to two evaluations per GPU at once, each given its
    GPU's gate, and their timed parts never overlap on one GPU."""
    from agentkernelarena.runner import run as run_module
    from agentkernelarena.runner.config import config_from_mapping
    from agentkernelarena.runner.preflight import prepare

    lock = threading.Lock()
    busy: dict[str, int] = {}
    timing: dict[str, int] = {}
    worst = {"busy": 0, "timing": 0}
    gates_seen: dict[str, set[int]] = {}

    def fake_evaluate(task, solution_dir, options, gate=None):
        device = options.env["CUDA_VISIBLE_DEVICES"]
        assert gate is not None
        with lock:
            gates_seen.setdefault(device, set()).add(id(gate))
            busy[device] = busy.get(device, 0) + 1
            worst["busy"] = max(worst["busy"], busy[device])
        with gate.untimed():
            time.sleep(0.1)
        with gate.timed():
            with lock:
                timing[device] = timing.get(device, 0) + 1
                worst["timing"] = max(worst["timing"], timing[device])
            time.sleep(0.05)
            with lock:
                timing[device] -= 1
        with lock:
            busy[device] -= 1
        return _ok_record(task)

    config = config_from_mapping({"agents": ["noop"], "tasks": ["triton2triton/scale_add"],
                                  "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu",
                                  "attempts": 8, "concurrency": 4, "eval_lanes": 2,
                                  "out": str(tmp_path / "run")}, "test")
    plan = prepare(config)
    plan.platform = CUDA
    monkeypatch.setattr(run_module, "evaluate", fake_evaluate)
    monkeypatch.setattr(run_module, "lane_slots", lambda platform, lanes, gpus, cpu:
                        lane_slots(CUDA, lanes, device_ids=["0", "1"]))
    outcome = run_module.execute(plan, live=False)
    assert outcome.finished == 8 and not outcome.failed
    assert worst["timing"] == 1 and worst["busy"] <= 2
    assert outcome.pool["lanes_share_gpus"] is True and outcome.pool["max_in_use"] >= 3
    assert all(len(ids) == 1 for ids in gates_seen.values())  # one gate per GPU
