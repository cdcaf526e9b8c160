"""`command`: any shell command, run in the workspace (`--agent-arg cmd='...'`).

The one place a shell string is run, because the user wrote one: it goes to `/bin/sh -c` as a
single argv element, never interpolated with anything of the arena's. The command gets the
prompt as $AKA_PROMPT (and in the file $AKA_PROMPT_FILE), the iteration as $AKA_ITERATION of
$AKA_MAX_ITERATIONS, and the local check as ./check. Exit status 0 is success.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agentkernelarena.agents.base import AgentRun, DoctorReport
from agentkernelarena.agents.cli_agent import CliAgent, Parsed
from agentkernelarena.agents.process import Command, ProcessResult
from agentkernelarena.agents.registry import register_agent
from agentkernelarena.errors import AkaError

PROMPT_FILE = "prompt.md"


def run_env(run: AgentRun) -> dict[str, str]:
    """What a program agent learns of its run through the environment."""
    return {"AKA_PROMPT": run.prompt, "AKA_PROMPT_FILE": str(run.out_dir / PROMPT_FILE),
            "AKA_ITERATION": str(run.iteration), "AKA_MAX_ITERATIONS": str(run.max_iterations),
            "AKA_WORKSPACE": str(run.workspace), "AKA_TASK_ID": run.task.id,
            "AKA_TIME_LEFT_S": f"{max(0.0, run.time_left()):.0f}"}


def prompt_file(run: AgentRun) -> Path:
    path = run.out_dir / PROMPT_FILE
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(run.prompt)
    return path


@dataclass
class CommandSettings:
    cmd: str = ""
    shell: str = "/bin/sh"


@register_agent("command")
class CommandAgent(CliAgent):
    """Runs --agent-arg cmd='...' in the workspace."""

    name = "command"
    Settings = CommandSettings
    executables = ("sh",)
    install_hint = "pass --agent-arg shell=PATH to a shell that exists"

    def validate(self) -> None:
        if not self.settings.cmd.strip():
            raise AkaError("agent command needs a command",
                           "pass --agent-arg cmd='python my_optimizer.py'")

    def executable(self) -> str | None:
        return self.settings.shell if Path(self.settings.shell).is_file() else None

    def build_command(self, executable: str, run: AgentRun) -> Command:
        return Command(argv=[executable, "-c", self.settings.cmd], env=run_env(run),
                       ro_paths=[prompt_file(run)], transcript_name="stdout.log")

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        return Parsed(succeeded=result.returncode == 0)

    def doctor(self) -> DoctorReport:
        report = DoctorReport(agent=self.name, installed=self.executable() is not None,
                              authenticated=True, executable=self.settings.shell)
        if not report.installed:
            report.problem(f"{self.settings.shell} does not exist", self.install_hint)
        return report
