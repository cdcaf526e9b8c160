"""A report as text: a terminal table, Markdown, CSV (one row per trial).

Each table is built once as headers and rows of strings, then drawn by rich or as Markdown, so
the two formats always agree.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from rich.console import Console
from rich.table import Table

from agentkernelarena.feedback import fmt_speedup
from agentkernelarena.report.fit import Rows, fitted_table
from agentkernelarena.runner.outcome import verdict_text

# Which columns give way first when a table is wider than the terminal (report/fit.py).
SUMMARY_DROP = ("tokens in/out", "fast1.5", "mean", "agent s", "fast1", "compiled", "fast2",
                "cost")
GENERALIZATION_DROP = ("improvement", "both_fail", "both_pass", "visible speedup", "gap",
                       "regression")
TRIALS_DROP = ("quadrant", "agent time", "vs torch.compile", "held-out")
HELDOUT_DROP = ("run's HO ok", "HO speedup", "all pass")


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _groups(summary: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for label, metrics in summary["agents"].items():
        out.append((label, "all", metrics))
        categories = metrics.get("categories", {})
        if len(categories) > 1:
            out.extend((label, c, m) for c, m in categories.items())
    return out


def summary_rows(summary: dict[str, Any]) -> Rows:
    headers = ["agent", "category", "n", "agent err", "compiled", "correct", "speedup (n)",
               "mean", "fast1", "fast1.5", "fast2", "score", "agent s", "tokens in/out", "cost"]
    rows = []
    for label, category, m in _groups(summary):
        if not m.get("trials"):
            rows.append([label, category, "0"] + ["-"] * (len(headers) - 3))
            continue
        tokens = m["tokens"]
        rows.append([
            label, category, str(m["trials"]), agent_err_cell(m),
            pct(m["compile_rate"]), pct(m["correct_rate"]),
            f"{fmt_speedup(m['speedup_geomean'])} ({m['speedup_n']})",
            fmt_speedup(m["speedup_mean"]),
            *(pct(m["fast_p"][k]) for k in ("1.0", "1.5", "2.0")),
            num(m["score_mean"]), num(m["agent_time_s"]["total"], 0),
            f"{num(tokens['tokens_in'], 0)}/{num(tokens['tokens_out'], 0)}",
            "-" if m["cost_usd"]["total"] is None else f"${m['cost_usd']['total']:.2f}",
        ])
    return headers, rows


def agent_err_cell(m: dict[str, Any]) -> str:
    """Trials whose agent failed, and (after a +) those stopped at the time limit."""
    failed, timed = m.get("agent_errors", 0), m.get("agent_timeouts", 0)
    return f"{failed}+{timed}t" if timed else str(failed)


def generalization_rows(summary: dict[str, Any]) -> Rows:
    headers = ["agent", "category", "visible ok", "HO ok", "gap", "visible speedup",
               "HO speedup", "ratio (n)", "both_pass", "regression", "both_fail",
               "improvement"]
    rows = []
    for label, category, m in _groups(summary):
        if not m.get("trials"):
            continue
        g = m["generalization"]
        q = g["quadrants"]
        rows.append([label, category, pct(g["visible_correct_rate"]),
                     pct(g["held_out_correct_rate"]),
                     f"{100 * g['correct_rate_gap']:+.0f} pt",
                     fmt_speedup(g["visible_speedup_geomean"]),
                     fmt_speedup(g["held_out_speedup_geomean"]),
                     f"{num(g['speedup_ratio'], 3)} ({g['paired_n']})",
                     *(str(q[k]) for k in ("both_pass", "regression", "both_fail",
                                           "improvement"))])
    return headers, rows


def heldout_rows(redraws: list[dict[str, Any]]) -> Rows:
    """One row per `aka heldout` re-draw and agent: how the final solutions fared on new
    held-out draws."""
    headers = ["re-draw", "agent", "draws", "draws ok", "all pass", "HO speedup",
               "run's HO ok"]
    rows = []
    for redraw in redraws:
        name = (redraw.get("created_at") or redraw["path"]).replace("+00:00", "Z")
        for label, s in (redraw.get("agents") or {}).items():
            rows.append([name, label, f"{s.get('draws', 0)}",
                         pct(s.get("draw_correct_rate")), pct(s.get("all_draws_pass_rate")),
                         fmt_speedup(s.get("speedup_geomean")),
                         pct(s.get("original_correct_rate"))])
    return headers, rows


def sandbox_cell(trial: dict[str, Any]) -> str:
    """The trials table's sandbox marker: yes, NO (agent / eval worker), - unknown."""
    parts = [name for name, key in (("agent", "sandboxed"), ("eval worker", "worker_sandboxed"))
             if trial.get(key) is False]
    if parts:
        return f"NO ({', '.join(parts)})"
    return "yes" if trial.get("sandboxed") else "-"


