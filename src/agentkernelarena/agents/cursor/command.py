"""Cursor Agent's command line: `cursor-agent -p --output-format stream-json --force PROMPT`.

Cursor has no package in the public registries (AGENT-CLIS.md); this follows its documented
headless form. `--force` lets it write files without asking. The program is also installed as
`agent`; pass `--agent-arg executable=agent` where only that name exists.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from agentkernelarena.agents.process import Command
from agentkernelarena.workspace.sandbox import install_paths


@dataclass
class CursorSettings:
    model: str | None = None
    executable: str | None = None
    extra_args: list[str] = field(default_factory=list)
    price_in: float | None = None  # USD per 1M tokens; Cursor reports no cost
    price_out: float | None = None
    price_cached: float | None = None


def config_files(home: Path | None = None) -> list[Path]:
    """Its login and CLI settings, shown read-only in the sandbox."""
    home = home or Path(os.path.expanduser("~"))
    candidates = (home / ".cursor" / "cli-config.json", home / ".config" / "cursor" / "auth.json")
    return [p for p in candidates if p.is_file()]


def build_command(settings: CursorSettings, executable: str, prompt: str) -> Command:
    argv = [executable, "-p", "--output-format", "stream-json", "--force"]
    if settings.model:
        argv += ["--model", settings.model]
    argv += [*settings.extra_args, prompt]
    return Command(argv=argv, ro_paths=[*install_paths(executable), *config_files()])
