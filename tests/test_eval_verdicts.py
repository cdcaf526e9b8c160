"""The evaluator's verdicts on the CPU platform: one test per outcome the issue names."""

from __future__ import annotations

import os
import time

import pytest

from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate

# The same tests run on a GPU with AKA_TEST_PLATFORM=cuda.
PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")
CPU = EvalOptions(platform=PLATFORM)


def test_baseline_against_itself_is_ok(scale_add_task):
    result = evaluate(scale_add_task, scale_add_task.root, CPU)
    assert result["verdict"] == "ok", result["reasons"]
    assert result["compiled"] and result["correct"]
    assert result["speedup"] is not None and 0.2 < result["speedup"] < 5
    assert result["comparable"] is (PLATFORM != "cpu")
    assert result["held_out"]["correct"] is True
    assert result["held_out"]["quadrant"] == "both_pass"
    assert result["score"] == pytest.approx(120 + 100 * result["speedup"], rel=1e-3)
    assert [c["name"] for c in result["configs"]] == [c.name for c in scale_add_task.visible]
    assert all(c["correct"] and c["rounds"] >= 2 for c in result["configs"])


def test_solution_is_ok(scale_add_task):
    result = evaluate(scale_add_task, scale_add_task.solution_dir, CPU)
    assert result["verdict"] == "ok", result["reasons"]
    assert result["held_out"]["correct"] is True
    assert result["ignored_files"] == []


