"""One trial: one agent on one task, with the arena's iteration loop, then the evaluation.

    record = run_trial(task, AgentSpec("claude_code", {"model": "..."}), Path("runs/x/t0"))

Layout of `trial_dir` (documented in docs/agents.md):

    workspace/            what the agent saw and changed
    iterations/N/         prompt.md, the agent's transcript, stderr.log, outcome.json
    patch.diff            the agent's change to the editable files
    trial.json            the record returned here, written atomically at the end

The loop (DESIGN.md §9): up to `max_iterations` agent runs; after each but the last, the local
check (visible configurations) whose summary goes into the next prompt; one wall-clock deadline
for the whole trial, enforced by killing the agent's process tree; then the final workspace is
evaluated with held-out configurations. Whatever the agent did (crashed, hung, printed garbage,
deleted its kernel), the trial ends with a verdict and the caller goes on; only configuration
mistakes (an unknown agent, bad settings, a sandbox that cannot be made) raise AkaError.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import agentkernelarena
from agentkernelarena.agents.base import (
    CRASHED,
    FATAL_FAILURES,
    OK,
    TIMED_OUT,
    AgentOutcome,
    AgentRun,
    BaseAgent,
    sandbox_launcher,
)
from agentkernelarena.agents.prompts import PROMPTS, build_prompt
from agentkernelarena.agents.registry import AgentSpec
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.evaluate.evaldir import missing_editable
from agentkernelarena.feedback import feedback
from agentkernelarena.platforms import get_platform
from agentkernelarena.runner.config import SANDBOX_ALIASES, SANDBOX_MODES, no_sandbox_error
from agentkernelarena.runner.outcome import (
    AGENT_FAILED,
    AGENT_TIMED_OUT,
    agent_error,
    agent_outcome,
    error_summary,
)
from agentkernelarena.runner.record import (
    missing_result,
    usage_totals,
    workspace_patch,
    write_json_atomic,
)
from agentkernelarena.tasks.spec import Task
from agentkernelarena.workspace import sandbox as sandboxing
from agentkernelarena.workspace.check_server import CheckServer, CheckService
from agentkernelarena.workspace.materialize import materialize
from agentkernelarena.workspace.sandbox import Sandbox

log = logging.getLogger(__name__)
SCHEMA = 1


@dataclass
class TrialOptions:
    max_iterations: int = 3
    time_limit_s: float | None = None  # None: the task's `timeouts.agent` (default 3600 s)
    platform: str | None = None  # evaluation platform; None: this machine's GPU, else cpu
    sandbox: str = "on"  # on: bubblewrap, and AkaError where it cannot work; off: none
    seed: int | None = None  # the final evaluation's seed (None: drawn)
    attempt: int = 0
    timing: dict[str, Any] | None = None  # evaluation timing overrides (tests)
    vs_compile: bool = False  # final evaluation: also time against torch.compile(baseline)
    prompt_dir: Path = PROMPTS
    # Runs every evaluation of the trial (local checks and the final one); a GPU pool wraps
    # `evaluate` here to hold its device while one runs (DESIGN.md §10: one per GPU at a time).
    evaluator: Callable[..., dict[str, Any]] = evaluate
    # More folders the sandbox must hide from the agent (a run's root: its manifest holds the
    # run seed that evaluation seeds derive from).
    hidden: tuple[Path, ...] = ()


def _sandbox_mode(agent: BaseAgent, options: TrialOptions) -> tuple[str, Any]:
    """("in-process" | "on" | "off", the bwrap status for "on"); AkaError for an unknown mode or
    a sandbox that cannot be made (before anything of the trial exists)."""
    if getattr(agent, "in_process", False):
        return "in-process", None
    # Older names (`aka agents trial --sandbox auto`) mean on: nothing falls back any more.
    mode = SANDBOX_ALIASES.get(options.sandbox, options.sandbox)
    if mode not in SANDBOX_MODES:
        raise AkaError(f"sandbox mode {options.sandbox!r}", f"one of {', '.join(SANDBOX_MODES)}")
    if mode == "off":
        return mode, None
    status = sandboxing.bwrap_status()
    if not status.available:
        raise no_sandbox_error([agent.name], status.reason)
    return mode, status


def _sandbox_for(agent: BaseAgent, options: TrialOptions, workspace: Path, task: Task,
                 socket_dir: Path) -> tuple[Sandbox | None, dict[str, Any]]:
    mode, status = _sandbox_mode(agent, options)
    if mode == "in-process":
        return None, {"kind": "in-process", "sandboxed": True,
                      "reason": "the agent works through arena tools confined to the workspace"}
    if mode == "off":
        reason = "turned off with --sandbox off"
        log.warning("agent %s runs WITHOUT a sandbox (%s): it can read the task suites, "
                    "held-out configurations included, and the rest of this machine; its "
                    "held-out results are not trustworthy", agent.name, reason)
        return None, {"kind": "none", "sandboxed": False, "reason": reason}
    # The task folder and the run's other trials are hidden should a bind expose them.
    sandbox = Sandbox(workspace=workspace, rw_paths=[socket_dir],
                      hidden=[task.root, workspace.parent.parent, *options.hidden],
                      bwrap=status.executable or "bwrap")
    return sandbox, {"kind": "bwrap", "sandboxed": True, "reason": status.reason}


def worker_sandbox(evaluation: dict[str, Any] | None) -> dict[str, Any] | None:
    """The evaluation's `worker_sandbox` ({sandboxed, reason}), None where it has none (an
    evaluator that does not say, older runs: unknown)."""
    info = (evaluation or {}).get("worker_sandbox")
    return info if isinstance(info, dict) and "sandboxed" in info else None


def _run_agent(agent: BaseAgent, run: AgentRun) -> AgentOutcome:
    """agent.run, with an adapter's own exception turned into a crashed outcome."""
    try:
        outcome = agent.run(run)
    except Exception as exc:
        run.out_dir.mkdir(parents=True, exist_ok=True)
        (run.out_dir / "adapter-error.txt").write_text(traceback.format_exc())
        return AgentOutcome(agent=agent.name, failure=CRASHED,
                            message=f"the {agent.name} adapter failed: {type(exc).__name__}: "
                                    f"{exc} (traceback in adapter-error.txt)")
    if outcome.failure == OK and run.time_left() <= 0:
        outcome.failure = TIMED_OUT
        outcome.message = "the agent was still working at the trial's time limit"
    return outcome


