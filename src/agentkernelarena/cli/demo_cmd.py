"""`aka demo`: the first run. Evaluates baselines and solutions of a few tasks and prints a table.

It works on any machine: on a GPU it measures real speedups, without one it runs Triton's
interpreter on the tasks' small CPU configurations (timings marked not comparable).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from agentkernelarena.cli.options import platform_option, tasks_dir_option
from agentkernelarena.cli.render import print_results
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.platforms import get_platform
from agentkernelarena.tasks.loader import discover_tasks, select_tasks

DEFAULT_DEMO_TASKS = ("triton2triton/gelu_bias", "triton2triton/softmax",
                      "triton2triton/dequantize_int8")


@click.command()
@click.option("--tasks", "selectors", multiple=True,
              help="Task selectors (default: a few quick Triton tasks with solutions).")
@platform_option
@tasks_dir_option
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write all result records to this JSON file.")
def demo(selectors: tuple[str, ...], platform: str | None, tasks_dirs: tuple[Path, ...],
         out_file: Path | None) -> None:
    """Evaluate baseline and solution of a few tasks and print a table."""
    every = discover_tasks(tasks_dirs)
    known = {t.id for t in every}
    wanted = selectors or tuple(t for t in DEFAULT_DEMO_TASKS if t in known)
    if not wanted:
        raise AkaError("no demo tasks found", "pass --tasks SELECTOR")
    chosen = [t for t in select_tasks(wanted, every) if t.solution_dir is not None]
    if not chosen:
        raise AkaError("none of the selected tasks has a solution/ to demonstrate")
    resolved = get_platform(platform)
    click.echo(f"platform: {resolved.name} ({resolved.description})", err=True)
    rows = []
    for task in chosen:
        for version, folder in (("baseline", task.root), ("solution", task.solution_dir)):
            click.echo(f"evaluating {task.id} {version} ...", err=True)
            result = evaluate(task, folder, EvalOptions(platform=resolved.name, sandbox="auto"))
            result["version"] = version
            rows.append(result)
    note = "" if resolved.comparable else " (CPU interpreter: timings not comparable)"
    print_results(rows, f"AgentKernelArena demo on {resolved.name}{note}")
    if out_file is not None:
        out_file.write_text(json.dumps(rows, indent=2))
        click.echo(f"results written to {out_file}", err=True)
