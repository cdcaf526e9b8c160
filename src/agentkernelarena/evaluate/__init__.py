"""Evaluation: the fresh directory, the judge and the candidate's sandboxed runner, the gates,
timing and the result record."""

from agentkernelarena.evaluate.evaluator import VERDICTS, EvalOptions, evaluate

__all__ = ["VERDICTS", "EvalOptions", "evaluate"]
