"""benchmarks/classify_task_times.py: the verdicts the validation of new tasks rests on, on
made-up times (no GPU): a sound task, a slow solution (withdrawn with --withdraw), a baseline
outside the window, and a task that was meant to be timed but is absent from the times."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

from agentkernelarena.tasks.loader import discover_tasks

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("classify_task_times",
                                               ROOT / "benchmarks/classify_task_times.py")
assert _spec is not None and _spec.loader is not None
classify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classify)


def _row(task: str, config: str, base_ms: float, sol_ms: float | None) -> dict:
    row = {"task": task, "split": "visible", "config": config,
           "baseline": {"correct": True, "ms": base_ms}}
    if sol_ms is not None:
        row["solution"] = {"correct": True, "ms": sol_ms}
    return row


def test_verdicts_and_a_task_that_was_never_measured(tmp_path, capsys):
    times = tmp_path / "times.json"
    times.write_text(json.dumps([
        _row("t/sound", "a", 1.0, 0.5), _row("t/sound", "b", 2.0, 1.0),
        _row("t/slow", "a", 1.0, 0.5), _row("t/slow", "b", 1.0, 0.99),  # 1.01x: too little
        _row("t/tiny", "a", 0.01, None),                                 # under 0.05 ms
        {"task": "t/broken", "error": "load: ImportError: no module named flag_gems"}]))
    expect = tmp_path / "list.txt"
    expect.write_text("t/sound\nt/slow\nt/tiny\nt/broken\nt/lost\n")
    assert classify.main([str(times), "--expect", str(expect)]) == 1
    out = capsys.readouterr().out
    assert "1 sound, 1 with a failing solution, 2 failing as tasks, " \
        "1 expected but not measured" in out
    assert "| t/broken | TASK FAILS | - | load: ImportError" in out
    assert "| t/lost | NOT MEASURED |" in out and "| t/slow | solution fails |" in out
    assert "| t/tiny | TASK FAILS |" in out and "outside 0.05-20" in out
    # Without the unmeasured and the failing task, only the slow solution is left.
    times.write_text(json.dumps([_row("t/sound", "a", 1.0, 0.5), _row("t/slow", "a", 1.0, 1.0)]))
    assert classify.main([str(times)]) == 1


def test_withdraw_deletes_only_the_failing_solution(tmp_path):
    original = next(t for t in discover_tasks() if t.id == "triton2triton/gelu_bias")
    copy = tmp_path / "triton2triton" / "zz_withdraw_me"
    shutil.copytree(original.root, copy)
    spec = copy / "task.yaml"
    spec.write_text(spec.read_text().replace(original.id, "triton2triton/zz_withdraw_me"))
    assert (copy / "solution").is_dir()
    gone = classify.withdraw(["triton2triton/zz_withdraw_me", "triton2triton/not_a_task"],
                             [tmp_path])
    assert len(gone) == 1 and not (copy / "solution").exists()
    assert (copy / "kernel.py").is_file() and original.solution_dir.is_dir()
