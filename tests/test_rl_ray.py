"""The RL service on Ray (rl/ray_service.py), on a local Ray with CPU actors: order, placement,
back-pressure and an actor that dies. Ray comes with the dev extra; about 30 s."""

from __future__ import annotations

import os
import time

import pytest

from agentkernelarena import rl
from agentkernelarena.errors import AkaError

ray = pytest.importorskip("ray")
PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")
OPTIONS = rl.EvalOptions(platform=PLATFORM, held_out=False)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, num_gpus=0, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_without_ray_initialized_it_says_what_to_do():
    if ray.is_initialized():
        pytest.skip("Ray already running in this process")
    with pytest.raises(AkaError, match="Ray is not initialized"):
        rl.RayEvaluationService(OPTIONS)


def test_actors_keep_submission_order_and_spread_the_batch(local_ray, scale_add_task):
    solution = (scale_add_task.solution_dir / "kernel.py").read_text()
    wrong = solution.replace("x * alpha + y", "x * alpha - y")
    broken = solution.replace("def forward(", "def forward(  # unclosed\n  (")
    batch = [(scale_add_task, {"kernel.py": text}) for text in (wrong, solution, broken, solution)]
    with rl.RayEvaluationService(OPTIONS, actors=2, max_pending=2) as service:
        places = service.where()
        assert len({place["pid"] for place in places}) == 2
        records = service.evaluate_batch(batch)
        assert service.evaluated == 4
    assert [r.verdict for r in records] == ["incorrect", "ok", "compile_error", "ok"], \
        [r.reasons for r in records]
    with pytest.raises(AkaError, match="closed"):
        service.submit(scale_add_task, {"kernel.py": solution})


def test_a_dead_actor_gives_error_records_not_a_lost_batch(local_ray, scale_add_task):
    hanging = (scale_add_task.root / "kernel.py").read_text().replace(
        "def forward(", "import time as _t\n_t.sleep(600)\n\ndef forward(")
    service = rl.RayEvaluationService(OPTIONS, actors=1)
    future = service.submit(scale_add_task, {"kernel.py": hanging})
    time.sleep(3)  # the actor took it
    ray.kill(service.actors[0])
    record = future.result(timeout=60)
    assert record.verdict == "error" and "Ray actor failed" in record.reasons[0]
    service.close()
