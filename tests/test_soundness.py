"""`aka tasks check`'s soundness checks: each rule, broken on purpose in a copy of the fixture
task, is named with what to change; the sound fixture passes them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

from agentkernelarena.cli import cli as cli_main
from agentkernelarena.errors import TaskError
from agentkernelarena.tasks import discover_tasks, load_task
from agentkernelarena.tasks import variants as v
from agentkernelarena.tasks.check import check_seed
from agentkernelarena.tasks.soundness import check_soundness


def _edit(task_dir: Path, old: str, new: str) -> None:
    path = task_dir / "task.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def _append(task_dir: Path, text: str, file: str = "task.yaml") -> None:
    path = task_dir / file
    path.write_text(path.read_text() + text)


def _problems(task_dir: Path) -> list[str]:
    return check_soundness(load_task(task_dir), "cpu", "cpu")["problems"]


def test_the_sound_fixture_passes_and_every_generic_variant_is_caught(scale_add_task):
    report = check_soundness(scale_add_task, "cpu", "cpu")
    assert report["problems"] == []
    for name in ("zeros", "constant", "scaled", "shifted", "tail_zeroed", "few_wrong",
                 "lower_precision"):
        assert report["variants"][name]["caught"], name
    assert report["bytes"]["N4096-float32"] == {"formula": 3 * 4096 * 4, "needed": 3 * 4096 * 4}


def test_a_tolerance_that_admits_zeros_is_flagged(task_copy):
    task_dir = task_copy()
    _edit(task_dir, "float32: {atol: 1.0e-5, rtol: 1.0e-5}", "float32: {atol: 10.0, rtol: 0}")
    _edit(task_dir, "float16: {atol: 1.0e-3, rtol: 1.0e-3}", "float16: {atol: 10.0, rtol: 0}")
    problems = _problems(task_dir)
    assert any("'zeros' passes the comparison" in p and "tighten the tolerance" in p
               for p in problems)
    assert any("zero is within tolerance for 100%" in p for p in problems)


def test_a_bytes_formula_beyond_what_a_kernel_moves_is_flagged(task_copy):
    task_dir = task_copy()
    _edit(task_dir, 'bytes: "3 * N * size(dtype)"', 'bytes: "4 * N * size(dtype)"')
    problems = _problems(task_dir)
    assert any("'bytes' counts" in p and "inputs read and outputs written once" in p
               for p in problems)


def test_min_bytes_decides_when_declared(task_copy):
    task_dir = task_copy()
    _append(task_dir, "\n\ndef min_bytes(config, x, y, alpha):\n"
                      "    return 2 * x.numel() * x.element_size()\n", "reference.py")
    _append(task_dir, "min_bytes: reference.py:min_bytes\n")
    assert any("'bytes' counts" in p and ": min_bytes)" in p for p in _problems(task_dir))


def test_a_mask_input_needs_min_bytes(task_copy):
    task_dir = task_copy()
    reference = task_dir / "reference.py"
    reference.write_text(reference.read_text()
                         .replace("return (x, y, 1.5)", "return (x, y, 1.5, x > 0)")
                         .replace("alpha: float)", "alpha: float, mask=None)"))
    assert any("bool tensor (a mask?)" in p for p in _problems(task_dir))


def test_declared_wrong_variants_must_fail_somewhere(task_copy):
    task_dir = task_copy()
    (task_dir / "wrong.py").write_text(
        "def same(x, y, alpha):\n    return x * alpha + y\n\n"
        "def other(x, y, alpha):\n    return x * (alpha + 0.01) + y\n")
    _append(task_dir, "wrong_variants: [wrong.py:same, wrong.py:other]\n")
    report = check_soundness(load_task(task_dir), "cpu", "cpu")
    assert report["variants"]["wrong.py:other"]["caught"]
    assert not report["variants"]["wrong.py:same"]["caught"]
    assert [p for p in report["problems"] if "wrong.py:same" in p]
    assert not [p for p in report["problems"] if "wrong.py:other" in p]


def test_a_rule_the_inputs_never_exercise_is_flagged(task_copy):
    task_dir = task_copy()
    _append(task_dir, "\n\ndef exercised(config, x, y, alpha):\n"
                      "    return {'negative alpha': alpha < 0,\n"
                      "            'odd length': x.numel() % 2 == 1}\n", "reference.py")
    _append(task_dir, "input_checks: [reference.py:exercised]\n")
    report = check_soundness(load_task(task_dir), "cpu", "cpu")
    assert report["rules"]["odd length"] == ["N3001-float32"]
    assert [p for p in report["problems"] if "'negative alpha' is exercised by no" in p]
    assert not [p for p in report["problems"] if "odd length" in p]


def test_a_reference_that_raises_is_named_and_the_check_goes_on(task_copy):
    task_dir = task_copy()
    reference = task_dir / "reference.py"
    reference.write_text(reference.read_text().replace(
        "    return x * alpha + y",
        "    if x.numel() == 100:\n        raise ValueError('broken')\n    return x * alpha + y"))
    report = check_soundness(load_task(task_dir), "cpu", "cpu")
    assert [p for p in report["problems"] if "config N100-float16" in p and "broken" in p]
    assert report["variants"]["zeros"]["rejected_on"]  # the other configurations were checked


def test_an_fp32_task_with_a_tensor_core_peak_is_flagged(task_copy):
    task_dir = task_copy()
    _edit(task_dir, 'flops: "2 * N"', 'flops: "2_000_000 * N"\nprecision: fp16')
    assert any("dtype float32 but precision fp16" in p for p in _problems(task_dir))


def test_an_fp32_bound_with_a_tolerance_that_admits_tf32_is_flagged(task_copy):
    task_dir = task_copy()
    _edit(task_dir, 'flops: "2 * N"', 'flops: "2_000_000 * N"')
    _edit(task_dir, "float32: {atol: 1.0e-5, rtol: 1.0e-5}",
          "float32: {atol: 1.0e-2, rtol: 1.0e-2}")
    assert any("admits TF32" in p for p in _problems(task_dir))


def test_soundness_skip_needs_a_reason_and_skips(task_copy):
    task_dir = task_copy()
    _edit(task_dir, "float32: {atol: 1.0e-5, rtol: 1.0e-5}", "float32: {atol: 1.0e-5, rtol: 0.2}")
    _edit(task_dir, "float16: {atol: 1.0e-3, rtol: 1.0e-3}", "float16: {atol: 1.0e-3, rtol: 0.2}")
    assert any("'scaled' passes" in p for p in _problems(task_dir))
    _append(task_dir, "soundness_skip: {scaled: 'the test says so'}\n")
    report = check_soundness(load_task(task_dir), "cpu", "cpu")
    assert report["variants"]["scaled"]["skipped"] == "the test says so"
    assert not [p for p in report["problems"] if "'scaled'" in p]
    _edit(task_dir, "{scaled: 'the test says so'}", "{scaled: ''}")
    with pytest.raises(TaskError, match="soundness_skip"):
        load_task(task_dir)


def test_unknown_precision_and_missing_variant_files_are_refused(task_copy):
    task_dir = task_copy()
    _append(task_dir, "precision: fp12\n")
    with pytest.raises(TaskError, match="unknown precision class"):
        load_task(task_dir)
    task_dir = task_dir.parent / "scale_add"
    _edit(task_dir, "precision: fp12\n", "wrong_variants: [nowhere.py:f]\n")
    with pytest.raises(TaskError, match="nowhere.py"):
        load_task(task_dir)


def test_generic_mutations():
    q = torch.tensor([[3, -2, 0, 5]], dtype=torch.int8)
    moved = v.off_by_one(q, 0.0, 0.0)
    assert moved.tolist() == [[2, -2, 1, 5]]
    assert v.transposed(torch.arange(6.0).reshape(2, 3), 0, 0).tolist() == [[0, 3, 1], [4, 2, 5]]
    x = torch.tensor([1.0 + 2**-10, 3.0])
    assert v.round_mantissa(x, 7).tolist() == [1.0, 3.0]
    wrong = v.few_wrong(torch.ones(4000), 1e-3, 1e-3)
    changed = wrong[wrong != 1]
    assert changed.numel() == 4 and bool((changed > 1.004).all())


def test_zeros_share_ignores_values_float16_cannot_hold():
    ref = torch.tensor([1e-9, 1e-9, 0.5, 0.25], dtype=torch.float64)
    assert v.zeros_pass_share(ref, torch.float16, 1e-7, 0.0) == 0.0
    assert v.zeros_pass_share(ref, torch.float32, 1e-7, 0.0) == 0.5


def test_tasks_check_names_the_task_and_rule_and_goes_on(task_copy, tmp_path):
    """The CLI: an unsound task fails with its rule in the JSON report; the next is checked."""
    task_dir = task_copy()
    _edit(task_dir, "float32: {atol: 1.0e-5, rtol: 1.0e-5}", "float32: {atol: 10.0, rtol: 0}")
    _edit(task_dir, "float16: {atol: 1.0e-3, rtol: 1.0e-3}", "float16: {atol: 10.0, rtol: 0}")
    result = CliRunner().invoke(cli_main, ["tasks", "check", "triton2triton/scale_add",
                                           "--platform", "cpu", "--tasks-dir",
                                           str(task_dir.parent.parent), "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)[0]
    assert report["task"] == "triton2triton/scale_add" and not report["ok"]
    assert any("'zeros' passes" in p for p in report["problems"])
    assert report["soundness"]["variants"]["zeros"]["passed_on"]


def test_a_failed_check_names_its_seed_and_how_to_run_it_again(task_copy):
    """On the CPU every check draws fresh held-out configurations and inputs; a failure is only
    worth something if it can be run again exactly."""
    task_dir = task_copy()
    _edit(task_dir, "float32: {atol: 1.0e-5, rtol: 1.0e-5}", "float32: {atol: 10.0, rtol: 0}")
    _edit(task_dir, "float16: {atol: 1.0e-3, rtol: 1.0e-3}", "float16: {atol: 10.0, rtol: 0}")
    args = ["tasks", "check", "triton2triton/scale_add", "--platform", "cpu", "--tasks-dir",
            str(task_dir.parent.parent), "--seed", "7"]
    result = CliRunner().invoke(cli_main, args)
    assert result.exit_code == 1, result.output
    assert ("again with: aka tasks check triton2triton/scale_add --seed 7 --platform cpu"
            in result.output)
    report = json.loads(CliRunner().invoke(cli_main, [*args, "--json"]).output)[0]
    assert report["seed"] == 7


def test_the_check_seed_is_fixed_on_a_gpu_and_fresh_on_the_cpu():
    assert check_seed(11, timed=False) == check_seed(11, timed=True) == 11
    assert check_seed(None, timed=True) == check_seed(None, timed=True)
    assert len({check_seed(None, timed=False) for _ in range(5)}) > 1


@pytest.mark.parametrize("task", discover_tasks(), ids=lambda t: t.id)
def test_every_bundled_task_is_sound_on_the_cpu(task):
    """The CPU half of the soundness checks for every bundled task (about a second each; the
    timed half runs on a GPU through benchmarks/tasks_check_gpu.sh)."""
    assert check_soundness(task, "cpu", "cpu")["problems"] == []
