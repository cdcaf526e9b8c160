"""`aka run`: agents x tasks x attempts, from flags or a YAML config (docs/runs.md)."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from agentkernelarena.agents.settings import parse_agent_args
from agentkernelarena.cli.options import platform_option, tasks_dir_option
from agentkernelarena.errors import AkaError, ProblemList
from agentkernelarena.runner.config import (
    EXECUTORS,
    SANDBOX_ALIASES,
    SANDBOX_MODES,
    RunConfig,
    load_config_file,
)
from agentkernelarena.runner.shipped import shipped_names


def _gpus(value: str | None) -> list[int] | None:
    if value is None:
        return None
    try:
        return [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise AkaError(f"--gpus {value!r}: expected GPU indices like 0,1") from None


class _WarningLines(logging.Handler):
    """The arena's warnings while a run is set up (a deprecated config value), one line each on
    stderr; the run's own progress takes over once it starts."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        click.secho(f"warning: {record.getMessage()}", fg="yellow", err=True)


@contextlib.contextmanager
def _setup_warnings() -> Iterator[None]:
    logger = logging.getLogger("agentkernelarena")
    handler = _WarningLines()
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


def _overrides(agents: tuple[str, ...], agent_args: tuple[str, ...], **flags: Any
               ) -> dict[str, Any]:
    """Only the flags that were given, as config fields (they win over the config file)."""
    if agent_args and not agents:
        raise AkaError("--agent-arg needs --agent",
                       "per-agent settings of a config file go under its `agents:`")
    args = parse_agent_args(agent_args)
    out: dict[str, Any] = {k: v for k, v in flags.items() if v not in (None, ())}
    if agents:
        out["agents"] = [{"name": name, "args": dict(args)} for name in agents]
    if "tasks" in out:
        out["tasks"] = list(out["tasks"])
    if "tasks_dirs" in out:
        out["tasks_dirs"] = [str(Path(p).resolve()) for p in out["tasks_dirs"]]
    if "out" in out:
        out["out"] = str(Path(out["out"]).resolve())
    return out


def build_config(config_file: Path | None, resume: bool, overrides: dict[str, Any],
                 problems: ProblemList | None = None) -> RunConfig:
    """The run's config: a file; or, resuming a run without -c, the config that run recorded;
    with the given flags on top. Resuming, every flag given is then compared with the
    recorded run (preflight): those that change what the results mean are refused, with the
    difference in words; scheduling flags (--concurrency, --gpus, --executor) just apply."""
    from agentkernelarena.runner.config import merge_config
    from agentkernelarena.runner.manifest import read_manifest
    from agentkernelarena.runner.shipped import resolve_config

    if config_file is not None:
        config_file = resolve_config(config_file)
        return merge_config(load_config_file(config_file), config_file, overrides, problems)
    if resume and "out" in overrides:
        manifest = read_manifest(Path(overrides["out"]))
        if manifest is not None and isinstance(manifest.get("config"), dict):
            return merge_config(dict(manifest["config"]), None, overrides, problems)
        if not ({"agents", "tasks"} & set(overrides)):
            raise AkaError(f"--resume: {overrides['out']} holds no run to resume",
                           "give the run's --agent and --tasks (or -c) to start it")
    return merge_config(None, None, overrides, problems)


@click.command("run")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
              help="A YAML run config (docs/runs.md), or the name of one shipped with the "
                   f"arena ({', '.join(shipped_names())}; `aka configs list`); a file path "
                   "wins. Flags given as well override it.")
@click.option("--agent", "agents", multiple=True, metavar="NAME",
              help="An agent (repeatable: an A/B run); `aka agents list`.")
@click.option("--agent-arg", "agent_args", multiple=True, metavar="KEY=VALUE",
              help="A setting for every --agent (repeatable). Per-agent settings: use -c.")
@click.option("--tasks", "tasks", multiple=True, metavar="SELECTOR",
              help="Task id, glob ('triton2triton/*'), category, tag, 'all' or a named set "
                   "('@arena-44', `aka tasks sets`) (repeatable).")
@click.option("--attempts", type=click.IntRange(1), help="Trials per agent and task [1].")
@platform_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="The run folder [runs/<label>-<time>].")
@click.option("--resume", is_flag=True,
              help="Continue the run in --out: finished trials are kept, the rest run.")
@click.option("--retry-errors", is_flag=True,
              help="With --resume: also rerun trials whose agent could not run at all "
                   "(status error: not installed, not authenticated).")
@click.option("--label", help="A name for this run (A/B experiments, reports).")
@click.option("--max-iterations", type=click.IntRange(1), help="Agent iterations per trial [3].")
@click.option("--time-limit", "time_limit_s", type=click.FloatRange(min=1),
              help="Seconds per trial [each task's, 3600].")
@click.option("--sandbox", type=click.Choice([*SANDBOX_MODES, *SANDBOX_ALIASES]),
              metavar="on|off",
              help="on: agents that run code run under bubblewrap, and the run is refused "
                   "where it cannot work; off: they run unsandboxed (they can read held-out "
                   "configurations: reports mark those trials) [on]. 'required' and 'auto' "
                   "are older names for on.")
