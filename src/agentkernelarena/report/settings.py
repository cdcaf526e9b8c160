"""What makes two runs incomparable: settings that change the result, stated in words.

Two runs with different attempts, iterations, time limits, platforms, timing settings or task
versions measure different things; `aka compare` pairs them anyway (that may be the point of
the experiment) but says so loudly, one warning per difference.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from agentkernelarena.report.load import RunData

# manifest.identity fields that change what a trial's result means, with their names in words.
RESULT_SETTINGS = (
    ("attempts", "attempts per task"),
    ("max_iterations", "max iterations"),
    ("time_limit_s", "time limit (s)"),
    ("platform", "platform"),
    ("sandbox", "sandbox"),
    ("timing", "timing settings"),
    ("vs_compile", "vs_compile"),
)


def _show(value: Any) -> str:
    return "unset" if value is None else json.dumps(value, sort_keys=True, default=str)


def attempts_seen(rows: list[dict[str, Any]]) -> int | None:
    """The most common number of finished attempts per task (None without trials)."""
    counts = Counter(Counter(r["task"] for r in rows).values())
    return counts.most_common(1)[0][0] if counts else None


def settings_warnings(run_a: RunData, run_b: RunData, rows_a: list[dict[str, Any]],
                      rows_b: list[dict[str, Any]], paired: list[str]) -> list[str]:
    """One line per setting that differs between the runs (nothing for one run's two agents:
    they share every setting)."""
    if run_a.path.resolve() == run_b.path.resolve():
        return []
    ident_a = run_a.manifest.get("identity") or {}
    ident_b = run_b.manifest.get("identity") or {}
    out = []
    for key, words in RESULT_SETTINGS:
        # vs_compile is recorded only when on; the others are unknown where a manifest lacks them.
        if key != "vs_compile" and (key not in ident_a or key not in ident_b):
            continue
        a, b = ident_a.get(key), ident_b.get(key)
        if a != b:
            out.append(f"the runs differ in {words}: A {_show(a)}, B {_show(b)}; their results "
                       "are not directly comparable")
    if "attempts" not in ident_a or "attempts" not in ident_b:
        seen_a, seen_b = attempts_seen(rows_a), attempts_seen(rows_b)
        if seen_a and seen_b and seen_a != seen_b:
            out.append(f"the runs differ in attempts per task (finished): A {seen_a}, B {seen_b}")
    if run_a.manifest.get("platform") != run_b.manifest.get("platform") and \
            not any("in platform" in line for line in out):
        out.append("the runs used different platforms: A "
                   f"{run_a.manifest.get('platform')}, B {run_b.manifest.get('platform')}")
    gpus_a = (run_a.manifest.get("hardware") or {}).get("gpus")
    gpus_b = (run_b.manifest.get("hardware") or {}).get("gpus")
    if gpus_a is not None and gpus_b is not None and sorted(set(gpus_a)) != sorted(set(gpus_b)):
        out.append(f"the runs ran on different GPUs: A {gpus_a or 'none'}, B {gpus_b or 'none'}")
    tasks_a = run_a.manifest.get("tasks") or {}
    tasks_b = run_b.manifest.get("tasks") or {}
    changed = [t for t in paired
               if (tasks_a.get(t) or {}).get("hash") and (tasks_b.get(t) or {}).get("hash")
               and tasks_a[t]["hash"] != tasks_b[t]["hash"]]
    if changed:
        shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5
                                           else "")
        out.append(f"{len(changed)} paired task(s) had different files in the two runs (task "
                   f"versions differ): {shown}")
    return out
