"""Evaluate every native (CUDA/HIP) task on this machine: builds, A/A, solutions, eager.

What it shows, on a GPU (an H200 for the recorded results):
- builds: every baseline and solution builds (HIP sources through the HIP -> CUDA translation
  on NVIDIA); a first gates-only evaluation with an empty cache (binding + kernel compiled),
  then a second one (everything from the cache), and the solution's build with the binding
  object already cached (kernel only) -- the split build's point;
- timing: the baseline against itself (A/A, should be 1.000) and the solution against the
  baseline, visible and held-out, through the arena's evaluator;
- torch2* tasks: the arena's baseline is PyTorch eager (baseline.py); the solution is also
  timed against torch.compile of it (the evaluator's vs_compile option, visible configurations).

    PYTHONPATH=src python3 benchmarks/native_suite.py --out benchmarks/results/h200-native
    PYTHONPATH=src python3 benchmarks/native_suite.py --tasks hip2hip/transpose --out /tmp/x

It writes results.json (every record) and results.md (the tables) into --out. --cache DIR sets
the build cache (default: a fresh temporary one, so that the first build is really cold).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from triton_suite import _fmt, _held, machine_info  # noqa: E402

from agentkernelarena.evaluate import EvalOptions, evaluate  # noqa: E402
from agentkernelarena.platforms import get_platform  # noqa: E402
from agentkernelarena.runner.gpus import DevicePool, Evaluator, shared_slots  # noqa: E402
from agentkernelarena.tasks.loader import discover_tasks, select_tasks  # noqa: E402

NATIVE = ["hip2hip", "cuda2cuda", "torch2cuda", "torch2hip"]
QUICK_TIMING = {"min_rounds": 5, "max_rounds": 20, "budget_s": 0.3, "target_rse": 0.01,
                "warmup": 1}  # fmt: skip


def _timed_eval(evaluator: Evaluator, task: Any, folder: Path,
                options: EvalOptions) -> dict[str, Any]:
    started = time.monotonic()
    result = evaluator(task, folder, options)
    return {"verdict": result["verdict"], "reasons": result.get("reasons", [])[:2],
            "wall_s": round(time.monotonic() - started, 1)}  # fmt: skip


def builds(evaluator: Evaluator, task: Any, platform: str, seed: int, warm: bool
           ) -> dict[str, Any]:
    """Gates-only evaluations: cold, warm, then the solution (binding object cached).

    The cold one evaluates the task's own kernel as the candidate, so it also checks the
    baseline (or the torch2* skeleton) against the reference on the visible configurations."""
    gates = EvalOptions(platform=platform, seed=seed, measure=False, held_out=False)
    record = {"cold": _timed_eval(evaluator, task, task.root, gates)}
    if warm:
        record["warm"] = _timed_eval(evaluator, task, task.root, gates)
    if task.solution_dir:
        record["solution"] = _timed_eval(evaluator, task, task.solution_dir, gates)
    return record


def markdown(rows: list[dict[str, Any]], info: dict[str, Any]) -> str:
    lines = [
        "# Native suite: builds, A/A, solutions, eager",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in info.items()),
        "",
        "Builds are gates-only evaluations (compile + correctness, visible configurations): cold "
        "= empty cache (binding.cpp and the kernel source compiled), warm = everything from the "
        "cache, solution = the binding object from the cache, only the kernel compiled; "
        "several tasks build at once (--jobs), so cold times include contention. A/A = "
        "the baseline against itself (should be 1.000); speedups are geometric means over the "
        "visible configurations. For torch2* tasks the arena's baseline is PyTorch eager "
        "(baseline.py), so the A/A column is the starting skeleton kernel against eager and "
        "`solution` the oracle against eager; baseline correct = the task's own kernel passed "
        "the gates (the cold build); "
        "vs compile = the oracle against torch.compile(baseline.py) (torch2* only).",
        "",
        "| task | baseline correct | build cold s | warm s | solution s | A/A | A/A held-out "
        "| solution | sol. held-out | solution verdict | vs compile |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        b, aa, sol = row["builds"], row["aa"], row.get("solution") or {}
        lines.append(
            f"| {row['task']} | {b['cold']['verdict']} | {b['cold']['wall_s']} | "
            f"{b.get('warm', {}).get('wall_s', '-')} | {b.get('solution', {}).get('wall_s', '-')} "
            f"| {_fmt(aa.get('speedup')) if aa else '-'} | {_held(aa) if aa else '-'} | "
            f"{_fmt(sol.get('speedup'))} | {_held(sol) if sol else '-'} | "
            f"{sol.get('verdict', '-')} | {_fmt(sol.get('speedup_vs_compile'))} |"
        )
    return "\n".join(lines) + "\n"


def timed(evaluator: Evaluator, task: Any, args: argparse.Namespace, platform: str) -> dict:
    """A/A (unless --no-aa) and the solution against the baseline, visible and held-out."""
    options = EvalOptions(platform=platform, seed=args.seed, timing=args.timing,
                          vs_compile=args.vs_compile)
    row: dict[str, Any] = {"aa": evaluator(task, task.root, options) if args.aa else {}}
    if task.solution_dir:
        row["solution"] = evaluator(task, task.solution_dir, options)
    return row


def render(out: Path) -> int:
    """results.md of a run that stopped early: every build, and the timings that finished."""
    saved = json.loads((out / "builds.json").read_text())
    timings = {}
    if (out / "timings.jsonl").is_file():
        for line in (out / "timings.jsonl").read_text().splitlines():
            record = json.loads(line)
            timings[record.pop("task")] = record
    rows = [{"task": task_id, "builds": built, "aa": {}, **timings.get(task_id, {})}
            for task_id, built in saved["builds"].items()]  # fmt: skip
    note = {"timed": f"{len(timings)} of {len(rows)} tasks"
                     + (" (the run stopped before the rest)" if len(timings) < len(rows) else "")}
    text = markdown(rows, saved["machine"] | note)
    (out / "results.md").write_text(text)
    print(text)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="*", default=NATIVE)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--platform", default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", type=Path, default=None, help="build cache (default: fresh)")
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2),
                        help="build this many tasks at once (default: half the CPUs)")
    parser.add_argument("--gpus", default=None, metavar="0,1",
                        help="which visible GPUs to spread evaluations over (default: all)")
    parser.add_argument("--no-aa", dest="aa", action="store_false",
                        help="skip the baseline-against-itself evaluation")
    parser.add_argument("--no-warm", dest="warm", action="store_false",
                        help="skip the second (all from the cache) gates-only evaluation")
    parser.add_argument("--no-compile", dest="vs_compile", action="store_false",
                        help="skip timing torch2* solutions against torch.compile")
    parser.add_argument("--render", action="store_true",
                        help="only write results.md from builds.json and timings.jsonl in --out "
                        "(a run stopped before its end)")
    parser.add_argument("--quick", action="store_true",
                        help="short timing loops (5-20 rounds, 0.3 s per configuration): a "
                        "speedup to a few percent, for checking tasks rather than A/A")
    args = parser.parse_args()
    args.timing = QUICK_TIMING if args.quick else None
    if args.render:
        return render(args.out)

    args.out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="aka-native-bench-"))
    # Workers inherit the environment: every evaluation of this run shares this cache.
    os.environ["AKA_CACHE_DIR"] = str(args.cache or scratch / "cache")
    plat = get_platform(args.platform)
    gpus = [int(g) for g in args.gpus.split(",") if g] if args.gpus else None
    # The runner's pool: builds share each GPU (gates only, nothing timed), timed evaluations
    # get one GPU each; both put the slot's device into the worker's *_VISIBLE_DEVICES.
    timing_pool = DevicePool(shared_slots(plat, 1, gpus))
    per_gpu = max(1, args.jobs // timing_pool.size)
    build_pool = DevicePool(shared_slots(plat, args.jobs if plat.name == "cpu" else per_gpu, gpus))
    info = machine_info() | {"platform": plat.name, "cache": os.environ["AKA_CACHE_DIR"],
                             "gpus_used": timing_pool.size}  # fmt: skip
    tasks = [t for t in select_tasks(args.tasks, discover_tasks()) if t.language in ("cuda", "hip")]
    # Builds first, --jobs at a time (each evaluation is its own process, so builds run in
    # parallel; a cold build's wall time is then measured with others compiling beside it).
    build_eval = build_pool.wrap(evaluate)
    with ThreadPoolExecutor(max_workers=build_pool.size) as pool:
        records = pool.map(lambda t: builds(build_eval, t, plat.name, args.seed, args.warm),
                           tasks)  # fmt: skip
        built = dict(zip([t.id for t in tasks], records, strict=True))
    (args.out / "builds.json").write_text(json.dumps({"machine": info, "builds": built}, indent=1))
    for task_id, record in built.items():
        print(f"{task_id:28s} builds: " + ", ".join(
            f"{k} {v['verdict']} {v['wall_s']}s" for k, v in record.items()), flush=True)
    # Then the timed evaluations, one per GPU at a time.
    timed_eval = timing_pool.wrap(evaluate)
    timings_path = args.out / "timings.jsonl"  # one line per task as it finishes

    def timed_and_saved(task: Any) -> dict[str, Any]:
        record = timed(timed_eval, task, args, plat.name)
        with timings_path.open("a") as out:
            out.write(json.dumps({"task": task.id, **record}, default=str) + "\n")
        return record

    with ThreadPoolExecutor(max_workers=timing_pool.size) as pool:
        timings = list(pool.map(timed_and_saved, tasks))
    rows: list[dict[str, Any]] = []
    for task, timing in zip(tasks, timings, strict=True):
        row: dict[str, Any] = {"task": task.id, "builds": built[task.id], **timing}
        rows.append(row)
        aa, sol = row["aa"], row.get("solution") or {}
        print(f"{task.id:28s} build {row['builds']['cold']['wall_s']}s "
              f"A/A {_fmt(aa.get('speedup'))} ({aa.get('verdict', '-')}) "
              f"solution {_fmt(sol.get('speedup'))} ({sol.get('verdict', '-')}) held-out "
              f"{_held(aa) if aa else '-'} / {_held(sol) if sol else '-'}", flush=True)  # fmt: skip
    (args.out / "results.json").write_text(
        json.dumps({"machine": info, "rows": rows}, indent=1, default=str)
    )
    text = markdown(rows, info)
    (args.out / "results.md").write_text(text)
    print(text)
    bad = [r["task"] for r in rows if r["builds"]["cold"]["verdict"] != "ok"
           or (r.get("solution") or {}).get("verdict") != "ok"]  # fmt: skip
    print(f"{len(rows) - len(bad)}/{len(rows)} tasks: baseline correct, solution ok"
          + (f"; not: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
