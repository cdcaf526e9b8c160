"""`aka configs list|show`: the run configs shipped with the arena (`aka run -c NAME`)."""

from __future__ import annotations

import json

import click

from agentkernelarena.cli.options import json_option
from agentkernelarena.runner.shipped import description, resolve_config, shipped_names, shipped_path


@click.group()
def configs() -> None:
    """Run configs shipped with the arena: `aka run -c NAME` uses one without a path."""


@configs.command("list")
@json_option
def list_configs(as_json: bool) -> None:
    """The shipped run configs and what each sets up."""
    found = [(name, shipped_path(name)) for name in shipped_names()]
    if as_json:
        click.echo(json.dumps([{"name": n, "path": str(p), "description": description(p)}
                               for n, p in found if p], indent=2))
        return
    for name, path in found:
        if path is None:
            continue
        click.secho(name, bold=True)
        click.echo(f"  {description(path)}")
    click.echo("run one: `aka run -c NAME`; its fields: `aka configs show NAME`")


@configs.command("show")
@click.argument("name")
def show_config(name: str) -> None:
    """Print a shipped config (a starting point for one of your own)."""
    from pathlib import Path

    click.echo(resolve_config(Path(name)).read_text(), nl=False)