def trial_table_rows(trials: list[dict[str, Any]]) -> Rows:
    versus = any(t.get("speedup_vs_compile") is not None for t in trials)
    # The marker column only where some trial ran unsandboxed (footnote: unsandboxed_lines).
    marked = any(t.get("unsandboxed") for t in trials)
    headers = ["trial", "verdict", "speedup", *(["vs torch.compile"] if versus else []),
               "held-out", "quadrant", "score", "agent time", *(["sandbox"] if marked else [])]
    rows = []
    for t in trials:
        held = t["held_out"]
        held_text = "-" if not held["evaluated"] else (
            f"{'ok' if held['correct'] else 'FAIL'} {fmt_speedup(held['speedup'])}")
        rows.append([f"{t['agent']} {t['task']} #{t['attempt']}",
                     verdict_text(t["verdict"], t.get("agent_outcome") or "ok"),
                     fmt_speedup(t["speedup"]),
                     *([fmt_speedup(t.get("speedup_vs_compile"))] if versus else []),
                     held_text, held["quadrant"] or "-",
                     num(t["score"]), f"{num(t['agent_wall_s'], 0)} s",
                     *([sandbox_cell(t)] if marked else [])])
    return headers, rows


def _trial_name(entry: dict[str, Any]) -> str:
    return entry.get("id") or f"{entry['agent']} {entry['task']} #{entry['attempt']}"


def unsandboxed_lines(summary: dict[str, Any], limit: int | None = 20, quote: bool = False
                      ) -> list[str]:
    """The footnote on trials that ran without a sandbox (none: no lines): a headline, then one
    line per trial (at most `limit`; `quote`: trial names as Markdown code)."""
    listed = summary.get("unsandboxed") or []
    if not listed:
        return []
    lines = [f"WARNING: {len(listed)} of {summary['run']['finished']} trial(s) ran without a "
             "sandbox (agent or evaluation worker): their held-out results are not "
             "trustworthy"]
    shown = listed if limit is None else listed[:limit]
    tick = "`" if quote else ""
    lines += [f"{tick}{_trial_name(u)}{tick}: {'; '.join(u['why'])}" for u in shown]
    if len(listed) > len(shown):
        lines.append(f"... and {len(listed) - len(shown)} more (`--format json`: "
                     "summary.unsandboxed)")
    return lines


def status_line(summary: dict[str, Any]) -> str:
    run = summary["run"]
    text = (f"run {run['path']}: {run['finished']} of {run['planned']} trials finished "
            f"on {run['platform']}")
    if not run["comparable"]:
        text += " (timings not comparable: no GPU)"
    if run["missing"]:
        text += (f"; {run['missing']} missing (interrupted or still running; "
                 f"`aka run --resume --out {run['path']}` finishes it)")
    if run["unreadable"]:
        text += f"; unreadable records: {', '.join(run['unreadable'][:5])}"
    return text


def rich_table(rows: Rows, title: str) -> Table:
    """The table at its natural width (callers that know the width use fitted_table)."""
    headers, body = rows
    table = Table(title=title, title_justify="left")
    for index, header in enumerate(headers):
        table.add_column(header, justify="left" if index < 2 else "right", no_wrap=index < 2)
    for row in body:
        table.add_row(*row)
    return table


def console() -> Console:
    """The terminal's width, or a wide one for pipes and files (no truncated columns)."""
    plain = Console()
    return plain if plain.is_terminal else Console(width=220)


def print_fitted(console_: Console, rows: Rows, title: str, drop: tuple[str, ...]) -> None:
    """A table that fits the console, with a line naming the columns it left out."""
    table, dropped = fitted_table(rows, title, console_, drop)
    console_.print(table)
    if dropped:
        console_.print(f"(left out for width: {', '.join(dropped)}; a wider terminal, "
                       "`--format md` or `--format json` has them)", style="dim",
                       markup=False, highlight=False)


def agent_lines(summary: dict[str, Any], limit: int | None = 10) -> list[str]:
    """The footnote on agents that failed or timed out, and on trials that scored only
    because the baseline was left unchanged."""
    lines = []
    failed, timed = summary.get("agent_errors", 0), summary.get("agent_timeouts", 0)
    if failed or timed:
        lines.append(f"{failed} trial(s) with an agent that failed, {timed} stopped at the time "
                     "limit: marked [agent-failed] / [timed-out] beside the verdict, which "
                     "judges the workspace the agent left")
    listed = summary.get("baseline_scored") or []
    if listed:
        shown = listed if limit is None else listed[:limit]
        lines.append(f"{len(listed)} trial(s) scored only because the baseline was left "
                     "unchanged: " + ", ".join(f"{_trial_name(b)} ({b['agent_outcome']})"
                                               for b in shown)
                     + (f" and {len(listed) - len(shown)} more" if len(listed) > len(shown)
                        else ""))
    return lines


