"""Per-configuration baseline and solution times of Triton tasks, with their speed-of-light bound.

A quick, independent view (triton.testing.do_bench, not the arena's evaluator) that a task is
sized and sound: every fixed configuration's baseline time should lie in 0.05-20 ms, sit well
above its bound (baseline / bound >= ~1.2), and the solution should be correct and faster.
Run on a GPU:

    PYTHONPATH=src python3 benchmarks/new_task_times.py --out DIR triton2triton/rope_qk ...

Native (CUDA/HIP) tasks: the solution is laid over a copy of the task (its folder holds only
the kernel source), and `--prebuild-jobs N` builds every baseline and solution first, N at a
time in separate processes (one build cache, $AKA_CACHE_DIR), so that the timing loop finds
them built. Tasks with an eager baseline (torch2*) also time the task's starting kernel
("start"): it is what an agent gets, and must be correct.

Writes DIR/times.json and DIR/times.md. Without a GPU (TRITON_INTERPRET=1) it runs the CPU
configurations once each: a smoke test of the script, not a measurement.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import torch

from agentkernelarena.evaluate.compare import compare_values
from agentkernelarena.evaluate.speed_of_light import bound_ms, peaks_for
from agentkernelarena.tasks.gpu_checks import WINDOW_MS
from agentkernelarena.tasks.loader import discover_tasks, select_tasks


def _load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _upcast(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a.to(torch.float64) if isinstance(a, torch.Tensor) and a.is_floating_point()
                 else a for a in args)


def _fresh(args: tuple[Any, ...], in_place: bool) -> tuple[Any, ...]:
    if not in_place:
        return args
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


def _time_ms(fn: Any, args: tuple[Any, ...]) -> float:
    if not torch.cuda.is_available():  # a smoke run under TRITON_INTERPRET=1: one call
        started = time.perf_counter()
        fn(*args)
        return (time.perf_counter() - started) * 1e3
    import triton.testing

    return float(triton.testing.do_bench(lambda: fn(*args), warmup=25, rep=200))


def _one(task: Any, fn: Any, args: tuple[Any, ...], ref: Any, tol: dict) -> dict[str, Any]:
    try:
        out = fn(*args)
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        mismatch = compare_values(out, ref, tol)
        return {"correct": mismatch is None, "error": mismatch.message if mismatch else None,
                "ms": _time_ms(fn, args)}
    except Exception as exc:  # report and go on with the other tasks
        return {"correct": False, "error": f"{type(exc).__name__}: {exc}"[:500], "ms": None}


OVERLAYS = Path(tempfile.gettempdir()) / "aka-task-overlays"


def baseline_root(task: Any) -> Path:
    """Where the pristine entry can be imported: the task folder, or for a repository task a
    copy of it with the pinned upstream packages beside the entry (from the release cache)."""
    if task.upstream is None:
        return task.root
    from agentkernelarena.tasks.repository import copy_packages

    dest = OVERLAYS / (task.id.replace("/", "__") + "__pristine")
    if not dest.exists():
        shutil.copytree(task.root, dest, ignore=shutil.ignore_patterns("solution"))
        copy_packages(task, dest)
    return dest


def solution_root(task: Any) -> Path | None:
    """Where the solution's entry can be imported: the solution folder itself when it holds
    the entry, else a copy of the pristine tree with the solution's files laid over it."""
    if task.solution_dir is None:
        return None
    if (task.solution_dir / task.entry.file).is_file():
        return task.solution_dir
    dest = OVERLAYS / task.id.replace("/", "__")
    if not dest.exists():
        shutil.copytree(baseline_root(task), dest, ignore=shutil.ignore_patterns("solution"))
        shutil.copytree(task.solution_dir, dest, dirs_exist_ok=True)
    return dest


def _forget_packages(task: Any) -> None:
    """Repository tasks import the same package names from several trees (pristine, solution,
    other tasks of the same library): before an entry is loaded, the modules of those packages
    leave sys.modules and the other trees the import path, so that it imports its own files
    (entries already loaded keep the functions they hold)."""
    if task.upstream is None:
        return
    names = set(task.upstream.packages) | {p for r in task.upstream.requires for p in r.packages}
    tops = {n.removesuffix(".py") for n in names}
    for module in [m for m in sys.modules if m.split(".")[0] in tops]:
        del sys.modules[module]
    sys.path[:] = [p for p in sys.path if not p.startswith(str(OVERLAYS))]


def _build(path: str, name: str) -> str:
    try:
        _load(Path(path), name)
        return f"built {path}"
    except Exception as exc:
        return f"FAILED {path}: {type(exc).__name__}: {str(exc)[-300:]}"


def prebuild(tasks: list[Any], jobs: int) -> None:
    """Build the native tasks' entries (baseline and solution) in parallel processes."""
    entries = []
    for task in tasks:
        if task.language not in ("cuda", "hip"):
            continue
        entries.append((str(baseline_root(task) / task.entry.file), f"pre_{task.name}"))
        root = solution_root(task)
        if root is not None:
            entries.append((str(root / task.entry.file), f"pre_sol_{task.name}"))
    if not entries:
        return
    started = time.monotonic()
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for line in pool.map(_build, [e[0] for e in entries], [e[1] for e in entries]):
            print(line, flush=True)
    print(f"prebuilt {len(entries)} entries in {time.monotonic() - started:.0f} s", flush=True)


