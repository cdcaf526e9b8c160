"""The `aka` command line. One module per command group; this one only assembles them."""

from __future__ import annotations

import sys

import click

from agentkernelarena import __version__
from agentkernelarena.cli.agents_cmd import agents
from agentkernelarena.cli.configs_cmd import configs
from agentkernelarena.cli.demo_cmd import demo
from agentkernelarena.cli.eval_cmd import eval_command
from agentkernelarena.cli.heldout_cmd import heldout_command
from agentkernelarena.cli.report_cmd import compare_command, leaderboard_command, report_command
from agentkernelarena.cli.run_cmd import run_command
from agentkernelarena.cli.tasks_cmd import tasks
from agentkernelarena.errors import AkaError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="aka")
def cli() -> None:
    """AgentKernelArena: measure AI coding agents on GPU kernel optimization."""


cli.add_command(tasks)
cli.add_command(eval_command)
cli.add_command(demo)
cli.add_command(agents)
cli.add_command(run_command)
cli.add_command(report_command)
cli.add_command(compare_command)
cli.add_command(leaderboard_command)
cli.add_command(heldout_command)
cli.add_command(configs)


def main(argv: list[str] | None = None) -> None:
    """Entry point: expected failures print one line and exit 2, never a traceback."""
    try:
        cli.main(args=argv, prog_name="aka", standalone_mode=False)
    except AkaError as exc:
        click.secho(f"error: {exc.message}", fg="red", err=True)
        if exc.hint:
            click.echo(f"  hint: {exc.hint}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
