"""Unit tests of the pieces the guards and the timing are built from (no worker needed)."""

from __future__ import annotations

import math
import random

import pytest
import torch

from agentkernelarena.evaluate import speed_of_light
from agentkernelarena.evaluate.compare import (
    OutputMeta,
    check_structure,
    compare_sampled,
    compare_values,
)
from agentkernelarena.evaluate.evaluator import _apply_speed_checks, policy_for
from agentkernelarena.evaluate.timing import relative_standard_error
from agentkernelarena.scoring import geometric_mean, trial_score

TOL = {"float32": (1e-5, 1e-5), "float16": (1e-3, 1e-3)}


def test_speed_of_light_rejects_only_what_beats_the_hardware():
    params = {"big": {"N": 1 << 28, "dtype": "float32"}}
    bound = speed_of_light.bound_ms("3 * N * size(dtype)", None, params["big"],
                                    speed_of_light.PEAKS["H200"])
    assert bound == pytest.approx(3 * 4 * (1 << 28) / 4.8e12 * 1e3)
    honest = [{"name": "big", "candidate_ms": bound * 1.3}]
    assert speed_of_light.check(honest, params, "3 * N * size(dtype)", None, "NVIDIA H200") == []
    fake = [{"name": "big", "candidate_ms": bound * 0.5}]
    problems = speed_of_light.check(fake, params, "3 * N * size(dtype)", None, "NVIDIA H200")
    assert len(problems) == 1 and "speed-of-light" in problems[0]
    # Unknown hardware: no bound, no verdict.
    assert speed_of_light.check(fake, params, "3 * N * size(dtype)", None, "Mystery GPU") == []


def test_speed_checks_reject_and_flag(scale_add_task):
    scale_add_task.bytes_expr = "3 * N * size(dtype)"
    name = scale_add_task.visible[0].name
    result = {"comparable": True, "seed": 1, "verdict": "ok", "reasons": [], "speedup": 12.0,
              "versions": {"gpu": "NVIDIA H200"}, "held_out": {"configs": []},
              "configs": [{"name": name, "candidate_ms": 1e-9}]}
    _apply_speed_checks(scale_add_task, result)
    assert result["verdict"] == "rejected" and "speed-of-light" in result["reasons"][0]
    assert result["flags"] == []  # a rejected trial is not sent for review as well
    result.update(verdict="ok", reasons=[], configs=[{"name": name, "candidate_ms": 1.0}])
    _apply_speed_checks(scale_add_task, result)
    assert result["verdict"] == "ok"
    assert result["flags"] and "review" in result["flags"][0]


def test_structure_checks_are_exact():
    ref = torch.zeros(4, 3)
    meta = OutputMeta.of(ref)

    class Sub(torch.Tensor):
        pass

    assert "exactly torch.Tensor" in check_structure(ref.as_subclass(Sub), meta).message
    assert "shape" in check_structure(torch.zeros(3, 4), meta).message
    assert "dtype" in check_structure(torch.zeros(4, 3, dtype=torch.float64), meta).message
    assert "expected exactly torch.Tensor" in check_structure((ref, ref), meta).message
    assert check_structure(torch.ones(4, 3), meta) is None


def test_values_nan_and_tolerance():
    ref = torch.randn(100, dtype=torch.float64)
    out = ref.float().clone()
    assert compare_values(out, ref, TOL) is None
    out[7] = float("nan")
    assert "NaN/inf" in compare_values(out, ref, TOL).message
    out = ref.float().clone()
    out[42] += 0.01
    mismatch = compare_values(out, ref, TOL)
    assert mismatch is not None and "[42]" in mismatch.message
    assert mismatch.max_abs_err == pytest.approx(0.01, rel=1e-3)
    assert "no tolerance" in compare_values(out.to(torch.bfloat16), ref, TOL).message


def test_sampled_comparison_finds_stale_outputs():
    ref = torch.randn(1 << 16, dtype=torch.float64)
    stale = torch.randn(1 << 16)
    assert compare_sampled(stale, ref, TOL) is not None
    assert compare_sampled(ref.float(), ref, TOL) is None


def test_relative_standard_error():
    assert relative_standard_error([1.0, 1.0]) == math.inf
    steady = relative_standard_error([1.0] * 50)
    noisy = relative_standard_error([random.Random(i).uniform(0.5, 1.5) for i in range(50)])
    assert steady == 0.0 and noisy > 0.01


def test_policy_per_category(scale_add_task):
    assert policy_for(scale_add_task) == {"require_launch": "triton",
                                          "forbid_torch_compute": True}
    scale_add_task.category = "torch2cuda"
    assert policy_for(scale_add_task)["require_launch"] is None


def test_score_formula():
    assert trial_score("ok", True, True, 2.0) == 320
    assert trial_score("incorrect", True, False, None) == 20
    assert trial_score("compile_error", False, False, None) == 0
    assert trial_score("rejected", True, True, 50.0) == 0
    assert geometric_mean([2.0, 8.0]) == pytest.approx(4.0)
    assert geometric_mean([]) is None
