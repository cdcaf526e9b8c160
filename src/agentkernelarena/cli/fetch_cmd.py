"""`aka tasks fetch [SELECTOR...]`: fill the upstream cache of repository tasks.

Run once on a machine with network; afterwards evaluations, checks and tests of these tasks work
offline (carry the cache folder, `$AKA_CACHE_DIR`, to a machine without network).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from agentkernelarena.cli.options import json_option, tasks_dir_option
from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.loader import discover_tasks, select_tasks
from agentkernelarena.tasks.upstream_cache import cache_root, check_targets
from agentkernelarena.tasks.upstream_cache import fetch as fetch_one


@click.command("fetch")
@click.argument("selectors", nargs=-1)
@tasks_dir_option
@json_option
def fetch(selectors: tuple[str, ...], tasks_dirs: tuple[Path, ...], as_json: bool) -> None:
    """Download, verify (sha256) and unpack the pinned upstream release of repository tasks
    (default: all of them) into the cache. Exit status 1 when any task failed."""
    found = discover_tasks(tasks_dirs)
    chosen = [t for t in (select_tasks(selectors, found) if selectors else found)
              if t.upstream is not None]
    if not chosen:
        raise AkaError("no repository task selected", "e.g. `aka tasks fetch repository`")
    results = []
    for task in chosen:
        assert task.upstream is not None
        try:
            folder = fetch_one(task)
            check_targets(task)
            results.append({"task": task.id, "ok": True, "file": task.upstream.file,
                            "path": str(folder)})
        except AkaError as exc:
            results.append({"task": task.id, "ok": False, "error": str(exc)})
    if as_json:
        click.echo(json.dumps({"cache": str(cache_root()), "tasks": results}, indent=2))
    else:
        for item in results:
            if item["ok"]:
                click.echo(f"{click.style('ok', fg='green')} {item['task']}: {item['file']}")
            else:
                click.echo(f"{click.style('FAIL', fg='red')} {item['error']}")
        click.echo(f"cache: {cache_root()}")
    if not all(item["ok"] for item in results):
        sys.exit(1)
