"""Evaluate every task's baseline against itself (A/A) and against its solution, on this machine.

What it shows: that the timing is trustworthy (A/A speedups near 1.0), that the shipped
solutions are faster, that baselines and solutions pass their held-out configurations, and how
long one full evaluation takes. Run on a GPU:

    PYTHONPATH=src python3 benchmarks/triton_suite.py --out benchmarks/results/h200
    PYTHONPATH=src python3 benchmarks/triton_suite.py --tasks triton2triton/softmax --out /tmp/x

It writes results.json (every evaluation record) and results.md (the table) into --out.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.evaluate.standby import WarmStart
from agentkernelarena.platforms import get_platform
from agentkernelarena.tasks.loader import discover_tasks, select_tasks


def machine_info() -> dict[str, Any]:
    import torch
    import triton

    info: dict[str, Any] = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "cuda": torch.version.cuda,
    }
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        info["gpu"] = props.name
        info["gpu_count"] = torch.cuda.device_count()
        info["l2_bytes"] = getattr(props, "L2_cache_size", None)
        try:
            info["driver"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                capture_output=True, text=True, timeout=20).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.SubprocessError):
            info["driver"] = None
    try:
        info["arena_git"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                                           capture_output=True, text=True,
                                           timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        info["arena_git"] = None
    return info


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _held(result: dict[str, Any]) -> str:
    held = result.get("held_out") or {}
    if not held.get("evaluated"):
        return "-"
    return f"{'pass' if held.get('correct') else 'FAIL'} {_fmt(held.get('speedup'))}"


def markdown(rows: list[dict[str, Any]], info: dict[str, Any]) -> str:
    lines = [
        "# Triton suite: A/A and solution speedups",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in info.items()),
        "",
        "A/A = the baseline evaluated against itself (should be 1.000). Speedups are geometric "
        "means over the visible configurations (median of interleaved, cache-flushed calls per "
        "configuration). Wall = one full evaluation (visible and held-out, baseline and "
        "candidate, Triton cache warm).",
        "",
        "| task | A/A | A/A min-max config | A/A held-out | solution | sol. held-out | "
        "verdicts | wall A/A s | wall sol. s | wall sol. no guards s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        aa, sol = row["aa"], row.get("solution")
        per_config = [c["speedup"] for c in aa.get("configs", []) if c.get("speedup")]
        spread = f"{min(per_config):.3f}-{max(per_config):.3f}" if per_config else "-"
        verdicts = aa["verdict"] + ("/" + sol["verdict"] if sol else "")
        lines.append(
            f"| {row['task']} | {_fmt(aa.get('speedup'))} | {spread} | {_held(aa)} | "
            f"{_fmt(sol.get('speedup')) if sol else '-'} | {_held(sol) if sol else '-'} | "
            f"{verdicts} | {aa['wall_s']:.1f} | {sol['wall_s'] if sol else 0:.1f} | "
            f"{row.get('solution_unguarded', {}).get('wall_s', 0):.1f} |")
    aa_values = [r["aa"]["speedup"] for r in rows if r["aa"].get("speedup")]
    if aa_values:
        lines += ["", f"A/A range over tasks: {min(aa_values):.3f} - {max(aa_values):.3f}"]
    aa_wall = sum(r["aa"]["wall_s"] for r in rows)
    sol_wall = sum(r["solution"]["wall_s"] for r in rows if r.get("solution"))
    lines += ["", f"Whole suite: A/A evaluations {aa_wall:.1f} s, solution evaluations "
              f"{sol_wall:.1f} s; every evaluation, start to end: "
              f"{info.get('suite_wall_s', '-')} s (warm start: {info.get('warm_start')})."]
    guarded = [r for r in rows if r.get("solution") and r.get("solution_unguarded")]
    if guarded:
        on = sum(r["solution"]["wall_s"] for r in guarded)
        off = sum(r["solution_unguarded"]["wall_s"] for r in guarded)
        walls = sorted(r["solution"]["wall_s"] for r in guarded)
        lines += [f"Guard cost: solution evaluations took {on:.1f} s with guards and {off:.1f} s "
                  f"without ({on / off:.3f}x) over {len(guarded)} tasks.",
                  f"Full evaluation wall time (solution, warm): median {walls[len(walls) // 2]:.1f}"
                  f" s, max {walls[-1]:.1f} s."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="*", default=["triton2triton"])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--platform", default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip-unguarded", action="store_true",
                        help="leave out the guards-off evaluation (the guards' cost)")
    parser.add_argument("--warm-start", action="store_true",
                        help="start each evaluation's workers during the one before it")
    args = parser.parse_args()

    args.out.mkdir(parents=True, exist_ok=True)
    plat = get_platform(args.platform)
    info = machine_info() | {"platform": plat.name, "warm_start": args.warm_start}
    tasks = select_tasks(args.tasks, discover_tasks())
    rows: list[dict[str, Any]] = []
    # Every evaluation in order; with --warm-start each one starts the next one's workers
    # while it runs (evaluate/standby.py), as a batch or RL caller would.
    jobs: list[tuple[Any, str, Path, EvalOptions]] = []
    for task in tasks:
        options = EvalOptions(platform=plat.name, seed=args.seed)
        # The A/A evaluation also compiles the baseline's kernels; a gates-only evaluation of
        # the solution compiles its kernels, so the two timed solution evaluations after it
        # (guards off, guards on) both run with Triton's cache warm and compare fairly.
        jobs.append((task, "aa", task.root, options))
        if task.solution_dir:
            jobs.append((task, "solution_compile", task.solution_dir,
                         EvalOptions(platform=plat.name, seed=args.seed, measure=False)))
            if not args.skip_unguarded:
                jobs.append((task, "solution_unguarded", task.solution_dir,
                             EvalOptions(platform=plat.name, seed=args.seed, guards=False)))
            jobs.append((task, "solution", task.solution_dir, options))
    suite_started = time.monotonic()
    with WarmStart() as warm:
        row: dict[str, Any] = {}
        for index, (task, label, folder, options) in enumerate(jobs):
            if row.get("task") != task.id:
                row = {"task": task.id}
                rows.append(row)
            following = jobs[index + 1][0] if index + 1 < len(jobs) else None
            started = time.monotonic()
            result = evaluate(task, folder, options, warm=warm if args.warm_start else None,
                              next_task=following if args.warm_start else None)
            if label == "solution_compile":
                row["solution_compile_s"] = round(time.monotonic() - started, 1)
            elif label == "solution_unguarded":
                row[label] = {k: result.get(k) for k in ("verdict", "speedup", "wall_s")}
            else:
                row[label] = result
            last_of_task = following is None or following.id != task.id
            if not last_of_task:
                continue
            sol = row.get("solution") or {}
            print(f"{task.id:40s} A/A {_fmt(row['aa'].get('speedup'))} ({row['aa']['verdict']}) "
                  f"solution {_fmt(sol.get('speedup'))} ({sol.get('verdict', '-')}) "
                  f"held-out {_held(row['aa'])} / {_held(sol) if sol else '-'} "
                  f"wall {row['aa']['wall_s']:.1f}s/{sol.get('wall_s', 0):.1f}s", flush=True)
            info["suite_wall_s"] = round(time.monotonic() - suite_started, 1)
            (args.out / "results.json").write_text(json.dumps({"machine": info, "rows": rows},
                                                              indent=1))
    (args.out / "results.md").write_text(markdown(rows, info))
    print(markdown(rows, info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
