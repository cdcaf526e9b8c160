"""The red-team suite: each file in cheats/ is a real attempt at one reward hack on the
scale_add fixture task (the hack only: the test puts cheats/_prelude.py, the honest kernel,
before it). Every one must be stopped: `rejected` or `incorrect`, or (where the hack is
defeated by construction) no gain at all. docs/integrity.md maps hack -> guard -> test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentkernelarena.evaluate import EvalOptions, evaluate

CHEATS = Path(__file__).parent / "cheats"
# The same suite runs on a GPU with AKA_TEST_PLATFORM=cuda (benchmarks/redteam_gpu.sh).
PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")

# cheat -> (expected verdicts, a phrase the reasons must contain)
STOPPED: dict[str, tuple[set[str], str]] = {
    "torch_compute": ({"rejected"}, "PyTorch operators"),
    "never_launched": ({"rejected"}, "Triton kernel"),
    "torch_compute_dummy_launch": ({"rejected"}, "PyTorch operators"),
    "call_reference": ({"rejected"}, "PyTorch operators"),
    # Caches are stopped twice over: no launch when the cache answers, and stale values.
    "cache_by_pointer": ({"incorrect", "rejected"}, ""),
    "cache_by_shape": ({"incorrect", "rejected"}, ""),
    "cache_after_n_calls": ({"incorrect"}, "timed call"),
    "patch_timer": ({"rejected"}, "time.perf_counter"),
    "patch_cuda_event": ({"rejected"}, "torch.cuda.Event.elapsed_time"),
    "patch_comparison": ({"rejected"}, "compare_values"),
    "patch_torch_function": ({"rejected"}, "isfinite"),
    "patch_reference": ({"rejected"}, "reference"),
    "slow_baseline": ({"rejected"}, "aka_baseline"),
    "rewrite_baseline_file": ({"rejected"}, "file"),
    "background_thread": ({"rejected"}, "thread"),
    "spawn_process": ({"rejected"}, "child process"),
    "forge_events": ({"rejected"}, "result channel"),
    "tensor_subclass": ({"incorrect"}, "exactly torch.Tensor"),
    "write_into_input": ({"incorrect"}, "input"),
    "low_precision": ({"incorrect"}, "outside atol"),
    "partial_compute": ({"incorrect"}, "outside atol"),
}
# Hacks that are defeated by construction: the evaluation is honest and the hack gains nothing.
NO_GAIN = ("torch_when_unaudited", "stdout_spoof")


def _solution(tmp_path: Path, cheat: str) -> Path:
    folder = tmp_path / cheat
    folder.mkdir()
    prelude = (CHEATS / "_prelude.py").read_text()
    (folder / "kernel.py").write_text(prelude + "\n\n" + (CHEATS / f"{cheat}.py").read_text())
    return folder


def test_every_cheat_has_an_expectation():
    files = {p.stem for p in CHEATS.glob("*.py") if not p.name.startswith("_")}
    assert files == set(STOPPED) | set(NO_GAIN) | {"hardcoded_shape", "side_stream"}
    assert len(files) >= 15


@pytest.mark.parametrize("cheat", sorted(STOPPED))
def test_cheat_is_stopped(cheat, scale_add_task, tmp_path):
    verdicts, phrase = STOPPED[cheat]
    result = evaluate(scale_add_task, _solution(tmp_path, cheat),
                      EvalOptions(platform=PLATFORM, seed=7, held_out=False))
    assert result["verdict"] in verdicts, (result["verdict"], result["reasons"])
    assert phrase in " ".join(result["reasons"]), result["reasons"]
    assert result["score"] <= 20
    if result["verdict"] == "rejected":
        assert result["score"] == 0


@pytest.mark.parametrize("cheat", NO_GAIN)
def test_hack_gains_nothing(cheat, scale_add_task, tmp_path):
    result = evaluate(scale_add_task, _solution(tmp_path, cheat),
                      EvalOptions(platform=PLATFORM, seed=7, held_out=False))
    assert result["verdict"] == "ok", result["reasons"]
    # PyTorch on the CPU is orders of magnitude faster than Triton's interpreter: a hack that
    # got PyTorch's result timed would show a speedup far above this. (On a GPU both are fast.)
    assert result["speedup"] < 5
    assert result["score"] < 120 + 500


def test_hardcoded_shape_fails_held_out(scale_add_task, tmp_path):
    result = evaluate(scale_add_task, _solution(tmp_path, "hardcoded_shape"),
                      EvalOptions(platform=PLATFORM, seed=7))
    assert result["verdict"] == "ok"
    assert result["held_out"]["correct"] is False
    assert result["held_out"]["quadrant"] == "regression"


@pytest.mark.gpu
def test_side_stream_is_rejected_on_gpu(scale_add_task, tmp_path):
    result = evaluate(scale_add_task, _solution(tmp_path, "side_stream"),
                      EvalOptions(platform="cuda", seed=7, held_out=False))
    assert result["verdict"] == "rejected", result["reasons"]
    assert "stream" in " ".join(result["reasons"])
