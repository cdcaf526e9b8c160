"""`--agent-arg KEY=VALUE` into an adapter's typed settings.

Each adapter declares its settings as a dataclass; this module turns the strings of the command
line (or a run config's values) into those types and says which keys exist when one is wrong,
so a typo fails before any trial starts instead of being silently ignored.
"""

from __future__ import annotations

import dataclasses
import shlex
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from agentkernelarena.errors import AkaError

S = TypeVar("S")


def parse_agent_args(pairs: Iterable[str]) -> dict[str, str]:
    """["model=x", "cmd=a b"] -> {"model": "x", "cmd": "a b"}."""
    args: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise AkaError(f"agent argument {pair!r} is not KEY=VALUE",
                           "write it like --agent-arg model=gpt-5")
        args[key.strip()] = value
    return args


def _base_type(annotation: Any) -> Any:
    """`int | None` -> int; `list[str]` -> list."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _base_type(inner[0]) if inner else str
    return origin or annotation


def _coerce(value: Any, annotation: Any, key: str, agent: str) -> Any:
    target = _base_type(annotation)
    if not isinstance(value, str):
        return value
    try:
        if target is bool:
            lowered = value.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError("expected true or false")
        if target is int:
            return int(value)
        if target is float:
            return float(value)
        if target is list:
            return shlex.split(value)
    except ValueError as exc:
        raise AkaError(f"agent {agent}: setting {key}={value!r}: {exc}") from None
    return value


def build_settings(cls: type[S], args: Mapping[str, Any] | None, agent: str) -> S:
    """An instance of the settings dataclass `cls` from string (or typed) values."""
    args = dict(args or {})
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(args) - set(fields))
    if unknown:
        known = ", ".join(sorted(fields)) or "none"
        raise AkaError(f"agent {agent}: unknown setting(s) {', '.join(unknown)}",
                       f"settings of {agent}: {known}")
    hints = typing.get_type_hints(cls)
    values = {k: _coerce(v, hints[k], k, agent) for k, v in args.items()}
    try:
        return cls(**values)
    except TypeError as exc:
        raise AkaError(f"agent {agent}: {exc}") from None


def describe_settings(cls: type | None) -> list[dict[str, Any]]:
    """[{name, type, default}] for `aka agents list --json`."""
    if cls is None or not dataclasses.is_dataclass(cls):
        return []
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        default = None if f.default is dataclasses.MISSING else f.default
        if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = f.default_factory()  # type: ignore[misc]
        out.append({"name": f.name, "type": getattr(_base_type(hints[f.name]), "__name__", "str"),
                    "default": default, "required": f.default is dataclasses.MISSING
                    and f.default_factory is dataclasses.MISSING})  # type: ignore[misc]
    return out