def eval_sandbox(options: TrialOptions, workspace: Path) -> dict[str, Any]:
    """The evaluation sandbox follows the run's: `--sandbox off` turns both off (and both are
    recorded); the run folder and its other trials are hidden from the candidate's process."""
    return {"sandbox": "off" if options.sandbox == "off" else "on",
            "hidden": (workspace.parent.parent, *options.hidden)}


def _final_evaluation(task: Task, workspace: Path, options: TrialOptions) -> dict[str, Any]:
    if len(missing_editable(task, workspace)) == len(task.editable):
        platform = get_platform(options.platform)
        return missing_result(task, platform.name, platform.comparable,
                              "the workspace holds none of the editable files "
                              f"({', '.join(task.editable)}) at the end of the trial")
    return options.evaluator(task, workspace, EvalOptions(
        platform=options.platform, seed=options.seed, held_out=True, timing=options.timing,
        vs_compile=options.vs_compile, **eval_sandbox(options, workspace)))


def _warn_agent(record: dict[str, Any]) -> None:
    """A warning while the run goes on when the agent failed or timed out: the verdict alone
    would read as a normal result (the baseline, left unchanged, is correct)."""
    outcome = record["agent_outcome"]
    if outcome not in (AGENT_FAILED, AGENT_TIMED_OUT):
        return
    error = record.get("agent_error") or {}
    cause = error.get("likely_cause")
    what = "failed" if outcome == AGENT_FAILED else "was stopped at the time limit"
    log.warning("agent %s %s on %s #%s (%s)%s; the verdict %s is of the workspace it left%s",
                record["agent_label"], what, record["task"], record["attempt"],
                error_summary(error) or record["agent_failure"],
                f"; likely cause: {cause}" if cause else "", record["verdict"],
                "" if record["changed_files"] else ", the unchanged baseline")


