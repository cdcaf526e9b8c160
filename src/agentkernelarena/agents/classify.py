"""Failure classes from what an agent program left behind (exit status, errors it printed).

A run report should say *what to fix*: a missing CLI, a bad key, a rate limit, a context window,
the time limit, or a crash. The patterns below are the error texts the major model APIs and
agent CLIs print for each; they are only consulted when the run did not succeed, because a
successful transcript can mention "429" or "context" in passing.
"""

from __future__ import annotations

import re

from agentkernelarena.agents.base import (
    CONTEXT_OVERFLOW,
    CRASHED,
    NOT_AUTHENTICATED,
    OK,
    RATE_LIMITED,
    TIMED_OUT,
)

PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (NOT_AUTHENTICATED, re.compile(
        r"invalid[ _-]?(x-)?api[ _-]?key|authentication[ _-]?(error|failed)|unauthori[sz]ed|"
        r"(status|code)\W{0,3}401\b|\b401 unauthori|"
        r"\b403\b.*(forbidden|permission)|not logged in|please run /login|please log ?in|"
        r"missing (an )?api key|api key (is )?(not set|missing|required)|no api key|"
        r"invalid bearer token|incorrect api key|OAuth token has expired|"
        r"(OPENAI|ANTHROPIC|CURSOR)_API_KEY.*(not set|missing|required)|"
        r"authentication (failed|required)", re.I)),
    (RATE_LIMITED, re.compile(
        r"rate[ _-]?limit|(status|code)\W{0,3}429\b|too many requests|quota exceeded|"
        r"insufficient_quota|exceeded your current quota|usage limit|overloaded_error", re.I)),
    (CONTEXT_OVERFLOW, re.compile(
        r"context[ _-]length[ _-]exceeded|maximum context length|prompt is too long|"
        r"context window|input is too long|out of room in the model|too many tokens|"
        r"ContextWindowExceeded|exceeds the model's context", re.I)),
]

FIXES = {
    NOT_AUTHENTICATED: "the model API rejected the agent's credentials: {auth_hint}",
    RATE_LIMITED: "the model API rate-limited the agent: run fewer agents at once, raise the "
                  "account's limits, or retry later",
    CONTEXT_OVERFLOW: "the conversation outgrew the model's context window: use a model with a "
                      "larger window or lower the agent's turn limit",
    TIMED_OUT: "the agent was stopped at the trial's time limit ({limit}); its workspace was "
               "still evaluated",
}


def match_failure(text: str) -> str | None:
    """The failure class whose error pattern `text` matches first, if any."""
    for failure, pattern in PATTERNS:
        if pattern.search(text):
            return failure
    return None


def classify(*, exit_code: int | None, timed_out: bool, succeeded: bool, error_text: str,
             auth_hint: str = "check its API key or log in", time_limit_s: float | None = None,
             program: str = "the agent") -> tuple[str, str]:
    """(failure class, message) for one finished run.

    `succeeded`: the program's own verdict (exit 0 and a result that is not an error).
    `error_text`: whatever error messages it printed (stderr tail, error events).
    """
    if timed_out:
        limit = f"{time_limit_s:.0f} s" if time_limit_s else "its deadline"
        return TIMED_OUT, FIXES[TIMED_OUT].format(limit=limit)
    if succeeded:
        return OK, ""
    failure = match_failure(error_text)
    excerpt = _excerpt(error_text)
    if failure is not None:
        return failure, FIXES[failure].format(auth_hint=auth_hint) + (
            f" ({excerpt})" if excerpt else "")
    how = f"exited with status {exit_code}" if exit_code not in (None, 0) else \
        "ended without a usable result"
    return CRASHED, f"{program} {how}" + (f": {excerpt}" if excerpt else "")


def _excerpt(text: str, limit: int = 400) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    joined = " | ".join(lines[-4:])
    return joined if len(joined) <= limit else "..." + joined[-limit:]


__all__ = ["OK", "classify", "match_failure"]
