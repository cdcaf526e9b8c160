"""`aka report RUN_DIR` and `aka compare RUN_A RUN_B`: reading run folders (docs/runs.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from agentkernelarena.cli.render import fmt_speedup
from agentkernelarena.report.render import console as render_console

run_dir_argument = click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))


@click.command("report")
@run_dir_argument
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv", "md"]),
              default="table", show_default=True,
              help="json: {summary, trials, missing}; csv: one row per trial.")
@click.option("--trials", "with_trials", is_flag=True, help="table: also list every trial.")
@click.option("--output", "output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of printing.")
def report_command(run_dir: Path, fmt: str, with_trials: bool, output: Path | None) -> None:
    """Summarize a run folder: finished, interrupted or still running.

    Rates count every finished trial (failures included); speedup means are over correct
    trials only; unfinished trials are reported as missing, not as failures.
    """
    from agentkernelarena.report import build_report, load_run
    from agentkernelarena.report.render import print_tables, to_csv, to_markdown

    report = build_report(load_run(run_dir))
    if fmt == "table" and output is None:
        print_tables(report, with_trials=with_trials)
        return
    text = {"json": lambda: json.dumps(report, indent=2, default=str) + "\n",
            "csv": lambda: to_csv(report),
            "md": lambda: to_markdown(report),
            "table": lambda: to_markdown(report)}[fmt]()
    if output is not None:
        output.write_text(text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


def _side(side: dict[str, Any]) -> str:
    verdicts = ", ".join(f"{v} {n}" for v, n in side["verdicts"].items())
    return f"{side['correct']}/{side['trials']} ok ({verdicts})"


def _print_compare(result: dict[str, Any]) -> None:
    from agentkernelarena.report.render import rich_table

    a, b, s = result["a"], result["b"], result["summary"]
    console = render_console()
    console.print(f"A = {a['agent']} in {a['run']}\nB = {b['agent']} in {b['run']}",
                  markup=False, highlight=False)
    rows = [[t["task"], _side(t["a"]), fmt_speedup(t["a"]["speedup_geomean"]), _side(t["b"]),
             fmt_speedup(t["b"]["speedup_geomean"]),
             "-" if t["speedup_ratio"] is None else f"{t['speedup_ratio']:.3f}",
             {"a": "A", "b": "B", "tie": "tie"}[t["winner"]]] for t in result["tasks"]]
    console.print(rich_table((["task", "A", "A speedup", "B", "B speedup", "B/A", "winner"],
                              rows), "per task"))
    ci = s["speedup_ratio_ci95"]
    ratio = s["speedup_ratio_geomean"]
    console.print(
        f"{s['paired_tasks']} paired task(s): B wins {s['wins_b']}, A wins {s['wins_a']}, "
        f"ties {s['ties']} (tie band {100 * s['tie_band']:g}%)", markup=False)
    if ratio is not None:
        console.print(f"speedup B/A, geometric mean over {s['speedup_ratio_n']} task(s) with "
                      f"both correct: {ratio:.3f}"
                      + (f" (95% bootstrap CI {ci[0]:.3f}-{ci[1]:.3f})" if ci else ""),
                      markup=False)
    for key in ("correct_rate", "score_mean"):
        before, after, delta = s["a"][key], s["b"][key], s["delta"][key]
        if delta is not None:
            console.print(f"{key}: A {before:.3f}, B {after:.3f}, B-A {delta:+.3f}", markup=False)
    for name in ("only_a", "only_b"):
        if s[name]:
            console.print(f"{name.replace('_', ' ')}: {', '.join(s[name])}", markup=False)
    for warning in s["warnings"]:
        console.print(f"warning: {warning}", style="yellow", markup=False)


@click.command("compare")
@click.argument("run_a", type=click.Path(file_okay=False, path_type=Path))
@click.argument("run_b", type=click.Path(file_okay=False, path_type=Path))
@click.option("--agent-a", help="The agent label of RUN_A to compare (when it has several).")
@click.option("--agent-b", help="The agent label of RUN_B (RUN_B may be RUN_A: an A/B run).")
@click.option("--tie", type=click.FloatRange(min=0), default=0.02, show_default=True,
              help="Speedup ratios within 1±tie count as ties.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
def compare_command(run_a: Path, run_b: Path, agent_a: str | None, agent_b: str | None,
                    tie: float, fmt: str) -> None:
    """Compare two runs task by task: verdicts, speedups, wins/losses/ties, B/A with a CI."""
    from agentkernelarena.report import compare_runs, load_run

    result = compare_runs(load_run(run_a), load_run(run_b), agent_a, agent_b, tie)
    if fmt == "json":
        click.echo(json.dumps(result, indent=2, default=str))
    else:
        _print_compare(result)
