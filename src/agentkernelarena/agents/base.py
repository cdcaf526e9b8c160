"""The agent contract (DESIGN.md §9): given a workspace, a prompt and limits, run, and say how.

The arena owns everything around one agent run (the loop, the check, the deadline, the sandbox,
evaluation), so an adapter only has to start its program once and say what happened. Keeping the
contract this small is what lets third-party agents plug in through an entry point.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from agentkernelarena.agents.process import Command, ProcessResult, agent_env, run_process

if TYPE_CHECKING:
    from agentkernelarena.tasks.spec import Task
    from agentkernelarena.workspace.sandbox import Sandbox

# Why an agent run did not end well. Exactly one per outcome; `ok` when nothing went wrong.
NOT_INSTALLED = "not_installed"
NOT_AUTHENTICATED = "not_authenticated"
RATE_LIMITED = "rate_limited"
CONTEXT_OVERFLOW = "context_overflow"
TIMED_OUT = "timed_out"
CRASHED = "crashed"
OK = "ok"
FAILURE_CLASSES = (NOT_INSTALLED, NOT_AUTHENTICATED, RATE_LIMITED, CONTEXT_OVERFLOW, TIMED_OUT,
                   CRASHED, OK)
# Failures that no further iteration can cure: the trial stops and is marked an error to retry.
FATAL_FAILURES = (NOT_INSTALLED, NOT_AUTHENTICATED)

# Where a cost figure came from: the agent program reported it, or the arena priced the tokens.
COST_FROM_AGENT = "agent"
COST_FROM_HARNESS = "harness"


@dataclass
class AgentOutcome:
    """What one agent run did. Token counts: `tokens_in` counts every prompt token, cached ones
    included; `tokens_cached` is the cached part of it. None means the agent did not say."""

    agent: str
    failure: str = OK
    exit_code: int | None = None
    wall_s: float = 0.0
    turns: int | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    tokens_cached: int | None = None
    cost_usd: float | None = None
    cost_source: str | None = None
    model: str | None = None
    transcript: str | None = None
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.failure not in FAILURE_CLASSES:
            raise ValueError(f"unknown failure class {self.failure!r}; one of {FAILURE_CLASSES}")

    @property
    def ok(self) -> bool:
        return self.failure == OK

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class DoctorReport:
    """`aka agents doctor` for one agent: `authenticated` is None when it cannot be told."""

    agent: str
    installed: bool
    version: str | None = None
    authenticated: bool | None = None
    executable: str | None = None
    problems: list[dict[str, str]] = field(default_factory=list)  # {"problem", "fix"}

    def problem(self, problem: str, fix: str) -> None:
        self.problems.append({"problem": problem, "fix": fix})

    @property
    def ready(self) -> bool:
        return self.installed and self.authenticated is not False and not self.problems

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ready": self.ready}


@dataclass
class AgentRun:
    """One invocation of an agent: everything it may use, and its limits.

    `launch` runs a program in the workspace under the trial's sandbox and deadline; `check`
    runs the local check in the arena (for agents that live in the arena's process).
    """

    task: Task
    workspace: Path
    prompt: str
    out_dir: Path
    deadline: float  # time.monotonic() value; the run must be over by then
    iteration: int = 1
    max_iterations: int = 1
    time_limit_s: float | None = None  # the whole trial's limit, for messages
    env: dict[str, str] = field(default_factory=dict)
    launcher: Callable[[Command, AgentRun], ProcessResult] | None = None
    check: Callable[[], str] | None = None

    def time_left(self) -> float:
        return self.deadline - time.monotonic()

    def launch(self, command: Command) -> ProcessResult:
        if self.launcher is None:
            # No sandbox: the workspace as cwd, the run's environment added.
            return self.run_in_workspace(command, command.argv,
                                         agent_env({**self.env, **command.env}))
        return self.launcher(command, self)

    def run_in_workspace(self, command: Command, argv: list[str],
                         env: dict[str, str]) -> ProcessResult:
        """`argv` (the command's, or it wrapped by a sandbox) in the workspace, under the run's
        deadline, its output in the run's transcript files."""
        return run_process(argv, cwd=self.workspace, env=env, deadline=self.deadline,
                           stdout_path=self.out_dir / command.transcript_name,
                           stderr_path=self.out_dir / "stderr.log", watch=command.watch)


def sandbox_launcher(sandbox: Sandbox) -> Callable[[Command, AgentRun], ProcessResult]:
    """An AgentRun launcher: each command wrapped by `sandbox`, under the run's deadline, with
    the sandbox's empty home."""

    def launch(command: Command, run: AgentRun) -> ProcessResult:
        env = agent_env({**run.env, **command.env})
        env["HOME"] = str(sandbox.home)
        env["TMPDIR"] = "/tmp"  # the host's TMPDIR may not exist inside
        argv = sandbox.wrap(command.argv, ro=command.ro_paths, rw=command.rw_paths)
        result = run.run_in_workspace(command, argv, env)
        result.sandboxed = True
        return result

    return launch


@runtime_checkable
class Agent(Protocol):
    """Anything with a `name` and a `run`. `doctor` is optional (see BaseAgent)."""

    name: str

    def run(self, run: AgentRun) -> AgentOutcome: ...


class BaseAgent:
    """Defaults for the optional parts of the protocol.

    `in_process`: the agent works inside the arena's process through arena-owned tools (nothing
    to sandbox). `iterative`: False for agents whose second run would do the same as their first
    (noop, oracle), so the loop runs them once.
    """

    name: ClassVar[str] = "agent"
    description: ClassVar[str] = ""
    in_process: ClassVar[bool] = False
    iterative: ClassVar[bool] = True

    def run(self, run: AgentRun) -> AgentOutcome:  # pragma: no cover - abstract
        raise NotImplementedError

    def validate(self) -> None:
        """Raise AkaError for settings that cannot work, before any trial starts."""

    def doctor(self) -> DoctorReport:
        return DoctorReport(agent=self.name, installed=True, authenticated=True)
