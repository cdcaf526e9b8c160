"""The four tools of the OpenAI-compatible agent, confined to the workspace by construction.

No shell: the agent reads and writes files and asks the arena to run the local check, so it
needs no sandbox (paths are resolved and must stay inside the workspace, links included).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_READ = 100_000

SCHEMAS: list[dict[str, Any]] = [
    {"type": "function", "function": {
        "name": "read_file", "description": "Read a text file of the workspace.",
        "parameters": {"type": "object", "properties": {
            "path": {"type": "string", "description": "path relative to the workspace"}},
            "required": ["path"]}}},
    {"type": "function", "function": {
        "name": "write_file",
        "description": "Create or overwrite a text file of the workspace with `content`.",
        "parameters": {"type": "object", "properties": {
            "path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"]}}},
    {"type": "function", "function": {
        "name": "run_check",
        "description": "Compile, check and time the current version on the visible "
                       "configurations; returns the verdict the arena will use.",
        "parameters": {"type": "object", "properties": {}}}},
    {"type": "function", "function": {
        "name": "finish", "description": "Stop: the workspace holds your final version.",
        "parameters": {"type": "object", "properties": {
            "summary": {"type": "string", "description": "what you changed"}}}}},
]


class ToolError(Exception):
    pass


def resolve_inside(workspace: Path, rel: str) -> Path:
    root = workspace.resolve()
    path = (root / rel).resolve()
    if path != root and root not in path.parents:
        raise ToolError(f"{rel}: outside the workspace")
    return path


def listing(workspace: Path) -> str:
    names = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)
    return "\n".join(names)


class Tools:
    def __init__(self, workspace: Path, check: Callable[[], str] | None) -> None:
        self.workspace = workspace
        self.check = check
        self.finished: str | None = None
        self.writes = 0
        self.checks = 0

    def call(self, name: str, raw_args: str) -> str:
        try:
            args = json.loads(raw_args or "{}")
            if not isinstance(args, dict):
                raise ToolError("arguments must be a JSON object")
            return self._dispatch(name, args)
        except json.JSONDecodeError as exc:
            return f"error: arguments are not JSON: {exc}"
        except ToolError as exc:
            return f"error: {exc}"
        except OSError as exc:
            return f"error: {exc}"

    def _dispatch(self, name: str, args: dict[str, Any]) -> str:
        if name == "read_file":
            path = resolve_inside(self.workspace, str(args.get("path", "")))
            if not path.is_file():
                raise ToolError(f"{args.get('path')}: no such file; files:\n"
                                + listing(self.workspace))
            return path.read_text(errors="replace")[:MAX_READ]
        if name == "write_file":
            path = resolve_inside(self.workspace, str(args.get("path", "")))
            if path == self.workspace.resolve():
                raise ToolError("a file path is needed")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(str(args.get("content", "")))
            self.writes += 1
            return f"wrote {path.relative_to(self.workspace.resolve())}"
        if name == "run_check":
            if self.check is None:
                raise ToolError("the local check is not available in this run")
            self.checks += 1
            return self.check()
        if name == "finish":
            self.finished = str(args.get("summary", ""))
            return "finished"
        raise ToolError(f"unknown tool {name!r}; tools: read_file, write_file, run_check, finish")
