"""The bundled repository tasks on the CPU, against the upstream cache.

`scripts/setup.sh --dev` fills the cache (`aka tasks fetch repository`), so CI runs these
offline; on a machine where the cache is empty the fixture fetches once (marked `network`), and
skips with the reason when the package index cannot be reached.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.check import check_task
from agentkernelarena.tasks.loader import discover_tasks
from agentkernelarena.tasks.repository import copy_packages
from agentkernelarena.tasks.upstream_cache import check_targets, fetch

REPOSITORY = [t for t in discover_tasks() if t.category == "repository"]


@pytest.fixture(params=REPOSITORY, ids=lambda t: t.id)
def cached_task(request):
    task = request.param
    try:
        fetch(task)
    except AkaError as exc:
        pytest.skip(f"upstream release not cached and not reachable: {exc}")
    return task


def test_there_are_repository_tasks_on_a_real_library():
    assert len(REPOSITORY) >= 2
    assert all(t.upstream is not None and t.upstream.sha256 for t in REPOSITORY)


@pytest.mark.network
def test_targets_exist_and_the_cpu_check_passes(cached_task):
    check_targets(cached_task)
    report = check_task(cached_task, "cpu")
    assert report["ok"], report["problems"]
    if cached_task.upstream.cpu_unsupported:
        assert "not evaluated on the CPU platform" in report["static_only"]


@pytest.mark.network
def test_solutions_compute_the_libraries_functions_on_the_cpu(tmp_path):
    """The solutions' numerics (every option, the backward passes) under the interpreter, with
    the whole package importing around them: what the CPU can check of GPU-only tasks."""
    tree = tmp_path / "tree"
    checks = []
    solved = [t for t in REPOSITORY if t.solution_dir is not None]
    try:  # one pristine copy (the tasks share the release), then every solution over it
        copy_packages(solved[0], tree)
    except AkaError as exc:
        pytest.skip(f"upstream release not cached and not reachable: {exc}")
    for task in solved:
        assert task.upstream.file == solved[0].upstream.file
        for rel in task.editable:
            shutil.copyfile(task.solution_dir / rel, tree / rel)
            checks.append(Path(rel).stem)
    script = Path(__file__).parent / "repository_solution_checks.py"
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, str(script), str(tree), *checks], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert sorted(line.split(":")[0] for line in done.stdout.splitlines()) == sorted(checks)
