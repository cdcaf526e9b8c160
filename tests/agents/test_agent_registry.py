"""The registry: built-ins by decorator, third-party agents by entry point, typed settings."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import pytest

from agentkernelarena.agents import registry
from agentkernelarena.agents.base import Agent, AgentOutcome
from agentkernelarena.agents.registry import AgentSpec, available_agents, create_agent
from agentkernelarena.agents.settings import build_settings, parse_agent_args
from agentkernelarena.errors import AkaError

BUILTINS = {"claude_code", "codex", "cursor", "mini_swe_agent", "geak", "command", "noop",
            "oracle", "openai_compat"}

PLUGIN = '''
from dataclasses import dataclass
from agentkernelarena.agents import AgentOutcome

@dataclass
class Settings:
    greeting: str = "hi"
    times: int = 1

class EchoAgent:
    """Says hello, changes nothing."""
    Settings = Settings
    def __init__(self, settings):
        self.settings = settings
    def run(self, run):
        return AgentOutcome(agent=self.name, message=self.settings.greeting * self.settings.times)

def broken():
    raise RuntimeError("nope")
'''


def test_builtins_are_registered():
    names = {info.name for info in available_agents()}
    assert BUILTINS <= names
    for name in BUILTINS:
        agent = create_agent(name)
        assert isinstance(agent, Agent) and agent.name == name


def test_settings_are_typed_and_checked():
    agent = create_agent("claude_code", {"max_turns": "12", "extra_args": "--a 'b c'"})
    assert agent.settings.max_turns == 12
    assert agent.settings.extra_args == ["--a", "b c"]
    with pytest.raises(AkaError, match="unknown setting.*modle"):
        create_agent("claude_code", {"modle": "x"})
    with pytest.raises(AkaError, match="max_turns"):
        create_agent("claude_code", {"max_turns": "many"})
    with pytest.raises(AkaError, match="unknown agent 'claude'"):
        create_agent("claude")


def test_parse_agent_args():
    assert parse_agent_args(["model=a=b", "cmd=x y"]) == {"model": "a=b", "cmd": "x y"}
    with pytest.raises(AkaError):
        parse_agent_args(["model"])


def test_bool_settings():
    from dataclasses import dataclass

    @dataclass
    class S:
        flag: bool = False

    assert build_settings(S, {"flag": "yes"}, "x").flag is True
    with pytest.raises(AkaError):
        build_settings(S, {"flag": "maybe"}, "x")


def test_agent_spec_forms():
    assert AgentSpec.of("noop") == AgentSpec("noop")
    spec = AgentSpec.of({"name": "command", "args": {"cmd": "true"}, "label": "A"})
    assert spec.label == "A" and spec.create().settings.cmd == "true"
    with pytest.raises(AkaError):
        AgentSpec.of(42)  # type: ignore[arg-type]


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "aka_echo_plugin.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    eps = [metadata.EntryPoint("echo", "aka_echo_plugin:EchoAgent", registry.ENTRY_POINT_GROUP),
           metadata.EntryPoint("broken", "aka_echo_plugin:nothing_here",
                               registry.ENTRY_POINT_GROUP),
           metadata.EntryPoint("noop", "aka_echo_plugin:EchoAgent", registry.ENTRY_POINT_GROUP)]

    def entry_points(group: str):
        return [ep for ep in eps if ep.group == group]

    monkeypatch.setattr(registry.metadata, "entry_points", entry_points)
    registry.reload_registry()
    yield
    monkeypatch.undo()
    sys.modules.pop("aka_echo_plugin", None)
    registry.reload_registry()


def test_entry_point_agents_plug_in(plugin):
    infos = {i.name: i for i in available_agents()}
    assert infos["echo"].source.startswith("entry point")
    assert infos["echo"].description == "Says hello, changes nothing."
    agent = create_agent("echo", {"greeting": "yo", "times": "2"})
    outcome = agent.run(None)  # type: ignore[arg-type]
    assert isinstance(outcome, AgentOutcome) and outcome.message == "yoyo"
    assert outcome.agent == "echo"
    # A broken plug-in is listed with its error and refused when used; others are unharmed.
    assert infos["broken"].error is not None
    with pytest.raises(AkaError, match="failed to load"):
        create_agent("broken")
    # A plug-in cannot shadow a built-in.
    assert infos["noop"].source == "builtin"
