"""The suite page matches the tasks; growing suites; no two tasks of a category compute the same
function under another name."""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import torch

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.loader import discover_tasks, select_tasks
from agentkernelarena.tasks.suite_page import collect_gpu_results, collect_tune_results, render

ROOT = Path(__file__).resolve().parent.parent
TASKS = discover_tasks()


def test_suite_page_matches_the_tasks() -> None:
    page = ROOT / "docs" / "suites.md"
    results = ROOT / "benchmarks" / "results"
    expected = render(TASKS, collect_gpu_results(results), collect_tune_results(results))
    assert page.read_text() == expected, (
        "docs/suites.md is stale: run `aka tasks page -o docs/suites.md` and commit it")


def test_page_takes_gpu_figures_from_recorded_results(tmp_path: Path) -> None:
    task = next(t for t in TASKS if t.id == "triton2triton/softmax")
    results = tmp_path / "results" / "h200-2099-01-01"
    results.mkdir(parents=True)
    rows = [{"task": task.id, "split": "visible", "config": "a",
             "baseline": {"correct": True, "ms": 2.0}, "solution": {"correct": True, "ms": 1.0}},
            {"task": task.id, "split": "visible", "config": "b",
             "baseline": {"correct": True, "ms": 8.0}, "solution": {"correct": True, "ms": 1.0}},
            {"task": task.id, "split": "held_out", "config": "c",
             "baseline": {"correct": True, "ms": 99.0}, "solution": {"correct": True, "ms": 1.0}}]
    (results / "times.json").write_text(json.dumps(rows))
    gpu = collect_gpu_results(tmp_path / "results")
    assert gpu[task.id].baseline_ms == [2.0, 8.0]  # visible configurations only
    assert gpu[task.id].speedup == pytest.approx(4.0)  # geometric mean of 2x and 8x
    line = next(x for x in render([task], gpu).splitlines() if x.startswith("| `softmax`"))
    assert "| 2-8 |" in line and "4.00x" in line and "h200-2099-01-01/times.json" in line
    # A wrong solution gives no speedup; a task with no record says so.
    rows[0]["solution"]["correct"] = False
    rows[1]["solution"]["correct"] = False
    (results / "times.json").write_text(json.dumps(rows))
    line = next(x for x in render([task], collect_gpu_results(tmp_path / "results"))
                .splitlines() if x.startswith("| `softmax`"))
    assert "| - |" in line
    assert "not measured" in render([task], {})


def test_page_shows_what_tuning_reached_from_the_newest_recorded_run(tmp_path: Path) -> None:
    """Issue 21: the `tune` agent's speedup beside the solution's, from tune_summary.py's
    records; the newest folder wins, a trial that was not ok shows its verdict."""
    softmax = next(t for t in TASKS if t.id == "triton2triton/softmax")
    gelu = next(t for t in TASKS if t.id == "triton2triton/gelu_bias")
    for folder, speedup in (("h200-2099-01-01", 1.1), ("h200-2099-02-01", 1.3)):
        (tmp_path / folder).mkdir()
        rows = [{"task": softmax.id, "tune_verdict": "ok", "tune_speedup": speedup},
                {"task": gelu.id, "tune_verdict": "incorrect", "tune_speedup": None}]
        (tmp_path / folder / "tune_vs_solution.json").write_text(json.dumps(rows))
    tuned = collect_tune_results(tmp_path)
    assert tuned[softmax.id].source == "h200-2099-02-01/tune_vs_solution.json"
    lines = render([softmax, gelu], {}, tuned).splitlines()
    assert next(x for x in lines if x.startswith("| `softmax`")).endswith("| 1.30x |")
    assert next(x for x in lines if x.startswith("| `gelu_bias`")).endswith("| incorrect |")
    assert render([softmax], {}).splitlines()[-1].endswith("| - |")


def test_growing_suites_select_by_category_and_all() -> None:
    hip = select_tasks(["@hip2hip"], TASKS)
    assert hip and all(t.category == "hip2hip" for t in hip)
    assert len(hip) == sum(t.category == "hip2hip" for t in TASKS)
    assert len(select_tasks(["@full"], TASKS)) == len(TASKS)
    with pytest.raises(AkaError, match="@full"):
        select_tasks(["@no-such-suite"], TASKS)


def _module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _signature(args: tuple) -> tuple:
    return tuple((tuple(a.shape), a.dtype) if isinstance(a, torch.Tensor) else type(a)
                 for a in args)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and bool(
            torch.allclose(a.double(), b.double(), rtol=1e-3, atol=1e-5, equal_nan=True))
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return all(_same(x, y) for x, y in zip(a, b, strict=True))
    return False


def same_function_pairs(tasks: list[Any]) -> list[tuple[str, str]]:
    """Tasks whose inputs have the same layout are run on the same inputs: equal outputs mean
    one function under two names (a suite would count it twice)."""
    by_category: dict[str, list[tuple[str, Any, tuple]]] = {}
    for task in tasks:
        configs = task.configs_for("cpu", "visible")
        if not configs or task.language not in ("triton", "torch"):
            continue
        inputs = _module(task.root / task.inputs.file, f"dup_in_{task.category}_{task.name}")
        reference = _module(task.root / task.reference.file,
                            f"dup_ref_{task.category}_{task.name}")
        fn = getattr(reference, task.reference.function)
        args = inputs.__dict__[task.inputs.function](configs[0].params, 0, "cpu")
        args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
        by_category.setdefault(task.category, []).append((task.id, fn, args))
    duplicates = []
    for entries in by_category.values():
        for (id_a, fn_a, args_a), (id_b, fn_b, args_b) in itertools.combinations(entries, 2):
            if _signature(args_a) != _signature(args_b):
                continue
            with torch.no_grad():
                try:
                    if _same(fn_a(*args_a), fn_b(*args_a)):
                        duplicates.append((id_a, id_b))
                except Exception:  # another function's preconditions: not the same function
                    continue
    return duplicates


def test_no_two_tasks_of_a_category_compute_the_same_function() -> None:
    duplicates = same_function_pairs(TASKS)
    assert not duplicates, f"tasks computing the same function: {duplicates}"


def test_a_task_copied_under_another_name_is_found(tmp_path: Path) -> None:
    import shutil

    original = next(t for t in TASKS if t.id == "triton2triton/gelu_bias")
    copy = tmp_path / "triton2triton" / "bias_gelu_again"
    shutil.copytree(original.root, copy)
    spec = (copy / "task.yaml").read_text()
    (copy / "task.yaml").write_text(spec.replace(original.id, "triton2triton/bias_gelu_again"))
    tasks = [original, *discover_tasks([tmp_path], include_bundled=False)]
    softmax = next(t for t in TASKS if t.id == "triton2triton/softmax")
    assert same_function_pairs([*tasks, softmax]) == [
        ("triton2triton/gelu_bias", "triton2triton/bias_gelu_again")]
