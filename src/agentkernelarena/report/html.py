"""HTML reports: one self-contained file per run, compare or leaderboard.

Everything is inlined (styles, the small sorting/filtering script, the plots as SVG), so the file
opens anywhere with no network. Templates are package data (agentkernelarena/templates/report);
jinja2 autoescapes every value, so a transcript holding `<script>` shows as text. Only the SVG
plots (built here, every label escaped by report/svg.py) and the style and script go in raw.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from agentkernelarena import __version__
from agentkernelarena.feedback import fmt_speedup
from agentkernelarena.report.load import RunData
from agentkernelarena.report.metrics import build_report
from agentkernelarena.report.plots import compare_plot, report_plots
from agentkernelarena.report.render import (
    generalization_rows,
    num,
    pct,
    status_line,
    summary_rows,
    unsandboxed_lines,
)
from agentkernelarena.report.trial_detail import TRANSCRIPT_BYTES, trial_detail

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "report"
GOOD_VERDICTS = {"ok"}
OTHER_VERDICTS = {"compile_only"}


def verdict_class(verdict: str | None) -> str:
    if verdict in GOOD_VERDICTS:
        return "v-ok"
    return "v-other" if verdict in OTHER_VERDICTS or verdict is None else "v-bad"


def compare_class(verdict: str) -> str:
    return {"better": "verdict-better", "worse": "verdict-worse",
            "not distinguishable": "verdict-same"}.get(verdict, "verdict-few")


def diff_class(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "file"
    return {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "")


@cache
def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters.update(speed=fmt_speedup, pct=pct, num=num, verdict_class=verdict_class,
                       compare_class=compare_class, diff_class=diff_class)
    return env


def _render(template: str, **context: Any) -> str:
    from markupsafe import Markup

    env = _environment()
    assets = {"style": Markup((TEMPLATES / "style.css").read_text()),
              "script": Markup((TEMPLATES / "table.js").read_text()),
              "version": __version__}
    return env.get_template(template).render(**assets, **context)


def _svg(plots: list[dict[str, str]]) -> list[dict[str, Any]]:
    from markupsafe import Markup

    return [{**p, "svg": Markup(p["svg"])} for p in plots]


def _agent_order(run: RunData) -> list[str]:
    return [a.get("label") or a["name"]
            for a in run.manifest.get("identity", {}).get("agents", [])]


def _run_meta(run: RunData) -> list[tuple[str, str]]:
    manifest = run.manifest
    versions = manifest.get("versions") or {}
    hardware = manifest.get("hardware") or {}
    git = (manifest.get("git") or {}).get("arena") or {}
    identity = manifest.get("identity") or {}
    rows = [("created", manifest.get("created_at")),
            ("platform", f"{manifest.get('platform')}"
             + ("" if manifest.get("comparable", True) else " (timings not comparable)")),
            ("GPUs", ", ".join(hardware.get("gpus") or []) or None),
            ("host", hardware.get("host")),
            ("arena", " ".join(str(x) for x in (versions.get("arena"), git.get("revision"),
                                                "(dirty)" if git.get("dirty") else "") if x)
             or None),
            ("torch / triton", " / ".join(str(versions.get(k)) for k in ("torch", "triton"))
             if versions else None),
            ("attempts", identity.get("attempts")),
            ("max iterations", identity.get("max_iterations")),
            ("time limit (s)", identity.get("time_limit_s")),
            ("run seed", manifest.get("run_seed"))]
    return [(k, str(v)) for k, v in rows if v not in (None, "")]


def report_html(run: RunData, transcript_limit: int = TRANSCRIPT_BYTES,
                with_compare: bool = True) -> str:
    """The run's HTML report; with two agents (an A/B run) also their comparison."""
    from agentkernelarena.report.compare import compare_runs

    report = build_report(run)
    order = _agent_order(run)
    records = {r.get("_id"): r for r in run.records}
    trials = [{**t, "detail": trial_detail(records.get(t["id"], {}), transcript_limit)}
              for t in report["trials"]]
    summary = report["summary"]
    comparison = None
    labels = [label for label, m in summary["agents"].items() if m.get("trials")]
    if with_compare and len(labels) == 2:
        comparison = compare_runs(run, run, labels[0], labels[1])
    return _render(
        "report.html.j2", title=f"Run report: {summary['run']['label'] or run.path.name}",
        run=summary["run"], status=status_line(summary), meta=_run_meta(run),
        summary_table=summary_rows(summary), generalization_table=generalization_rows(summary),
        plots=_svg(report_plots(report, order)), trials=trials,
        agents=sorted({t["agent"] for t in trials}),
        verdicts=sorted({t["verdict"] or "-" for t in trials}),
        categories=sorted({t["category"] for t in trials}),
        unsandboxed=unsandboxed_lines(summary, limit=None),
        missing=[m for m in report["missing"] if m["id"] not in run.unreadable],
        notes=summary["notes"], compare=_compare_context(comparison) if comparison else None)


def _compare_context(result: dict[str, Any]) -> dict[str, Any]:
    from agentkernelarena.report.compare_render import headline, metric_rows, mover_rows, task_rows

    return {"result": result, "headline": headline(result), "metrics": metric_rows(result),
            "improved": mover_rows(result["improved"]), "regressed": mover_rows(
                result["regressed"]), "tasks": task_rows(result),
            "plot": _svg([compare_plot(result)])[0] if result["tasks"] else None}


def compare_html(result: dict[str, Any]) -> str:
    a, b = result["a"], result["b"]
    return _render("compare.html.j2", title=f"Compare: {a['agent']} (A) vs {b['agent']} (B)",
                   compare=_compare_context(result))


def leaderboard_html(board: dict[str, Any], tables: list[dict[str, Any]]) -> str:
    return _render("leaderboard.html.j2", title="Leaderboard", board=board, tables=tables)
