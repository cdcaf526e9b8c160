"""The suite page (docs/suites.md): every bundled task, generated from the task files and the
GPU results committed under benchmarks/results/.

Why generated: a hand-kept catalogue drifts from the tasks the moment one is added or re-sized;
a test compares the committed page with what this module makes, so the page is never stale.
The GPU columns come only from recorded measurements (the newest per task), never typed in:
a task without one says so.

Recorded results it reads (any folder under the results directory):
- `times.json` / `new_task_times.json` (benchmarks/new_task_times.py): per configuration
  the baseline and solution times measured with `triton.testing.do_bench`;
- `triton_suite.json` / `results.json` (benchmarks/triton_suite.py): the evaluator's
  per-configuration baseline times and the solution's speedup;
- `tune_vs_solution.json` (benchmarks/tune_summary.py over a `tune_run.sh` run): what the
  `tune` agent's search over launch parameters reached, beside the shipped solution: the room
  a task leaves after tuning.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkernelarena.tasks.spec import Task

TIMES_FILES = ("times.json", "new_task_times.json")
SUITE_FILES = ("triton_suite.json", "results.json")
TUNE_FILES = ("tune_vs_solution.json",)
PAGE_COMMAND = "aka tasks page -o docs/suites.md"


@dataclass
class GpuRecord:
    """What the newest recorded H200 measurement says of one task (visible configurations)."""

    source: str
    baseline_ms: list[float] = field(default_factory=list)
    speedups: list[float] = field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        good = [s for s in self.speedups if s > 0 and math.isfinite(s)]
        return math.exp(sum(math.log(s) for s in good) / len(good)) if good else None


def _times_rows(data: Any) -> Iterable[tuple[str, str, float | None, float | None]]:
    rows = data.get("rows", []) if isinstance(data, dict) else data
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict) or row.get("split", "visible") != "visible":
            continue
        base, sol = row.get("baseline") or {}, row.get("solution") or {}
        base_ms = base.get("ms") if base.get("correct") else None
        sol_ms = sol.get("ms") if sol.get("correct") else None
        yield str(row.get("task")), str(row.get("config")), base_ms, sol_ms


def _from_times(data: Any, source: str) -> dict[str, GpuRecord]:
    found: dict[str, GpuRecord] = {}
    for task, _config, base_ms, sol_ms in _times_rows(data):
        record = found.setdefault(task, GpuRecord(source))
        if isinstance(base_ms, (int, float)):
            record.baseline_ms.append(float(base_ms))
            if isinstance(sol_ms, (int, float)) and sol_ms > 0:
                record.speedups.append(float(base_ms) / float(sol_ms))
    return found


def _from_suite(data: Any, source: str) -> dict[str, GpuRecord]:
    found: dict[str, GpuRecord] = {}
    rows = data.get("rows", []) if isinstance(data, dict) else []
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("aa"), dict):
            continue
        record = GpuRecord(source)
        for config in row["aa"].get("configs") or []:
            ms = (config.get("timing") or {}).get("baseline_ms", config.get("baseline_ms"))
            if config.get("split", "visible") == "visible" and isinstance(ms, (int, float)):
                record.baseline_ms.append(float(ms))
        solution = row.get("solution") or {}
        if solution.get("verdict") == "ok" and isinstance(solution.get("speedup"), (int, float)):
            record.speedups.append(float(solution["speedup"]))
        found[str(row.get("task"))] = record
    return found


@dataclass
class TuneRecord:
    """The `tune` agent's trial on one task: its verdict and, when ok, its speedup."""

    source: str
    verdict: str | None
    speedup: float | None

    def cell(self) -> str:
        if self.verdict == "ok" and isinstance(self.speedup, (int, float)):
            return f"{self.speedup:.2f}x"
        return self.verdict or "-"


def _recorded(results_dir: Path, names: tuple[str, ...]) -> Iterable[tuple[str, Any]]:
    """(source, data) of every recorded file of these names, oldest folder first (folders
    compared by name: they start with the machine and the date, e.g. h200-2026-12-03)."""
    if not results_dir.is_dir():
        return
    for path in sorted(results_dir.rglob("*.json"), key=lambda p: str(p.relative_to(results_dir))):
        if path.name not in names:
            continue
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        yield path.relative_to(results_dir).as_posix(), data


def collect_tune_results(results_dir: Path) -> dict[str, TuneRecord]:
    """The newest recorded `tune` trial of each task."""
    found: dict[str, TuneRecord] = {}
    for source, data in _recorded(results_dir, TUNE_FILES):
        for row in data if isinstance(data, list) else []:
            if isinstance(row, dict) and row.get("task") and row.get("tune_verdict"):
                speedup = row.get("tune_speedup")
                found[str(row["task"])] = TuneRecord(
                    source, str(row["tune_verdict"]),
                    float(speedup) if isinstance(speedup, (int, float)) else None)
    return found


