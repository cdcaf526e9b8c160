"""What every agent that is a command-line program shares: find it, run it, read it, judge it.

An adapter only supplies three small pieces, kept apart so each can be tested on its own:
`build_command` (settings + run -> argv, env, paths the sandbox must show), `parse` (the
program's output -> usage, turns, cost, errors), and `doctor_auth` (is it logged in). The run
itself (process, deadline, sandbox, failure class, pricing) is done here once for all of them.
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from agentkernelarena.agents.base import (
    COST_FROM_AGENT,
    COST_FROM_HARNESS,
    NOT_INSTALLED,
    OK,
    AgentOutcome,
    AgentRun,
    BaseAgent,
    DoctorReport,
)
from agentkernelarena.agents.classify import classify
from agentkernelarena.agents.pricing import find_price, price_tokens
from agentkernelarena.agents.process import Command, ProcessResult, find_executable


@dataclass
class Parsed:
    """What an agent's output says. `succeeded`: it reached a final result that is not an error."""

    succeeded: bool
    turns: int | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    tokens_cached: int | None = None
    cost_usd: float | None = None
    model: str | None = None
    errors: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    transcript: str | None = None  # when it is not the program's stdout


class CliAgent(BaseAgent):
    """Base of the CLI adapters. Subclasses set `executables`, `auth_hint`, `install_hint`."""

    executables: ClassVar[tuple[str, ...]] = ()
    install_hint: ClassVar[str] = ""
    auth_hint: ClassVar[str] = "check its API key or log in"

    def __init__(self, settings: Any) -> None:
        self.settings = settings

    # -- the three pieces an adapter supplies
    def build_command(self, executable: str, run: AgentRun) -> Command:
        raise NotImplementedError

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        raise NotImplementedError

    def doctor_auth(self, report: DoctorReport) -> None:
        """Set `report.authenticated` (None: cannot tell) and add problems with their fixes."""

    # -- shared
    def executable(self) -> str | None:
        return find_executable(getattr(self.settings, "executable", None), *self.executables)

    def model_name(self) -> str | None:
        return getattr(self.settings, "model", None)

    def run(self, run: AgentRun) -> AgentOutcome:
        exe = self.executable()
        if exe is None:
            return AgentOutcome(agent=self.name, failure=NOT_INSTALLED,
                                message=f"{self.executables[0]} not found: {self.install_hint}")
        command = self.build_command(exe, run)
        run.out_dir.mkdir(parents=True, exist_ok=True)
        result = run.launch(command)
        if result.not_found:
            return AgentOutcome(agent=self.name, failure=NOT_INSTALLED,
                                message=f"{exe} could not be started: {result.stderr_tail()}")
        parsed = self.parse(result, run)
        error_text = "\n".join([*parsed.errors, result.stderr_tail()])
        failure, message = classify(
            exit_code=result.returncode, timed_out=result.timed_out,
            succeeded=parsed.succeeded and result.returncode == 0, error_text=error_text,
            auth_hint=self.auth_hint, program=self.executables[0],
            time_limit_s=run.time_limit_s)
        if result.stopped is not None:
            failure, message = result.stopped
        outcome = AgentOutcome(
            agent=self.name, failure=failure, exit_code=result.returncode,
            wall_s=round(result.wall_s, 3), turns=parsed.turns, tokens_in=parsed.tokens_in,
            tokens_out=parsed.tokens_out, tokens_cached=parsed.tokens_cached,
            model=parsed.model or self.model_name(),
            transcript=parsed.transcript or str(result.stdout_path), message=message,
            details={**parsed.details, "argv": _redact(command.argv),
                     "sandboxed": result.sandboxed, "stderr": str(result.stderr_path)})
        self.apply_cost(outcome, parsed.cost_usd)
        return outcome

    def apply_cost(self, outcome: AgentOutcome, reported: float | None) -> None:
        """Take the agent's own cost figure, else price the tokens from the table."""
        if reported is not None:
            outcome.cost_usd, outcome.cost_source = round(reported, 6), COST_FROM_AGENT
            return
        if outcome.tokens_in is None and outcome.tokens_out is None:
            return
        override = (getattr(self.settings, "price_in", None),
                    getattr(self.settings, "price_out", None),
                    getattr(self.settings, "price_cached", None))
        price = find_price(outcome.model, override)
        if price is None:
            outcome.details["cost_note"] = (f"no price known for model {outcome.model!r}; set "
                                            "price_in and price_out (USD per 1M tokens)")
            return
        outcome.cost_usd = price_tokens(price, outcome.tokens_in or 0, outcome.tokens_out or 0,
                                        outcome.tokens_cached or 0)
        outcome.cost_source = COST_FROM_HARNESS
        outcome.details["price"] = {"model": price.model, "in": price.per_mtok_in,
                                    "out": price.per_mtok_out, "cached": price.per_mtok_cached,
                                    "from": price.source}

    def version(self, exe: str) -> str | None:
        try:
            out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30,
                                 stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            return None
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[0].strip() if text and out.returncode == 0 else None

    def doctor(self) -> DoctorReport:
        exe = self.executable()
        report = DoctorReport(agent=self.name, installed=exe is not None, executable=exe)
        if exe is None:
            report.problem(f"{self.executables[0]} is not installed", self.install_hint)
            return report
        started = time.monotonic()
        report.version = self.version(exe)
        if report.version is None:
            report.problem(f"{exe} --version failed (after {time.monotonic() - started:.0f} s)",
                           f"reinstall it: {self.install_hint}")
        self.doctor_auth(report)
        return report


def json_lines(text: str) -> tuple[list[dict[str, Any]], int]:
    """The JSON objects of a JSONL stream, and how many lines were not JSON objects."""
    events, garbage = [], 0
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            garbage += 1
            continue
        if isinstance(value, dict):
            events.append(value)
        else:
            garbage += 1
    return events, garbage


def _redact(argv: list[str]) -> list[str]:
    """The argv for the record, with the (long) prompt shortened."""
    return [a if len(a) < 200 else a[:80] + f"...[{len(a)} chars]" for a in argv]


__all__ = ["OK", "CliAgent", "Parsed", "json_lines"]
