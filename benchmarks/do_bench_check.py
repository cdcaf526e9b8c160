"""An independent timing cross-check: every Triton task's baseline and solution timed with
`triton.testing.do_bench`, per visible configuration, beside the arena's own figures.

    PYTHONPATH=src python3 benchmarks/do_bench_check.py --suite RESULTS.json --out DIR

RESULTS.json is benchmarks/triton_suite.py's output (the arena's per-configuration baseline and
candidate medians of the same tasks on the same machine). do_bench runs in this one process:
the baseline and the solution imported side by side, each call on the same inputs, L2 cleared
before each call by do_bench itself, the median over its repetitions.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import torch
import triton.testing

from agentkernelarena.evaluate.loading import get_function, load_module
from agentkernelarena.tasks.loader import discover_tasks


def _fn(root: Path, file: str, function: str, package: str) -> Any:
    return get_function(load_module(root, file, package), function, file)


def bench(task: Any, seed: int = 2026) -> list[dict[str, Any]]:
    inputs = _fn(task.root, task.inputs.file, task.inputs.function, f"dbi_{task.name}")
    entry = task.baseline or task.entry
    baseline = _fn(task.root, entry.file, entry.function, f"dbb_{task.name}")
    solution = _fn(task.solution_dir, task.entry.file, task.entry.function,
                   f"dbs_{task.name}") if task.solution_dir else None
    rows = []
    for config in task.configs_for("cuda", "visible"):
        args = inputs(config.params, seed, "cuda")
        args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
        row = {"config": config.name,
               "baseline_ms": triton.testing.do_bench(lambda a=args: baseline(*a),
                                                      return_mode="median")}
        if solution is not None:
            row["solution_ms"] = triton.testing.do_bench(lambda a=args: solution(*a),
                                                         return_mode="median")
        rows.append(row)
        torch.cuda.empty_cache()
    return rows


def compare(suite: dict[str, Any], measured: dict[str, list[dict[str, Any]]]) -> list[str]:
    lines = ["| task | config | arena base ms | do_bench base ms | ratio | arena sol ms | "
             "do_bench sol ms | ratio |", "|---|---|---|---|---|---|---|---|"]
    ratios = []
    for row in suite["rows"]:
        arena_base = {c["name"]: c.get("baseline_ms") for c in row["aa"].get("configs", [])}
        arena_sol = {c["name"]: c.get("candidate_ms")
                     for c in (row.get("solution") or {}).get("configs", [])}
        for bench_row in measured.get(row["task"], []):
            name = bench_row["config"]
            b, db = arena_base.get(name), bench_row["baseline_ms"]
            s, ds = arena_sol.get(name), bench_row.get("solution_ms")
            rb = db / b if b else None
            rs = ds / s if s and ds else None
            ratios += [r for r in (rb, rs) if r]
            lines.append(f"| {row['task']} | {name} | {_f(b)} | {_f(db)} | {_f(rb)} | {_f(s)} | "
                         f"{_f(ds)} | {_f(rs)} |")
    if ratios:
        within = sum(1 for r in ratios if abs(r - 1) <= 0.03)
        ratios.sort()
        lines += ["", f"do_bench / arena over {len(ratios)} timings: median "
                  f"{ratios[len(ratios) // 2]:.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f}, "
                  f"{within} within 3%."]
    return lines


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    suite = json.loads(args.suite.read_text())
    tasks = {t.id: t for t in discover_tasks()}
    measured = {}
    for row in suite["rows"]:
        measured[row["task"]] = bench(tasks[row["task"]])
        print(row["task"], measured[row["task"]], flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "do_bench.json").write_text(json.dumps(measured, indent=1))
    text = "\n".join(["# do_bench cross-check", "", *compare(suite, measured)]) + "\n"
    (args.out / "do_bench.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
