"""Pricing tokens when an agent program reports none (Codex, Cursor, local endpoints).

The trial records who produced a cost figure (`cost_source`: the agent itself, or the harness
from this table) because the two are not equally trustworthy: the table is a list price per
million tokens, ignoring discounts, batch rates and cache-write premiums. Prices are USD per
million tokens (input, output, cached input), matched by the longest model-name prefix after
any provider prefix ("openai/", "anthropic/") is dropped. Override per agent with the settings
`price_in`, `price_out`, `price_cached`, or add models with AKA_PRICES (a JSON file of
{"model-prefix": [in, out, cached]}).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

# Public list prices (USD / 1M tokens), checked 2025; extend through AKA_PRICES.
PRICES: dict[str, tuple[float, float, float]] = {
    "claude-opus-4-5": (5.0, 25.0, 0.50),
    "claude-opus-4": (15.0, 75.0, 1.50),
    "claude-sonnet-4": (3.0, 15.0, 0.30),
    "claude-3-7-sonnet": (3.0, 15.0, 0.30),
    "claude-3-5-sonnet": (3.0, 15.0, 0.30),
    "claude-haiku-4": (1.0, 5.0, 0.10),
    "claude-3-5-haiku": (0.80, 4.0, 0.08),
    "gpt-5-nano": (0.05, 0.40, 0.005),
    "gpt-5-mini": (0.25, 2.0, 0.025),
    "gpt-5": (1.25, 10.0, 0.125),
    "gpt-4.1-nano": (0.10, 0.40, 0.025),
    "gpt-4.1-mini": (0.40, 1.60, 0.10),
    "gpt-4.1": (2.0, 8.0, 0.50),
    "gpt-4o-mini": (0.15, 0.60, 0.075),
    "gpt-4o": (2.50, 10.0, 1.25),
    "o4-mini": (1.10, 4.40, 0.275),
    "o3-mini": (1.10, 4.40, 0.55),
    "o3": (2.0, 8.0, 0.50),
}


@dataclass
class Price:
    model: str
    per_mtok_in: float
    per_mtok_out: float
    per_mtok_cached: float
    source: str  # "table" or "settings"


def _table() -> dict[str, tuple[float, float, float]]:
    table = dict(PRICES)
    path = os.environ.get("AKA_PRICES")
    if path:
        with open(path) as fh:
            extra = json.load(fh)
        table.update({k: tuple(float(x) for x in v) for k, v in extra.items()})  # type: ignore[misc]
    return table


def find_price(model: str | None, override: tuple[float | None, float | None, float | None]
               = (None, None, None)) -> Price | None:
    """The price for `model`, or the settings' override; None when neither knows it."""
    price_in, price_out, price_cached = override
    if price_in is not None and price_out is not None:
        return Price(model or "?", price_in, price_out,
                     price_cached if price_cached is not None else price_in, "settings")
    if not model:
        return None
    name = model.lower().rsplit("/", 1)[-1]
    table = _table()
    matches = [k for k in table if name.startswith(k)]
    if not matches:
        return None
    key = max(matches, key=len)
    return Price(model, *table[key], source="table")


def price_tokens(price: Price, tokens_in: int, tokens_out: int, tokens_cached: int) -> float:
    """Cost in USD; `tokens_in` includes the cached ones, charged at the cached rate."""
    fresh = max(0, tokens_in - tokens_cached)
    cost = (fresh * price.per_mtok_in + tokens_cached * price.per_mtok_cached
            + tokens_out * price.per_mtok_out) / 1e6
    return round(cost, 6)
