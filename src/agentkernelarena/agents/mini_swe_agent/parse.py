"""Reading mini-swe-agent's trajectory (format mini-swe-agent-1.1).

`info.exit_status` is "Submitted" when the agent finished, "LimitsExceeded" at its step or cost
limit, and otherwise the name of the exception that stopped it (AuthenticationError,
RateLimitError, ContextWindowExceededError, ...) with the message in `info.submission`. Token
counts come from each assistant message's recorded API response.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentkernelarena.agents.cli_agent import Parsed

FINISHED = ("Submitted", "LimitsExceeded")


def parse_trajectory(path: Path) -> Parsed:
    if not path.is_file():
        return Parsed(succeeded=False, errors=[f"no trajectory written ({path.name} missing)"])
    try:
        traj = json.loads(path.read_text(errors="replace"))
    except json.JSONDecodeError as exc:
        return Parsed(succeeded=False, errors=[f"trajectory is not JSON: {exc}"])
    info = traj.get("info") or {}
    stats = info.get("model_stats") or {}
    tokens_in = tokens_out = tokens_cached = 0
    model = None
    for message in traj.get("messages") or []:
        response = ((message.get("extra") or {}).get("response")) or {}
        usage = response.get("usage") or {}
        model = response.get("model") or model
        tokens_in += int(usage.get("prompt_tokens") or 0)
        tokens_out += int(usage.get("completion_tokens") or 0)
        tokens_cached += int((usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0)
    status = str(info.get("exit_status"))
    errors = [] if status in FINISHED else [f"{status}: {info.get('submission') or ''}"]
    cost = stats.get("instance_cost")
    details: dict[str, Any] = {"exit_status": status, "mini_version": info.get("mini_version")}
    return Parsed(succeeded=status in FINISHED, turns=stats.get("api_calls"),
                  tokens_in=tokens_in, tokens_out=tokens_out, tokens_cached=tokens_cached,
                  cost_usd=float(cost) if cost else None, model=model, errors=errors,
                  details=details)
