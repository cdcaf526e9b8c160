"""`openai_compat`: the arena's own agent for any OpenAI-compatible chat-completions endpoint
(a local vLLM or SGLang server, a hosted API, a proxy).

It measures a *model* under the same conditions as the CLI agents, without a vendor CLI: a
bounded loop of chat turns with four tools (read_file, write_file, run_check, finish). It runs in
the arena's process, so its deadline is checked between turns and bounds every HTTP call.
"""

from __future__ import annotations

import ipaddress
import json
import os
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

from agentkernelarena.agents.base import (
    COST_FROM_HARNESS,
    OK,
    TIMED_OUT,
    AgentOutcome,
    AgentRun,
    BaseAgent,
    DoctorReport,
)
from agentkernelarena.agents.openai_compat.client import ApiError, ChatClient
from agentkernelarena.agents.openai_compat.tools import SCHEMAS, Tools, listing
from agentkernelarena.agents.pricing import find_price, price_tokens
from agentkernelarena.agents.registry import register_agent
from agentkernelarena.errors import AkaError

SYSTEM = """You are an expert GPU kernel engineer working in a folder of files.
Use the tools: read_file and write_file (paths relative to the folder), run_check (compiles,
checks and times your current version), and finish when the folder holds your final version.
Files in the folder:
{files}"""
NUDGE = "Continue with a tool call; call finish when the folder holds your final version."


@dataclass
class OpenAICompatSettings:
    model: str = ""
    base_url: str = ""  # e.g. http://127.0.0.1:8000/v1; default $OPENAI_BASE_URL
    api_key_env: str = "OPENAI_API_KEY"
    max_turns: int = 30
    max_tokens: int = 8192
    temperature: float | None = None
    request_timeout_s: float = 600.0
    price_in: float | None = None  # USD per 1M tokens, for endpoints the table does not know
    price_out: float | None = None
    price_cached: float | None = None


def _is_local(url: str) -> bool:
    host = urllib.parse.urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@register_agent("openai_compat")
class OpenAICompatAgent(BaseAgent):
    """Any OpenAI-compatible chat-completions endpoint, with file and check tools."""

    name = "openai_compat"
    Settings = OpenAICompatSettings
    in_process = True

    def __init__(self, settings: OpenAICompatSettings) -> None:
        self.settings = settings

    @property
    def base_url(self) -> str:
        return self.settings.base_url or os.environ.get("OPENAI_BASE_URL", "")

    def validate(self) -> None:
        if not self.settings.model or not self.base_url:
            raise AkaError("agent openai_compat needs a model and a base URL",
                           "pass --agent-arg base_url=http://127.0.0.1:8000/v1 "
                           "--agent-arg model=NAME")

    def run(self, run: AgentRun) -> AgentOutcome:
        settings = self.settings
        started = time.monotonic()
        client = ChatClient(self.base_url, os.environ.get(settings.api_key_env),
                            timeout_s=settings.request_timeout_s)
        tools = Tools(run.workspace, run.check)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM.format(files=listing(run.workspace))},
            {"role": "user", "content": run.prompt}]
        run.out_dir.mkdir(parents=True, exist_ok=True)
        transcript = run.out_dir / "transcript.jsonl"
        totals = {"in": 0, "out": 0, "cached": 0}
        turns, failure, message = 0, OK, ""
        with open(transcript, "w") as log:
            while tools.finished is None:
                if turns >= settings.max_turns:
                    message = f"stopped at the turn limit ({settings.max_turns})"
                    break
                if run.time_left() <= 0:
                    failure, message = TIMED_OUT, "stopped at the trial's time limit"
                    break
                body: dict[str, Any] = {"model": settings.model, "messages": messages,
                                        "tools": SCHEMAS, "max_tokens": settings.max_tokens}
                if settings.temperature is not None:
                    body["temperature"] = settings.temperature
                try:
                    reply = client.complete(body, run.deadline)
                except ApiError as exc:
                    failure, message = exc.failure, exc.message
                    log.write(json.dumps({"error": exc.message, "failure": exc.failure}) + "\n")
                    break
                turns += 1
                usage = reply.get("usage") or {}
                totals["in"] += int(usage.get("prompt_tokens") or 0)
                totals["out"] += int(usage.get("completion_tokens") or 0)
                totals["cached"] += int((usage.get("prompt_tokens_details") or {})
                                        .get("cached_tokens") or 0)
                assistant = reply["choices"][0]["message"]
                log.write(json.dumps({"turn": turns, "reply": assistant, "usage": usage}) + "\n")
                messages.append({k: v for k, v in assistant.items()
                                 if k in ("role", "content", "tool_calls")})
                calls = assistant.get("tool_calls") or []
                if not calls:
                    messages.append({"role": "user", "content": NUDGE})
                    continue
                for call in calls:
                    function = call.get("function") or {}
                    result = tools.call(str(function.get("name")),
                                        str(function.get("arguments") or "{}"))
                    log.write(json.dumps({"tool": function.get("name"), "result": result[:4000]})
                              + "\n")
                    messages.append({"role": "tool", "tool_call_id": call.get("id", ""),
                                     "content": result})
                log.flush()
        outcome = AgentOutcome(
            agent=self.name, failure=failure, exit_code=0 if failure == OK else 1,
            wall_s=round(time.monotonic() - started, 3), turns=turns, tokens_in=totals["in"],
            tokens_out=totals["out"], tokens_cached=totals["cached"], model=settings.model,
            transcript=str(transcript), message=message,
            details={"finished": tools.finished is not None, "summary": tools.finished,
                     "writes": tools.writes, "checks": tools.checks})
        price = find_price(settings.model, (settings.price_in, settings.price_out,
                                            settings.price_cached))
        if price is not None:
            outcome.cost_usd = price_tokens(price, totals["in"], totals["out"], totals["cached"])
            outcome.cost_source = COST_FROM_HARNESS
        return outcome

    def doctor(self) -> DoctorReport:
        report = DoctorReport(agent=self.name, installed=True, version="built in",
                              executable=None)
        if not self.base_url:
            report.problem("no endpoint configured",
                           "pass --agent-arg base_url=http://HOST:PORT/v1 (or set OPENAI_BASE_URL)"
                           " and --agent-arg model=NAME")
            report.authenticated = None
        elif os.environ.get(self.settings.api_key_env):
            report.authenticated = True
        elif _is_local(self.base_url):
            report.authenticated = None  # local servers usually need no key
        else:
            report.authenticated = False
            report.problem(f"{self.settings.api_key_env} is not set",
                           f"export {self.settings.api_key_env}, or name another variable with "
                           "--agent-arg api_key_env=NAME")
        return report
