"""`aka heldout RUN_DIR`: a run's final solutions on new held-out draws (docs/runs.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from agentkernelarena.cli.options import json_option, platform_option, tasks_dir_option
from agentkernelarena.cli.render import fmt_speedup
from agentkernelarena.report.render import console as render_console


@click.command("heldout")
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--draws", type=click.IntRange(1), default=3, show_default=True,
              help="New held-out seeds per trial.")
@platform_option
@click.option("--gpus", "gpus_text", metavar="0,1", help="Which GPUs to use [all].")
@click.option("--eval-concurrency", type=click.IntRange(1),
              help="CPU platform: evaluations at once.")
@click.option("--no-timing", is_flag=True, help="Correctness only (no speedups).")
@click.option("--agent", "agents", multiple=True, metavar="LABEL",
              help="Only this agent's trials (repeatable) [all].")
@tasks_dir_option
@json_option
def heldout_command(run_dir: Path, draws: int, platform: str | None, gpus_text: str | None,
                    eval_concurrency: int | None, no_timing: bool, agents: tuple[str, ...],
                    tasks_dirs: tuple[Path, ...], as_json: bool) -> None:
    """Re-evaluate every finished trial's final solution on DRAWS new held-out seeds.

    No agent runs again. Seeds are recorded (repeat one with `aka eval --seed`); results go to
    RUN_DIR/heldout/<time>.json.
    """
    from agentkernelarena.cli.run_cmd import _gpus
    from agentkernelarena.report.render import print_fitted
    from agentkernelarena.runner.heldout import reevaluate

    def progress(line: str) -> None:
        if not as_json:
            click.echo(line, err=True)

    result = reevaluate(run_dir, draws=draws, platform=platform, measure=not no_timing,
                        gpus=_gpus(gpus_text), eval_concurrency=eval_concurrency,
                        tasks_dirs=tasks_dirs, agents=agents, on_result=progress)
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
        return
    rows = []
    for entry in result["trials"]:
        original = entry["original"]
        before = "-" if original["correct"] is None else \
            f"{'ok' if original['correct'] else 'FAIL'} {fmt_speedup(original['speedup'])}"
        summary = entry["summary"]
        after = entry["skipped"] or (f"{summary['passed']}/{summary['draws']} ok, "
                                     f"{fmt_speedup(summary['speedup_geomean'])}")
        quadrants = ", ".join(sorted({d["held_out"].get("quadrant") or "-"
                                      for d in entry["draws"]})) or "-"
        rows.append([f"{entry['agent']} {entry['task']} #{entry['attempt']}", before, after,
                     quadrants])
    console = render_console()
    print_fitted(console, (["trial", "run's held-out", f"{draws} new draws", "quadrants"], rows),
                 f"held-out re-evaluation on {result['platform']}", ("quadrants",))
    for label, s in result["summary"].items():
        console.print(f"{label}: {s['draws_correct']}/{s['trials'] * draws} draws correct "
                      f"({s['draw_correct_rate']:.0%}), all draws pass in "
                      f"{s['all_draws_pass_rate']:.0%} of {s['trials']} trial(s) "
                      f"(run's held-out: {s['original_correct_rate']:.0%}); held-out speedup "
                      f"{fmt_speedup(s['speedup_geomean'])}", markup=False)
    if result["missing_trials"]:
        console.print(f"{result['missing_trials']} trial(s) of the run are unfinished and "
                      "were not re-evaluated", style="yellow")
    click.echo(f"results: {result['path']}")
