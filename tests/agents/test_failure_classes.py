"""Failure classification and pricing: what a run report says to fix, and who priced it."""

from __future__ import annotations

import json

import pytest

from agentkernelarena.agents.base import (
    CONTEXT_OVERFLOW,
    CRASHED,
    NOT_AUTHENTICATED,
    OK,
    RATE_LIMITED,
    TIMED_OUT,
    AgentOutcome,
)
from agentkernelarena.agents.classify import classify, match_failure
from agentkernelarena.agents.pricing import find_price, price_tokens


@pytest.mark.parametrize("text, expected", [
    ("unexpected status 401 Unauthorized: invalid x-api-key", NOT_AUTHENTICATED),
    ("API error 401: authentication_failed", NOT_AUTHENTICATED),
    ("AuthenticationError: litellm.AuthenticationError: OpenAIException", NOT_AUTHENTICATED),
    ("Invalid API key · Please run /login", NOT_AUTHENTICATED),
    ("exceeded retry limit, last status: 429 Too Many Requests", RATE_LIMITED),
    ("RateLimitError: rate_limit_exceeded", RATE_LIMITED),
    ("Error code: 400 - context_length_exceeded", CONTEXT_OVERFLOW),
    ("Codex ran out of room in the model's context window.", CONTEXT_OVERFLOW),
    ("Prompt is too long · the request is ~300000 tokens", CONTEXT_OVERFLOW),
    ("ContextWindowExceededError: too long", CONTEXT_OVERFLOW),
    ('File "x.py", line 401, in f\nValueError: bad', None),  # a 401 that is not a status
    ("Segmentation fault", None),
])
def test_error_patterns(text, expected):
    assert match_failure(text) == expected


def test_classify_precedence_and_messages():
    # The deadline wins over anything printed.
    failure, message = classify(exit_code=None, timed_out=True, succeeded=False,
                                error_text="401 Unauthorized", time_limit_s=60)
    assert failure == TIMED_OUT and "60 s" in message
    # A successful run is ok even if its transcript mentions a rate limit.
    assert classify(exit_code=0, timed_out=False, succeeded=True,
                    error_text="rate limit")[0] == OK
    failure, message = classify(exit_code=1, timed_out=False, succeeded=False,
                                error_text="status: 401", auth_hint="export KEY")
    assert failure == NOT_AUTHENTICATED and "export KEY" in message
    failure, message = classify(exit_code=139, timed_out=False, succeeded=False,
                                error_text="Segmentation fault", program="claude")
    assert failure == CRASHED and "status 139" in message and "Segmentation" in message
    failure, message = classify(exit_code=0, timed_out=False, succeeded=False, error_text="")
    assert failure == CRASHED and "without a usable result" in message


def test_outcome_rejects_unknown_failure_class():
    with pytest.raises(ValueError):
        AgentOutcome(agent="x", failure="exploded")
    assert json.dumps(AgentOutcome(agent="x").to_json())


def test_prices_by_longest_prefix_and_provider_prefix():
    mini = find_price("openai/gpt-5-mini-2025-08-07")
    assert mini is not None and mini.per_mtok_in == 0.25 and mini.source == "table"
    assert find_price("gpt-5").per_mtok_out == 10.0
    assert find_price("my-local-llama") is None
    custom = find_price("my-local-llama", (1.0, 2.0, None))
    assert custom.source == "settings" and custom.per_mtok_cached == 1.0
    # 1M prompt tokens of which 200k cached, 100k out, at gpt-5 prices.
    cost = price_tokens(find_price("gpt-5"), 1_000_000, 100_000, 200_000)
    assert cost == pytest.approx(0.8 * 1.25 + 0.2 * 0.125 + 0.1 * 10.0)


def test_prices_from_a_file(tmp_path, monkeypatch):
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({"my-local-llama": [0.1, 0.2, 0.05]}))
    monkeypatch.setenv("AKA_PRICES", str(path))
    assert find_price("my-local-llama-70b").per_mtok_out == 0.2
