"""Running agents on tasks: the trial function (iteration loop, deadline, evaluation)."""

from agentkernelarena.runner.trial import TrialOptions, run_trial

__all__ = ["TrialOptions", "run_trial"]
