"""`aka compare` as text: a terminal table and Markdown, built from the same rows.

The verdict table comes first (is B better, per metric, and over which tasks), then the tasks
that moved most, then every paired task; warnings (too few tasks, settings that differ) are
printed before the numbers they qualify and again at the end.
"""

from __future__ import annotations

from typing import Any

from agentkernelarena.feedback import fmt_speedup
from agentkernelarena.report.render import Rows, console, markdown_table
from agentkernelarena.report.textfit import print_rows
from agentkernelarena.runner.outcome import MARKERS


def _value(entry: dict[str, Any], value: float | None) -> str:
    if value is None:
        return "-"
    if entry["kind"] == "ratio":
        return f"{value:.3f}x"
    return f"{value:.1f}" if entry["metric"] == "score_mean" else f"{100 * value:.1f}%"


def _delta(entry: dict[str, Any], value: float | None) -> str:
    if value is None:
        return "-"
    if entry["kind"] == "ratio":
        return f"{value:.3f}x"
    return f"{value:+.1f}" if entry["metric"] == "score_mean" else f"{100 * value:+.1f} pt"


def metric_rows(result: dict[str, Any]) -> Rows:
    headers = ["metric", "A", "B", "B-A (B/A)", "95% CI", "verdict for B", "over"]
    rows = []
    for m in result["metrics"]:
        ci = m["ci95"]
        rows.append([m["label"], _value(m, m["a"]), _value(m, m["b"]), _delta(m, m["delta"]),
                     "-" if ci is None else f"{_delta(m, ci[0])} .. {_delta(m, ci[1])}",
                     m["verdict"], m["over"]])
    return headers, rows


def _outcomes(outcomes: dict[str, int]) -> str:
    """`[agent-failed 2, no-change 1]`: what the agents did, where not simply ok."""
    if not outcomes:
        return ""
    return " [" + ", ".join(f"{MARKERS.get(o, o)} {n}" for o, n in outcomes.items()) + "]"


def _side(side: dict[str, Any]) -> str:
    verdicts = ", ".join(f"{v} {n}" for v, n in side["verdicts"].items())
    return f"{side['correct']}/{side['trials']} ok ({verdicts}){_outcomes(side['agent_outcomes'])}"


def task_rows(result: dict[str, Any]) -> Rows:
    rows = [[t["task"], _side(t["a"]), fmt_speedup(t["a"]["speedup_geomean"]), _side(t["b"]),
             fmt_speedup(t["b"]["speedup_geomean"]),
             "-" if t["speedup_ratio"] is None else f"{t['speedup_ratio']:.3f}",
             {"a": "A", "b": "B", "tie": "tie"}[t["winner"]]] for t in result["tasks"]]
    return ["task", "A", "A speedup", "B", "B speedup", "B/A", "winner"], rows


def mover_rows(movers: list[dict[str, Any]]) -> Rows:
    rows = [[m["task"], f"{100 * m['correct_rate_delta']:+.0f} pt",
             fmt_speedup(m["a_speedup"]), fmt_speedup(m["b_speedup"]),
             "-" if m["speedup_ratio"] is None else f"{m['speedup_ratio']:.3f}"]
            for m in movers]
    return ["task", "correct rate B-A", "A speedup", "B speedup", "B/A"], rows


def headline(result: dict[str, Any]) -> list[str]:
    a, b, s = result["a"], result["b"], result["summary"]
    lines = [f"A = {a['agent']} in {a['run']}", f"B = {b['agent']} in {b['run']}",
             f"{s['paired_tasks']} paired task(s): B wins {s['wins_b']}, A wins {s['wins_a']}, "
             f"ties {s['ties']} (tie band {100 * s['tie_band']:g}%); every mean below is over "
             "the paired tasks only"]
    for name in ("a", "b"):
        outcomes = s[name].get("agent_outcomes")
        if outcomes:
            lines.append(f"agent outcomes of {name.upper()} (besides ok):{_outcomes(outcomes)}")
    for name in ("only_a", "only_b"):
        if s[name]:
            lines.append(f"{name.replace('_', ' ')} (not compared): {', '.join(s[name])}")
    return lines


def metric_lines(result: dict[str, Any]) -> list[str]:
    """The verdicts, one line per metric, verdict first (the narrow-terminal layout)."""
    lines = ["verdicts (B against A):"]
    for m in result["metrics"]:
        ci = m["ci95"]
        interval = "" if ci is None else f" (95% CI {_delta(m, ci[0])} .. {_delta(m, ci[1])})"
        change = "B/A" if m["kind"] == "ratio" else "B-A"
        lines.append(f"  {m['label']}: {m['verdict']}; A {_value(m, m['a'])}, B "
                     f"{_value(m, m['b'])}, {change} {_delta(m, m['delta'])}{interval}; over "
                     f"{m['over']}")
    return lines


def print_compare(result: dict[str, Any]) -> None:
    out = console()
    s = result["summary"]
    for line in headline(result):
        out.print(line, markup=False, highlight=False)
    for warning in s["warnings"]:
        out.print(f"warning: {warning}", style="bold yellow", markup=False, highlight=False)
    print_rows(out, metric_rows(result), "verdicts (B against A)", metric_lines(result))
    for key, title in (("improved", "B improved most"), ("regressed", "B regressed most")):
        if result[key]:
            print_rows(out, mover_rows(result[key]), title)
    if result["tasks"]:
        print_rows(out, task_rows(result), "per task")
    if s["warnings"]:
        out.print(f"{len(s['warnings'])} warning(s) above", style="yellow", markup=False)
    out.print(s["method"], style="dim", markup=False, highlight=False)


def compare_markdown(result: dict[str, Any]) -> str:
    s = result["summary"]
    parts = ["# Compare", ""] + [f"- {line}" for line in headline(result)] + [""]
    if s["warnings"]:
        parts += ["## Warnings", ""] + [f"- **{w}**" for w in s["warnings"]] + [""]
    parts += ["## Verdicts (B against A)", "", markdown_table(metric_rows(result)), ""]
    for key, title in (("improved", "B improved most"), ("regressed", "B regressed most")):
        if result[key]:
            parts += [f"## {title}", "", markdown_table(mover_rows(result[key])), ""]
    parts += ["## Per task", "", markdown_table(task_rows(result)), "", f"_{s['method']}_", ""]
    return "\n".join(parts)
