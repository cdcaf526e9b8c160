"""`oracle`: copies the task's known-good `solution/` editable files into the workspace.

It checks the pipeline end to end with a result that must come out correct and faster; a task
whose oracle trial does not is a broken task. Only the editable files are copied, exactly what
evaluation would take from any agent.
"""

from __future__ import annotations

import shutil

from agentkernelarena.agents.base import (
    COST_FROM_AGENT,
    CRASHED,
    AgentOutcome,
    AgentRun,
    BaseAgent,
)
from agentkernelarena.agents.registry import register_agent


@register_agent("oracle")
class OracleAgent(BaseAgent):
    """Applies the task's solution/ (a known-good faster version)."""

    name = "oracle"
    in_process = True
    iterative = False

    def run(self, run: AgentRun) -> AgentOutcome:
        solution = run.task.solution_dir
        if solution is None:
            return AgentOutcome(agent=self.name, failure=CRASHED, exit_code=1,
                                message=f"task {run.task.id} has no solution/ folder")
        copied = []
        for rel in run.task.editable:
            source = solution / rel
            if source.is_file():
                target = run.workspace / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
                copied.append(rel)
        return AgentOutcome(agent=self.name, exit_code=0, turns=0, tokens_in=0, tokens_out=0,
                            tokens_cached=0, cost_usd=0.0,
                            cost_source=COST_FROM_AGENT, details={"copied": copied})
