"""`aka leaderboard RUN...`: agent configurations ranked per category.

An agent configuration is a labelled agent with its settings (label, name and args); the same
configuration in several runs (one run per suite, say) is one entry with all its trials. Per
category, and over all categories, each entry gets the reference benchmark's metrics (compile
and correctness rates, mean speedup, mean score) and ours (geometric-mean speedup, fast_p,
held-out correctness), computed by report/metrics.py with its rules (every finished trial in
every rate; speedup means over correct trials). Entries are ranked by mean score (the
reference's ordering), then correct rate, then geometric-mean speedup. A category where entries
ran different tasks gets a warning: their numbers are not over the same tasks.
"""

from __future__ import annotations

import json
from typing import Any

from agentkernelarena.report.load import RunData
from agentkernelarena.report.metrics import group_metrics, trial_row
from agentkernelarena.report.render import Rows, num, pct

RANK_KEYS = {
    "score": ("score_mean", "mean score"),
    "correct": ("correct_rate", "correct rate"),
    "speedup": ("speedup_mean", "mean speedup"),
    "geomean": ("speedup_geomean", "geometric-mean speedup"),
    "fast1": ("fast_1.0", "fast_1.0"),
}
TIE_BREAK = ("score_mean", "correct_rate", "speedup_geomean")


def _config_key(record: dict[str, Any]) -> str:
    """Label, agent and settings: one label with one configuration across runs is one entry;
    two labels are two entries even with the same settings (a noise measurement, say)."""
    return json.dumps([record.get("agent_label") or record.get("agent"), record.get("agent"),
                       record.get("agent_args") or {}], sort_keys=True, default=str)


def _value(metrics: dict[str, Any], key: str) -> float:
    value = metrics["fast_p"]["1.0"] if key == "fast_1.0" else metrics.get(key)
    return float("-inf") if value is None else float(value)


def collect(runs: list[RunData]) -> dict[str, dict[str, Any]]:
    """Configuration key -> {label, agent, args, runs, rows}: the trials of each agent
    configuration across the runs."""
    entries: dict[str, dict[str, Any]] = {}
    for run in runs:
        for record in run.records:
            row = trial_row(record)
            entry = entries.setdefault(_config_key(record), {
                "label": row["agent"], "agent": record.get("agent"),
                "args": record.get("agent_args") or {}, "runs": [], "rows": []})
            if str(run.path) not in entry["runs"]:
                entry["runs"].append(str(run.path))
            entry["rows"].append(row)
    labels: dict[str, int] = {}
    for entry in entries.values():
        labels[entry["label"]] = labels.get(entry["label"], 0) + 1
    for entry in entries.values():  # one label, several configurations: say which is which
        if labels[entry["label"]] > 1:
            args = ",".join(f"{k}={v}" for k, v in sorted(entry["args"].items()))
            entry["label"] = f"{entry['label']} ({args or entry['agent']})"
    return entries


def _settings_warnings(runs: list[RunData]) -> list[str]:
    out = []
    for key in ("platform", "attempts", "max_iterations", "time_limit_s"):
        values = {json.dumps((r.manifest.get("identity") or {}).get(key), default=str)
                  for r in runs if key in (r.manifest.get("identity") or {})}
        if len(values) > 1:
            out.append(f"the runs differ in {key.replace('_', ' ')}: {', '.join(sorted(values))}")
    for run in runs:
        if run.manifest.get("comparable") is False:
            out.append(f"{run.path} ran on {run.manifest.get('platform')}: its timings are not "
                       "comparable")
        if run.missing or run.unreadable:
            out.append(f"{run.path}: {len(run.missing)} trial(s) not finished or unreadable")
    return out


