"""Rewards from an evaluation record, by name: the one registry trainers pick from.

Every reward is 0 or less for a candidate that is not `ok` (a rejected candidate, one that
broke a rule, earns nothing), and only a correct candidate's speed counts: a reward that pays
for speed without correctness, or for a measured speed a guard rejected, can be gamed.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from agentkernelarena.errors import AkaError
from agentkernelarena.rl.record import EvalRecord

Reward = Callable[[EvalRecord], float]


def seed_score(record: EvalRecord) -> float:
    """The benchmark's own per-trial score: 20 compiled, +100 correct, +100 x speedup."""
    return record.score


def log_speedup(record: EvalRecord) -> float:
    """log(speedup) for an ok candidate (0 = as fast as the baseline); -1 for one that
    compiled but is wrong or rejected, -2 for one that did not compile."""
    if record.ok and record.speedup is not None and record.speedup > 0 \
            and math.isfinite(record.speedup):
        return math.log(record.speedup)
    return -1.0 if record.compiled else -2.0


def correctness(record: EvalRecord) -> float:
    """1 for a correct, accepted candidate; speed ignored."""
    return 1.0 if record.ok and record.correct else 0.0


def fast_p(threshold: float) -> Reward:
    """1 for an ok candidate at least `threshold` times faster than the baseline (fast_p)."""
    def reward(record: EvalRecord) -> float:
        return 1.0 if record.ok and record.speedup is not None \
            and record.speedup >= threshold else 0.0
    reward.__name__ = f"fast_{threshold:g}"
    return reward


REWARDS: dict[str, Reward] = {
    "score": seed_score,
    "log_speedup": log_speedup,
    "correct": correctness,
    "fast_1.0": fast_p(1.0),
    "fast_1.5": fast_p(1.5),
    "fast_2.0": fast_p(2.0),
}


def get_reward(name: str | Reward) -> Reward:
    """A reward by name (`REWARDS`, or `fast_<p>` for any threshold p), or a callable as is."""
    if callable(name):
        return name
    if name in REWARDS:
        return REWARDS[name]
    if name.startswith("fast_"):
        try:
            return fast_p(float(name[len("fast_"):]))
        except ValueError:
            pass
    raise AkaError(f"unknown reward {name!r}",
                   f"use one of {', '.join(REWARDS)}, fast_<p> for another threshold, or a "
                   "function of an EvalRecord")
