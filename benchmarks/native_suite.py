"""Evaluate every native (CUDA/HIP) task on this machine: builds, A/A, solutions, eager.

What it shows, on a GPU (an H200 for the recorded results):
- builds: every baseline and solution builds (HIP sources through the HIP -> CUDA translation
  on NVIDIA); a first gates-only evaluation with an empty cache (binding + kernel compiled),
  then a second one (everything from the cache), and the solution's build with the binding
  object already cached (kernel only) -- the split build's point;
- timing: the baseline against itself (A/A, should be 1.000) and the solution against the
  baseline, visible and held-out, through the arena's evaluator;
- torch2* tasks: the solution against PyTorch eager (baseline.py) and torch.compile of it, on
  the visible configurations, timed here with the arena's interleaved timer.

    PYTHONPATH=src python3 benchmarks/native_suite.py --out benchmarks/results/h200-native
    PYTHONPATH=src python3 benchmarks/native_suite.py --tasks hip2hip/transpose --out /tmp/x

It writes results.json (every record) and results.md (the tables) into --out. --cache DIR sets
the build cache (default: a fresh temporary one, so that the first build is really cold).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import queue
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from triton_suite import _fmt, _held, machine_info  # noqa: E402

from agentkernelarena.evaluate import EvalOptions, evaluate  # noqa: E402
from agentkernelarena.evaluate.evaldir import build_candidate  # noqa: E402
from agentkernelarena.platforms import get_platform  # noqa: E402
from agentkernelarena.tasks.loader import discover_tasks, select_tasks  # noqa: E402

NATIVE = ["hip2hip", "cuda2cuda", "torch2cuda", "torch2hip"]
QUICK_TIMING = {"min_rounds": 5, "max_rounds": 20, "budget_s": 0.3, "target_rse": 0.01,
                "warmup": 1}  # fmt: skip


def _import(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _timed_eval(task: Any, folder: Path, options: EvalOptions) -> dict[str, Any]:
    started = time.monotonic()
    result = evaluate(task, folder, options)
    return {"verdict": result["verdict"], "reasons": result.get("reasons", [])[:2],
            "wall_s": round(time.monotonic() - started, 1)}  # fmt: skip


def builds(task: Any, platform: str, seed: int, warm: bool, env: dict[str, str]) -> dict[str, Any]:
    """Gates-only evaluations: cold, warm, then the solution (binding object cached).

    The cold one evaluates the task's own kernel as the candidate, so it also checks the
    baseline (or the torch2* skeleton) against the reference on the visible configurations."""
    gates = EvalOptions(platform=platform, seed=seed, measure=False, held_out=False, env=env)
    record = {"cold": _timed_eval(task, task.root, gates)}
    if warm:
        record["warm"] = _timed_eval(task, task.root, gates)
    if task.solution_dir:
        record["solution"] = _timed_eval(task, task.solution_dir, gates)
    return record


class GpuPool:
    """Hands out GPU indices so that each evaluation runs on its own GPU (None: the default)."""

    def __init__(self, gpus: list[str]) -> None:
        self.free: queue.Queue[str | None] = queue.Queue()
        for gpu in gpus or [None]:
            self.free.put(gpu)
        self.size = max(1, len(gpus))

    def run(self, fn: Any, *args: Any) -> Any:
        gpu = self.free.get()
        try:
            return fn(*args, {"CUDA_VISIBLE_DEVICES": gpu} if gpu is not None else {})
        finally:
            self.free.put(gpu)


def versus_eager(task: Any, seed: int, work: Path) -> dict[str, Any]:
    """torch2* tasks: the solution against eager PyTorch and torch.compile, per visible config."""
    import torch

    from agentkernelarena.evaluate.timing import TimingOptions, time_interleaved

    build_candidate(task, task.solution_dir, work / "solution")
    solution = _import(work / "solution" / task.entry.file, f"aka_bench_{work.name}").forward
    eager = _import(task.root / "baseline.py", f"aka_eager_{work.name}").forward
    ref_module = _import(task.root / task.reference.file, f"aka_ref_{work.name}")
    make_inputs = getattr(ref_module, task.inputs.function)
    reference = getattr(ref_module, task.reference.function)
    try:
        compiled: Any = torch.compile(eager, dynamic=False)
        compile_error = None
    except Exception as exc:  # torch.compile unavailable here: report, keep going
        compiled, compile_error = None, f"{type(exc).__name__}: {exc}"
    options = TimingOptions(min_rounds=20, max_rounds=200, budget_s=2.0, warmup=3)
    rows = []
    for config in task.visible:
        args = make_inputs(config.params, seed, "cuda")
        ref = reference(*(a.double() if a.is_floating_point() else a for a in args))
        out = solution(*args)
        tol = task.tolerance[str(out.dtype).removeprefix("torch.")]
        close = torch.allclose(out.double(), ref, atol=tol.atol, rtol=tol.rtol)
        row: dict[str, Any] = {"config": config.name, "solution_correct": bool(close)}
        contenders = {"eager": eager, "compile": compiled}
        for label, fn in contenders.items():
            if fn is None:
                row[label] = {"error": compile_error}
                continue
            try:
                timing = time_interleaved(fn, solution, args, lambda k: None, 1,
                                          lambda out, k, full: None, "cuda", options)  # fmt: skip
                row[label] = {"ms": timing.baseline_ms, "solution_ms": timing.candidate_ms,
                              "speedup": timing.speedup}  # fmt: skip
            except Exception as exc:  # torch.compile may fail at the first call
                row[label] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        rows.append(row)
    return {"configs": rows}


def _geomean(values: list[float]) -> float | None:
    import math

    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


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
        "the eager and compile columns time the oracle against baseline.py and "
        "torch.compile(baseline.py) here.",
        "",
        "| task | baseline correct | build cold s | warm s | solution s | A/A | A/A held-out "
        "| solution | sol. held-out | solution verdict | vs eager | vs compile |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        b, aa, sol = row["builds"], row["aa"], row.get("solution") or {}
        eager = row.get("eager", {}).get("configs", [])
        vs = {k: _geomean([c[k].get("speedup") for c in eager if "speedup" in c.get(k, {})])
              for k in ("eager", "compile")}  # fmt: skip
        lines.append(
            f"| {row['task']} | {b['cold']['verdict']} | {b['cold']['wall_s']} | "
            f"{b.get('warm', {}).get('wall_s', '-')} | {b.get('solution', {}).get('wall_s', '-')} "
            f"| {_fmt(aa.get('speedup')) if aa else '-'} | {_held(aa) if aa else '-'} | "
            f"{_fmt(sol.get('speedup'))} | {_held(sol) if sol else '-'} | "
            f"{sol.get('verdict', '-')} | {_fmt(vs['eager'])} | {_fmt(vs['compile'])} |"
        )
    return "\n".join(lines) + "\n"


def timed(task: Any, args: argparse.Namespace, platform: str, env: dict[str, str]) -> dict:
    """A/A (unless --no-aa) and the solution against the baseline, visible and held-out."""
    options = EvalOptions(platform=platform, seed=args.seed, env=env, timing=args.timing)
    row: dict[str, Any] = {"aa": evaluate(task, task.root, options) if args.aa else {}}
    if task.solution_dir:
        row["solution"] = evaluate(task, task.solution_dir, options)
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
    note = {"timed": f"{len(timings)} of {len(rows)} tasks (the run stopped before the rest)"}
    (out / "results.md").write_text(markdown(rows, saved["machine"] | note))
    print(markdown(rows, saved["machine"] | note))
    return 0


def _gpus(requested: str | None) -> list[str]:
    if requested is not None:
        return [g for g in requested.split(",") if g]
    try:
        import torch

        return [str(i) for i in range(torch.cuda.device_count())]
    except Exception:  # no torch or no GPU: evaluations use the platform's default
        return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="*", default=NATIVE)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--platform", default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", type=Path, default=None, help="build cache (default: fresh)")
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2),
                        help="build this many tasks at once (default: half the CPUs)")
    parser.add_argument("--gpus", default=None,
                        help="GPU indices to spread evaluations over (default: all visible)")
    parser.add_argument("--no-aa", dest="aa", action="store_false",
                        help="skip the baseline-against-itself evaluation")
    parser.add_argument("--no-warm", dest="warm", action="store_false",
                        help="skip the second (all from the cache) gates-only evaluation")
    parser.add_argument("--no-eager", dest="eager", action="store_false",
                        help="skip timing torch2* solutions against eager and torch.compile")
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
    gpus = _gpus(args.gpus) if plat.name != "cpu" else []
    info = machine_info() | {"platform": plat.name, "cache": os.environ["AKA_CACHE_DIR"],
                             "gpus_used": len(gpus) or 1}  # fmt: skip
    tasks = [t for t in select_tasks(args.tasks, discover_tasks()) if t.language in ("cuda", "hip")]
    # Builds first, --jobs at a time (each evaluation is its own process, so builds run in
    # parallel; a cold build's wall time is then measured with others compiling beside it).
    build_gpus = GpuPool(gpus * max(1, args.jobs // max(1, len(gpus))))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        records = pool.map(lambda t: build_gpus.run(builds, t, plat.name, args.seed,
                                                    args.warm), tasks)  # fmt: skip
        built = dict(zip([t.id for t in tasks], records, strict=True))
    (args.out / "builds.json").write_text(json.dumps({"machine": info, "builds": built}, indent=1))
    for task_id, record in built.items():
        print(f"{task_id:28s} builds: " + ", ".join(
            f"{k} {v['verdict']} {v['wall_s']}s" for k, v in record.items()), flush=True)
    # Then the timed evaluations, one per GPU at a time.
    eval_gpus = GpuPool(gpus)
    timings_path = args.out / "timings.jsonl"  # one line per task as it finishes

    def timed_and_saved(task: Any) -> dict[str, Any]:
        record = eval_gpus.run(timed, task, args, plat.name)
        with timings_path.open("a") as out:
            out.write(json.dumps({"task": task.id, **record}, default=str) + "\n")
        return record

    with ThreadPoolExecutor(max_workers=eval_gpus.size) as pool:
        timings = list(pool.map(timed_and_saved, tasks))
    rows: list[dict[str, Any]] = []
    for task, timing in zip(tasks, timings, strict=True):
        row: dict[str, Any] = {"task": task.id, "builds": built[task.id], **timing}
        if args.eager and task.solution_dir and task.category.startswith("torch2") \
                and plat.name != "cpu":  # fmt: skip
            try:
                row["eager"] = versus_eager(task, args.seed, scratch / task.name)
            except Exception as exc:  # keep the rest of the suite going
                row["eager"] = {"error": f"{type(exc).__name__}: {exc}"[:500], "configs": []}
        rows.append(row)
        aa, sol = row["aa"], row.get("solution") or {}
        print(f"{task.id:28s} build {row['builds']['cold']['wall_s']}s "
              f"A/A {_fmt(aa.get('speedup'))} ({aa.get('verdict', '-')}) "
              f"solution {_fmt(sol.get('speedup'))} ({sol.get('verdict', '-')}) held-out "
              f"{_held(aa) if aa else '-'} / {_held(sol) if sol else '-'}", flush=True)  # fmt: skip
    (args.out / "results.json").write_text(
        json.dumps({"machine": info, "rows": rows}, indent=1, default=str)
    )
    (args.out / "results.md").write_text(markdown(rows, info))
    print(markdown(rows, info))
    bad = [r["task"] for r in rows if r["builds"]["cold"]["verdict"] != "ok"
           or (r.get("solution") or {}).get("verdict") != "ok"]  # fmt: skip
    print(f"{len(rows) - len(bad)}/{len(rows)} tasks: baseline correct, solution ok"
          + (f"; not: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
