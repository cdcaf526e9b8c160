"""`aka tasks list|show|materialize|check|new|import`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from agentkernelarena.cli.fetch_cmd import fetch
from agentkernelarena.cli.options import json_option, platform_option, tasks_dir_option
from agentkernelarena.tasks.check import check_task, summary_lines
from agentkernelarena.tasks.importers.kernelbench import CATEGORIES as IMPORT_CATEGORIES
from agentkernelarena.tasks.importers.kernelbench import import_kernelbench
from agentkernelarena.tasks.loader import discover_tasks, find_task, select_tasks
from agentkernelarena.tasks.scaffold import new_task
from agentkernelarena.tasks.sets import SET_PREFIX, growing_suites, load_set, set_names
from agentkernelarena.tasks.suite_page import collect_gpu_results, collect_tune_results, render
from agentkernelarena.workspace import materialize as materialize_workspace


@click.group()
def tasks() -> None:
    """List, inspect, materialize and validate tasks."""


tasks.add_command(fetch)


@tasks.command("list")
@click.option("--category", default=None, help="Only this category.")
@click.option("--set", "--suite", "set_name", default=None, metavar="NAME",
              help="Only the tasks of this named set (`aka tasks sets`), e.g. arena-44.")
@tasks_dir_option
@json_option
def list_tasks(category: str | None, set_name: str | None, tasks_dirs: tuple[Path, ...],
               as_json: bool) -> None:
    """List the tasks of the bundled suites and of --tasks-dir."""
    found = discover_tasks(tasks_dirs)
    if set_name:
        found = select_tasks([SET_PREFIX + set_name.removeprefix(SET_PREFIX)], found)
    if category:
        found = [t for t in found if t.category == category]
    if as_json:
        click.echo(json.dumps([{"id": t.id, "category": t.category, "language": t.language,
                                "has_solution": t.solution_dir is not None} for t in found],
                              indent=2))
        return
    table = Table(title=f"{len(found)} tasks")
    for column in ("id", "language", "visible", "held-out", "solution"):
        table.add_column(column)
    for t in found:
        table.add_row(t.id, t.language, str(len(t.visible)), str(t.held_out_count),
                      "yes" if t.solution_dir else "")
    Console().print(table)


@tasks.command("sets")
@json_option
def list_sets(as_json: bool) -> None:
    """The named task sets shipped with the arena (`--tasks @NAME` selects one)."""
    found = [load_set(name) for name in set_names()]
    growing = growing_suites()
    if as_json:
        click.echo(json.dumps([s.to_json() for s in found] + [
            {"name": name, "description": text, "growing": True}
            for name, text in growing.items()], indent=2))
        return
    for task_set in found:
        click.secho(f"@{task_set.name} ({len(task_set.task_ids)} tasks)", bold=True)
        click.echo(f"  {task_set.description}")
        click.echo(f"  source: {task_set.source}")
        if task_set.composition:
            click.echo(f"  composition: {task_set.composition}")
    for name, text in growing.items():
        click.secho(f"@{name}", bold=True, nl=False)
        click.echo(f"  {text}")
    click.echo("tasks of one: `aka tasks list --set NAME`; in a run: `--tasks @NAME`")


@tasks.command("page")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="Write the page here (default: print it).")
@click.option("--results", type=click.Path(path_type=Path), default=Path("benchmarks/results"),
              show_default=True, help="The folder of recorded GPU results.")
def page(output: Path | None, results: Path) -> None:
    """The suite page (docs/suites.md): every bundled task with its recorded H200 figures."""
    text = render(discover_tasks(), collect_gpu_results(results), collect_tune_results(results))
    if output is None:
        click.echo(text, nl=False)
        return
    output.write_text(text)
    click.echo(f"wrote {output}", err=True)


@tasks.command("show")
@click.argument("task_id")
@tasks_dir_option
@json_option
def show(task_id: str, tasks_dirs: tuple[Path, ...], as_json: bool) -> None:
    """Show one task (never its held-out configurations)."""
    task = find_task(task_id, tasks_dirs)
    info = task.public_json()
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    for key in ("id", "category", "language", "entry", "reference", "editable", "description"):
        click.echo(f"{key}: {info[key]}")
    click.echo("visible configs:")
    for config in info["visible_configs"]:
        click.echo(f"  {config}")
    click.echo(f"held-out configs: {info['held_out_count']} (not shown)")


@tasks.command("materialize")
@click.argument("task_id")
@click.argument("dest", type=click.Path(file_okay=False, path_type=Path))
@tasks_dir_option
def materialize(task_id: str, dest: Path, tasks_dirs: tuple[Path, ...]) -> None:
    """Write the workspace an agent would get for TASK_ID into DEST."""
    task = find_task(task_id, tasks_dirs)
    materialize_workspace(task, dest)
    click.echo(f"wrote workspace for {task.id} to {dest}")


@tasks.command("check")
@click.argument("selectors", nargs=-1, required=True)
@platform_option
@tasks_dir_option
@click.option("--no-soundness", is_flag=True,
              help="Skip the soundness checks (known-wrong variants, bound, exercised rules).")
@click.option("--quick", is_flag=True,
              help="Formulas and soundness only: the baseline and solution are not evaluated "
                   "(seconds a task; CI runs it over every task).")
@click.option("--seed", type=int, default=None,
              help="Base seed of the held-out draws and inputs (default: fixed on a GPU, fresh "
                   "on the CPU; a failure prints the one it used).")
@json_option
def check(selectors: tuple[str, ...], platform: str | None, tasks_dirs: tuple[Path, ...],
          no_soundness: bool, quick: bool, seed: int | None, as_json: bool) -> None:
    """Validate tasks: files, baseline and solution correct everywhere, outputs not degenerate,
    known-wrong variants rejected, the speed-of-light bound sound, stated rules exercised; on a
    GPU also each configuration's baseline time, A/A, headroom and the solution's speedup.

    Exit status 1 when any task has a problem.
    """
    chosen = select_tasks(selectors, discover_tasks(tasks_dirs))
    reports = []
    for task in chosen:
        if not as_json:
            click.echo(f"checking {task.id} ...", err=True)
        report = check_task(task, platform, soundness=not no_soundness, evaluate=not quick,
                            seed=seed)
        reports.append(report)
        if not as_json:
            mark = click.style("ok", fg="green") if report["ok"] else click.style("FAIL", fg="red")
            click.echo(f"{mark} {task.id} ({report['wall_s']:.1f}s)")
            for line in summary_lines(report):
                click.echo(f"    {line}")
            for problem in report["problems"]:
                click.echo(f"    - {problem}")
            if not report["ok"] and "seed" in report:
                click.echo(f"    again with: aka tasks check {task.id} --seed {report['seed']}"
                           + (f" --platform {platform}" if platform else ""))
    if as_json:
        click.echo(json.dumps(reports, indent=2))
    if not all(r["ok"] for r in reports):
        sys.exit(1)


@tasks.command("new")
@click.argument("task_id", metavar="CATEGORY/NAME")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("."), show_default=True,
              help="Write the task to OUT/CATEGORY/NAME (use OUT as --tasks-dir).")
def new(task_id: str, out_dir: Path) -> None:
    """Scaffold a task (baseline, reference, inputs, configurations) that passes the check."""
    dest = new_task(task_id, out_dir)
    click.echo(f"wrote {task_id} to {dest}")
    click.echo(f"check it with: aka tasks check {task_id} --tasks-dir {out_dir}")


@tasks.group("import")
def import_group() -> None:
    """Turn other benchmarks' problems into task folders."""


@import_group.command("kernelbench")
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Write tasks to OUT/CATEGORY/NAME (use OUT as --tasks-dir).")
@click.option("--category", type=click.Choice(IMPORT_CATEGORIES), default="torch2cuda",
              show_default=True, help="What the agent delivers.")
@json_option
def import_kernelbench_cmd(sources: tuple[Path, ...], out_dir: Path, category: str,
                           as_json: bool) -> None:
    """Import KernelBench-convention problem files (or every *.py of a folder).

    Problems that cannot be converted are listed with the reason; nothing of them is written.
    Exit status 1 when any was skipped. The files are executed: import only what you would run.
    """
    report = import_kernelbench(list(sources), out_dir, category)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        for item in report.imported:
            click.echo(f"{click.style('imported', fg='green')} {item['task']} <- {item['source']}")
        for item in report.skipped:
            click.echo(f"{click.style('skipped', fg='red')} {item['source']}: {item['reason']}")
        click.echo(f"{len(report.imported)} imported, {len(report.skipped)} skipped; check them "
                   f"with: aka tasks check {category} --tasks-dir {out_dir} --platform cpu")
    if report.skipped:
        sys.exit(1)
