"""Run configs shipped with the package: `aka run -c reference-experiment` without a path.

A file path always wins (a file of that name in the current folder is used as given); a bare
name that is no file is looked up in agentkernelarena/configs/NAME.yaml. The first comment
block of a shipped config is its description (`aka configs list`).
"""

from __future__ import annotations

from pathlib import Path

from agentkernelarena.errors import AkaError

CONFIGS_DIR = Path(__file__).resolve().parent.parent / "configs"


def shipped_names() -> list[str]:
    return sorted(p.stem for p in CONFIGS_DIR.glob("*.yaml")) if CONFIGS_DIR.is_dir() else []


def shipped_path(name: str) -> Path | None:
    stem = name.removesuffix(".yaml").removesuffix(".yml")
    if "/" in name or stem not in shipped_names():
        return None
    return CONFIGS_DIR / f"{stem}.yaml"


def resolve_config(value: Path) -> Path:
    """The config file `-c VALUE` means: the file if there is one, else the shipped config of
    that name; neither is an error that lists the shipped ones."""
    if value.is_file():
        return value
    found = shipped_path(str(value))
    if found is not None:
        return found
    raise AkaError(f"run config {value}: no such file, and no config of that name is shipped "
                   "with the arena",
                   f"give a file path, or one of: {', '.join(shipped_names()) or 'none'} "
                   "(`aka configs list`)")


def description(path: Path) -> str:
    """The leading comment block, joined into one paragraph."""
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return " ".join(" ".join(lines).split())