def print_tables(report: dict[str, Any], with_trials: bool = False,
                 console_: Console | None = None) -> None:
    console_ = console_ or console()
    summary = report["summary"]
    console_.print(status_line(summary), markup=False, highlight=False)
    print_fitted(console_, summary_rows(summary), "per agent (and category)", SUMMARY_DROP)
    print_fitted(console_, generalization_rows(summary), "generalization (held-out)",
                 GENERALIZATION_DROP)
    redraws = heldout_rows(report.get("heldout") or [])
    if redraws[1]:
        print_fitted(console_, redraws, "held-out re-draws (aka heldout)", HELDOUT_DROP)
    if with_trials:
        print_fitted(console_, trial_table_rows(report["trials"]), "trials", TRIALS_DROP)
    for line in agent_lines(summary):
        console_.print(f"warning: {line}", style="yellow", markup=False, highlight=False)
    for u in report.get("unreadable") or []:
        console_.print(f"warning: trial {u['id']} is unreadable: {u['error']}", style="yellow",
                       markup=False, highlight=False)
    for broken in summary.get("heldout_redraws", {}).get("unreadable") or []:
        console_.print(f"warning: re-draw {broken['path']} is unreadable: {broken['error']}",
                       style="yellow", markup=False, highlight=False)
    warning = unsandboxed_lines(summary)
    if warning:
        console_.print(warning[0], style="bold red", markup=False, highlight=False)
        for line in warning[1:]:
            console_.print(f"  {line}", style="red", markup=False, highlight=False)
    console_.print("speedup means are over correct trials only; every rate counts all finished "
                   "trials (`--format json` has the notes)", style="dim")


def markdown_table(rows: Rows) -> str:
    headers, body = rows
    lines = ["| " + " | ".join(headers) + " |",
             "| " + " | ".join("---" for _ in headers) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |"
              for row in body]
    return "\n".join(lines)


def to_markdown(report: dict[str, Any], with_trials: bool = True) -> str:
    summary = report["summary"]
    parts = [f"# Run report: {summary['run']['label'] or summary['run']['path']}", "",
             status_line(summary), "", "## Per agent", "", markdown_table(summary_rows(summary)),
             "", "## Generalization", "", markdown_table(generalization_rows(summary)), ""]
    redraws = heldout_rows(report.get("heldout") or [])
    if redraws[1]:
        parts += ["## Held-out re-draws (`aka heldout`)", "", markdown_table(redraws), ""]
    if with_trials:
        parts += ["## Trials", "", markdown_table(trial_table_rows(report["trials"])), ""]
    if report.get("unreadable"):
        parts += ["## Unreadable trials", ""] + [f"- `{u['id']}`: {u['error']}"
                                                 for u in report["unreadable"]] + [""]
    agent_notes = agent_lines(summary, limit=None)
    if agent_notes:
        parts += ["## Agent failures", ""] + [f"- {line}" for line in agent_notes] + [""]
    warning = unsandboxed_lines(summary, limit=None, quote=True)
    if warning:
        parts += ["## Unsandboxed trials", "", f"**{warning[0]}**", ""]
        parts += [f"- {line}" for line in warning[1:]] + [""]
    parts += ["## Notes", ""] + [f"- {note}" for note in summary["notes"]]
    return "\n".join(parts) + "\n"


CSV_COLUMNS = ["id", "task", "category", "agent", "agent_name", "attempt", "status", "verdict",
               "compiled", "correct", "speedup", "speedup_arith", "speedup_vs_compile", "score",
               "held_out_evaluated", "held_out_verdict", "held_out_correct", "held_out_speedup",
               "held_out_quadrant", "held_out_baseline_correct", "seed", "agent_outcome",
               "agent_failure", "agent_exit_code", "agent_error", "scored_on_baseline",
               "timed_out", "sandboxed", "worker_sandboxed",
               "agent_wall_s", "trial_wall_s", "turns", "tokens_in", "tokens_out",
               "tokens_cached", "cost_usd", "heldout_redraws", "heldout_redraws_passed",
               "reasons", "error"]


def to_csv(report: dict[str, Any]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    for t in report["trials"]:
        row = dict(t)
        for key, value in t["held_out"].items():
            row[f"held_out_{key}"] = value
        row["reasons"] = " | ".join(r.replace("\n", " ") for r in t["reasons"])
        redraws = t.get("heldout_redraws") or {}
        row["heldout_redraws"] = redraws.get("draws")
        row["heldout_redraws_passed"] = redraws.get("passed")
        row["agent_error"] = (t.get("agent_error") or "").replace("\n", " ")
        writer.writerow(row)
    for u in report.get("unreadable") or []:  # kept as rows: a trial is never dropped silently
        writer.writerow({**u, "status": "unreadable", "error": u["error"]})
    return buffer.getvalue()
