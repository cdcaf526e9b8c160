"""The arena for trainers: a typed Python API, rewards, an environment and a batched service.

    from agentkernelarena import rl
    task = rl.load_task("triton2triton/softmax")
    record = rl.evaluate_files(task, {"kernel.py": text})
    reward = rl.get_reward("log_speedup")(record)

See docs/rl.md.
"""

from agentkernelarena.evaluate import EvalOptions
from agentkernelarena.evaluate.standby import WarmStart
from agentkernelarena.rl.api import (
    card,
    evaluate_files,
    load_task,
    load_tasks,
    make_workspace,
    starting_files,
    training_options,
)
from agentkernelarena.rl.env import KernelEnv
from agentkernelarena.rl.ray_service import RayEvaluationService
from agentkernelarena.rl.record import EvalRecord
from agentkernelarena.rl.rewards import REWARDS, Reward, get_reward
from agentkernelarena.rl.service import EvaluationService

__all__ = ["REWARDS", "EvalOptions", "EvalRecord", "EvaluationService", "KernelEnv",
           "RayEvaluationService", "Reward", "WarmStart", "card", "evaluate_files", "get_reward",
           "load_task", "load_tasks", "make_workspace", "starting_files", "training_options"]
