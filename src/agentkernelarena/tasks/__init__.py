"""Tasks: the typed task spec, discovery of task folders and selection by id, glob or category."""

from agentkernelarena.tasks.loader import discover_tasks, load_task, select_tasks
from agentkernelarena.tasks.spec import CATEGORIES, LANGUAGES, Config, Task

__all__ = [
    "CATEGORIES",
    "LANGUAGES",
    "Config",
    "Task",
    "discover_tasks",
    "load_task",
    "select_tasks",
]
