"""Candidate evaluations per GPU-minute: the RL service (agentkernelarena.rl) against `aka eval`
run once per candidate, on the same batch, on this machine's GPU (or the CPU platform).

The batch cycles over the tasks' candidates in a fixed order: the shipped solution (correct,
fast), the baseline itself (correct, slow), a syntax error (compile_error) and a wrapper that
computes with PyTorch (rejected). Each mode runs for at most --budget-s; the figure is the
evaluations it finished divided by the minutes it took.

    PYTHONPATH=src python3 benchmarks/rl_throughput.py --out DIR [--count 120] [--budget-s 240]

Writes DIR/throughput.json (every record's task, kind, verdict, wall) and DIR/throughput.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from triton_suite import machine_info  # noqa: E402

from agentkernelarena import rl  # noqa: E402
from agentkernelarena.platforms import get_platform  # noqa: E402

_TORCH_WRAPPER = """

_aka_entry = {name}


def {name}(*args):
    out = _aka_entry(*args)
    return out * 1.0  # computed with PyTorch: the arena rejects it
"""


def candidates(tasks: list[Any]) -> list[tuple[Any, str, dict[str, str]]]:
    """Per task: (task, kind, files) for each kind of candidate."""
    out = []
    for task in tasks:
        (rel,) = task.editable
        base = rl.starting_files(task)[rel]
        if task.solution_dir is not None:
            out.append((task, "solution", {rel: (task.solution_dir / rel).read_text()}))
        out.append((task, "baseline", {rel: base}))
        out.append((task, "syntax_error", {rel: base + "\ndef broken(:\n"}))
        if task.entry.file == rel:
            out.append((task, "torch_compute",
                        {rel: base + _TORCH_WRAPPER.format(name=task.entry.function)}))
    return out


def run_service(batch: list[Any], platform: str, budget_s: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    with rl.EvaluationService(rl.EvalOptions(platform=platform), max_pending=4) as service:
        pending: list[tuple[Any, str, Future[rl.EvalRecord]]] = []
        for task, kind, files in batch:
            pending.append((task, kind, service.submit(task, files)))
            # Submit no further than the budget allows; collect what finished.
            if time.monotonic() - started > budget_s:
                break
        for task, kind, future in pending:
            left = budget_s - (time.monotonic() - started)
            if left <= 0:
                future.cancel()
                continue
            try:
                record = future.result(timeout=left)
            except TimeoutError:
                future.cancel()
                continue
            rows.append({"task": task.id, "kind": kind, "verdict": record.verdict,
                         "wall_s": record.wall_s, "warm_start": record.raw.get("warm_start"),
                         "done_s": round(time.monotonic() - started, 2)})
    return rows


def run_cli(batch: list[Any], platform: str, budget_s: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    for task, kind, files in batch:
        left = budget_s - (time.monotonic() - started)
        if left <= 0:
            break
        with tempfile.TemporaryDirectory() as tmp:
            for rel, text in files.items():
                (Path(tmp) / rel).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / rel).write_text(text)
            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "agentkernelarena", "eval", task.id, "--solution", tmp,
                     "--platform", platform, "--json"],
                    capture_output=True, text=True, timeout=left)
            except subprocess.TimeoutExpired:
                break
        try:
            result = json.loads(proc.stdout)
            verdict = result["verdict"]
        except (ValueError, KeyError):
            verdict = f"cli exit {proc.returncode}"
        rows.append({"task": task.id, "kind": kind, "verdict": verdict,
                     "done_s": round(time.monotonic() - started, 2)})
    return rows


def rate(rows: list[dict[str, Any]]) -> float | None:
    if not rows:
        return None
    return len(rows) / (rows[-1]["done_s"] / 60) if rows[-1]["done_s"] > 0 else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tasks", nargs="*", default=["@smoke"])
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--budget-s", type=float, default=240.0)
    parser.add_argument("--platform", default=None)
    parser.add_argument("--modes", nargs="*", default=["service", "cli"])
    args = parser.parse_args()
    platform = get_platform(args.platform).name
    kinds = candidates(rl.load_tasks(args.tasks))
    batch = [kinds[i % len(kinds)] for i in range(args.count)]
    args.out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"machine": machine_info() | {"platform": platform},
                              "count": args.count, "budget_s": args.budget_s, "modes": {}}
    for mode in args.modes:
        run = run_service if mode == "service" else run_cli
        rows = run(batch, platform, args.budget_s)
        report["modes"][mode] = {"rows": rows, "per_minute": rate(rows)}
        print(f"{mode}: {len(rows)} evaluations, {rate(rows) or 0:.2f} per minute", flush=True)
        (args.out / "throughput.json").write_text(json.dumps(report, indent=1))
    lines = [f"# RL service throughput ({platform})", "",
             f"{report['machine']}", "",
             "| mode | evaluations | minutes | per minute | verdicts |", "|---|---|---|---|---|"]
    for mode, data in report["modes"].items():
        rows = data["rows"]
        verdicts: dict[str, int] = {}
        for row in rows:
            verdicts[row["verdict"]] = verdicts.get(row["verdict"], 0) + 1
        minutes = rows[-1]["done_s"] / 60 if rows else 0
        lines.append(f"| {mode} | {len(rows)} | {minutes:.2f} | {data['per_minute'] or 0:.2f} | "
                     + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())) + " |")
    modes = report["modes"]
    if modes.get("service", {}).get("per_minute") and modes.get("cli", {}).get("per_minute"):
        ratio = modes["service"]["per_minute"] / modes["cli"]["per_minute"]
        lines += ["", f"Service / CLI: {ratio:.2f}x"]
    (args.out / "throughput.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
