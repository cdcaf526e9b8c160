"""`geak`: an external kernel optimizer (AMD's GEAK, or any other) through a command template.

The template is split like a shell would split it *before* the placeholders are filled in, so a
path or prompt with spaces or quotes stays one argument and is never interpreted by a shell:

    --agent-arg template='geak-agent {entry_file} --test ./check --no-confirm'

Placeholders: {workspace} {entry_file} {editable} {prompt} {prompt_file} {out_dir} {task_id}
{model} {iteration} {max_iterations}. If the tool writes a JSON usage record (keys tokens_in,
tokens_out, tokens_cached, cost_usd, turns) name it with `usage_file` (relative to {out_dir}).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field

from agentkernelarena.agents.base import AgentRun, DoctorReport
from agentkernelarena.agents.cli_agent import CliAgent, Parsed
from agentkernelarena.agents.command import prompt_file, run_env
from agentkernelarena.agents.process import Command, ProcessResult, find_executable
from agentkernelarena.agents.registry import register_agent
from agentkernelarena.errors import AkaError
from agentkernelarena.workspace.sandbox import install_paths

DEFAULT_TEMPLATE = "geak-agent {entry_file} --test ./check --no-confirm"
PLACEHOLDERS = ("workspace", "entry_file", "editable", "prompt", "prompt_file", "out_dir",
                "task_id", "model", "iteration", "max_iterations")


@dataclass
class GeakSettings:
    template: str = DEFAULT_TEMPLATE
    model: str | None = None
    env: list[str] = field(default_factory=list)  # KEY=VALUE pairs for the tool
    usage_file: str | None = None
    price_in: float | None = None
    price_out: float | None = None
    price_cached: float | None = None


def fill_template(template: str, values: dict[str, str]) -> list[str]:
    """shlex-split first, then replace placeholders inside each argument."""
    argv = []
    for token in shlex.split(template):
        for key in PLACEHOLDERS:
            token = token.replace("{" + key + "}", values.get(key, ""))
        argv.append(token)
    return argv


@register_agent("geak")
class GeakAgent(CliAgent):
    """An external optimizer CLI through a command template (GEAK by default)."""

    name = "geak"
    Settings = GeakSettings
    install_hint = "install the tool, or point --agent-arg template='...' at one that is"

    @property
    def executables(self) -> tuple[str, ...]:  # type: ignore[override]
        words = shlex.split(self.settings.template)
        return (words[0],) if words else ("",)

    def validate(self) -> None:
        if not shlex.split(self.settings.template):
            raise AkaError("agent geak: the template is empty",
                           f"for example --agent-arg template='{DEFAULT_TEMPLATE}'")
        for pair in self.settings.env:
            if "=" not in pair:
                raise AkaError(f"agent geak: env entry {pair!r} is not KEY=VALUE")

    def executable(self) -> str | None:
        return find_executable(None, self.executables[0])

    def build_command(self, executable: str, run: AgentRun) -> Command:
        values = {"workspace": str(run.workspace), "entry_file": run.task.entry.file,
                  "editable": run.task.editable[0], "prompt": run.prompt,
                  "prompt_file": str(prompt_file(run)), "out_dir": str(run.out_dir),
                  "task_id": run.task.id, "model": self.settings.model or "",
                  "iteration": str(run.iteration), "max_iterations": str(run.max_iterations)}
        argv = fill_template(self.settings.template, values)
        argv[0] = executable
        env = run_env(run)
        env.update(dict(pair.split("=", 1) for pair in self.settings.env))
        return Command(argv=argv, env=env, ro_paths=install_paths(executable),
                       rw_paths=[run.out_dir], transcript_name="stdout.log")

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        parsed = Parsed(succeeded=result.returncode == 0, model=self.settings.model)
        if self.settings.usage_file:
            path = run.out_dir / self.settings.usage_file
            try:
                usage = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                parsed.details["usage_error"] = f"{path}: {exc}"
                return parsed
            parsed.tokens_in = usage.get("tokens_in")
            parsed.tokens_out = usage.get("tokens_out")
            parsed.tokens_cached = usage.get("tokens_cached")
            parsed.cost_usd = usage.get("cost_usd")
            parsed.turns = usage.get("turns")
        return parsed

    def version(self, exe: str) -> str | None:
        return super().version(exe) or "unknown"

    def doctor_auth(self, report: DoctorReport) -> None:
        report.authenticated = None  # the tool's own model credentials; it alone knows
