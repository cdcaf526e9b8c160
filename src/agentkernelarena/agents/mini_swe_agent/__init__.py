"""mini-swe-agent (`pip install mini-swe-agent`): a small bash-only agent over litellm."""

from __future__ import annotations

import os
import re
import subprocess

from agentkernelarena.agents.base import AgentRun, DoctorReport
from agentkernelarena.agents.cli_agent import CliAgent, Parsed
from agentkernelarena.agents.mini_swe_agent.command import (
    TRAJECTORY,
    MiniSweAgentSettings,
    build_command,
)
from agentkernelarena.agents.mini_swe_agent.parse import parse_trajectory
from agentkernelarena.agents.process import Command, ProcessResult
from agentkernelarena.agents.registry import register_agent
from agentkernelarena.errors import AkaError

# litellm provider prefix -> the key it reads.
PROVIDER_KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY",
                 "gemini": "GEMINI_API_KEY", "openrouter": "OPENROUTER_API_KEY",
                 "deepseek": "DEEPSEEK_API_KEY", "together_ai": "TOGETHERAI_API_KEY"}


@register_agent("mini_swe_agent")
class MiniSweAgent(CliAgent):
    """SWE-agent's minimal agent, `mini`."""

    name = "mini_swe_agent"
    Settings = MiniSweAgentSettings
    executables = ("mini",)
    install_hint = ("pip install mini-swe-agent (scripts/install-agent-clis.sh pins it), "
                    "or pass --agent-arg executable=PATH")
    auth_hint = "export the API key of the model's provider (OPENAI_API_KEY for openai/...)"

    def build_command(self, executable: str, run: AgentRun) -> Command:
        return build_command(self.settings, executable, run.prompt, run.out_dir)

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        parsed = parse_trajectory(run.out_dir / TRAJECTORY)
        parsed.details["console"] = str(result.stdout_path)
        if (run.out_dir / TRAJECTORY).is_file():
            parsed.transcript = str(run.out_dir / TRAJECTORY)
        return parsed

    def validate(self) -> None:
        if not self.settings.model:
            raise AkaError("agent mini_swe_agent needs a model",
                           "pass --agent-arg model=openai/gpt-5-mini (any litellm model name)")

    def version(self, exe: str) -> str | None:
        try:
            out = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=60,
                                 stdin=subprocess.DEVNULL, env={**os.environ,
                                                                "MSWEA_CONFIGURED": "true"})
        except (OSError, subprocess.SubprocessError):
            return None
        found = re.search(r"version (\S+?)\.?\s", out.stdout + out.stderr)
        return found.group(1) if found else None

    def doctor_auth(self, report: DoctorReport) -> None:
        model = self.settings.model
        if not model:
            report.authenticated = None
            report.problem("no model chosen", "pass --agent-arg model=openai/gpt-5-mini "
                           "(any litellm model name)")
            return
        key = PROVIDER_KEYS.get(model.split("/", 1)[0])
        if key is None or self.settings.base_url:
            report.authenticated = None
        elif os.environ.get(key):
            report.authenticated = True
        else:
            report.authenticated = False
            report.problem(f"{key} is not set (model {model})", f"export {key}")
