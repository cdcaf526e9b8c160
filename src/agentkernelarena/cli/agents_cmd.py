"""`aka agents list|doctor|trial`: what agents there are, whether they can run, one trial."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from agentkernelarena.agents.registry import AgentSpec, available_agents, get_agent_info
from agentkernelarena.agents.settings import describe_settings, parse_agent_args
from agentkernelarena.cli.options import json_option, platform_option, tasks_dir_option
from agentkernelarena.cli.render import fmt_speedup
from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.loader import find_task
from agentkernelarena.workspace.sandbox import bwrap_status

agent_arg_option = click.option(
    "--agent-arg", "agent_args", multiple=True, metavar="KEY=VALUE",
    help="A setting of the agent (repeatable); `aka agents list --json` shows them.")


@click.group()
def agents() -> None:
    """List agents, check that they can run, run one trial."""


@agents.command("list")
@json_option
def list_agents(as_json: bool) -> None:
    """The registered agents (built in, and from the agentkernelarena.agents entry points)."""
    infos = available_agents()
    if as_json:
        click.echo(json.dumps([{"name": i.name, "description": i.description,
                                "source": i.source, "in_process": i.in_process,
                                "settings": describe_settings(i.settings_cls),
                                "error": i.error} for i in infos], indent=2, default=str))
        return
    table = Table(title=f"{len(infos)} agents")
    for column in ("name", "source", "description"):
        table.add_column(column)
    for info in infos:
        description = info.description if not info.error else f"[red]broken: {info.error}[/]"
        table.add_row(info.name, info.source, description)
    Console().print(table)
    click.echo("settings: `aka agents list --json`; pass them as --agent-arg KEY=VALUE")


def _doctor_report(name: str, create: Callable[[], Any], label: str | None = None
                   ) -> dict[str, Any]:
    """The agent's own doctor report (installed, version, authenticated, problems with their
    fixes); an agent that cannot even be made (unknown, bad settings, and for a config's
    agent, settings its validate() rejects) is a not-ready report."""
    try:
        agent = create()
        if label is not None and hasattr(agent, "validate"):
            agent.validate()
        report = agent.doctor().to_json() if hasattr(agent, "doctor") else {
            "agent": name, "installed": True, "version": None, "authenticated": None,
            "executable": None, "problems": [], "ready": True}
    except AkaError as exc:
        report = {"agent": name, "installed": False, "version": None,
                  "authenticated": None, "executable": None, "ready": False,
                  "problems": [{"problem": exc.message, "fix": exc.hint or ""}]}
    if label is not None:
        report["label"] = label
    return report


def _config_reports(config_file: Path) -> list[dict[str, Any]]:
    """One report per agent configuration a run config names (the same config `aka run -c`
    would read, shipped names included)."""
    from agentkernelarena.runner.config import load_config_file, merge_config
    from agentkernelarena.runner.shipped import resolve_config

    path = resolve_config(config_file)
    raw = load_config_file(path)
    config = merge_config({"agents": raw.get("agents")}, path, {})
    return [_doctor_report(spec.name, spec.create, spec.label or spec.name)
            for spec in config.agents]


@agents.command("doctor")
@click.argument("names", nargs=-1)
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Check every agent configuration this run config names (a file, or a "
                   "shipped config's name: `aka configs list`).")
@agent_arg_option
@json_option
def doctor(names: tuple[str, ...], config_file: Path | None, agent_args: tuple[str, ...],
           as_json: bool) -> None:
    """Installed? Version? Authenticated? And the fix for each problem.

    Checks NAMES (default: every agent), or with -c every agent of a run config (per label,
    with its settings). --agent-arg settings apply to each named agent. Exit status 1 when a
    named agent (or one of the config's) is not ready (0 when listing them all).
    """
    if config_file is not None and (names or agent_args):
        raise AkaError("agents doctor: give -c CONFIG or agent names, not both",
                       "the config's agents carry their own settings")
    args = parse_agent_args(agent_args)
    if config_file is not None:
        reports = _config_reports(config_file)
    else:
        infos = [get_agent_info(n) for n in names] if names else available_agents()
        reports = [_doctor_report(i.name, lambda i=i: i.create(args if names else None))
                   for i in infos]
    sandbox = bwrap_status()
    sandbox_report = {"available": sandbox.available, "detail": sandbox.reason,
                      "fix": None if sandbox.available else "apt-get install -y bubblewrap"}
    strict = bool(names) or config_file is not None
    failed = strict and not all(r["ready"] for r in reports)
    if as_json:
        click.echo(json.dumps({"agents": reports, "sandbox": sandbox_report}, indent=2))
        sys.exit(1 if failed else 0)
    mark = {True: "yes", False: "NO", None: "unknown"}
    for r in reports:
        colour = "green" if r["ready"] else ("red" if not r["installed"] else "yellow")
        who = f"{r['label']} ({r['agent']})" if r.get("label") else r["agent"]
        click.secho(f"{who}: " + ("ready" if r["ready"] else "not ready"), fg=colour,
                    bold=True)
        click.echo(f"  installed: {mark[r['installed']]}"
                   + (f" ({r['executable']})" if r.get("executable") else "")
                   + f"   version: {r.get('version') or '-'}"
                   + f"   authenticated: {mark[r['authenticated']]}")
        for p in r["problems"]:
            click.echo(f"  problem: {p['problem']}")
            click.echo(f"      fix: {p['fix']}")
    state = "bubblewrap works" if sandbox.available else f"NONE: {sandbox.reason}"
    click.secho(f"sandbox: {state}", fg="green" if sandbox.available else "red", bold=True)
    if config_file is not None:
        ready = sum(r["ready"] for r in reports)
        click.echo(f"{ready} of {len(reports)} agent configuration(s) ready")
    sys.exit(1 if failed else 0)


@agents.command("trial")
@click.argument("agent_name")
@click.argument("task_id")
@agent_arg_option
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The trial folder (new or empty): workspace, transcripts, trial.json.")
@click.option("--max-iterations", default=3, show_default=True, type=click.IntRange(1))
@click.option("--time-limit", "time_limit", type=float, default=None,
              help="Seconds for the whole trial (default: the task's, 3600).")
@click.option("--sandbox", type=click.Choice(["on", "off"]), default="on", show_default=True,
              help="Run the agent and the evaluation in bubblewrap sandboxes; off only where "
                   "bubblewrap cannot work (the trial is then marked unsandboxed).")
@click.option("--seed", type=int, default=None, help="Seed of the final evaluation.")
@platform_option
@tasks_dir_option
@json_option
def trial(agent_name: str, task_id: str, agent_args: tuple[str, ...], out_dir: Path,
          max_iterations: int, time_limit: float | None, sandbox: str, seed: int | None,
          platform: str | None, tasks_dirs: tuple[Path, ...], as_json: bool) -> None:
    """Run AGENT_NAME on TASK_ID once: iterations, local checks, final evaluation."""
    from agentkernelarena.runner.trial import TrialOptions, run_trial

    task = find_task(task_id, tasks_dirs)
    spec = AgentSpec(agent_name, parse_agent_args(agent_args))
    record = run_trial(task, spec, out_dir, TrialOptions(
        max_iterations=max_iterations, time_limit_s=time_limit, platform=platform,
        sandbox=sandbox, seed=seed))
    if as_json:
        click.echo(json.dumps(record, indent=2, default=str))
        return
    usage = record["usage"]
    held = record["held_out"]
    click.echo(f"trial {record['task']} by {record['agent']}: {record['status']}, verdict "
               f"{record['verdict']}, score {record['score']:.1f}, speedup "
               f"{fmt_speedup(record['speedup'])}, held-out correct {held.get('correct')}")
    cost = "-" if usage["cost_usd"] is None else \
        f"${usage['cost_usd']:.4f} ({usage['cost_source']})"
    click.echo(f"agent: {len(record['iterations'])} iteration(s), {usage['agent_wall_s']:.0f} s, "
               f"turns {usage['turns']}, tokens in/out/cached {usage['tokens_in']}/"
               f"{usage['tokens_out']}/{usage['tokens_cached']}, cost {cost}, sandboxed "
               f"{record['sandboxed']}")
    for message in record["messages"]:
        click.secho(f"  {message}", fg="yellow")
    click.echo(f"record: {Path(out_dir) / 'trial.json'}")
