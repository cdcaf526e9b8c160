"""`noop`: changes nothing. Its trial scores the baseline, which makes end-to-end tests free and
gives every run a floor to compare against."""

from __future__ import annotations

from agentkernelarena.agents.base import COST_FROM_AGENT, AgentOutcome, AgentRun, BaseAgent
from agentkernelarena.agents.registry import register_agent


@register_agent("noop")
class NoopAgent(BaseAgent):
    """Changes nothing (scores the baseline)."""

    name = "noop"
    in_process = True
    iterative = False

    def run(self, run: AgentRun) -> AgentOutcome:
        return AgentOutcome(agent=self.name, exit_code=0, turns=0, tokens_in=0, tokens_out=0,
                            tokens_cached=0, cost_usd=0.0,
                            cost_source=COST_FROM_AGENT)
