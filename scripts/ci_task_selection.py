"""Which bundled tasks CI checks in full (baseline and solution evaluated on the CPU).

Every task gets the quick check in CI (formulas and soundness, about a second each); the full
check costs 10-20 s a Triton task under the interpreter, too much for every task of a growing
suite on a 2-core machine. So CI checks in full the tasks that the recent commits touched, plus
a rotating sample of the others that changes every day: over a cycle every task is checked.

    python3 scripts/ci_task_selection.py [--base REV] [--sample N] [--day YYYY-MM-DD]

Prints one task id per line. --base: the commits after REV count as the change (default: the
last 30 commits, or everything when the history is shorter); --max-touched caps the touched
tasks (a change adding a whole family), sampled by the day like the rest.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import subprocess
import sys
from pathlib import Path

from agentkernelarena.tasks.loader import BUNDLED_SUITES, discover_tasks

ROOT = Path(__file__).resolve().parent.parent


def changed_task_ids(base: str | None, ids: set[str]) -> set[str]:
    """Tasks with a file changed after `base` (all tasks when git cannot say)."""
    if base is None:
        count = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=ROOT,
                               capture_output=True, text=True)
        depth = int(count.stdout.strip() or 0) if count.returncode == 0 else 0
        if depth <= 30:
            return set(ids)
        base = "HEAD~30"
    diff = subprocess.run(["git", "diff", "--name-only", base, "HEAD"], cwd=ROOT,
                          capture_output=True, text=True)
    if diff.returncode != 0:
        return set(ids)
    try:
        suites = BUNDLED_SUITES.relative_to(ROOT).as_posix() + "/"
    except ValueError:  # the arena installed elsewhere than this checkout
        return set(ids)
    touched = set()
    for line in diff.stdout.splitlines():
        if line.startswith(suites):
            parts = line[len(suites):].split("/")
            if len(parts) >= 3 and f"{parts[0]}/{parts[1]}" in ids:
                touched.add(f"{parts[0]}/{parts[1]}")
    return touched


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=None)
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--max-touched", type=int, default=60,
                        help="at most this many touched tasks (a day's sample of them beyond)")
    parser.add_argument("--day", default=None, help="the day that picks the sample")
    args = parser.parse_args()
    ids = {t.id for t in discover_tasks()}
    day = dt.date.fromisoformat(args.day) if args.day else dt.date.today()
    chosen = changed_task_ids(args.base, ids)
    if len(chosen) > args.max_touched:
        # A change that adds a whole family: CI's time stays bounded, and the rest of the
        # family is checked in full on the following days (and by its author before).
        chosen = set(random.Random(-day.toordinal()).sample(sorted(chosen), args.max_touched))
    rest = sorted(i for i in ids - chosen if i.startswith("triton2triton/"))
    chosen |= set(random.Random(day.toordinal()).sample(rest, min(args.sample, len(rest))))
    print("\n".join(sorted(chosen)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
