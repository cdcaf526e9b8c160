"""Cursor Agent (`cursor-agent`), run headless with stream-json output."""

from __future__ import annotations

import os

from agentkernelarena.agents.base import AgentRun, DoctorReport
from agentkernelarena.agents.cli_agent import CliAgent, Parsed
from agentkernelarena.agents.cursor.command import CursorSettings, build_command, config_files
from agentkernelarena.agents.cursor.parse import parse_stream
from agentkernelarena.agents.process import Command, ProcessResult
from agentkernelarena.agents.registry import register_agent


@register_agent("cursor")
class CursorAgent(CliAgent):
    """Cursor's command-line agent."""

    name = "cursor"
    Settings = CursorSettings
    executables = ("cursor-agent",)
    install_hint = ("install Cursor's CLI with Cursor's own installer (see Cursor's docs), "
                    "or pass --agent-arg executable=PATH")
    auth_hint = "export CURSOR_API_KEY, or run `cursor-agent login`"

    def build_command(self, executable: str, run: AgentRun) -> Command:
        return build_command(self.settings, executable, run.prompt)

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        return parse_stream(result.stdout())

    def doctor_auth(self, report: DoctorReport) -> None:
        if os.environ.get("CURSOR_API_KEY"):
            report.authenticated = True
        elif config_files():
            report.authenticated = None  # logged in once; the token may have expired
        else:
            report.authenticated = False
            report.problem("no Cursor credentials (no CURSOR_API_KEY, no login)", self.auth_hint)
