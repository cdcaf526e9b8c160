"""Workspaces: what an agent sees of a task (editable files, reference, task card, local check)."""

from agentkernelarena.workspace.materialize import materialize, task_card

__all__ = ["materialize", "task_card"]
