"""Claude Code (`npm install @anthropic-ai/claude-code`), run headless with stream-json output."""

from __future__ import annotations

import os
from functools import partial

from agentkernelarena.agents.base import AgentRun, DoctorReport
from agentkernelarena.agents.claude_code.command import (
    ClaudeCodeSettings,
    build_command,
    credential_files,
)
from agentkernelarena.agents.claude_code.parse import parse_stream, watch_line
from agentkernelarena.agents.cli_agent import CliAgent, Parsed
from agentkernelarena.agents.process import Command, ProcessResult
from agentkernelarena.agents.registry import register_agent
from agentkernelarena.errors import AkaError

AUTH_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
            "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX")


@register_agent("claude_code")
class ClaudeCodeAgent(CliAgent):
    """Anthropic's Claude Code CLI."""

    name = "claude_code"
    Settings = ClaudeCodeSettings
    executables = ("claude",)
    install_hint = ("npm install -g @anthropic-ai/claude-code (or scripts/install-agent-clis.sh), "
                    "or pass --agent-arg executable=PATH")
    auth_hint = ("export ANTHROPIC_API_KEY, or run `claude` once and /login "
                 "(`claude setup-token` gives a CLAUDE_CODE_OAUTH_TOKEN for headless machines)")

    def validate(self) -> None:
        if self.settings.permission not in ("tools", "bypass"):
            raise AkaError(f"agent claude_code: permission={self.settings.permission!r}",
                           "use permission=tools (allowed_tools) or permission=bypass")

    def build_command(self, executable: str, run: AgentRun) -> Command:
        command = build_command(self.settings, executable, run.prompt)
        command.watch = partial(watch_line, auth_hint=self.auth_hint)
        return command

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        return parse_stream(result.stdout())

    def doctor_auth(self, report: DoctorReport) -> None:
        if any(os.environ.get(k) for k in AUTH_ENV) or credential_files():
            report.authenticated = True
            return
        report.authenticated = False
        report.problem("no Anthropic credentials (no ANTHROPIC_API_KEY, no ~/.claude login)",
                       self.auth_hint)
