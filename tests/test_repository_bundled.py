"""The bundled repository tasks on the CPU, against the upstream cache.

`scripts/setup.sh --dev` fills the cache (`aka tasks fetch repository`), so CI runs these
offline; on a machine where the cache is empty the fixture fetches once (marked `network`), and
skips with the reason when the package index cannot be reached.
"""

from __future__ import annotations

import pytest

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.check import check_task
from agentkernelarena.tasks.loader import discover_tasks
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
