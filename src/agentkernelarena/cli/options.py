"""Options shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from agentkernelarena.platforms import PLATFORMS

tasks_dir_option = click.option(
    "--tasks-dir", "tasks_dirs", multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="More task folders besides the bundled suites (repeatable).",
)
platform_option = click.option(
    "--platform", type=click.Choice(sorted(PLATFORMS)), default=None,
    help="Where to evaluate (default: this machine's GPU, else cpu).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def compose(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def apply(fn: Any) -> Any:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        return fn
    return apply
