"""The one agent registry: built-in adapters register with a decorator, others through the
`agentkernelarena.agents` entry-point group, so a third-party agent needs no change to the arena.

An entry point names an agent class (or a factory callable) like a built-in one:

    [project.entry-points."agentkernelarena.agents"]
    my_agent = "my_package.agent:MyAgent"

A class with a `Settings` dataclass gets its `--agent-arg`s parsed into it and is built as
`cls(settings)`; any other class or callable is called with the arguments as keywords.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from agentkernelarena.agents.base import Agent
from agentkernelarena.agents.settings import build_settings
from agentkernelarena.errors import AkaError

ENTRY_POINT_GROUP = "agentkernelarena.agents"
log = logging.getLogger(__name__)

# Imported on first use so that `import agentkernelarena.agents` stays cheap.
_BUILTIN_MODULES = (
    "agentkernelarena.agents.noop",
    "agentkernelarena.agents.oracle",
    "agentkernelarena.agents.command",
    "agentkernelarena.agents.tune",
    "agentkernelarena.agents.geak",
    "agentkernelarena.agents.claude_code",
    "agentkernelarena.agents.codex",
    "agentkernelarena.agents.cursor",
    "agentkernelarena.agents.mini_swe_agent",
    "agentkernelarena.agents.openai_compat",
)


@dataclass
class AgentInfo:
    name: str
    factory: Callable[..., Any]
    description: str = ""
    source: str = "builtin"  # or "entry point <distribution>"
    error: str | None = None  # an entry point that failed to load

    @property
    def settings_cls(self) -> type | None:
        return getattr(self.factory, "Settings", None)

    @property
    def in_process(self) -> bool:
        return bool(getattr(self.factory, "in_process", False))

    def create(self, args: Mapping[str, Any] | None = None) -> Agent:
        if self.error:
            raise AkaError(f"agent {self.name} ({self.source}) failed to load: {self.error}",
                           "reinstall the package that provides it")
        settings_cls = self.settings_cls
        if settings_cls is not None:
            agent = self.factory(build_settings(settings_cls, args, self.name))
        else:
            try:
                agent = self.factory(**dict(args or {}))
            except TypeError as exc:
                raise AkaError(f"agent {self.name}: {exc}") from None
        if not isinstance(agent, Agent):
            raise AkaError(f"agent {self.name}: {self.factory!r} did not make an agent "
                           "(an object with `name` and `run`)")
        return agent


@dataclass
class AgentSpec:
    """Which agent, with which settings: what a trial (or a run config) names.

    `label` tells two configurations of one agent apart in reports (A/B experiments); it
    defaults to the name.
    """

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    label: str | None = None

    @classmethod
    def of(cls, value: str | AgentSpec | Mapping[str, Any]) -> AgentSpec:
        """From "name", an AgentSpec, or {"name": ..., "args": {...}, "label": ...}."""
        if isinstance(value, AgentSpec):
            return value
        if isinstance(value, str):
            return cls(name=value)
        if isinstance(value, Mapping) and "name" in value:
            return cls(name=str(value["name"]), args=dict(value.get("args") or {}),
                       label=value.get("label"))
        raise AkaError(f"not an agent spec: {value!r}", "use a name or {name, args, label}")

    def create(self) -> Agent:
        return create_agent(self.name, self.args)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "args": {k: str(v) for k, v in self.args.items()},
                "label": self.label or self.name}


_REGISTRY: dict[str, AgentInfo] = {}
_loaded = False


def register_agent(name: str, description: str | None = None) -> Callable[[Any], Any]:
    """Class decorator: make an agent available under `name`."""

    def decorate(factory: Any) -> Any:
        doc = (factory.__doc__ or "").strip().splitlines()
        info = AgentInfo(name=name, factory=factory,
                         description=description or (doc[0] if doc else ""))
        if name in _REGISTRY and _REGISTRY[name].factory is not factory:
            raise AkaError(f"agent name {name!r} is registered twice "
                           f"({_REGISTRY[name].factory!r} and {factory!r})")
        _REGISTRY[name] = info
        if isinstance(factory, type) and getattr(factory, "name", None) in (None, "agent"):
            factory.name = name
        return factory

    return decorate


def _load_entry_points() -> None:
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _REGISTRY and _REGISTRY[ep.name].source == "builtin":
            log.warning("entry point %s=%s ignored: a built-in agent has that name",
                        ep.name, ep.value)
            continue
        dist = getattr(getattr(ep, "dist", None), "name", None) or ep.value.split(":")[0]
        try:
            factory = ep.load()
            doc = (getattr(factory, "description", None) or (factory.__doc__ or "")).strip()
            info = AgentInfo(name=ep.name, factory=factory,
                             description=doc.splitlines()[0] if doc else "",
                             source=f"entry point {dist}")
            if isinstance(factory, type) and getattr(factory, "name", None) in (None, "agent"):
                factory.name = ep.name
        except Exception as exc:  # a broken plug-in must not break `aka agents list`
            info = AgentInfo(name=ep.name, factory=lambda **_: None,
                             source=f"entry point {dist}", error=f"{type(exc).__name__}: {exc}")
        _REGISTRY[ep.name] = info


def _ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)
    _load_entry_points()


def reload_registry() -> None:
    """Forget entry-point agents and look again (tests, or after installing a plug-in)."""
    global _loaded
    for name in [n for n, i in _REGISTRY.items() if i.source != "builtin"]:
        del _REGISTRY[name]
    _loaded = False
    _ensure_loaded()


def available_agents() -> list[AgentInfo]:
    _ensure_loaded()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_agent_info(name: str) -> AgentInfo:
    _ensure_loaded()
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise AkaError(f"unknown agent '{name}'", f"known agents: {known} (`aka agents list`)")
    return _REGISTRY[name]


def create_agent(name: str, args: Mapping[str, Any] | None = None) -> Agent:
    """The agent `name`, configured with `args` (strings from --agent-arg, or typed values)."""
    return get_agent_info(name).create(args)
