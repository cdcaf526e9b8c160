"""Named task sets (`--tasks @arena-44`): resolution, and the errors of bad sets."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks import discover_tasks
from agentkernelarena.tasks.loader import select_tasks
from agentkernelarena.tasks.sets import load_set, set_names, set_task_ids


@pytest.fixture(scope="module")
def bundled():
    return discover_tasks()


def test_arena_44_has_44_existing_tasks_in_the_reference_proportions(bundled):
    chosen = select_tasks(["@arena-44"], bundled)
    assert len(chosen) == 44 and len({t.id for t in chosen}) == 44
    counts = Counter(t.category for t in chosen)
    # 30/7/6/1 in the reference's categories; the repository slot is a Triton task for now.
    assert (counts["triton2triton"], counts["hip2hip"], counts["torch2hip"]) == (31, 7, 6)
    # Headroom shown: every Triton task of the set ships a faster solution.
    assert all(t.solution_dir is not None for t in chosen if t.category == "triton2triton")
    task_set = load_set("arena-44")
    assert "Re-balanced" in (task_set.composition or "") and "148" in task_set.source


def test_smoke_is_a_few_tasks_with_solutions(bundled):
    chosen = select_tasks(["@smoke"], bundled)
    assert 2 <= len(chosen) <= 6 and all(t.solution_dir is not None for t in chosen)
    assert {"arena-44", "smoke"} <= set(set_names())


def test_a_set_combines_with_other_selectors(bundled):
    chosen = select_tasks(["@smoke", "hip2hip/gemm"], bundled)
    assert "hip2hip/gemm" in {t.id for t in chosen} and len(chosen) == len(load_set("smoke")
                                                                            .task_ids) + 1


def test_unknown_set_lists_the_sets(bundled):
    with pytest.raises(AkaError) as info:
        select_tasks(["@nosuch"], bundled)
    assert "unknown task set '@nosuch'" in info.value.message
    assert "@arena-44" in (info.value.hint or "") and "@smoke" in (info.value.hint or "")


def test_a_set_naming_a_missing_task_names_it(tmp_path: Path):
    (tmp_path / "mine.yaml").write_text(
        "description: d\nsource: s\ntasks: [triton2triton/softmax, triton2triton/gone]\n")
    with pytest.raises(AkaError) as info:
        set_task_ids("@mine", {"triton2triton/softmax"}, tmp_path)
    assert "triton2triton/gone" in info.value.message
    assert "triton2triton/softmax" not in info.value.message


@pytest.mark.parametrize("text, words", [
    ("description: d\nsource: s\n", "field 'tasks'"),
    ("description: d\nsource: s\ntasks: [a, a]\n", "listed twice: a"),
    ("description: d\ntasks: [a]\n", "field 'source'"),
    ("description: d\nsource: s\ntasks: [a]\nextra: 1\n", "unknown field(s) extra"),
    ("- a\n", "expected a mapping"),
])
def test_bad_set_files_are_refused(tmp_path: Path, text: str, words: str):
    (tmp_path / "bad.yaml").write_text(text)
    with pytest.raises(AkaError) as info:
        load_set("bad", tmp_path)
    assert words in info.value.message
