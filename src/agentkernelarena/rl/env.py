"""An environment over one task for RL libraries: `reset` gives the task card and the starting
files, `step` takes new files and returns the reward and the evaluation.

The shape is Gymnasium's (`reset() -> (observation, info)`, `step(action) -> (observation,
reward, terminated, truncated, info)`) without depending on it; observations and actions are
plain dicts of text. What the policy observes after a step is what an agent's `./check` shows:
the visible configurations only. Without options the held-out ones are not evaluated at all
(`training_options`): they are for measuring the trained policy, not for training it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkernelarena.evaluate import EvalOptions
from agentkernelarena.evaluate.standby import WarmStart
from agentkernelarena.feedback import feedback
from agentkernelarena.platforms import get_platform
from agentkernelarena.rl.api import card, evaluate_files, starting_files, training_options
from agentkernelarena.rl.record import EvalRecord
from agentkernelarena.rl.rewards import Reward, get_reward
from agentkernelarena.tasks.spec import Task


class KernelEnv:
    """One task; an episode is up to `max_steps` candidate versions of its editable files.

    `warm_start`: each step's evaluation starts the next step's workers while it runs
    (evaluate/standby.py), since the next step is on the same task.
    """

    def __init__(self, task: Task, reward: str | Reward = "log_speedup",
                 options: EvalOptions | None = None, max_steps: int = 8,
                 warm_start: bool = True) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.task = task
        self.reward_fn = get_reward(reward)
        self.options = options or training_options()
        self.platform = get_platform(self.options.platform).name
        self.max_steps = max_steps
        self.warm = WarmStart() if warm_start else None
        self.steps = 0
        self.files: dict[str, str] = {}
        self.history: list[EvalRecord] = []

    def reset(self, *, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.steps = 0
        self.history = []
        self.files = starting_files(self.task)
        observation = {"task": self.task.id, "card": card(self.task, self.platform),
                       "files": dict(self.files), "editable": list(self.task.editable),
                       "feedback": None}
        return observation, {"max_steps": self.max_steps}

    def step(self, files: Mapping[str, str]
             ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.steps >= self.max_steps:
            raise RuntimeError(f"the episode is over after {self.max_steps} steps: call reset()")
        self.steps += 1
        self.files = {**self.files, **files}
        last = self.steps >= self.max_steps
        record = evaluate_files(self.task, self.files, self.options, warm=self.warm,
                                next_task=None if last else self.task)
        self.history.append(record)
        reward = self.reward_fn(record)
        observation = {"task": self.task.id, "files": dict(self.files),
                       "editable": list(self.task.editable),
                       "feedback": feedback(record.raw) if record.raw else record.error}
        info = {"record": record, "step": self.steps}
        return observation, reward, False, last, info

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()

    def __enter__(self) -> KernelEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
