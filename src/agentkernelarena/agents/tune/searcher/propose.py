"""Which variants to try: neighbours on a bounded grid, visited by seeded coordinate descent.

Block sizes and warp counts move to the neighbouring power of two, stages by one, each within
bounds (a block size within 16x of the shipped one). The seed fixes the order in which the
parameters and their two directions are tried, so two runs with one seed propose the same
variants for the same measurements. A move is kept only when it beats the best so far by
`min_gain` (relative): timing noise alone must not walk the search away from the baseline.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .params import BLOCK, DEFAULTS, NUM_STAGES, NUM_WARPS, Param

SPAN = 16  # a block size stays within [shipped / 16, shipped * 16]
MAX_BLOCK = 1 << 16
LIMITS = {NUM_WARPS: (1, 16), NUM_STAGES: (1, 6)}
Values = dict[str, int | None]


def bounds(param: Param) -> tuple[int, int]:
    if param.kind == BLOCK:
        start = param.start
        return max(1, start // SPAN), min(MAX_BLOCK, start * SPAN)
    return LIMITS[param.kind]


def step(param: Param, value: int, direction: int) -> int | None:
    """The neighbour of `value` in `direction` (+1 up, -1 down), None past the bounds."""
    low, high = bounds(param)
    if param.kind == NUM_STAGES:
        nxt = value + direction
    elif direction > 0:
        nxt = 1 << value.bit_length()  # the next power of two above
    else:
        nxt = 1 << ((value - 1).bit_length() - 1) if value > 1 else 0  # the one below
    return nxt if low <= nxt <= high else None


def baseline(params: list[Param]) -> Values:
    return {p.key: p.value for p in params}


def _normal(param: Param, value: int) -> int | None:
    """An insert parameter at Triton's default is the same as not passing it."""
    return None if param.insert and value == DEFAULTS[param.kind] else value


def _frozen(values: Values) -> tuple[tuple[str, int | None], ...]:
    return tuple(sorted(values.items()))


def descend(params: list[Param], best: float, measure: Callable[[Values], float | None],
            seed: int, min_gain: float, stop: Callable[[], bool],
            accepted: Callable[[Values, float], None] | None = None) -> tuple[Values, float]:
    """Coordinate descent from the shipped values, whose score is `best`.

    `measure(values)` gives a variant's score (higher is better) or None when it failed;
    `stop()` says the budget is spent; `accepted(values, score)` hears of each new best.
    Returns the best values found and their score.
    """
    rng = random.Random(seed)
    ordered = sorted(params, key=lambda p: p.key)
    rng.shuffle(ordered)
    current = baseline(params)
    seen = {_frozen(current)}
    improved = True
    while improved and not stop():
        improved = False
        for param in ordered:
            directions = [1, -1]
            rng.shuffle(directions)
            for direction in directions:
                moved = False
                value = current[param.key]
                value = param.start if value is None else value
                while not stop():
                    nxt = step(param, value, direction)
                    if nxt is None:
                        break
                    candidate = {**current, param.key: _normal(param, nxt)}
                    if _frozen(candidate) in seen:
                        break
                    seen.add(_frozen(candidate))
                    score = measure(candidate)
                    if score is None or score <= best * (1 + min_gain):
                        break
                    current, best, value, moved, improved = candidate, score, nxt, True, True
                    if accepted is not None:
                        accepted(current, best)
                if moved or stop():
                    break
            if stop():
                break
    return current, best
