"""`aka eval ID --solution DIR`: evaluate one solution (DESIGN.md §11)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from agentkernelarena.cli.options import json_option, platform_option, tasks_dir_option
from agentkernelarena.cli.render import eval_summary, feedback
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.tasks.loader import find_task


@click.command("eval")
@click.argument("task_id")
@click.option("--solution", "solution_dir", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Folder holding the editable files to evaluate.")
@platform_option
@tasks_dir_option
@json_option
@click.option("--seed", type=int, default=None, help="Repeat an evaluation with its recorded seed.")
@click.option("--visible-only", is_flag=True, help="Skip the held-out configurations.")
@click.option("--no-timing", is_flag=True, help="Compile and correctness gates only.")
@click.option("--vs-compile", is_flag=True,
              help="Tasks with a PyTorch baseline: also time against torch.compile of it.")
@click.option("--feedback", "as_feedback", is_flag=True,
              help="Print what an agent's local check prints (visible results only).")
@click.option("--sandbox", type=click.Choice(["on", "off"]), default="on", show_default=True,
              help="Run the candidate's process in the evaluation sandbox; off only where "
                   "bubblewrap cannot work (the result then says it was not sandboxed).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the JSON result to this file.")
def eval_command(task_id: str, solution_dir: Path, platform: str | None,
                 tasks_dirs: tuple[Path, ...], as_json: bool, seed: int | None,
                 visible_only: bool, no_timing: bool, vs_compile: bool, as_feedback: bool,
                 sandbox: str, out_file: Path | None) -> None:
    """Evaluate the editable files in --solution against task TASK_ID.

    Exit status 0 whenever the evaluation ran, whatever the verdict.
    """
    task = find_task(task_id, tasks_dirs)
    options = EvalOptions(platform=platform, seed=seed, held_out=not visible_only,
                          measure=not no_timing, vs_compile=vs_compile, sandbox=sandbox,
                          hidden=tuple(tasks_dirs))
    result = evaluate(task, solution_dir, options)
    if not result.get("worker_sandbox", {}).get("sandboxed", True):
        click.echo(f"warning: the candidate was evaluated WITHOUT a sandbox "
                   f"({result['worker_sandbox']['reason']})", err=True)
    if out_file is not None:
        out_file.write_text(json.dumps(result, indent=2))
    if as_json:
        click.echo(json.dumps(result, indent=2))
    elif as_feedback:
        click.echo(feedback(result))
    else:
        click.echo(eval_summary(result))
