"""The reference benchmark's published numbers, quoted beside a run's (`aka leaderboard
--published`), never mixed with what this arena measured.

The figures are data, with their source: the per-category mean speedups of the reference
benchmark's headline experiment (six agent configurations on a 44-task subset, 3600 s and at
most 3 iterations per task), as restated in this project's issue #22. Where that text does not
say which agent a figure belongs to, `agent` is None and `note` says what the text says;
nothing is filled in by guess. Their mean is the arithmetic mean over correct trials, on the
reference's hardware and tasks: comparable with our `mean speedup` column in kind, not in
value (docs/reference-experiment.md says what differs).
"""

from __future__ import annotations

from typing import Any

from agentkernelarena.report.render import Rows

SOURCE = ("the reference benchmark's headline experiment, per-category mean speedup, as "
          "quoted in AgentKernelArena issue #22 (\"The reference benchmark's experiment in one "
          "command\")")
MARK = "quoted, not measured here"
TRITON_NOTE = "the source lists these four without naming the agents"

# category -> [(agent configuration or None, mean speedup as published, note)]
PUBLISHED: dict[str, list[dict[str, Any]]] = {
    "hip2hip": [
        {"agent": "GEAKv3", "speedup": "9.04x", "note": ""},
        {"agent": "Claude Code", "speedup": "6.08x", "note": "model not named in the source"},
        {"agent": "Cursor Agent", "speedup": "5.03x", "note": "model not named in the source"},
        {"agent": "Codex model", "speedup": "3.06x",
         "note": "the experiment's Codex model is GPT-5.3 Codex"},
        {"agent": "Composer 2", "speedup": "1.34x", "note": ""},
    ],
    "triton2triton": [
        {"agent": None, "speedup": "2.75x", "note": TRITON_NOTE},
        {"agent": None, "speedup": "1.95-1.96x", "note": "a range as published"},
        {"agent": None, "speedup": "0.99x", "note": ""},
        {"agent": None, "speedup": "0.98x", "note": ""},
    ],
}


def published(categories: list[str] | None = None) -> dict[str, Any]:
    """{source, mark, categories: {CATEGORY: [rows]}} for the given categories (all if None)."""
    chosen = {c: rows for c, rows in PUBLISHED.items() if categories is None or c in categories}
    return {"source": SOURCE, "mark": MARK, "categories": chosen}


def side_by_side(board: dict[str, Any]) -> list[dict[str, Any]]:
    """Per published category, the quoted rows and then the run's entries (measured here),
    each row saying which it is. Categories the runs did not cover still show the quotes."""
    tables = []
    for category, quoted in PUBLISHED.items():
        headers = ["figure", "agent configuration", "mean speedup", "geomean", "note"]
        rows = [[f"published ({MARK})", q["agent"] or "(not named in the source)",
                 q["speedup"], "-", q["note"]] for q in quoted]
        for entry in board["categories"].get(category, []):
            m = entry["metrics"]
            rows.append(["measured here", entry["label"], _speed(m["speedup_mean"]),
                         _speed(m["speedup_geomean"]), f"{len(entry['tasks'])} task(s), "
                         f"{m['trials']} trial(s)"])
        if not board["categories"].get(category):
            rows.append(["measured here", "(no trials of this category in the runs)", "-",
                         "-", ""])
        table: Rows = (headers, rows)
        tables.append({"category": f"{category}: published beside measured", "rows": table})
    return tables


def _speed(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"
