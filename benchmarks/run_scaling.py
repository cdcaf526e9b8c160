"""Run throughput with 1 and with 2 evaluation slots (issue 6's "must show").

    python benchmarks/run_scaling.py --tasks all --attempts 2 \
        --out benchmarks/results/h200-run-scaling

Runs the `oracle` agent twice over the same trials with the same seed: once on GPU 0 alone,
once on GPUs 0 and 1 (on the CPU platform: one and two evaluation permits, only to try the
script). Reports each run's wall time and throughput, their ratio (expect >= 1.8x on two
GPUs), and how far the per-trial speedups of the two runs differ (compare with the A/A spread
of the timing benchmark: the same kernel timed against itself). Writes scaling.json and
scaling.md next to the two run folders. A first, unmeasured run (folder `warmup`) fills the
native build cache and Triton's cache, so that both measured runs start warm.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path


def run(label: str, slots: int, args: argparse.Namespace) -> dict:
    out = args.out / label
    cmd = [sys.executable, "-m", "agentkernelarena", "run", "--agent", "oracle",
           "--attempts", str(args.attempts), "--seed", str(args.seed), "--out", str(out),
           "--progress", "plain", "--label", label]
    for selector in args.tasks:
        cmd += ["--tasks", selector]
    for folder in args.tasks_dir:
        cmd += ["--tasks-dir", folder]
    if args.platform == "cpu":
        cmd += ["--platform", "cpu", "--eval-concurrency", str(slots)]
    else:
        cmd += ["--gpus", ",".join(str(i) for i in range(slots))]
    cmd += ["--concurrency", str(slots * args.agents_per_slot)]
    started = time.monotonic()
    subprocess.run(cmd, check=True)
    wall = time.monotonic() - started
    report = json.loads(subprocess.run(
        [sys.executable, "-m", "agentkernelarena", "report", str(out), "--format", "json"],
        check=True, capture_output=True, text=True).stdout)
    trials = report["trials"]
    return {"label": label, "slots": slots, "wall_s": round(wall, 1), "trials": len(trials),
            "trials_per_hour": round(3600 * len(trials) / wall, 1),
            "correct": sum(t["correct"] for t in trials),
            "speedups": {f"{t['task']}#{t['attempt']}": t["speedup"] for t in trials}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=["all"])
    parser.add_argument("--tasks-dir", nargs="*", default=[])
    parser.add_argument("--attempts", type=int, default=2)
    parser.add_argument("--platform", default=None, help="cpu: try the script without GPUs")
    parser.add_argument("--agents-per-slot", type=int, default=2,
                        help="concurrency = slots x this (agents prepare while others time)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--no-warmup", dest="warmup", action="store_false",
                        help="skip the unmeasured first run that fills the build caches")
    args = parser.parse_args()
    if args.warmup:
        # Native builds and Triton's JIT are cached per machine: without a warm-up the first
        # run would pay every compile and the second none, and the ratio would flatter 2 GPUs.
        run("warmup", 2, argparse.Namespace(**{**vars(args), "attempts": 1}))
    one, two = run("slots-1", 1, args), run("slots-2", 2, args)
    shared = sorted(k for k in one["speedups"]
                    if one["speedups"][k] and two["speedups"].get(k))
    deviations = {k: abs(math.log(two["speedups"][k] / one["speedups"][k])) for k in shared}
    worst = max(deviations, key=deviations.get) if deviations else None
    result = {
        "runs": [one, two],
        "throughput_ratio": round(one["wall_s"] / two["wall_s"], 3),
        "paired_trials": len(shared),
        "speedup_deviation_max": round(math.exp(deviations[worst]) - 1, 4) if worst else None,
        "speedup_deviation_median": round(math.exp(sorted(deviations.values())[
            len(deviations) // 2]) - 1, 4) if deviations else None,
        "worst_trial": worst,
    }
    (args.out / "scaling.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = ["| run | slots | trials | correct | wall (s) | trials/hour |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['label']} | {r['slots']} | {r['trials']} | {r['correct']} | {r['wall_s']} "
              f"| {r['trials_per_hour']} |" for r in (one, two)]
    lines += ["", f"throughput ratio (2 vs 1): {result['throughput_ratio']}x",
              f"per-trial speedup, 2-slot vs 1-slot run over {len(shared)} trials: median "
              f"deviation {result['speedup_deviation_median']}, worst "
              f"{result['speedup_deviation_max']} ({worst})"]
    (args.out / "scaling.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
