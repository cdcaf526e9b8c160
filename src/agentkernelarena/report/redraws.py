"""`aka heldout` re-draws in the run's report.

Each `aka heldout RUN_DIR` writes RUN_DIR/heldout/<time>.json (runner/heldout.py): the run's
final solutions judged again on fresh held-out draws. The report reads all of them, oldest
first: per re-draw and agent the draw pass rates, and per trial its draws summed over all
re-draws (a solution that passes the run's own held-out draw but fails new ones overfit).
A file that cannot be read is named in the report, never silently left out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HELDOUT_DIR = "heldout"  # runner/heldout.py writes there


def load_redraws(run_dir: Path) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The re-draw results of a run (oldest first), and the files that could not be read."""
    folder = Path(run_dir) / HELDOUT_DIR
    found, broken = [], []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text())
            if not isinstance(data, dict) or not isinstance(data.get("trials"), list):
                raise ValueError("not an `aka heldout` result")
        except (OSError, ValueError) as exc:
            broken.append({"path": str(path), "error": f"{type(exc).__name__}: {exc}"})
            continue
        data["path"] = str(path)
        found.append(data)
    return found, broken


def redraw_entries(redraws: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The report's `heldout` list: one entry per re-draw, its per-agent summary."""
    return [{"path": r["path"], "created_at": r.get("created_at"),
             "platform": r.get("platform"), "draws_per_trial": r.get("draws_per_trial"),
             "measure": r.get("measure"), "agents": r.get("summary") or {}}
            for r in redraws]


def per_trial(redraws: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Trial id -> its re-draws over all files: {draws, passed, errors, redraws}."""
    out: dict[str, dict[str, Any]] = {}
    for redraw in redraws:
        for entry in redraw["trials"]:
            if not isinstance(entry, dict) or "id" not in entry:
                continue
            tally = out.setdefault(entry["id"], {"draws": 0, "passed": 0, "errors": 0,
                                                 "redraws": 0})
            draws = entry.get("draws") or []
            tally["redraws"] += 1
            tally["draws"] += len(draws)
            tally["passed"] += sum(bool((d.get("held_out") or {}).get("correct"))
                                   for d in draws)
            tally["errors"] += sum("error" in d for d in draws)
    return out
