"""The Markdown summary of a `benchmarks/tasks_check_gpu.sh` folder: per task its verdict, the
known-wrong variants caught, and per configuration the baseline time, A/A, the speed-of-light
bound and the solution's speedup; then every problem found.

    python3 benchmarks/tasks_check_summary.py OUT_DIR > OUT_DIR/summary.md
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _fmt(value: Any, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _variants(report: dict[str, Any]) -> str:
    variants = (report.get("soundness") or {}).get("variants") or {}
    judged = [v for v in variants.values() if "caught" in v]
    caught = sum(1 for v in judged if v["caught"])
    skipped = len(variants) - len(judged)
    return f"{caught}/{len(judged)}" + (f" ({skipped} skipped)" if skipped else "")


def task_section(report: dict[str, Any]) -> list[str]:
    mark = "ok" if report["ok"] else "FAIL"
    lines = [f"## {report['task']}: {mark}", "",
             f"Wrong variants caught: {_variants(report)}; wall {report['wall_s']:.0f} s.", ""]
    rows = report.get("timing") or []
    if rows:
        lines += ["| config | baseline ms | A/A | bound ms | baseline / bound | solution |",
                  "|---|---|---|---|---|---|"]
        for r in rows:
            lines.append(f"| {r['config']} | {_fmt(r.get('baseline_ms'), '.4g')} | "
                         f"{_fmt(r.get('aa'), '.3f')} | {_fmt(r.get('bound_ms'), '.4g')} | "
                         f"{_fmt(r.get('baseline_over_bound'), '.2f')} | "
                         f"{_fmt(r.get('solution_speedup'), '.2f')} |")
        lines.append("")
    lines += [f"- {p}" for p in report["problems"]]
    return lines + ([""] if report["problems"] else [])


def main(folder: str) -> int:
    out = Path(folder)
    reports = []
    for path in sorted(out.glob("*.json")):
        reports += json.loads(path.read_text())
    missing = sorted(p.name.removesuffix(".log") for p in out.glob("*.log")
                     if not (out / (p.name.removesuffix(".log") + ".json")).exists())
    machine = (out / "machine.txt").read_text().strip() if (out / "machine.txt").exists() else ""
    sound = sum(1 for r in reports if r["ok"])
    lines = ["# `aka tasks check` on a GPU, with the soundness checks", "", "```", machine, "```",
             "", f"{len(reports)} tasks checked, {sound} sound, {len(reports) - sound} with "
             f"problems; {len(missing)} without a report (see their logs): "
             + (", ".join(missing) or "none") + ".", ""]
    for report in reports:
        lines += task_section(report)
    lines.append(f"Summary: {sound}/{len(reports)} tasks sound, {len(missing)} without a report.")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
