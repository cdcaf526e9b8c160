"""OpenAI's Codex CLI (`npm install @openai/codex`), run as `codex exec --json`."""

from __future__ import annotations

import os

from agentkernelarena.agents.base import AgentRun, DoctorReport
from agentkernelarena.agents.cli_agent import CliAgent, Parsed
from agentkernelarena.agents.codex.command import (
    CodexSettings,
    build_command,
    codex_home,
)
from agentkernelarena.agents.codex.parse import parse_stream
from agentkernelarena.agents.process import Command, ProcessResult
from agentkernelarena.agents.registry import register_agent


@register_agent("codex")
class CodexAgent(CliAgent):
    """OpenAI's Codex CLI."""

    name = "codex"
    Settings = CodexSettings
    executables = ("codex",)
    install_hint = ("npm install -g @openai/codex (or scripts/install-agent-clis.sh), "
                    "or pass --agent-arg executable=PATH")
    auth_hint = ("export OPENAI_API_KEY (or CODEX_API_KEY), or run `codex login`; for another "
                 "provider, the env_key its [model_providers] entry in config.toml names")

    def build_command(self, executable: str, run: AgentRun) -> Command:
        return build_command(self.settings, executable, run.prompt)

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        return parse_stream(result.stdout())

    def model_name(self) -> str | None:
        if self.settings.model:
            return self.settings.model
        config = codex_home(self.settings) / "config.toml"
        if config.is_file():
            for line in config.read_text(errors="replace").splitlines():
                key, _, value = line.partition("=")
                if key.strip() == "model":
                    return value.strip().strip('"')
                if line.strip().startswith("["):
                    break
        return None

    def doctor_auth(self, report: DoctorReport) -> None:
        home = codex_home(self.settings)
        if os.environ.get("OPENAI_API_KEY") or os.environ.get("CODEX_API_KEY") or \
                (home / "auth.json").is_file():
            report.authenticated = True
            return
        config = home / "config.toml"
        if config.is_file() and "[model_providers." in config.read_text(errors="replace"):
            report.authenticated = None  # a custom provider: its env_key decides
            return
        report.authenticated = False
        report.problem(f"no OpenAI credentials (no OPENAI_API_KEY, no {home}/auth.json)",
                       self.auth_hint)