@click.option("--seed", type=int, help="The run's seed (evaluation seeds derive from it).")
@click.option("--vs-compile", is_flag=True, default=None,
              help="Tasks with a PyTorch baseline: also time final solutions against "
                   "torch.compile of it (speedup_vs_compile; not scored).")
@click.option("--concurrency", type=click.IntRange(1),
              help="Trials at once (agents working) [one per evaluation slot].")
@click.option("--eval-concurrency", type=click.IntRange(1),
              help="CPU platform: evaluations at once [cores/2, at most 4].")
@click.option("--eval-lanes", type=click.IntRange(1),
              help="Evaluations in flight per GPU; they share it outside their timed rounds, "
                   "which run alone (docs/rl.md, 'Lanes') [1].")
@click.option("--gpus", "gpus_text", metavar="0,1", help="Which GPUs to use [all].")
@tasks_dir_option
@click.option("--executor", type=click.Choice(EXECUTORS), help="[local]")
@click.option("--ray-address", help="The Ray cluster for --executor ray [a new local one].")
@click.option("--progress", type=click.Choice(["auto", "live", "plain"]), default="auto",
              show_default=True, help="A live bar (terminal) or one line per trial.")
@click.option("--dry-run", is_flag=True,
              help="Check everything and show the plan; run nothing (exit 2 on a problem).")
@click.option("--skip-agent-check", is_flag=True,
              help="Start even where `aka agents doctor` finds an agent not installed or not "
                   "authenticated (its trials then end as agent errors).")
def run_command(config_file: Path | None, agents: tuple[str, ...], agent_args: tuple[str, ...],
                tasks: tuple[str, ...], attempts: int | None, platform: str | None,
                out: Path | None, resume: bool, retry_errors: bool, label: str | None,
                max_iterations: int | None, time_limit_s: float | None, sandbox: str | None,
                seed: int | None, vs_compile: bool | None, concurrency: int | None,
                eval_concurrency: int | None, eval_lanes: int | None,
                gpus_text: str | None, tasks_dirs: tuple[Path, ...], executor: str | None,
                ray_address: str | None, progress: str, dry_run: bool,
                skip_agent_check: bool) -> None:
    """Run agents on tasks, several attempts each, into one run folder.

    Everything is checked before the first trial starts. Each trial's record is written
    atomically, so an interrupted run continues with --resume (`aka run --resume --out DIR`
    alone reuses the recorded config). Exit status: 0 when every trial finished, 1 when some
    could not run (rerun them with --resume), 2 for a bad config, 130 when interrupted.
    """
    from agentkernelarena.report.render import print_tables
    from agentkernelarena.runner.plan import scan
    from agentkernelarena.runner.preflight import prepare
    from agentkernelarena.runner.run import execute

    overrides = _overrides(agents, agent_args, tasks=tasks, attempts=attempts,
                           platform=platform, out=out, label=label,
                           max_iterations=max_iterations, time_limit_s=time_limit_s,
                           sandbox=sandbox, seed=seed, vs_compile=vs_compile,
                           concurrency=concurrency,
                           eval_concurrency=eval_concurrency, eval_lanes=eval_lanes,
                           gpus=_gpus(gpus_text),
                           tasks_dirs=tasks_dirs, executor=executor, ray_address=ray_address)
    problems = ProblemList()  # the config's and the checks', reported together
    with _setup_warnings():
        config = build_config(config_file, resume, overrides, problems)
        plan = prepare(config, resume=resume, retry_errors=retry_errors, problems=problems,
                       agent_check=not skip_agent_check)
    if dry_run:
        done, todo, interrupted = scan(plan) if plan.manifest else ([], plan.trials, [])
        click.echo(f"run folder: {plan.out}" + (" (resume)" if plan.manifest else " (new)"))
        click.echo(f"platform {plan.platform.name}; agents {', '.join(plan.agents)}; "
                   f"{len(plan.tasks)} task(s) x {config.attempts} attempt(s) = "
                   f"{len(plan.trials)} trial(s): {len(done)} finished, {len(todo)} to run "
                   f"({len(interrupted)} interrupted)")
        click.echo("sandbox: " + ("on (agents that run code run under bubblewrap)"
                                  if config.sandbox == "on" else
                                  "OFF: agents run unsandboxed and can read held-out "
                                  "configurations; reports mark their trials"))
        for key in todo[:20]:
            click.echo(f"  {key.id}")
        if len(todo) > 20:
            click.echo(f"  ... {len(todo) - 20} more")
        return
    live = {"auto": None, "live": True, "plain": False}[progress]
    outcome = execute(plan, live=live)
    print_tables(outcome.report)
    click.echo(f"run folder: {plan.out}  (aka report {plan.out} --format json|md|csv)")
    if outcome.interrupted:
        sys.exit(130)
    if outcome.failed:
        click.secho(f"{len(outcome.failed)} trial(s) could not run (see run.log); "
                    f"`aka run --resume --out {plan.out}` retries them", fg="red", err=True)
        sys.exit(1)