def run_task(task: Any, peaks: tuple[float, float] | None,
             splits: tuple[str, ...] = ("visible", "held_out"),
             device: str = "cuda") -> list[dict[str, Any]]:
    ref_mod = _load(task.root / task.reference.file, f"ref_{task.name}")
    make_inputs = getattr(ref_mod, task.inputs.function)
    reference = getattr(ref_mod, task.reference.function)
    # What the candidate is timed against: the eager operator of torch2* tasks, the pristine
    # entry otherwise (never a skeleton's entry, which raises).
    base = task.baseline or task.entry
    _forget_packages(task)
    base_fn = getattr(_load(baseline_root(task) / base.file, f"base_{task.name}"),
                      base.function)
    sol_fn = start_fn = None
    root = solution_root(task)
    if root is not None:
        _forget_packages(task)
        sol_fn = getattr(_load(root / task.entry.file, f"sol_{task.name}"), task.entry.function)
    if task.baseline is not None and task.category.startswith("torch2") \
            and task.category != "torch2triton":
        start_fn = getattr(_load(task.root / task.entry.file, f"start_{task.name}"),
                           task.entry.function)
    tol = {k: (v.atol, v.rtol) for k, v in task.tolerance.items()}
    rows = []
    sets = ((("visible", task.visible), ("held_out", task.held_out)) if device != "cpu" else
            (("visible", task.cpu_visible), ("held_out", task.cpu_held_out)))
    for split, configs in sets:
        if split not in splits:
            continue
        for config in configs:
            row: dict[str, Any] = {"task": task.id, "split": split, "config": config.name}
            try:
                args = make_inputs(config.params, 1234, device)
                call = _upcast(args) if task.reference_upcast else args
                with torch.no_grad():
                    ref = reference(*call)
            except Exception as exc:
                row["error"] = f"inputs/reference: {type(exc).__name__}: {exc}"[:500]
                rows.append(row)
                continue
            row["bound_ms"] = (bound_ms(task.bytes_expr, task.flops_expr, config.params, peaks)
                               if peaks else None)
            # An in-place task changes its inputs: each side gets its own copy.
            row["baseline"] = _one(task, base_fn, _fresh(args, task.in_place), ref, tol)
            if sol_fn is not None:
                row["solution"] = _one(task, sol_fn, _fresh(args, task.in_place), ref, tol)
            if start_fn is not None:
                row["start"] = _one(task, start_fn, _fresh(args, task.in_place), ref, tol)
            rows.append(row)
            del args, call, ref
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
            print(json.dumps(row), flush=True)
    return rows


def _f(value: Any, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}g}"


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| task | split | config | bound ms | baseline ms | base/bound | in 0.05-20 ms | "
             "solution ms | speedup | correct (b/s/start) |", "|" + "---|" * 10]
    for r in rows:
        if "split" not in r:  # a task that did not load: in the errors below
            continue
        b, s = r.get("baseline") or {}, r.get("solution") or {}
        bms, sms, bound = b.get("ms"), s.get("ms"), r.get("bound_ms")
        ratio = bms / bound if bms and bound else None
        in_range = "yes" if bms and WINDOW_MS[0] <= bms <= WINDOW_MS[1] else "NO"
        speedup = bms / sms if bms and sms else None
        ok = f"{b.get('correct', '-')}/{s.get('correct', '-') if s else '-'}" + (
            f"/{r['start'].get('correct')}" if r.get("start") else "")
        lines.append(f"| {r['task']} | {r['split']} | {r['config']} | {_f(bound)} | {_f(bms)} | "
                     f"{_f(ratio)} | {in_range} | {_f(sms)} | {_f(speedup)} | {ok} |")
    errors = [f"- {r['task']} {r.get('config', '')}: {e}" for r in rows
              for e in [r.get("error"), (r.get("baseline") or {}).get("error"),
                        (r.get("solution") or {}).get("error"),
                        (r.get("start") or {}).get("error")] if e]
    return "\n".join(lines + ([""] + ["Errors:"] + errors if errors else [])) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--splits", default="visible,held_out",
                        help="comma-separated: visible, held_out (visible only is ~2x faster)")
    parser.add_argument("--prebuild-jobs", type=int, default=0,
                        help="build native tasks first, this many at a time")
    args = parser.parse_args()
    splits = tuple(args.splits.split(","))
    args.out.mkdir(parents=True, exist_ok=True)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    peaks = peaks_for(torch.cuda.get_device_name(0)) if device == "cuda" else None
    rows: list[dict[str, Any]] = []
    tasks = select_tasks(args.tasks, discover_tasks())
    if args.prebuild_jobs and device == "cuda":
        prebuild(tasks, args.prebuild_jobs)
    for task in tasks:
        try:
            rows += run_task(task, peaks, splits, device)
        except Exception as exc:  # a task that does not load: said, and the rest measured
            rows.append({"task": task.id, "error": f"load: {type(exc).__name__}: {exc}"[:500]})
            print(json.dumps(rows[-1]), flush=True)
        # After every task: a run stopped at a time limit keeps what it measured.
        (args.out / "times.json").write_text(json.dumps(rows, indent=1))
        (args.out / "times.md").write_text(markdown(rows))
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
