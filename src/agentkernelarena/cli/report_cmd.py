"""`aka report RUN_DIR` and `aka compare RUN_A RUN_B`: reading run folders (docs/runs.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

run_dir_argument = click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))


@click.command("report")
@run_dir_argument
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv", "md", "html"]),
              default="table", show_default=True,
              help="json: {summary, trials, missing}; csv: one row per trial; html: one "
                   "self-contained file with plots and every trial.")
@click.option("--trials", "with_trials", is_flag=True, help="table: also list every trial.")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of printing.")
@click.option("--transcript-kb", type=click.IntRange(min=1), default=24, show_default=True,
              help="html: at most this much of each transcript (its head and tail).")
def report_command(run_dir: Path, fmt: str, with_trials: bool, output: Path | None,
                   transcript_kb: int) -> None:
    """Summarize a run folder: finished, interrupted or still running.

    Rates count every finished trial (failures included); speedup means are over correct
    trials only; unfinished trials are reported as missing, not as failures.
    """
    from agentkernelarena.report import build_report, load_run
    from agentkernelarena.report.render import print_tables, to_csv, to_markdown

    run = load_run(run_dir)
    if fmt == "html":
        from agentkernelarena.report.html import report_html

        _emit(report_html(run, transcript_limit=transcript_kb * 1000), output)
        return
    report = build_report(run)
    if fmt == "table" and output is None:
        print_tables(report, with_trials=with_trials)
        return
    text = {"json": lambda: json.dumps(report, indent=2, default=str) + "\n",
            "csv": lambda: to_csv(report),
            "md": lambda: to_markdown(report),
            "table": lambda: to_markdown(report)}[fmt]()
    _emit(text, output)


@click.command("compare")
@click.argument("run_a", type=click.Path(file_okay=False, path_type=Path))
@click.argument("run_b", type=click.Path(file_okay=False, path_type=Path))
@click.option("--agent-a", help="The agent label of RUN_A to compare (when it has several).")
@click.option("--agent-b", help="The agent label of RUN_B (RUN_B may be RUN_A: an A/B run).")
@click.option("--tie", type=click.FloatRange(min=0), default=0.02, show_default=True,
              help="Speedup ratios within 1±tie count as ties.")
@click.option("--min-tasks", type=click.IntRange(min=2), default=10, show_default=True,
              help="Fewer paired tasks than this: 'too few tasks to tell', no intervals.")
@click.option("--seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@click.option("--resamples", type=click.IntRange(min=100), default=2000, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["table", "text", "json", "md", "html"]),
              default="table", show_default=True, help="text is table.")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of printing.")
def compare_command(run_a: Path, run_b: Path, agent_a: str | None, agent_b: str | None,
                    tie: float, min_tasks: int, seed: int, resamples: int, fmt: str,
                    output: Path | None) -> None:
    """Compare two runs: per metric better / worse / not distinguishable (paired bootstrap over
    tasks and attempts), the tasks that moved most, warnings for small or mismatched runs."""
    from agentkernelarena.report import compare_runs, load_run
    from agentkernelarena.report.compare_render import compare_markdown, print_compare

    result = compare_runs(load_run(run_a), load_run(run_b), agent_a, agent_b, tie,
                          resamples=resamples, seed=seed, min_tasks=min_tasks)
    if fmt in ("table", "text") and output is None:
        print_compare(result)
        return
    if fmt == "html":
        from agentkernelarena.report.html import compare_html

        text = compare_html(result)
    elif fmt == "json":
        text = json.dumps(result, indent=2, default=str) + "\n"
    else:
        text = compare_markdown(result)
    _emit(text, output)


def _emit(text: str, output: Path | None) -> None:
    if output is not None:
        output.write_text(text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


@click.command("leaderboard")
@click.argument("runs", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--rank-by", type=click.Choice(["score", "correct", "speedup", "geomean", "fast1"]),
              default="score", show_default=True,
              help="score: mean score (the reference benchmark's order); speedup: its mean "
                   "speedup over correct trials; geomean, fast1: ours.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "md", "html"]),
              default="table", show_default=True)
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of printing.")
@click.option("--published", "with_published", is_flag=True,
              help="Also print the reference benchmark's published mean speedups beside the "
                   "runs' (quoted, with their source; not measured here).")
def leaderboard_command(runs: tuple[Path, ...], rank_by: str, fmt: str,
                        output: Path | None, with_published: bool) -> None:
    """Rank agent configurations per category over one or more run folders."""
    from agentkernelarena.report import load_run
    from agentkernelarena.report.leaderboard import (
        board_markdown,
        board_tables,
        leaderboard,
        print_board,
    )
    from agentkernelarena.report.leaderboard import (
        with_published as add_published,
    )

    board = leaderboard([load_run(path) for path in runs], rank_by=rank_by)
    if with_published:
        board = add_published(board)
    if fmt == "table" and output is None:
        print_board(board)
        return
    if fmt == "html":
        from agentkernelarena.report.html import leaderboard_html

        text = leaderboard_html(board, board_tables(board))
    elif fmt == "json":
        text = json.dumps(board, indent=2, default=str) + "\n"
    else:
        text = board_markdown(board)
    _emit(text, output)
