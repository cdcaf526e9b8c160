"""Task files: what loads, and a clear one-line error for everything that does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentkernelarena.errors import AkaError, TaskError
from agentkernelarena.tasks import discover_tasks, load_task, select_tasks
from agentkernelarena.tasks.draws import draw_configs


def _edit(task_dir: Path, old: str, new: str) -> None:
    path = task_dir / "task.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_fixture_loads(scale_add_task):
    assert scale_add_task.id == "triton2triton/scale_add"
    assert scale_add_task.entry.file == "kernel.py"
    assert len(scale_add_task.visible) == 3 and len(scale_add_task.held_out) == 3


@pytest.mark.parametrize("old,new,message", [
    ("entry: kernel.py:forward\n", "", "field 'entry': missing"),
    ("editable:", "editables:", "did you mean 'editable'"),
    ("dtype: float16}", "dtype: float61}", "unknown dtype"),
    ("category: triton2triton", "category: triton2cobol", "unknown category"),
    ("entry: kernel.py:forward", "entry: kernel_v2.py:forward", "file 'kernel_v2.py' does not"),
    ("entry: kernel.py:forward", "entry: kernel.py", "expected 'file.py:function'"),
    ("  float32: {atol: 1.0e-5, rtol: 1.0e-5}", "  float32: {atol: -1, rtol: 1.0e-5}",
     "must not be negative"),
    ("configs:\n", "configs: [1, 2]\nunused:\n", "unknown field"),
])
def test_bad_task_files_name_file_and_field(task_copy, old, new, message):
    task_dir = task_copy()
    _edit(task_dir, old, new)
    with pytest.raises(TaskError) as info:
        load_task(task_dir)
    text = str(info.value)
    assert message in text
    assert "task.yaml" in text and "\n" not in text


def test_yaml_syntax_error_names_the_line(task_copy):
    task_dir = task_copy()
    (task_dir / "task.yaml").write_text("id: [unclosed\ncategory: x\n")
    with pytest.raises(TaskError, match=r"task.yaml:.*line \d+: not valid YAML"):
        load_task(task_dir)


def test_duplicate_ids_are_refused(tmp_path, fixture_tasks_dir):
    import shutil

    for copy in ("a", "b"):
        shutil.copytree(fixture_tasks_dir / "triton2triton" / "scale_add", tmp_path / copy)
    with pytest.raises(TaskError, match="also defined"):
        discover_tasks([tmp_path], include_bundled=False)


def test_selectors(fixture_tasks_dir):
    tasks = discover_tasks([fixture_tasks_dir])
    assert [t.id for t in select_tasks(["triton2triton/scale_*"], tasks)] == \
        ["triton2triton/scale_add"]
    assert len(select_tasks(["triton2triton"], tasks)) >= 13
    with pytest.raises(AkaError, match="matches no task"):
        select_tasks(["nothing/here"], tasks)


def test_public_json_never_holds_held_out(scale_add_task):
    info = scale_add_task.public_json()
    held = {c.name for c in scale_add_task.held_out}
    assert info["held_out_count"] == 3
    assert not any(name in str(info) for name in held)


def test_bundled_suite_is_valid_and_large_enough():
    tasks = [t for t in discover_tasks() if t.category == "triton2triton"]
    assert len(tasks) >= 12
    assert sum(t.solution_dir is not None for t in tasks) >= 6
    for task in tasks:
        assert len(task.visible) >= 3 and len(task.held_out) >= 3, task.id
        assert task.cpu_visible and task.cpu_held_out, task.id
        assert task.held_out_draws is not None, task.id


def test_draws_are_repeatable_and_hidden():
    task = next(t for t in discover_tasks() if t.id == "triton2triton/softmax")
    first = task.configs_for("cuda", "held_out", draw_seed=11)
    again = task.configs_for("cuda", "held_out", draw_seed=11)
    other = task.configs_for("cuda", "held_out", draw_seed=12)
    assert [c.params for c in first] == [c.params for c in again]
    assert [c.params for c in first] != [c.params for c in other]
    drawn = [c for c in first if c.drawn]
    assert len(drawn) == task.held_out_draws.count
    for config in drawn:
        assert 2_000_000 <= config.params["M"] * config.params["N"] <= 100_000_000
    # Drawn sizes are almost never powers of two.
    sizes = [p["N"] for _, p in draw_configs(task.held_out_draws, 0)] + \
        [p["N"] for s in range(1, 20) for _, p in draw_configs(task.held_out_draws, s)]
    assert sum(n & (n - 1) == 0 for n in sizes) <= 2


def test_bad_draw_spec(task_copy):
    task_dir = task_copy()
    _edit(task_dir, "  held_out:\n", "  held_out_draws: {count: 1, params: {N: {int: [5, 1]}}}\n"
          "  held_out:\n")
    with pytest.raises(TaskError, match="held_out_draws.params.N"):
        load_task(task_dir)
