"""Run throughput with 1 and with 2 evaluation slots (issue 6's "must show").

    python benchmarks/run_scaling.py --tasks all --attempts 2 \
        --out benchmarks/results/h200-run-scaling
    # or in two calls (each under a time limit): --runs slots-1, then
    # --runs slots-2 --with DIR/slots-1.json

Runs the `oracle` agent twice over the same trials with the same seed: once on GPU 0 alone,
once on GPUs 0 and 1 (on the CPU platform: one and two evaluation permits, only to try the
script). Reports each run's wall time and throughput, their ratio (expect >= 1.8x on two
GPUs), and how far the per-trial speedups of the two runs differ (compare with the A/A spread
of the timing benchmark: the same kernel timed against itself). Writes scaling.json and
scaling.md next to the two run folders. An unmeasured warm-up (gates-only evaluations of
every baseline and solution, several at once) fills the native build cache and Triton's cache
first, so that both measured runs start warm.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from triton_suite import _fmt  # noqa: E402


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
    walls = sorted(t.get("trial_wall_s") or 0.0 for t in trials)
    pool = [line.split("pool ", 1)[1] for line in (out / "run.log").read_text().splitlines()
            if "session ended" in line and "pool " in line]  # fmt: skip
    return {"label": label, "slots": slots, "wall_s": round(wall, 1), "trials": len(trials),
            "trial_wall_s_median": round(walls[len(walls) // 2], 2) if walls else None,
            "trial_wall_s_sum": round(sum(walls), 1), "pool": pool[-1] if pool else None,
            "trials_per_hour": round(3600 * len(trials) / wall, 1),
            "correct": sum(t["correct"] for t in trials),
            "records": {f"{t['task']}#{t['attempt']}": {
                "verdict": t["verdict"], "speedup": t["speedup"], "reasons": t["reasons"][:2],
                "held_out": {k: (t.get("held_out") or {}).get(k) for k in
                             ("correct", "baseline_correct", "speedup", "quadrant")},
                "trial_wall_s": t.get("trial_wall_s")} for t in trials}}


def warm_up(args: argparse.Namespace) -> None:
    """Gates-only evaluations of every task's baseline and solution, many at once.

    Native builds and Triton's JIT are cached per machine: without a warm-up the first run
    would pay every compile and the second none, and the ratio would flatter two GPUs."""
    from concurrent.futures import ThreadPoolExecutor

    from agentkernelarena.evaluate import EvalOptions, evaluate
    from agentkernelarena.platforms import get_platform
    from agentkernelarena.runner.gpus import DevicePool, make_slots, shared_slots
    from agentkernelarena.tasks.loader import discover_tasks, select_tasks

    tasks = select_tasks(args.tasks, discover_tasks([Path(d) for d in args.tasks_dir]))
    platform = get_platform(args.platform)  # None: the machine's own
    jobs = [(t, folder) for t in tasks for folder in (t.root, t.solution_dir) if folder]
    # Gates only, nothing timed: the evaluations may share the GPUs (the runner's pool puts
    # each one's device into its *_VISIBLE_DEVICES).
    gpus = 1 if platform.name == "cpu" else len(make_slots(platform))
    pool = DevicePool(shared_slots(platform, max(1, args.warmup_jobs // gpus)))
    evaluator = pool.wrap(evaluate)
    started = time.monotonic()

    def gates(index: int) -> dict:
        task, folder = jobs[index]
        options = EvalOptions(platform=platform.name, measure=False, held_out=True)
        began = time.monotonic()
        result = evaluator(task, folder, options)
        return {"task": task.id, "version": "baseline" if folder == task.root else "solution",
                "verdict": result["verdict"], "reasons": result["reasons"][:2],
                "held_out_correct": (result.get("held_out") or {}).get("correct"),
                "build": result.get("build"), "wall_s": round(time.monotonic() - began, 1)}

    with ThreadPoolExecutor(max_workers=pool.size) as threads:
        records = list(threads.map(gates, range(len(jobs))))
    (args.out / "warmup.json").write_text(json.dumps(records, indent=1) + "\n")
    verdicts = [r["verdict"] for r in records]
    print(f"warm-up: {len(jobs)} gates-only evaluations in {time.monotonic() - started:.0f} s: "
          + ", ".join(f"{v} {verdicts.count(v)}" for v in sorted(set(verdicts))), flush=True)
    for record in records:
        if record["verdict"] != "ok":
            print(f"  {record['task']} {record['version']}: {record['verdict']}: "
                  f"{' | '.join(record['reasons'])[:400]}", flush=True)


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
                        help="skip the unmeasured warm-up that fills the build caches")
    parser.add_argument("--warmup-jobs", type=int, default=8,
                        help="gates-only evaluations at once during the warm-up")
    parser.add_argument("--runs", nargs="*", default=["slots-1", "slots-2"],
                        choices=["slots-1", "slots-2"],
                        help="which runs to make now (the other may come from --with)")
    parser.add_argument("--with", dest="with_runs", nargs="*", default=[],
                        help="slots-N.json of a run made earlier on this machine kind")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.warmup:  # `--runs` with no run: only the warm-up (fills this machine's caches)
        warm_up(args)
    for label in args.runs:
        record = run(label, int(label.removeprefix("slots-")), args)
        (args.out / f"{label}.json").write_text(json.dumps(record, indent=1) + "\n")
    found = {label: args.out / f"{label}.json" for label in ("slots-1", "slots-2")}
    found.update({Path(f).stem: Path(f) for f in args.with_runs})
    if not all(path.is_file() for path in found.values()):
        print("scaling: one of slots-1/slots-2 is missing; run the other (--runs) to compare")
        return
    one, two = (json.loads(found[k].read_text()) for k in ("slots-1", "slots-2"))
    speed_one, speed_two = ({k: r["speedup"] for k, r in run["records"].items()}
                            for run in (one, two))
    shared = sorted(k for k in speed_one if speed_one[k] and speed_two.get(k))
    deviations = {k: abs(math.log(speed_two[k] / speed_one[k])) for k in shared}
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
    if result["throughput_ratio"] > two["slots"] / one["slots"]:
        # More than the slots can give: the two runs did not do the same work at the same
        # cost (a machine noisy in its CPU-side part, caches warmer for one). Not a result.
        result["warning"] = (f"ratio above {two['slots'] // one['slots']}x: the 1-slot run was "
                             "slowed by something else; repeat it (--runs slots-1 --with "
                             "slots-2.json) and quote the lower ratio")
    (args.out / "scaling.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = ["| run | slots | trials | correct | wall (s) | trials/hour | trial wall median (s) |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['label']} | {r['slots']} | {r['trials']} | {r['correct']} | {r['wall_s']} "
              f"| {r['trials_per_hour']} | {r['trial_wall_s_median']} |" for r in (one, two)]
    lines += ["", f"throughput ratio (2 vs 1): {result['throughput_ratio']}x",
              f"per-trial speedup, 2-slot vs 1-slot run over {len(shared)} trials: median "
              f"deviation {result['speedup_deviation_median']}, worst "
              f"{result['speedup_deviation_max']} ({worst})"]
    if "warning" in result:
        lines += ["", f"**warning**: {result['warning']}"]
    summary = len(lines)
    lines += ["", "| trial | verdict (1 / 2 GPUs) | speedup 1 GPU | speedup 2 GPUs | held-out "
              "(oracle / baseline correct, speedup) |", "|---|---|---|---|---|"]
    for key, rec in sorted(one["records"].items()):
        other = two["records"].get(key, {})
        held = rec["held_out"]
        lines.append(f"| {key} | {rec['verdict']} / {other.get('verdict', '-')} | "
                     f"{_fmt(rec['speedup'])} | {_fmt(other.get('speedup'))} | "
                     f"{held['correct']} / {held['baseline_correct']}, {_fmt(held['speedup'])} |")
    (args.out / "scaling.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:summary]))


if __name__ == "__main__":
    main()
