"""Unit tests of the pieces the guards and the timing are built from (no worker needed)."""

from __future__ import annotations

import math
import random
import statistics

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


def test_an_infinite_reference_value_must_be_matched():
    """The max over an empty mask is -inf: a kernel may not return anything it likes there."""
    ref = torch.randn(16, dtype=torch.float64)
    ref[3], ref[9] = float("-inf"), float("inf")
    out = ref.float().clone()
    assert compare_values(out, ref, TOL) is None
    for wrong in (0.0, float("inf"), float("nan"), -1e30):
        bad = out.clone()
        bad[3] = wrong
        assert "+-inf" in compare_values(bad, ref, TOL).message


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


def _rounds(n=24, c_ms=1.0, b_ms=1.0, over=1.5, c_extra=0.0, noise=0.0, deliver=(10.0, 10.0),
            b_pad=0.2, seed=3):
    rng = random.Random(seed)
    rounds = []
    for index in range(n):
        jitter = rng.gauss(0, noise) if noise else 0.0
        record = {"c_ms": c_ms, "c_wall": c_ms + over + c_extra + jitter,
                  "b_ms": b_ms, "b_wall": b_ms + over + jitter, "b_pad": b_pad}
        if index % 4 == 0:
            record.update(c_deliver=deliver[0], b_deliver=deliver[1])
        rounds.append(record)
    return rounds


def test_witness_accepts_honest_readings_and_rejects_forged_ones():
    from agentkernelarena.evaluate.witness import witness_problems

    assert witness_problems(_rounds(), 0.2, "cuda", "c")[0] == []
    # A candidate that reports a tenth of a 1 ms call: 0.9 ms its clock did not see.
    forged = _rounds(c_ms=0.1, c_extra=0.9)
    problems, fields = witness_problems(forged, 0.2, "cuda", "c")
    assert len(problems) == 1 and "supervisor's clock" in problems[0]
    assert fields["witness"]["candidate_overhead_ms"] > fields["witness"]["baseline_overhead_ms"]
    # Below the tolerance (0.25 ms + 2% of 1 ms), a forgery is not seen: the documented slack
    # (the device trace sees forged readings of device work; this bounds hidden host work).
    assert witness_problems(_rounds(c_ms=0.8, c_extra=0.2), 0.2, "cuda", "c")[0] == []
    assert witness_problems(_rounds(c_ms=0.7, c_extra=0.3), 0.2, "cuda", "c")[0]


def test_witness_tolerance_grows_with_a_noisy_host_but_still_sees_big_forgeries():
    from agentkernelarena.evaluate.witness import witness_problems

    noisy = _rounds(noise=0.3)  # both sides jitter together within a round: pairs cancel it
    assert witness_problems(noisy, 0.2, "cuda", "c")[0] == []
    unpaired = _rounds(noise=0.0)
    rng = random.Random(5)
    for record in unpaired:  # the candidate's side alone jitters
        record["c_wall"] += abs(rng.gauss(0, 0.05))
    problems, fields = witness_problems(unpaired, 0.2, "cuda", "c")
    assert fields["witness"]["tolerance_ms"] > 0.25 + 0.02 + 0.01  # the spread term grew
    forged = _rounds(c_ms=0.5, c_extra=0.5, noise=0.3)
    assert witness_problems(forged, 0.2, "cuda", "c")[0]


def test_witness_sees_a_lazy_handover_and_a_busy_gpu():
    from agentkernelarena.evaluate.witness import witness_problems

    lazy = _rounds(deliver=(40.0, 10.0))
    problems, _ = witness_problems(lazy, 0.2, "cuda", "c")
    assert len(problems) == 1 and "handing over its output" in problems[0]
    busy = _rounds(b_pad=5.0)
    problems, fields = witness_problems(busy, 0.2, "cuda", "c")
    assert fields["witness"]["busy_rounds"] == 24
    assert any("GPU was busy" in p for p in problems)
    # On the CPU there is no pad: no busy rounds, whatever the pad readings say.
    assert witness_problems(_rounds(b_pad=5.0), 0.0, "cpu", "c")[0] == []


def test_freezer_stops_and_resumes_a_process_tree():
    import subprocess
    import sys
    import time

    from agentkernelarena.evaluate.witness import Freezer

    code = ("import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', "
            "'import time; time.sleep(30)']); time.sleep(30)")
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        time.sleep(1.0)
        freezer = Freezer(parent.pid)
        freezer.freeze()
        stopped = freezer._stopped
        assert len(stopped) == 2

        def states() -> list[str]:
            return [open(f"/proc/{pid}/stat").read().split()[2] for pid in stopped]

        deadline = time.monotonic() + 2  # a stop signal lands within moments, not at once
        while states() != ["T", "T"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert states() == ["T", "T"]
        freezer.thaw()
        deadline = time.monotonic() + 2
        while "T" in states() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "T" not in states()
    finally:
        subprocess.run(["pkill", "-P", str(parent.pid)], check=False)
        parent.kill()
        parent.wait()


def test_cpu_candidate_is_timed_by_the_supervisors_clock():
    """On the CPU a forged reading (a tenth of the call) or work moved outside the call buys
    nothing: the candidate's time is its command's wall time less the baseline's overhead."""
    from agentkernelarena.evaluate.session import _own_clock
    from agentkernelarena.evaluate.witness import witness_problems

    forged = _rounds(c_ms=0.1, c_extra=0.9, noise=0.05)  # it took 1 ms, it said 0.1
    _own_clock(forged)
    assert all(r["c_reported"] == 0.1 for r in forged)
    assert statistics.median(r["c_ms"] for r in forged) == pytest.approx(1.0, abs=0.1)
    # The witness rules on the reading on a GPU only; on the CPU the clock above decides.
    assert witness_problems(forged, 0.0, "cpu", "c")[0] == []
    honest = _rounds(c_ms=2.0, b_ms=2.0, noise=0.05)
    _own_clock(honest)
    assert statistics.median(r["c_ms"] for r in honest) == pytest.approx(2.0, abs=0.1)
    # Handing over inside the timed command leaves no separate deliver readings.
    plain = [{k: v for k, v in r.items() if "deliver" not in k} for r in _rounds()]
    assert witness_problems(plain, 0.2, "cuda", "c")[0] == []


def test_identical_tells_nan_inputs_unchanged_and_changed():
    from agentkernelarena.evaluate.compare import identical

    x = torch.tensor([1.0, float("nan"), float("inf")])
    assert identical(x, x.clone()) and not torch.equal(x, x.clone())
    assert not identical(x, torch.tensor([1.0, 2.0, float("inf")]))
    assert not identical(x, x.double())