def test_syntax_error_is_compile_error_with_line(scale_add_task, solution_factory):
    folder = solution_factory(replace=("out = torch.empty_like(x)", "out = torch.empty_like(x"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "compile_error"
    assert not result["compiled"] and not result["correct"]
    assert result["score"] == 0
    assert "kernel.py:" in result["reasons"][0] and "SyntaxError" in result["reasons"][0]
    assert result["held_out"]["evaluated"] is False


def test_a_file_that_does_not_parse_is_judged_before_any_worker_starts(scale_add_task,
                                                                      solution_factory):
    # The supervisor parses (runs nothing): no worker, no sandbox, well under a second.
    folder = solution_factory(replace=("def forward(", "def forward(  # unclosed\n  ("))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "compile_error" and "worker_sandbox" not in result
    assert result["reasons"][0].startswith("kernel.py:") and "SyntaxError" in result["reasons"][0]
    assert result["wall_s"] < 5
    (folder / "kernel.py").write_bytes(b"x = 1\0\n")  # a NUL byte: ValueError, not SyntaxError
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "compile_error" and result["reasons"][0].startswith("kernel.py:")


def test_triton_compile_error_is_compile_error(scale_add_task, solution_factory):
    folder = solution_factory(replace=("tl.arange(0, BLOCK)", "tl.arange(0, BLOCK) + undefined"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "compile_error"
    assert "undefined" in result["reasons"][0]


def test_wrong_kernel_is_incorrect_naming_config_and_error(scale_add_task, solution_factory):
    folder = solution_factory(replace=("x * alpha + y", "x * alpha - y"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "incorrect"
    assert result["compiled"] and not result["correct"]
    assert result["score"] == 20
    first = scale_add_task.visible[0].name
    assert any(first in reason and "max abs error" in reason for reason in result["reasons"])
    assert result["configs"][0]["max_abs_err"] > 0.1
    assert result["held_out"]["quadrant"] == "regression"


def test_partial_output_is_incorrect(scale_add_task, solution_factory):
    # Skips the last element: every element is compared, so it cannot pass.
    folder = solution_factory(replace=("mask = offs < n", "mask = offs < n - 1"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "incorrect"


def test_hanging_kernel_times_out_within_bound(scale_add_task, solution_factory):
    scale_add_task.timeouts.update(compile=20.0, correctness=4.0)
    folder = solution_factory(replace=(
        "    out = torch.empty_like(x)\n",
        "    out = torch.empty_like(x)\n    global _calls\n"
        "    _calls = globals().get('_calls', 0) + 1\n"
        "    while _calls > 1:\n        pass\n",
    ))
    started = time.monotonic()
    result = evaluate(scale_add_task, folder, CPU)
    elapsed = time.monotonic() - started
    assert result["verdict"] == "timeout"
    assert result["compiled"] is True and result["correct"] is False
    assert "correctness" in result["reasons"][0]
    assert result["score"] == 20
    # Two workers at most (visible, held-out), each bounded by compile + correctness deadlines.
    assert elapsed < 2 * (20 + 4) + 10


def test_kernel_that_kills_its_process_is_crash(scale_add_task, solution_factory):
    folder = solution_factory(replace=(
        "    out = torch.empty_like(x)\n",
        "    import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)\n"
        "    out = torch.empty_like(x)\n",
    ))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "crash"
    assert "signal 9" in result["reasons"][0]
    assert result["score"] == 0


def test_exit_during_correctness_is_crash(scale_add_task, solution_factory):
    folder = solution_factory(replace=(
        "    out = torch.empty_like(x)\n",
        "    global _calls\n    _calls = globals().get('_calls', 0) + 1\n"
        "    if _calls > 2:\n        import os\n        os._exit(0)\n"
        "    out = torch.empty_like(x)\n",
    ))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "crash"
    assert result["compiled"] is True


def test_wrong_signature_is_compile_error(scale_add_task, solution_factory):
    folder = solution_factory(replace=("y: torch.Tensor, alpha: float)", "y: torch.Tensor)"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "compile_error"
    assert "signature" in result["reasons"][0]


def test_wrong_dtype_is_incorrect(scale_add_task, solution_factory):
    folder = solution_factory(replace=("out = torch.empty_like(x)",
                                       "out = torch.empty_like(x, dtype=torch.float64)"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "incorrect"
    assert "dtype float64, expected float" in result["reasons"][0]


def test_modifying_inputs_is_incorrect(scale_add_task, solution_factory):
    folder = solution_factory(replace=("    return out\n", "    y.zero_()\n    return out\n"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "incorrect"
    assert "modified its input 1" in result["reasons"][0]


def test_shape_hardcoded_solution_fails_held_out(scale_add_task, solution_factory):
    # Correct for the visible sizes only: handles at most 4096 elements.
    folder = solution_factory(replace=("triton.cdiv(n, 1024)", "min(4, triton.cdiv(n, 1024))"))
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "ok", result["reasons"]
    assert result["held_out"]["correct"] is False
    assert result["held_out"]["quadrant"] == "regression"


def test_only_editable_files_are_taken(scale_add_task, solution_factory):
    folder = solution_factory()
    (folder / "reference.py").write_text("def reference(x, y, alpha):\n    return x\n")
    (folder / "notes.txt").write_text("scratch")
    result = evaluate(scale_add_task, folder, CPU)
    assert result["verdict"] == "ok"
    assert result["ignored_files"] == ["notes.txt", "reference.py"]


def test_missing_editable_file_is_a_user_error(scale_add_task, tmp_path):
    (tmp_path / "other.py").write_text("x = 1\n")
    with pytest.raises(AkaError, match="holds none of the task's editable files"):
        evaluate(scale_add_task, tmp_path, CPU)


def test_same_seed_repeats_the_evaluation(scale_add_task):
    options = EvalOptions(platform=PLATFORM, seed=1234, measure=False)
    first = evaluate(scale_add_task, scale_add_task.root, options)
    second = evaluate(scale_add_task, scale_add_task.root, options)
    assert first["seed"] == second["seed"] == 1234
    assert [c["max_abs_err"] for c in first["configs"]] == \
        [c["max_abs_err"] for c in second["configs"]]


def test_inputs_whose_shape_depends_on_the_seed_are_a_task_error(scale_add_task, tmp_path):
    import shutil

    from agentkernelarena.errors import TaskError
    from agentkernelarena.tasks.loader import load_task

    root = tmp_path / "scale_add"
    shutil.copytree(scale_add_task.root, root)
    ref = root / "reference.py"
    text = ref.read_text().replace('config["N"], generator', 'config["N"] + seed % 7, generator')
    ref.write_text(text)
    task = load_task(root)
    with pytest.raises(TaskError, match="shapes must depend on the configuration only"):
        evaluate(task, task.root, EvalOptions(platform=PLATFORM, held_out=False, seed=5))


def _eager_baseline_task(scale_add_task, tmp_path):
    """scale_add as a torch2triton task: the baseline is PyTorch eager (baseline.py)."""
    import shutil

    from agentkernelarena.tasks.loader import load_task

    root = tmp_path / "torch2triton" / "scale_add_eager"
    shutil.copytree(scale_add_task.root, root)
    (root / "baseline.py").write_text(
        "def forward(x, y, alpha):\n    return x * alpha + y\n"
    )
    spec = (root / "task.yaml").read_text()
    spec = spec.replace("id: triton2triton/scale_add", "id: torch2triton/scale_add_eager")
    spec = spec.replace("category: triton2triton", "category: torch2triton")
    (root / "task.yaml").write_text(spec + "baseline: baseline.py:forward\n")
    return load_task(root)


def test_vs_compile_times_the_candidate_against_torch_compile(scale_add_task, tmp_path):
    task = _eager_baseline_task(scale_add_task, tmp_path)
    options = EvalOptions(platform=PLATFORM, held_out=False, vs_compile=True)
    result = evaluate(task, task.solution_dir, options)
    assert result["verdict"] == "ok", result["reasons"]
    if "vs_compile_error" in result:  # no C++ compiler for inductor here: said, not fatal
        assert result["speedup_vs_compile"] is None
        pytest.skip(f"torch.compile unavailable: {result['vs_compile_error']}")
    assert result["speedup_vs_compile"] is not None and result["speedup_vs_compile"] > 0
    assert all(c["compile_ms"] > 0 and c["speedup_vs_compile"] > 0 for c in result["configs"])
    assert result["speedup"] is not None  # the scored speedup is still against eager


def test_vs_compile_is_off_by_default_and_for_kernel_baselines(scale_add_task, tmp_path):
    task = _eager_baseline_task(scale_add_task, tmp_path)
    plain = evaluate(task, task.solution_dir, EvalOptions(platform=PLATFORM, held_out=False))
    assert plain["verdict"] == "ok" and "speedup_vs_compile" not in plain
    kernel_baseline = evaluate(scale_add_task, scale_add_task.solution_dir,
                               EvalOptions(platform=PLATFORM, held_out=False, vs_compile=True))
    assert "speedup_vs_compile" not in kernel_baseline


def test_vs_compile_with_a_pool_of_compile_workers_is_not_hidden_work(
        scale_add_task, tmp_path, monkeypatch):
    """On a GPU host inductor starts compile-worker processes; they are the harness's, not the
    candidate's (this once rejected every torch2* candidate on an H200). Inductor starts them
    only for GPU code, so on the CPU there is nothing to see."""
    if PLATFORM == "cpu":
        pytest.skip("inductor starts compile workers only for GPU code: AKA_TEST_PLATFORM=cuda")
    monkeypatch.setenv("TORCHINDUCTOR_COMPILE_THREADS", "4")
    task = _eager_baseline_task(scale_add_task, tmp_path)
    result = evaluate(task, task.solution_dir,
                      EvalOptions(platform=PLATFORM, held_out=False, vs_compile=True))
    assert result["verdict"] == "ok", result["reasons"]
