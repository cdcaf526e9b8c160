"""Per task: the `tune` baseline's speedup beside the shipped solution's (`oracle`) in one run.

What room is left after tuning: the solution's speedup over the tuned one's. Reads only the
run folder's trial records (benchmarks/tune_run.sh makes the run):

    PYTHONPATH=src python3 benchmarks/tune_summary.py RUN_DIR --out OUT_DIR

It writes OUT_DIR/tune_vs_solution.json and .md (and prints the table).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any


def _trials(run: Path) -> dict[tuple[str, str], dict[str, Any]]:
    out = {}
    for path in sorted((run / "trials").glob("*/trial.json")):
        record = json.loads(path.read_text())
        out[(record["agent"], record["task"])] = record
    return out


def _speedup(record: dict[str, Any] | None) -> float | None:
    return record.get("speedup") if record and record.get("correct") else None


def _held(record: dict[str, Any] | None) -> dict[str, Any]:
    held = (record or {}).get("held_out") or {}
    return {"correct": held.get("correct"), "speedup": held.get("speedup")}


def rows(run: Path) -> list[dict[str, Any]]:
    trials = _trials(run)
    tasks = sorted({task for _, task in trials})
    out = []
    for task in tasks:
        tune, oracle = trials.get(("tune", task)), trials.get(("oracle", task))
        details = ((tune or {}).get("iterations") or [{}])[0].get("outcome", {}).get(
            "details", {}) if tune else {}
        tuned, solved = _speedup(tune), _speedup(oracle)
        out.append({
            "task": task,
            "tune_verdict": (tune or {}).get("verdict"), "tune_speedup": tuned,
            "tune_held_out": _held(tune), "checks": details.get("checks"),
            "changed": details.get("changed"), "stop_reason": details.get("stop_reason"),
            "tune_message": details.get("message"),
            "solution_verdict": (oracle or {}).get("verdict"), "solution_speedup": solved,
            "solution_held_out": _held(oracle),
            "room_after_tuning": solved / tuned if tuned and solved else None,
        })
    return out


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}x"


def _geomean(values: list[float]) -> float | None:
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def markdown(table: list[dict[str, Any]]) -> str:
    lines = ["| task | tuned | tuned held-out | checks | solution | solution held-out | "
             "room left (solution / tuned) | what tuning changed |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in table:
        held_t, held_s = row["tune_held_out"], row["solution_held_out"]
        changes = row["tune_message"] or "-"
        lines.append(
            f"| {row['task']} | {_fmt(row['tune_speedup'])} ({row['tune_verdict']}) | "
            f"{held_t['correct']} {_fmt(held_t['speedup'])} | {row['checks']} | "
            f"{_fmt(row['solution_speedup'])} | {held_s['correct']} "
            f"{_fmt(held_s['speedup'])} | {_fmt(row['room_after_tuning'])} | "
            f"{changes.replace('|', '/')} |")
    tuned = _geomean([r["tune_speedup"] for r in table if r["tune_speedup"]])
    solved = _geomean([r["solution_speedup"] for r in table if r["solution_speedup"]])
    lines += ["", f"Geometric means over the tasks where each is correct: tuned {_fmt(tuned)}, "
              f"solution {_fmt(solved)}."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    table = rows(args.run)
    text = markdown(table)
    print(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "tune_vs_solution.json").write_text(json.dumps(table, indent=2))
        (args.out / "tune_vs_solution.md").write_text(text)


if __name__ == "__main__":
    main()
