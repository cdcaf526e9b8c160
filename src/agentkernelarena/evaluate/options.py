"""What one evaluation is asked to do (`EvalOptions`): shared by the evaluator and the workers'
set-up, so that neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

# "auto" only for code the arena ships or the user wrote (tasks check, demo): sandboxed where
# bubblewrap works, else run plainly and marked so.
SANDBOX_MODES = ("on", "off", "auto")


@dataclass
class EvalOptions:
    platform: str | None = None
    seed: int | None = None
    held_out: bool = True
    measure: bool = True
    keep_dir: Path | None = None
    # `aka tasks check`: also run the task's sanity checks (evaluation/sanity.py).
    sanity: bool = False
    # Integrity guards (docs/integrity.md). Off only to measure their cost; never for scoring.
    guards: bool = True
    # Extra environment for the worker, e.g. CUDA_VISIBLE_DEVICES from a GPU pool.
    env: dict[str, str] | None = None
    # Overrides for the timing loop (tests and the A/A benchmark use them).
    timing: dict[str, Any] | None = None
    # Tasks with a PyTorch baseline (torch2*): also time the candidate against
    # torch.compile(baseline) on the visible configurations (speedup_vs_compile; not scored).
    vs_compile: bool = False
    # The candidate's process in the evaluation sandbox ("on"); "off" only with the user's
    # explicit consent, and every record then says so.
    sandbox: str = "on"
    # Folders the candidate's process must not see besides the bundled suites (the task's own
    # folder is always hidden): --tasks-dir folders, the run folder.
    hidden: tuple[Path, ...] = ()
    # On a GPU, both workers' timed rounds traced on the device (CUPTI; trace_rules.py). Off
    # only to measure what it costs.
    device_trace: bool = True
    # Repository tasks: the project's own tests of the target, part of the correctness gate
    # where the platform can run them (evaluate/upstream_tests.py).
    upstream_tests: bool = True
    # The whole evaluation's wall-clock limit on top of the task's per-phase timeouts (a batch
    # service's per-candidate timeout); past it, the candidate's process is killed: `timeout`.
    time_limit_s: float | None = None
