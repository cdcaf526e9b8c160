"""Codex CLI's command line: `codex exec --json ... -- PROMPT`.

Facts from AGENT-CLIS.md: stdin must be /dev/null (with an open pipe it waits forever); its own
sandbox is bypassed because the arena's is the one that counts (and nested namespaces fail);
a local or custom model is configured in `$CODEX_HOME/config.toml`, which the sandbox shows
read-only together with `auth.json`, while the rest of CODEX_HOME (sessions, sqlite state)
lands on the sandbox's tmpfs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from agentkernelarena.agents.process import Command
from agentkernelarena.workspace.sandbox import install_paths


@dataclass
class CodexSettings:
    model: str | None = None  # -m; else config.toml's model
    executable: str | None = None
    codex_home: str | None = None  # default: $CODEX_HOME, else ~/.codex
    profile: str | None = None  # a [profiles.NAME] of config.toml
    config: list[str] = field(default_factory=list)  # `-c key=value` overrides
    extra_args: list[str] = field(default_factory=list)
    price_in: float | None = None  # USD per 1M tokens; Codex reports no cost
    price_out: float | None = None
    price_cached: float | None = None


def codex_home(settings: CodexSettings) -> Path:
    configured = settings.codex_home or os.environ.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else Path("~/.codex").expanduser()


def config_files(home: Path) -> list[Path]:
    return [p for p in (home / "config.toml", home / "auth.json") if p.is_file()]


def build_command(settings: CodexSettings, executable: str, prompt: str) -> Command:
    argv = [executable, "exec", "--json", "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox"]
    if settings.model:
        argv += ["-m", settings.model]
    if settings.profile:
        argv += ["--profile", settings.profile]
    for override in settings.config:
        argv += ["-c", override]
    argv += [*settings.extra_args, "--", prompt]
    home = codex_home(settings)
    return Command(argv=argv, env={"CODEX_HOME": str(home)},
                   ro_paths=[*install_paths(executable), *config_files(home)])
