"""Reports over run folders: load a run, its summary and trial records, compare two runs."""

from agentkernelarena.report.compare import compare_runs
from agentkernelarena.report.load import RunData, load_run
from agentkernelarena.report.metrics import build_report, group_metrics, trial_row

__all__ = ["RunData", "build_report", "compare_runs", "group_metrics", "load_run", "trial_row"]