def leaderboard(runs: list[RunData], rank_by: str = "score") -> dict[str, Any]:
    """{categories: {CATEGORY: [ranked entries]}, warnings, ranking, notes}; "all" first."""
    key, words = RANK_KEYS[rank_by]
    entries = collect(runs)
    categories = sorted({r["category"] for e in entries.values() for r in e["rows"]})
    board: dict[str, list[dict[str, Any]]] = {}
    warnings = _settings_warnings(runs)
    for category in ["all", *categories]:
        ranked = []
        for entry in entries.values():
            rows = [r for r in entry["rows"] if category == "all" or r["category"] == category]
            if not rows:
                continue
            metrics = group_metrics(rows)
            ranked.append({"label": entry["label"], "agent": entry["agent"],
                           "args": entry["args"], "runs": entry["runs"],
                           "tasks": sorted({r["task"] for r in rows}), "metrics": metrics})
        order = (key, *(k for k in TIE_BREAK if k != key))
        ranked.sort(key=lambda e: tuple(-_value(e["metrics"], k) for k in order))
        for index, entry in enumerate(ranked, 1):
            entry["rank"] = index
        if len({tuple(e["tasks"]) for e in ranked}) > 1:
            warnings.append(f"{category}: the entries ran different tasks; their numbers are "
                            "not over the same tasks (see the tasks column)")
        board[category] = ranked
    return {"categories": board, "warnings": warnings,
            "ranking": f"ranked by {words}, then " + ", ".join(
                k.replace("_", " ") for k in TIE_BREAK if k != key),
            "notes": ["rates and mean score count every finished trial; mean and geometric-mean "
                      "speedup are over correct trials only",
                      "fast_p: share of all trials that are correct and at least p times faster",
                      "an entry is one agent configuration (agent and settings), over all the "
                      "runs given"]}


def board_rows(entries: list[dict[str, Any]]) -> Rows:
    headers = ["rank", "agent", "config", "tasks", "trials", "compiled", "correct",
               "mean speedup", "score", "geomean", "fast1", "fast1.5", "fast2", "HO correct"]
    rows = []
    for e in entries:
        m = e["metrics"]
        args = ",".join(f"{k}={v}" for k, v in sorted(e["args"].items()))
        rows.append([str(e["rank"]), e["label"], f"{e['agent']}" + (f" {args}" if args else ""),
                     str(len(e["tasks"])), str(m["trials"]), pct(m["compile_rate"]),
                     pct(m["correct_rate"]), _speed(m["speedup_mean"]), num(m["score_mean"]),
                     _speed(m["speedup_geomean"]),
                     *(pct(m["fast_p"][k]) for k in ("1.0", "1.5", "2.0")),
                     pct(m["held_out"]["correct_rate"])])
    return headers, rows


def _speed(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}x"


def with_published(board: dict[str, Any]) -> dict[str, Any]:
    """The board with the reference benchmark's published figures (report/published.py) and a
    note saying they are quoted, not measured here."""
    from agentkernelarena.report.published import SOURCE, published

    board = dict(board)
    board["published"] = published()
    board["notes"] = [*board["notes"], "published figures are quoted, not measured here: "
                      f"source: {SOURCE}; their mean speedup is an arithmetic mean on the "
                      "reference's own hardware and tasks (docs/reference-experiment.md)"]
    return board


def board_tables(board: dict[str, Any]) -> list[dict[str, Any]]:
    tables = [{"category": category, "rows": board_rows(entries)}
              for category, entries in board["categories"].items()]
    if "published" in board:
        from agentkernelarena.report.published import side_by_side

        tables += side_by_side(board)
    return tables


def board_markdown(board: dict[str, Any]) -> str:
    from agentkernelarena.report.render import markdown_table

    parts = ["# Leaderboard", "", f"_{board['ranking']}_", ""]
    parts += [f"- **warning:** {w}" for w in board["warnings"]] + ([""] if board["warnings"]
                                                                  else [])
    for table in board_tables(board):
        parts += [f"## {table['category']}", "", markdown_table(table["rows"]), ""]
    parts += ["## Notes", ""] + [f"- {n}" for n in board["notes"]]
    return "\n".join(parts) + "\n"


def print_board(board: dict[str, Any]) -> None:
    from agentkernelarena.report.render import console
    from agentkernelarena.report.textfit import print_rows

    out = console()
    out.print(board["ranking"], markup=False, highlight=False)
    for warning in board["warnings"]:
        out.print(f"warning: {warning}", style="yellow", markup=False, highlight=False)
    for table in board_tables(board):
        print_rows(out, table["rows"], table["category"])
    if "published" in board:
        out.print(f"published figures: {board['published']['mark']}; source: "
                  f"{board['published']['source']}", style="bold", markup=False,
                  highlight=False)
