"""The upstream tests as part of a repository task's correctness gate (evaluate/upstream_tests.py
says what they can and cannot prove).

Run only after the arena's own gates passed (a candidate that is already wrong or slow to
compile is not worth a test session), and only where the platform can run them; a skip is
recorded with its reason, never counted as a pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentkernelarena.evaluate.upstream_tests import evaluation_record, run_upstream_tests
from agentkernelarena.platforms import Platform
from agentkernelarena.tasks.spec import Task


def upstream_gate(task: Task, solution_dir: Path, platform: Platform, sandbox: str,
                  result: dict[str, Any]) -> None:
    if result.get("verdict") != "ok":
        result["upstream_tests"] = {"ran": False, "ok": None,
                                    "reason": f"not run: verdict {result.get('verdict')}"}
        return
    tests = evaluation_record(run_upstream_tests(task, solution_dir, platform, sandbox))
    result["upstream_tests"] = tests
    if tests["ran"] and not tests["ok"]:
        assert task.upstream is not None and task.upstream.tests is not None
        result.update({"verdict": "incorrect", "correct": False, "speedup": None})
        result["reasons"].append(f"the project's own tests of the target fail with this "
                                 f"version ({' '.join(task.upstream.tests.run)} of "
                                 f"{task.upstream.project} {task.upstream.version})")
