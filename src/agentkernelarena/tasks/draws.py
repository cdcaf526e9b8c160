"""Held-out configurations drawn at evaluation time (the generalization protocol, DESIGN.md §6).

A task declares ranges (`configs.held_out_draws`); each evaluation draws fresh configurations
from them with a seed the agent cannot know, and records the seed, so any evaluation can be
repeated exactly. Integer ranges are drawn log-uniformly, so draws cover small and large, skinny
and wide, and almost never land on a power of two or a multiple of a block size.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentkernelarena.errors import TaskError

MAX_TRIES = 1000


@dataclass(frozen=True)
class DrawSpec:
    count: int
    params: dict[str, Any]
    where: str | None = None

    def draw(self, rng: random.Random) -> list[dict[str, Any]]:
        drawn = []
        for _ in range(self.count):
            for _ in range(MAX_TRIES):
                candidate = {name: _draw_value(spec, rng) for name, spec in self.params.items()}
                if self.where is None or _holds(self.where, candidate):
                    drawn.append(candidate)
                    break
            else:
                raise TaskError(f"held_out_draws: no draw satisfies '{self.where}' "
                                f"in {MAX_TRIES} tries", "widen the ranges or the condition")
        return drawn


def _draw_value(spec: Any, rng: random.Random) -> Any:
    if isinstance(spec, dict) and "int" in spec:
        low, high = spec["int"]
        value = math.exp(rng.uniform(math.log(low), math.log(high + 1)))
        return max(low, min(high, int(value)))
    if isinstance(spec, dict) and "choice" in spec:
        return rng.choice(list(spec["choice"]))
    return spec


def _holds(condition: str, params: dict[str, Any]) -> bool:
    return bool(eval(condition, {"__builtins__": {}}, dict(params)))  # noqa: S307 - task files


def parse_draw_spec(raw: Any, where: Path, label: str) -> DrawSpec | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"count", "params", "where"}:
        raise TaskError(f"{where}: field '{label}': expected {{count, params, where}}")
    count, params = raw.get("count", 1), raw.get("params")
    if not isinstance(count, int) or count < 1:
        raise TaskError(f"{where}: field '{label}.count': expected a positive integer")
    if not isinstance(params, dict) or not params:
        raise TaskError(f"{where}: field '{label}.params': expected a mapping of ranges")
    for name, spec in params.items():
        if isinstance(spec, dict):
            if "int" in spec:
                bounds = spec["int"]
                if (not isinstance(bounds, list) or len(bounds) != 2
                        or not all(isinstance(b, int) and b > 0 for b in bounds)
                        or bounds[0] > bounds[1]):
                    raise TaskError(f"{where}: field '{label}.params.{name}': expected "
                                    "{int: [low, high]} with 0 < low <= high")
            elif "choice" not in spec or not spec["choice"]:
                raise TaskError(f"{where}: field '{label}.params.{name}': expected "
                                "{int: [low, high]}, {choice: [...]} or a constant")
    spec = DrawSpec(count, dict(params), raw.get("where"))
    try:
        spec.draw(random.Random(0))
    except TaskError:
        raise
    except Exception as exc:
        raise TaskError(f"{where}: field '{label}.where': cannot be evaluated: {exc}") from None
    return spec


def draw_configs(spec: DrawSpec | None, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """(name, params) of the configurations drawn with `seed`."""
    if spec is None:
        return []
    rng = random.Random(f"held-out-draw:{seed}")
    named = []
    for index, params in enumerate(spec.draw(rng)):
        label = "-".join(f"{k}{v}" if k != "dtype" else str(v) for k, v in params.items())
        named.append((f"draw{index}-{label}", params))
    return named