def collect_gpu_results(results_dir: Path) -> dict[str, GpuRecord]:
    """The newest recorded measurement of each task."""
    found: dict[str, GpuRecord] = {}
    for source, data in _recorded(results_dir, TIMES_FILES + SUITE_FILES):
        reader = _from_times if source.rsplit("/", 1)[-1] in TIMES_FILES else _from_suite
        new = reader(data, source)
        found.update({task: record for task, record in new.items() if record.baseline_ms})
    return found


def difficulty(task: Task) -> str:
    return next((t.split(":", 1)[1] for t in task.tags if t.startswith("difficulty:")), "-")


def baseline_summary(task: Task) -> str:
    """What the shipped baseline does, in its author's words: the first paragraph of the
    baseline file's docstring (Triton, PyTorch) or the native source's header comment."""
    entry = task.baseline or task.entry
    path = task.root / entry.file
    text = ""
    if path.is_file():
        try:
            text = ast.get_docstring(ast.parse(path.read_text())) or ""
        except SyntaxError:
            text = ""
    if text.startswith(f"{task.id}:") or not text:
        native = [task.root / f for f in task.editable if f.endswith((".cu", ".hip"))]
        for source in native:
            comments = [line.lstrip("/ ").strip() for line in source.read_text().splitlines()
                        if line.startswith("//")]
            text = " ".join(comments[:2])
            break
    first = text.strip().split("\n\n", 1)[0].removeprefix(f"{task.id}:").strip()
    return _cell(" ".join(first.split()), 220)


def _cell(text: str, limit: int) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    match = re.match(r"(.+?\.)(\s|$)", text)
    return _cell(match.group(1) if match else text, 160)


def _ms_range(values: Sequence[float]) -> str:
    if not values:
        return "-"
    low, high = min(values), max(values)
    return f"{low:.3g}" if math.isclose(low, high, rel_tol=0.05) else f"{low:.3g}-{high:.3g}"


def render(tasks: Sequence[Task], gpu: dict[str, GpuRecord],
           tuned: dict[str, TuneRecord] | None = None) -> str:
    tuned = tuned or {}
    lines = [
        "# The bundled task suites",
        "",
        f"Generated by `{PAGE_COMMAND}` from the task files and the GPU results recorded under",
        "`benchmarks/results/` (the newest measurement of each task); do not edit by hand. A test",
        "fails when this page and the tasks disagree.",
        "",
        "Columns: what the task computes; what the shipped baseline does (its author's words: "
        "where the time goes); the difficulty label; whether a faster `solution/` ships; the "
        "baseline's time per visible configuration on an H200 (range over the configurations); "
        "the best known speedup (the shipped solution, geometric mean over the visible "
        "configurations) and which recorded run it comes from; what the `tune` agent reached "
        "by searching launch parameters alone (Triton tasks; the trial's verdict when it was "
        "not ok), so that the room a task leaves after tuning shows.",
        "",
    ]
    by_category: dict[str, list[Task]] = {}
    for task in tasks:
        by_category.setdefault(task.category, []).append(task)
    lines.append("| category | tasks | with a solution | measured on an H200 |")
    lines.append("|---|---|---|---|")
    for category in sorted(by_category):
        group = by_category[category]
        lines.append(f"| {category} | {len(group)} | "
                     f"{sum(t.solution_dir is not None for t in group)} | "
                     f"{sum(t.id in gpu for t in group)} |")
    lines.append(f"| all | {len(tasks)} | {sum(t.solution_dir is not None for t in tasks)} | "
                 f"{sum(t.id in gpu for t in tasks)} |")
    for category in sorted(by_category):
        lines += ["", f"## {category}", "",
                  "| task | computes | baseline | difficulty | solution | H200 baseline ms | "
                  "best speedup | measured in | tuned |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for task in sorted(by_category[category], key=lambda t: t.id):
            record = gpu.get(task.id)
            # A withdrawn solution's recorded speedup is no longer what the task shows.
            speedup = record.speedup if record and task.solution_dir else None
            lines.append(
                f"| `{task.name}` | {_first_sentence(task.description)} | "
                f"{baseline_summary(task) or '-'} | {difficulty(task)} | "
                f"{'yes' if task.solution_dir else '-'} | "
                f"{_ms_range(record.baseline_ms) if record else 'not measured'} | "
                f"{f'{speedup:.2f}x' if speedup else '-'} | "
                f"{record.source if record else '-'} | "
                f"{tuned[task.id].cell() if task.id in tuned else '-'} |")
    return "\n".join(lines) + "\n"
