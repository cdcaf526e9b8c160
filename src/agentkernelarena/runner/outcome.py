"""What the agent did, beside what the evaluation found.

A trial's verdict judges the workspace the agent left. When the agent crashed on every
iteration, or was stopped at the time limit, or changed nothing, that workspace is (mostly) the
task's baseline, which is correct and about as fast as itself: verdict `ok`, speedup ~1x, score
~220. The verdict is right about the files and silent about the agent, so every trial also gets
an agent outcome, shown next to the verdict everywhere (progress, run.log, tables, JSON, CSV):

    ok         the agent's last iteration ended well and it changed an editable file
    failed     its last iteration failed (crashed, not installed, rate-limited, ...)
    timed_out  the trial stopped at its time limit while the agent was working
    no_change  it ended well but left every editable file as it was

The score keeps its formula (the evaluation's); reports say which trials scored only because
the baseline was left unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentkernelarena.agents.base import OK, TIMED_OUT, AgentOutcome

AGENT_OK = "ok"
AGENT_FAILED = "failed"
AGENT_TIMED_OUT = "timed_out"
AGENT_NO_CHANGE = "no_change"
AGENT_OUTCOMES = (AGENT_OK, AGENT_FAILED, AGENT_TIMED_OUT, AGENT_NO_CHANGE)
# The short marker shown next to a verdict; none for an agent that did its job.
MARKERS = {AGENT_FAILED: "agent-failed", AGENT_TIMED_OUT: "timed-out",
           AGENT_NO_CHANGE: "no-change"}
STDERR_LINES = 5


def agent_outcome(record: dict[str, Any]) -> str:
    """The agent outcome of a trial record; older records (without the field) are read from
    agent_failure, timed_out, status and changed_files."""
    recorded = record.get("agent_outcome")
    if recorded in AGENT_OUTCOMES:
        return str(recorded)
    failure = record.get("agent_failure")
    if record.get("timed_out") or failure == TIMED_OUT:
        return AGENT_TIMED_OUT
    if record.get("status") == "error" or failure not in (None, OK):
        return AGENT_FAILED
    if "changed_files" in record and not record.get("changed_files"):
        return AGENT_NO_CHANGE
    return AGENT_OK


def marker(outcome: str) -> str:
    return MARKERS.get(outcome, "")


def verdict_text(verdict: str | None, outcome: str) -> str:
    """The verdict with the agent's marker: `ok [agent-failed]`, or just `ok`."""
    mark = marker(outcome)
    return f"{verdict or '-'} [{mark}]" if mark else (verdict or "-")


def stderr_tail(outcome: AgentOutcome, lines: int = STDERR_LINES) -> str:
    """The last lines the agent program wrote to stderr ("" when there is no such file)."""
    path = outcome.details.get("stderr") if isinstance(outcome.details, dict) else None
    if not path or not Path(path).is_file():
        return ""
    text = Path(path).read_text(errors="replace").strip().splitlines()
    return "\n".join(text[-lines:])[-1000:]


def likely_cause(outcome: AgentOutcome, stderr: str, sandboxed: bool) -> str | None:
    """A guess at why an agent program failed, for the warning during the run."""
    text = f"{outcome.message}\n{stderr}".lower()
    missing = outcome.exit_code == 127 or "not found" in text or "no such file" in text
    if outcome.failure == TIMED_OUT:
        return ("it was still working at the trial's time limit: raise --time-limit, or "
                "lower the agent's own budget")
    if missing and sandboxed:
        return ("a program or path it uses is not visible inside the sandbox (only the "
                "workspace, system folders and the agent's own install are): use paths inside "
                "the workspace or installed system-wide, or run with --sandbox off")
    if missing:
        return "a program or path it uses does not exist: check the command's paths"
    if outcome.exit_code == 126 or "permission denied" in text:
        return "a program it runs is not executable (permission denied)"
    return None


def agent_error(outcomes: list[AgentOutcome], sandboxed: bool) -> dict[str, Any] | None:
    """What went wrong with the agent (the last iteration's failure), for the record: None
    when its last iteration ended well."""
    if not outcomes or outcomes[-1].failure == OK:
        return None
    last = outcomes[-1]
    tail = stderr_tail(last)
    return {"failure": last.failure, "exit_code": last.exit_code, "message": last.message,
            "stderr_tail": tail,
            "iterations_failed": sum(o.failure != OK for o in outcomes),
            "iterations": len(outcomes),
            "likely_cause": likely_cause(last, tail, sandboxed)}


def error_summary(error: dict[str, Any] | None) -> str:
    """One line: `crashed, exit 127, 3 of 3 iterations: sh: 1: ./x.sh: not found`."""
    if not error:
        return ""
    parts = [str(error.get("failure"))]
    if error.get("exit_code") not in (None, 0):
        parts.append(f"exit {error['exit_code']}")
    if error.get("iterations"):
        parts.append(f"{error.get('iterations_failed')} of {error['iterations']} iteration(s)")
    last_line = (error.get("stderr_tail") or "").strip().splitlines()[-1:] or \
        [(error.get("message") or "").strip()]
    text = ", ".join(parts)
    return f"{text}: {last_line[0][:200]}" if last_line[0] else text
