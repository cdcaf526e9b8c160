"""Helpers shared by the run tests (imported by name: tests/runner is on sys.path)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from agentkernelarena.runner.manifest import KIND, MANIFEST

REPO = Path(__file__).resolve().parents[2]
FIXTURE_TASKS = REPO / "tests" / "fixtures" / "tasks"
SCALE_ADD = FIXTURE_TASKS / "triton2triton" / "scale_add"
# Fewer timing rounds: the verdicts are the same, the trials take seconds.
FAST_TIMING = {"min_rounds": 1, "max_rounds": 2, "budget_s": 0.2}


def write_config(path: Path, **fields: Any) -> Path:
    config = {"agents": ["oracle"], "tasks": ["triton2triton/scale_add"],
              "tasks_dirs": [str(FIXTURE_TASKS)], "platform": "cpu", "timing": FAST_TIMING,
              "attempts": 1, **fields}
    path.write_text(yaml.safe_dump(config))
    return path


def aka_subprocess(*args: str, timeout: float = 300, **kw: Any) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "agentkernelarena", *args], text=True,
                          capture_output=True, timeout=timeout, env=env, cwd=kw.pop("cwd", None),
                          **kw)


def trial_records(run_dir: Path) -> dict[str, dict[str, Any]]:
    return {p.parent.name: json.loads(p.read_text())
            for p in sorted((run_dir / "trials").glob("*/trial.json"))}


def trial(task: str, verdict: str, speedup: float | None = None, *, agent: str = "A",
          attempt: int = 0, held: tuple[bool | None, float | None, str | None] | None = None,
          status: str = "completed", tokens: int | None = 100, cost: float | None = 0.5
          ) -> dict[str, Any]:
    correct = verdict == "ok"
    compiled = verdict not in ("compile_error", "agent_error")
    evaluation = None if verdict == "agent_error" else {
        "verdict": verdict, "compiled": compiled, "correct": correct, "speedup": speedup,
        "seed": 11, "reasons": [] if correct else [f"{verdict} because"]}
    held_out = {"evaluated": held is not None, "correct": held[0] if held else None,
                "speedup": held[1] if held else None, "quadrant": held[2] if held else None}
    score = (20 if compiled else 0) + (100 + 100 * (speedup or 0) if correct else 0)
    return {"task": task, "category": task.split("/")[0], "agent": "noop", "agent_label": agent,
            "attempt": attempt, "status": status, "verdict": verdict, "correct": correct,
            "speedup": speedup if correct else None, "score": score, "held_out": held_out,
            "evaluation": evaluation,
            "usage": {"agent_wall_s": 10.0, "tokens_in": tokens, "tokens_out": tokens,
                      "tokens_cached": 0, "cost_usd": cost, "turns": 1}}


def make_run(root: Path, trials: list[dict[str, Any]], missing: int = 0,
             agents: tuple[str, ...] = ("A",)) -> Path:
    plan = []
    for record in trials:
        key = f"{record['agent_label']}__{record['task'].replace('/', '__')}__{record['attempt']}"
        plan.append({"id": key, "agent": record["agent_label"], "task": record["task"],
                     "attempt": record["attempt"]})
        (root / "trials" / key).mkdir(parents=True)
        (root / "trials" / key / "trial.json").write_text(json.dumps(record))
    for index in range(missing):
        plan.append({"id": f"A__c__missing__{index}", "agent": "A", "task": "c/missing",
                     "attempt": index})
    (root / "trials" / "A__c__missing__0").mkdir(parents=True, exist_ok=True)  # interrupted
    manifest = {"kind": KIND, "label": "synthetic", "platform": "cuda", "comparable": True,
                "identity": {"agents": [{"name": "noop", "label": a, "args": {}}
                                        for a in agents]}, "plan": plan}
    (root / MANIFEST).write_text(json.dumps(manifest))
    return root
