"""Reading Cursor Agent's stream-json: `system/init`, `assistant`, `tool_call`, then `result`.

The final `result` event carries `usage` (input, output, cache read and write tokens). Key
spellings differ between releases (camelCase and snake_case), so both are read. `turns` counts
tool calls plus the final answer; the cost is priced by the harness.
"""

from __future__ import annotations

from typing import Any

from agentkernelarena.agents.cli_agent import Parsed, json_lines


def _first(mapping: dict[str, Any], *keys: str) -> int:
    for key in keys:
        if mapping.get(key) is not None:
            return int(mapping[key])
    return 0


def parse_stream(text: str) -> Parsed:
    events, garbage = json_lines(text)
    init = next((e for e in events if e.get("type") == "system"), {})
    result = next((e for e in reversed(events) if e.get("type") == "result"), None)
    tool_calls = sum(1 for e in events
                     if e.get("type") == "tool_call" and e.get("subtype") == "started")
    details: dict[str, Any] = {"events": len(events), "unparsed_lines": garbage,
                               "tool_calls": tool_calls}
    errors = [str(e.get("message") or e.get("error")) for e in events
              if e.get("type") == "error"][-3:]
    if result is None:
        errors.append(f"no result event in the output ({len(events)} events, {garbage} lines "
                      "that were not JSON)")
        return Parsed(succeeded=False, model=init.get("model"), errors=errors, details=details)
    usage = result.get("usage") or {}
    tokens_in = _first(usage, "inputTokens", "input_tokens")
    cache_read = _first(usage, "cacheReadTokens", "cache_read_tokens", "cache_read_input_tokens")
    cache_write = _first(usage, "cacheWriteTokens", "cache_write_tokens",
                         "cache_creation_input_tokens")
    is_error = bool(result.get("is_error")) or result.get("subtype") not in (None, "success")
    if is_error:
        errors.append(str(result.get("result") or result.get("error") or result.get("subtype")))
    details["session_id"] = result.get("session_id")
    details["duration_ms"] = result.get("duration_ms")
    return Parsed(succeeded=not is_error, turns=tool_calls + 1,
                  tokens_in=tokens_in + cache_read + cache_write if usage else None,
                  tokens_out=_first(usage, "outputTokens", "output_tokens") if usage else None,
                  tokens_cached=cache_read if usage else None, model=init.get("model"),
                  errors=errors, details=details)
