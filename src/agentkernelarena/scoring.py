"""Per-trial score (the reference benchmark's formula) and the speedup aggregates.

20 points for compiling, 100 for correctness, and 100 x speedup when correct. A rejected trial
scores 0 whatever it measured.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

COMPILE_POINTS = 20.0
CORRECT_POINTS = 100.0
SPEEDUP_POINTS = 100.0


def trial_score(verdict: str, compiled: bool, correct: bool | None, speedup: float | None) -> float:
    if verdict == "rejected":
        return 0.0
    score = COMPILE_POINTS if compiled else 0.0
    if correct:
        score += CORRECT_POINTS
        if speedup is not None and math.isfinite(speedup):
            score += SPEEDUP_POINTS * speedup
    return round(score, 4)


def geometric_mean(values: Sequence[float]) -> float | None:
    positive = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    if not positive or len(positive) != len(values):
        return None
    return math.exp(sum(math.log(v) for v in positive) / len(positive))


def arithmetic_mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None
