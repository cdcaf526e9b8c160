"""Reading `codex exec --json`: usage comes summed per turn in `turn.completed`.

Codex reports no cost and no turn count. `turns` here counts the model's actions (commands,
file changes, tool calls, messages), the nearest thing to Claude Code's `num_turns`; the cost is
priced by the harness (see pricing.py). `input_tokens` already includes the cached ones.
"""

from __future__ import annotations

from typing import Any

from agentkernelarena.agents.cli_agent import Parsed, json_lines

ACTION_ITEMS = ("command_execution", "file_change", "mcp_tool_call", "web_search",
                "agent_message", "todo_list")


def parse_stream(text: str) -> Parsed:
    events, garbage = json_lines(text)
    completed = [e for e in events if e.get("type") == "turn.completed"]
    failed = [e for e in events if e.get("type") == "turn.failed"]
    tokens_in = tokens_out = tokens_cached = reasoning = 0
    for event in completed:
        usage = event.get("usage") or {}
        tokens_in += int(usage.get("input_tokens") or 0)
        tokens_cached += int(usage.get("cached_input_tokens") or 0)
        tokens_out += int(usage.get("output_tokens") or 0)
        reasoning += int(usage.get("reasoning_output_tokens") or 0)
    items = [e.get("item") or {} for e in events if e.get("type") == "item.completed"]
    actions = [i for i in items if i.get("type") in ACTION_ITEMS]
    warnings = [str(i.get("message")) for i in items if i.get("type") == "error"]
    errors = [str((e.get("error") or {}).get("message")) for e in failed]
    errors += [str(e.get("message")) for e in events if e.get("type") == "error"][-3:]
    details: dict[str, Any] = {"events": len(events), "unparsed_lines": garbage,
                               "reasoning_tokens": reasoning, "warnings": warnings[:10],
                               "commands": sum(1 for i in actions
                                               if i.get("type") == "command_execution")}
    thread = next((e.get("thread_id") for e in events if e.get("type") == "thread.started"), None)
    details["thread_id"] = thread
    if not completed and not failed:
        errors.append(f"no turn.completed event in the output ({len(events)} events, "
                      f"{garbage} lines that were not JSON)")
    have_usage = bool(completed)
    return Parsed(succeeded=bool(completed) and not failed, turns=len(actions) or None,
                  tokens_in=tokens_in if have_usage else None,
                  tokens_out=tokens_out if have_usage else None,
                  tokens_cached=tokens_cached if have_usage else None,
                  errors=errors, details=details)
