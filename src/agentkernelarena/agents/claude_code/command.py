"""Claude Code's command line: `claude -p --output-format stream-json --verbose ... -- PROMPT`.

Facts from AGENT-CLIS.md: stdin must be /dev/null; `--dangerously-skip-permissions` refuses to
run as root unless IS_SANDBOX=1, while `--allowedTools` works as root; without permission for
Edit and Bash the run still "succeeds" and only lists `permission_denials`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from agentkernelarena.agents.process import Command
from agentkernelarena.workspace.sandbox import install_paths

DEFAULT_TOOLS = "Read,Edit,MultiEdit,Write,Bash,Glob,Grep,LS,TodoWrite"


@dataclass
class ClaudeCodeSettings:
    model: str | None = None  # any name; passed through as --model
    executable: str | None = None  # path or name of the `claude` program
    max_turns: int | None = None
    # "tools": allow `allowed_tools` (works as root); "bypass": --dangerously-skip-permissions.
    permission: str = "tools"
    allowed_tools: str = DEFAULT_TOOLS
    base_url: str | None = None  # ANTHROPIC_BASE_URL (a proxy, or the tests' fake server)
    # Claude Code's update checks, telemetry and title requests; off so runs are comparable.
    nonessential_traffic: bool = False
    extra_args: list[str] = field(default_factory=list)


def credential_files(home: Path | None = None) -> list[Path]:
    """Login state `claude /login` leaves: shown read-only inside the sandbox."""
    home = home or Path(os.path.expanduser("~"))
    return [p for p in (home / ".claude" / ".credentials.json",) if p.is_file()]


def build_command(settings: ClaudeCodeSettings, executable: str, prompt: str) -> Command:
    argv = [executable, "-p", "--output-format", "stream-json", "--verbose"]
    if settings.model:
        argv += ["--model", settings.model]
    if settings.max_turns:
        argv += ["--max-turns", str(settings.max_turns)]
    env: dict[str, str] = {}
    if settings.permission == "bypass":
        argv.append("--dangerously-skip-permissions")
        env["IS_SANDBOX"] = "1"
    elif settings.permission == "tools":
        argv += ["--allowedTools", settings.allowed_tools]
    else:
        raise ValueError(f"permission must be 'tools' or 'bypass', not {settings.permission!r}")
    argv += [*settings.extra_args, "--", prompt]
    if settings.base_url:
        env["ANTHROPIC_BASE_URL"] = settings.base_url
    if not settings.nonessential_traffic:
        env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"
    return Command(argv=argv, env=env, ro_paths=[*install_paths(executable),
                                                 *credential_files()])
