"""Every check of a run before anything starts, all problems reported at once.

    plan = prepare(config, resume)       # this module: all checks, nothing written
    outcome = execute(plan)              # runner/run.py

Everything that can be wrong with a run (an unknown agent or setting, an agent that is not
installed or not logged in, a selector that matches nothing, a platform this machine lacks, no
sandbox, an output folder that holds another run) is found here, before a folder is created or
an agent started, so that a mistake costs one error listing all of them instead of an hour of
wasted trials, or three runs to find three mistakes. A check that depends on an earlier one
(the output folder needs the tasks) is skipped while that one fails.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from agentkernelarena.agents.registry import AgentSpec
from agentkernelarena.errors import AkaError, ProblemList
from agentkernelarena.platforms import Platform, get_platform
from agentkernelarena.runner.config import RunConfig, check_complete, identity, no_sandbox_error
from agentkernelarena.runner.plan import RunPlan, TrialKey, check_out_folder, default_out
from agentkernelarena.tasks import discover_tasks, select_tasks
from agentkernelarena.tasks.spec import Task
from agentkernelarena.tasks.upstream_cache import ready as upstream_ready
from agentkernelarena.workspace import sandbox as sandboxing

log = logging.getLogger(__name__)
T = TypeVar("T")


def _attempt(problems: ProblemList, check: Callable[[], T], field: str | None = None
             ) -> T | None:
    """check(), or None with its AkaError added to `problems`."""
    try:
        return check()
    except AkaError as exc:
        problems.add(exc, field)
        return None


def check_sandbox(config: RunConfig, agents: dict[str, Any]) -> None:
    """With the sandbox on, every agent that runs code (all but the in-process ones) needs a
    working bubblewrap: refused here, before any trial starts, instead of running unsandboxed."""
    if config.sandbox == "off":
        return
    programs = [label for label, agent in agents.items()
                if not getattr(agent, "in_process", False)]
    if not programs:
        return
    status = sandboxing.bwrap_status()
    if not status.available:
        raise no_sandbox_error(programs, status.reason)


VISIBLE_ROOTS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/dev", "/proc")


def command_path_warnings(config: RunConfig) -> list[str]:
    """`command` agents whose command names an absolute path the sandbox will not show (only
    the workspace, system folders and the arena's Python are visible): the trial's agent would
    fail on every iteration with "not found". A warning, not a refusal: a path can be made
    visible in other ways (a system install)."""
    import shlex
    from pathlib import Path

    if config.sandbox == "off":
        return []
    roots = [Path(r) for r in VISIBLE_ROOTS] + sandboxing.python_paths()
    out = []
    for spec in config.agents:
        cmd = str(spec.args.get("cmd") or "") if spec.name == "command" else ""
        try:
            words = shlex.split(cmd)
        except ValueError:
            words = cmd.split()
        hidden = [w for w in words if w.startswith("/")
                  and not any(Path(w) == r or r in Path(w).parents for r in roots)]
        if hidden:
            out.append(f"agent {spec.label or spec.name}: its command names "
                       f"{', '.join(hidden[:3])}, which the sandbox does not show (it shows "
                       "the workspace, system folders and the arena's Python): the agent "
                       "would fail with 'not found'; put the program in a system folder or "
                       "give a path inside the workspace, or run with --sandbox off")
    return out


def agent_ready(label: str, spec: AgentSpec, agent: Any) -> None:
    """What `aka agents doctor` checks: AkaError when the agent is not installed or its
    credentials are known to be missing (every trial would end as an agent error); other
    doctor problems (a version that cannot be read) are warnings."""
    doctor = getattr(agent, "doctor", None)
    if doctor is None:
        return
    try:
        report = doctor()
    except Exception as exc:  # a third-party adapter's doctor: its failure is the agent's
        raise AkaError(f"agent {label} ({spec.name}): `aka agents doctor` failed: "
                       f"{type(exc).__name__}: {exc}") from None
    found = "; ".join(p["problem"] for p in report.problems)
    fixes = "; ".join(p["fix"] for p in report.problems if p.get("fix"))
    if not report.installed or report.authenticated is False:
        what = "is not installed" if not report.installed else "is not authenticated"
        raise AkaError(f"agent {label} ({spec.name}) {what}" + (f": {found}" if found else ""),
                       (fixes + "; " if fixes else "") + f"`aka agents doctor {spec.name}` "
                       "checks it; --skip-agent-check starts the run anyway")
    if report.problems:
        log.warning("agent %s (%s): %s", label, spec.name, found)


def check_agents(config: RunConfig, problems: ProblemList | None = None,
                 agent_check: bool = True) -> dict[str, AgentSpec]:
    """Each agent exists, its settings parse, its own validate() passes, it is installed and
    authenticated (`agent_check`); the sandbox the agents need can be made."""
    collect = problems if problems is not None else ProblemList()
    agents: dict[str, AgentSpec] = {}
    created: dict[str, Any] = {}
    for spec in config.agents:
        label = spec.label or spec.name
        agent = _attempt(collect, spec.create, "agents")  # unknown agent or setting
        if agent is None:
            continue
        if _attempt(collect, lambda a=agent: getattr(a, "validate", lambda: None)() or True,
                    "agents") is None:
            continue
        if agent_check and _attempt(collect, lambda a=agent, s=spec, n=label:
                                    agent_ready(n, s, a) or True, "agents") is None:
            continue
        agents[label], created[label] = spec, agent
    _attempt(collect, lambda: check_sandbox(config, created), "sandbox")
    for warning in command_path_warnings(config):
        log.warning("%s", warning)
    if problems is None:
        collect.raise_all()
    return agents


def check_tasks(config: RunConfig, problems: ProblemList | None = None) -> dict[str, Task]:
    """The tasks the selectors match; every selector that matches nothing is a problem."""
    collect = problems if problems is not None else ProblemList()
    for folder in config.tasks_dirs:
        if not folder.is_dir():
            collect.add(AkaError(f"tasks dir {folder}: not a folder"), "tasks_dirs")
    chosen: dict[str, Task] = {}
    if "tasks_dirs" not in collect.fields:
        known = _attempt(collect, lambda: discover_tasks(config.tasks_dirs), "tasks_dirs")
        for selector in config.tasks if known is not None else []:
            matched = _attempt(collect, lambda s=selector: select_tasks([s], known), "tasks")
            chosen.update({t.id: t for t in matched or []})
    if problems is None:
        collect.raise_all()
    return {k: chosen[k] for k in sorted(chosen)}


def check_limits(config: RunConfig) -> None:
    if config.executor == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise AkaError("--executor ray: Ray is not installed",
                           "pip install 'agentkernelarena[ray]' (or pip install ray)") from None
    elif config.ray_address:
        raise AkaError("--ray-address is only for --executor ray")


def _check_devices(config: RunConfig, platform: Platform) -> None:
    if config.executor == "local":
        from agentkernelarena.runner.gpus import make_slots

        make_slots(platform, config.gpus, config.eval_concurrency)  # GPUs there? --gpus valid?
    elif config.gpus:
        raise AkaError("--gpus is for the local executor", "Ray decides where evaluations run")


def _resumed_seed(config: RunConfig, manifest: dict[str, Any] | None) -> None:
    """`--resume --seed N` where N is the seed the run drew for itself: the same run."""
    if manifest is None or config.seed is None:
        return
    if (manifest.get("identity") or {}).get("seed") is None and \
            config.seed == manifest.get("run_seed"):
        config.seed = None


def prepare(config: RunConfig, resume: bool = False, retry_errors: bool = False,
            problems: ProblemList | None = None, agent_check: bool = True) -> RunPlan:
    """Validate everything and plan the trials; creates nothing on disk. Every problem found
    (with those already in `problems`, e.g. the config's own) raises at once."""
    collect = problems if problems is not None else ProblemList()
    check_complete(config, collect)
    agents = check_agents(config, collect, agent_check)
    tasks = check_tasks(config, collect)
    platform = _attempt(collect, lambda: get_platform(config.platform), "platform")
    _attempt(collect, lambda: check_limits(config), "executor")
    if platform is not None:
        _attempt(collect, lambda: _check_devices(config, platform), "gpus")
        for task in tasks.values():  # repository tasks: the pinned release cached, platform fit
            _attempt(collect, lambda t=task: upstream_ready(t, platform.name), "tasks")
    if resume and config.out is None:
        collect.add(AkaError("--resume needs --out: the run folder to continue"), "out")
    if collect or platform is None:
        collect.raise_all()
    assert platform is not None
    out = (config.out or default_out(config)).resolve()
    manifest = _peek_manifest(out)
    if resume:
        _resumed_seed(config, manifest)
    ident = identity(config, list(tasks), platform.name)
    manifest = check_out_folder(out, resume, ident)
    if manifest is not None:
        run_seed = int(manifest["run_seed"])
    else:
        run_seed = config.seed if config.seed is not None else secrets.randbelow(2**31 - 1)
    # Attempt-major order: an interrupted run has every agent on the same trials (fair A/B),
    # and more attempts on resume only add trials at the end.
    trials = [TrialKey(label, task_id, attempt) for attempt in range(config.attempts)
              for task_id in tasks for label in agents]
    plan = RunPlan(config=config, out=out, platform=platform, agents=agents, tasks=tasks,
                   trials=trials, identity=ident, run_seed=run_seed, manifest=manifest,
                   retry_errors=retry_errors)
    if manifest is not None:
        planned = [p["id"] for p in manifest.get("plan", [])]
        if planned != [k.id for k in trials][:len(planned)]:
            raise AkaError(f"output folder {out}: its planned trials differ from this config's",
                           "resume with `aka run --resume --out DIR` alone")
    if config.executor == "ray":
        from agentkernelarena.runner.ray_executor import connect

        connect(plan)  # an unreachable cluster or one without GPUs fails here, not mid-run
    return plan


def _peek_manifest(out: Any) -> dict[str, Any] | None:
    from agentkernelarena.runner.manifest import read_manifest

    try:
        return read_manifest(out) if out.is_dir() else None
    except AkaError:
        return None  # check_out_folder reports it