def run_trial(task: Task, agent_spec: AgentSpec | str | dict[str, Any], trial_dir: Path,
              options: TrialOptions | None = None) -> dict[str, Any]:
    """Run one trial in `trial_dir` (new or empty) and return its record (also trial.json)."""
    options = options or TrialOptions()
    spec = AgentSpec.of(agent_spec)
    agent: BaseAgent = spec.create()  # type: ignore[assignment]
    getattr(agent, "validate", lambda: None)()
    if options.max_iterations < 1:
        raise AkaError("max_iterations must be at least 1")
    _sandbox_mode(agent, options)  # an unknown mode, or no sandbox: before the trial exists
    trial_dir = Path(trial_dir).resolve()
    # For the prompt's and task card's platform note (the evaluation checks the platform).
    platform_name = options.platform or get_platform(None).name
    workspace = materialize(task, trial_dir / "workspace", platform_name)
    time_limit = options.time_limit_s or task.timeouts.get("agent", 3600.0)
    started_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    started = time.monotonic()
    deadline = started + time_limit
    iterations_max = options.max_iterations if getattr(agent, "iterative", True) else 1
    messages: list[str] = []
    iterations: list[dict[str, Any]] = []
    outcomes: list[AgentOutcome] = []
    status, timed_out, stop_failure = "completed", False, OK
    service = CheckService(task, workspace, options.platform, options.timing,
                           evaluator=options.evaluator,
                           sandbox=eval_sandbox(options, workspace))
    eval_bound = sum(task.timeouts[k] for k in ("compile", "correctness", "performance")) * 2
    with CheckServer(service) as server:
        sandbox, sandbox_info = _sandbox_for(agent, options, workspace, task, server.folder)
        if not sandbox_info["sandboxed"]:
            messages.append(f"not sandboxed: {sandbox_info['reason']}")
        previous: tuple[str, str] | None = None
        for index in range(1, iterations_max + 1):
            left = deadline - time.monotonic()
            if left <= 1:
                messages.append(f"no time left for iteration {index}")
                break
            out_dir = trial_dir / "iterations" / str(index)
            out_dir.mkdir(parents=True, exist_ok=True)
            prompt = build_prompt(task, iteration=index, max_iterations=iterations_max,
                                  workspace=workspace, time_left_s=left,
                                  previous_feedback=previous[0] if previous else None,
                                  previous_verdict=previous[1] if previous else None,
                                  prompt_dir=options.prompt_dir, platform=platform_name)
            (out_dir / "prompt.md").write_text(prompt)
            run = AgentRun(task=task, workspace=workspace, prompt=prompt, out_dir=out_dir,
                           deadline=deadline, iteration=index, max_iterations=iterations_max,
                           time_limit_s=time_limit,
                           env={"AKA_CHECK_SOCKET": str(server.socket_path)},
                           launcher=sandbox_launcher(sandbox) if sandbox else None,
                           check=service.check)
            outcome = _run_agent(agent, run)
            service.wait_idle(timeout=eval_bound)  # a check the agent left running
            outcomes.append(outcome)
            write_json_atomic(out_dir / "outcome.json", outcome.to_json())
            record: dict[str, Any] = {"index": index, "prompt": str(out_dir / "prompt.md"),
                                      "outcome": outcome.to_json(),
                                      "agent_checks": service.pop_calls(), "check": None}
            iterations.append(record)
            stop_failure = outcome.failure  # the record's agent_failure: the last iteration's
            if not outcome.ok:
                messages.append(f"iteration {index}: {outcome.failure}: {outcome.message}")
            if outcome.failure in FATAL_FAILURES:
                status = "error" if index == 1 else status
                break
            if outcome.failure == TIMED_OUT or time.monotonic() >= deadline:
                timed_out = True
                break
            if index < iterations_max:
                text = service.check()
                check = service.pop_calls()[-1]
                record["check"] = {**check, "source": "local_check", "feedback": text}
                previous = (text, str(check.get("verdict")))
    evaluation: dict[str, Any] | None = None
    if status == "completed":
        try:
            evaluation = _final_evaluation(task, workspace, options)
        except AkaError as exc:
            status = "error"
            messages.append(f"evaluation failed: {exc}")
    worker = worker_sandbox(evaluation)
    if worker is not None and not worker["sandboxed"]:
        reason = worker.get("reason") or "no reason given"
        messages.append(f"evaluation worker not sandboxed: {reason}")
        log.warning("the evaluation worker runs WITHOUT a sandbox (%s): held-out results of "
                    "such trials are not trustworthy", reason)
    if evaluation is not None and iterations and iterations[-1]["check"] is None:
        iterations[-1]["check"] = {
            "source": "final_evaluation", "verdict": evaluation["verdict"],
            "correct": evaluation["correct"], "speedup": evaluation.get("speedup"),
            "score": evaluation.get("score"), "feedback": feedback(evaluation)}
    changed, patch = workspace_patch(task, workspace)
    (trial_dir / "patch.diff").write_text(patch)
    verdict = evaluation["verdict"] if evaluation else (
        "agent_error" if stop_failure in FATAL_FAILURES else "eval_error")
    result = {
        "schema": SCHEMA,
        "task": task.id,
        "category": task.category,
        "agent": spec.name,
        "agent_label": spec.label or spec.name,
        "agent_args": spec.to_json()["args"],
        "attempt": options.attempt,
        "status": status,
        "verdict": verdict,
        "score": evaluation["score"] if evaluation else 0.0,
        "speedup": evaluation.get("speedup") if evaluation else None,
        "correct": bool(evaluation and evaluation["correct"]),
        "held_out": (evaluation or {}).get("held_out",
                                           {"evaluated": False, "correct": None, "speedup": None}),
        "agent_failure": stop_failure,
        "timed_out": timed_out,
        "agent_outcome": None,  # set below, from these fields (runner/outcome.py)
        "agent_error": agent_error(outcomes, sandbox_info["kind"] == "bwrap"),
        "messages": messages,
        "sandboxed": sandbox_info["sandboxed"],
        "sandbox": sandbox_info,
        "usage": usage_totals(outcomes),
        "iterations": iterations,
        "max_iterations": iterations_max,
        "time_limit_s": time_limit,
        "trial_wall_s": round(time.monotonic() - started, 3),
        "changed_files": changed,
        "workspace": str(workspace),
        "evaluation": evaluation,
        "started_at": started_at,
        "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "arena_version": agentkernelarena.__version__,
    }
    result["agent_outcome"] = agent_outcome({**result, "agent_outcome": None})
    _warn_agent(result)
    write_json_atomic(trial_dir / "trial.json", result)
    return result
