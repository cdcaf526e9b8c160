"""Candidate evaluations per GPU-minute: the RL service (agentkernelarena.rl) against `aka eval`
run once per candidate, on the same batch, on this machine's GPU (or the CPU platform).

The batch cycles over the tasks' candidates in a fixed order: the shipped solution (correct,
fast), the baseline itself (correct, slow), a syntax error (compile_error) and a wrapper that
computes with PyTorch (rejected). Each mode runs for at most --budget-s; the figure is the
evaluations it finished divided by the minutes it took. Both modes do the same work: the
visible configurations only, as `rl` evaluates by default (`rl.training_options`), and
`aka eval --visible-only`; `--held-out` adds the held-out configurations to both.

    PYTHONPATH=src python3 benchmarks/rl_throughput.py --out DIR [--count 120] [--budget-s 240] \
        [--modes service:3 service:6 cli]

Writes DIR/throughput.json (every record's task, kind, verdict, wall) and DIR/throughput.md.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import Future, wait
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


def _stamp(done_at: dict[int, float], index: int, started: float) -> Any:
    """A done-callback noting when candidate `index` finished (seconds since `started`)."""
    return lambda _future: done_at.setdefault(index, time.monotonic() - started)


def run_service(batch: list[Any], platform: str, budget_s: float, lanes: int | None,
                rows: list[dict[str, Any]], held_out: bool) -> None:
    started = time.monotonic()
    done_at: dict[int, float] = {}
    options = rl.training_options(platform=platform, held_out=held_out)
    with rl.EvaluationService(options, max_pending=8, lanes=lanes) as service:
        pending: list[tuple[Any, str, Future[rl.EvalRecord]]] = []
        for task, kind, files in batch:
            # Submit no further than the budget allows (submit blocks while the queue is full).
            if time.monotonic() - started > budget_s:
                break
            future = service.submit(task, files)
            future.add_done_callback(_stamp(done_at, len(pending), started))
            pending.append((task, kind, future))
        wait([future for _, _, future in pending],
             timeout=max(0.0, budget_s - (time.monotonic() - started)))
        now = time.monotonic() - started  # a done future whose callback has not run yet
        for index, (task, kind, future) in enumerate(pending):
            if not future.done() or done_at.setdefault(index, now) > budget_s:
                future.cancel()  # not counted (a running one finishes)
                continue
            record = future.result()
            rows.append({"task": task.id, "kind": kind, "verdict": record.verdict,
                         "speedup": record.speedup, "wall_s": record.wall_s,
                         "shared_gpu": record.raw.get("shared_gpu"),
                         "warm_start": record.raw.get("warm_start"),
                         "done_s": round(done_at[index], 2)})
    rows.sort(key=lambda row: row["done_s"])


def run_cli(batch: list[Any], platform: str, budget_s: float,
            rows: list[dict[str, Any]], held_out: bool) -> None:
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
                     "--platform", platform, "--json",
                     *([] if held_out else ["--visible-only"])],
                    capture_output=True, text=True, timeout=left)
            except subprocess.TimeoutExpired:
                break
        try:
            result = json.loads(proc.stdout)
            verdict, speedup = result["verdict"], result.get("speedup")
        except (ValueError, KeyError):
            verdict, speedup = f"cli exit {proc.returncode}", None
        rows.append({"task": task.id, "kind": kind, "verdict": verdict, "speedup": speedup,
                     "done_s": round(time.monotonic() - started, 2)})


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def rate(rows: list[dict[str, Any]]) -> float | None:
    if not rows:
        return None
    return len(rows) / (rows[-1]["done_s"] / 60) if rows[-1]["done_s"] > 0 else None


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per kind of candidate: the verdicts, and the speedups of the measured ones (the
    baseline's are an A/A check: sharing the GPU must not move them off 1)."""
    out: dict[str, Any] = {}
    for row in rows:
        kind = out.setdefault(row["kind"], {"verdicts": Counter(), "speedups": []})
        kind["verdicts"][row["verdict"]] += 1
        if row.get("speedup") is not None:
            kind["speedups"].append(round(row["speedup"], 4))
    for kind in out.values():
        values = sorted(kind["speedups"])
        kind["speedup_median"] = values[len(values) // 2] if values else None
    return out


def write_markdown(report: dict[str, Any], out: Path, platform: str) -> str:
    configs = "visible and held-out" if report.get("held_out") else "visible only"
    lines = [f"# RL service throughput ({platform})", "",
             f"{report['machine']}", "", f"Configurations evaluated in every mode: {configs}.", "",
             "| mode | evaluations | minutes | per minute | verdicts |", "|---|---|---|---|---|"]
    for mode, data in report["modes"].items():
        rows = data["rows"]
        verdicts = Counter(row["verdict"] for row in rows)
        minutes = rows[-1]["done_s"] / 60 if rows else 0
        cut = " (cut short)" if data.get("cut_short") else ""
        lines.append(f"| {mode}{cut} | {len(rows)} | {minutes:.2f} | "
                     f"{data['per_minute'] or 0:.2f} | "
                     + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())) + " |")
    lines += ["", "Median speedup per kind of candidate (the baseline's is an A/A check):", ""]
    for mode, data in report["modes"].items():
        lines.append(f"- {mode}: " + "; ".join(
            f"{kind} {info['speedup_median']} over {len(info['speedups'])}"
            for kind, info in data["by_kind"].items() if info["speedups"]))
    cli = report["modes"].get("cli", {}).get("per_minute")
    for mode, data in report["modes"].items():
        if mode != "cli" and cli and data.get("per_minute"):
            lines += ["", f"{mode} / cli: {data['per_minute'] / cli:.2f}x"]
    text = "\n".join(lines) + "\n"
    (out / "throughput.md").write_text(text)
    return text


