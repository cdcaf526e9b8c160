"""What the evaluation sandbox costs, and what the supervisor's clock saw, on this machine.

For each task: the baseline evaluated against itself (A/A), gates and timing on the visible
configurations, alternately with the candidate's process in the sandbox and without it
(`--repeats` times each), so that the difference in wall time is the sandbox's start-up and
its file system, measured beside the same evaluation. Every record's witness figures (the
candidate's and the baseline's overhead per timed command) are kept, to show how far apart they
are for honest code (the witness tolerance must sit well above that).

    PYTHONPATH=src python3 benchmarks/sandbox_cost.py --out DIR [--tasks ...] [--repeats 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from triton_suite import machine_info  # noqa: E402

from agentkernelarena.evaluate import EvalOptions, evaluate  # noqa: E402
from agentkernelarena.evaluate.sandbox import worker_sandbox_status  # noqa: E402
from agentkernelarena.platforms import get_platform  # noqa: E402
from agentkernelarena.tasks.loader import discover_tasks, select_tasks  # noqa: E402

DEFAULT_TASKS = ["triton2triton/softmax", "triton2triton/matmul_bias_relu",
                 "triton2triton/layernorm", "triton2triton/transpose"]


def _witness(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"config": c["name"], "speedup": c.get("speedup"), **(c.get("witness") or {})}
            for c in result.get("configs") or []]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="*", default=DEFAULT_TASKS)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    plat = get_platform(None)
    status = worker_sandbox_status()
    rows: list[dict[str, Any]] = []
    for task in select_tasks(args.tasks, discover_tasks()):
        walls: dict[str, list[float]] = {"on": [], "off": []}
        records = []
        for _ in range(args.repeats):
            for mode in ("on", "off"):
                result = evaluate(task, task.root, EvalOptions(
                    platform=plat.name, seed=args.seed, held_out=False, sandbox=mode))
                walls[mode].append(result["wall_s"])
                records.append({"sandbox": mode, "verdict": result["verdict"],
                                "reasons": result["reasons"], "speedup": result["speedup"],
                                "wall_s": result["wall_s"], "witness": _witness(result)})
        on, off = statistics.median(walls["on"]), statistics.median(walls["off"])
        rows.append({"task": task.id, "wall_on_s": on, "wall_off_s": off,
                     "sandbox_cost_s": round(on - off, 3), "records": records})
        print(f"{task.id:34s} sandbox on {on:6.2f} s  off {off:6.2f} s  cost {on - off:+.2f} s  "
              + " ".join(f"{r['sandbox']}:{r['verdict']}:{r['speedup'] or 0:.3f}"
                         for r in records), flush=True)
        for record in records:
            if record["verdict"] != "ok":
                print(f"    {record['sandbox']}: {' | '.join(record['reasons'])[:600]}")
    deltas = [w["candidate_overhead_ms"] - w["baseline_overhead_ms"]
              for row in rows for r in row["records"] for w in r["witness"]
              if "candidate_overhead_ms" in w]
    summary = {"machine": machine_info() | {"platform": plat.name},
               "sandbox": {"available": status.available, "reason": status.reason},
               "median_cost_s": statistics.median(r["sandbox_cost_s"] for r in rows),
               "witness_delta_ms": {"min": min(deltas), "median": statistics.median(deltas),
                                    "max": max(deltas)} if deltas else None,
               "rows": rows}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "sandbox_cost.json").write_text(json.dumps(summary, indent=1, default=str))
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
