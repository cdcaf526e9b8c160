"""Agents: the protocol, the registry, and one small module or package per adapter.

    from agentkernelarena.agents import create_agent, AgentRun
    agent = create_agent("claude_code", {"model": "claude-sonnet-4-5"})
    outcome = agent.run(AgentRun(...))   # usually through runner.run_trial

Third-party agents register through the `agentkernelarena.agents` entry-point group.
"""

from agentkernelarena.agents.base import (
    FAILURE_CLASSES,
    Agent,
    AgentOutcome,
    AgentRun,
    BaseAgent,
    DoctorReport,
)
from agentkernelarena.agents.cli_agent import CliAgent, Parsed
from agentkernelarena.agents.process import Command, ProcessResult
from agentkernelarena.agents.registry import (
    ENTRY_POINT_GROUP,
    AgentInfo,
    AgentSpec,
    available_agents,
    create_agent,
    get_agent_info,
    register_agent,
)
from agentkernelarena.agents.settings import parse_agent_args

__all__ = [
    "ENTRY_POINT_GROUP",
    "FAILURE_CLASSES",
    "Agent",
    "AgentInfo",
    "AgentOutcome",
    "AgentRun",
    "AgentSpec",
    "BaseAgent",
    "CliAgent",
    "Command",
    "DoctorReport",
    "Parsed",
    "ProcessResult",
    "available_agents",
    "create_agent",
    "get_agent_info",
    "parse_agent_args",
    "register_agent",
]
