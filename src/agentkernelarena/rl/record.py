"""The typed view of one evaluation: the record `aka eval --json` prints, with its fields named.

`raw` keeps the whole record (configurations, events, costs) for whoever needs more; the named
fields are the ones a trainer reads for every candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Not an evaluator verdict: the arena could not evaluate the candidate at all (its own failure,
# reported in `error`), so a trainer can tell it from a candidate that failed a gate.
ERROR = "error"


@dataclass(frozen=True)
class EvalRecord:
    task: str
    verdict: str
    compiled: bool
    correct: bool
    speedup: float | None
    score: float
    held_out_correct: bool | None = None
    held_out_speedup: float | None = None
    comparable: bool = True  # False on the CPU platform: timings mean nothing there
    reasons: tuple[str, ...] = ()
    wall_s: float | None = None
    error: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"

    @classmethod
    def from_result(cls, result: dict[str, Any]) -> EvalRecord:
        held = result.get("held_out") or {}
        return cls(task=str(result["task"]), verdict=str(result["verdict"]),
                   compiled=bool(result.get("compiled")), correct=bool(result.get("correct")),
                   speedup=result.get("speedup"), score=float(result.get("score") or 0.0),
                   held_out_correct=held.get("correct") if held.get("evaluated") else None,
                   held_out_speedup=held.get("speedup") if held.get("evaluated") else None,
                   comparable=bool(result.get("comparable", True)),
                   reasons=tuple(str(r) for r in result.get("reasons") or ()),
                   wall_s=result.get("wall_s"), raw=result)

    @classmethod
    def failure(cls, task: str, error: str) -> EvalRecord:
        return cls(task=task, verdict=ERROR, compiled=False, correct=False, speedup=None,
                   score=0.0, reasons=(error,), error=error)
