"""Re-apply the speed-of-light guard, with the tasks' current bytes/flops formulas, to recorded
GPU results (results are kept apart from scoring so that they can be re-scored later).

    PYTHONPATH=src python3 benchmarks/rescore_speed_of_light.py \
        benchmarks/results/h200-2026-11-30/triton_suite.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from agentkernelarena.evaluate import speed_of_light
from agentkernelarena.tasks.loader import discover_tasks


def main(path: str) -> int:
    recorded = json.loads(Path(path).read_text())
    gpu = recorded["machine"].get("gpu")
    tasks = {t.id: t for t in discover_tasks()}
    print(f"{'task':34s} {'version':9s} {'recorded':9s} {'now':9s} closest config (measured/bound)")
    for row in recorded["rows"]:
        task = tasks[row["task"]]
        for version in ("aa", "solution"):
            result = row.get(version)
            if not result:
                continue
            held = result.get("held_out", {}).get("configs", [])
            configs = [dict(c) for c in result["configs"] + held]
            # Drawn held-out configurations are drawn again from the recorded seed.
            drawn = task.configs_for("cuda", "held_out", draw_seed=result["seed"])
            params = {c.name: c.params for c in task.visible + drawn}
            problems = speed_of_light.check(configs, params, task.bytes_expr, task.flops_expr,
                                            gpu, task.precision)
            ratios = [c["candidate_ms"] / c["speed_of_light_ms"] for c in configs
                      if c.get("speed_of_light_ms") and c.get("candidate_ms")]
            closest = min(ratios) if ratios else float("nan")
            was = "rejected" if any("speed-of-light" in r for r in result["reasons"]) else "passed"
            now = "rejected" if problems else "passed"
            print(f"{row['task']:34s} {version:9s} {was:9s} {now:9s} {closest:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
