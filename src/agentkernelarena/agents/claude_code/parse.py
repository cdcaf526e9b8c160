"""Reading Claude Code's stream-json: the last line is the `result` event with the totals.

Its `usage.input_tokens` excludes cache reads and writes; the arena's `tokens_in` counts every
prompt token, so the three are added. The cost is the CLI's own (`total_cost_usd`).
"""

from __future__ import annotations

import json
from typing import Any

from agentkernelarena.agents.base import NOT_AUTHENTICATED
from agentkernelarena.agents.cli_agent import Parsed, json_lines

AUTH_STATUSES = (401, 403)


def parse_stream(text: str) -> Parsed:
    events, garbage = json_lines(text)
    init = next((e for e in events if e.get("type") == "system" and e.get("subtype") == "init"),
                {})
    result = next((e for e in reversed(events) if e.get("type") == "result"), None)
    errors = [f"API error {e.get('error_status')}: {e.get('error')}" for e in events
              if e.get("type") == "system" and e.get("subtype") == "api_retry"][-3:]
    details: dict[str, Any] = {"events": len(events), "unparsed_lines": garbage}
    if result is None:
        errors.append(f"no result event in the output ({len(events)} events, {garbage} lines "
                      "that were not JSON)")
        return Parsed(succeeded=False, model=init.get("model"), errors=errors, details=details)
    usage = result.get("usage") or {}
    cache_read = int(usage.get("cache_read_input_tokens") or 0)
    tokens_in = (int(usage.get("input_tokens") or 0) + cache_read
                 + int(usage.get("cache_creation_input_tokens") or 0))
    is_error = bool(result.get("is_error")) or result.get("subtype") != "success"
    if is_error:
        errors.append(str(result.get("result") or result.get("subtype")))
        if result.get("api_error_status"):
            errors.append(f"API status {result['api_error_status']}")
    denials = result.get("permission_denials") or []
    if denials:
        details["permission_denials"] = denials[:20]
    details["session_id"] = result.get("session_id")
    model_usage = result.get("modelUsage") or {}
    model = init.get("model") or (next(iter(model_usage)) if model_usage else None)
    cost = result.get("total_cost_usd")
    return Parsed(succeeded=not is_error, turns=result.get("num_turns"), tokens_in=tokens_in,
                  tokens_out=int(usage.get("output_tokens") or 0), tokens_cached=cache_read,
                  cost_usd=float(cost) if cost is not None else None, model=model,
                  errors=errors, details=details)


def watch_line(line: str, auth_hint: str) -> tuple[str, str] | None:
    """Stop a run that keeps retrying a rejected key (Claude Code backs off for minutes)."""
    if '"api_retry"' not in line:
        return None
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        return None
    if event.get("error_status") in AUTH_STATUSES and int(event.get("attempt") or 0) >= 2:
        return (NOT_AUTHENTICATED, f"the model API answered {event['error_status']} "
                f"({event.get('error')}) to every attempt: {auth_hint}")
    return None