def run_mode(mode: str, batch: list[Any], platform: str, budget_s: float,
             rows: list[dict[str, Any]], held_out: bool = False) -> None:
    """`cli`, `service` (the service's own lane count) or `service:N` (N lanes per GPU)."""
    if mode == "cli":
        run_cli(batch, platform, budget_s, rows, held_out)
        return
    name, _, lanes = mode.partition(":")
    if name != "service" or (lanes and not lanes.isdigit()):
        raise SystemExit(f"unknown mode {mode!r}: use cli, service or service:N")
    run_service(batch, platform, budget_s, int(lanes) if lanes else None, rows, held_out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tasks", nargs="*", default=["@smoke"])
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--budget-s", type=float, default=240.0, help="per mode")
    parser.add_argument("--platform", default=None)
    parser.add_argument("--modes", nargs="*", default=["service", "cli"],
                        help="cli, service, or service:N for N evaluations in flight per GPU")
    parser.add_argument("--held-out", action="store_true",
                        help="evaluate the held-out configurations too, in every mode")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _interrupt)
    platform = get_platform(args.platform).name
    kinds = candidates(rl.load_tasks(args.tasks))
    batch = [kinds[i % len(kinds)] for i in range(args.count)]
    args.out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"machine": machine_info() | {"platform": platform},
                              "count": args.count, "budget_s": args.budget_s,
                              "held_out": args.held_out, "modes": {}}
    for mode in args.modes:
        rows: list[dict[str, Any]] = []
        try:
            run_mode(mode, batch, platform, args.budget_s, rows, args.held_out)
            cut = False
        except KeyboardInterrupt:  # SIGTERM from a time limit: keep what finished
            cut = True
        report["modes"][mode] = {"rows": rows, "per_minute": rate(rows),
                                 "by_kind": summary(rows), "cut_short": cut}
        print(f"{mode}: {len(rows)} evaluations, {rate(rows) or 0:.2f} per minute", flush=True)
        (args.out / "throughput.json").write_text(json.dumps(report, indent=1))
        text = write_markdown(report, args.out, platform)
        if cut:
            break
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
