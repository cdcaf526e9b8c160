"""A run's configuration: from a YAML file, from flags, or both (flags win), checked field by field.

    agents: [{name: claude_code, label: sonnet, args: {model: claude-sonnet-4-5}}, {name: noop}]
    tasks: ["triton2triton/*"]
    attempts: 3

The fields split in two. The *identity* (agents, tasks, attempts, platform, limits, seed, label,
timing) decides what the results mean: a run folder belongs to one identity, and `--resume`
refuses a different one, so results of two experiments never mix. The *scheduling* fields
(concurrency, GPUs, executor) only decide how fast it goes and may change between sessions.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from agentkernelarena.agents.registry import AgentSpec
from agentkernelarena.errors import AkaError, ProblemList

log = logging.getLogger(__name__)
EXECUTORS = ("local", "ray")
# on: every agent that runs code runs under bubblewrap, and a run without a working one is
# refused; off: agents run unsandboxed, on purpose (they can read held-out configurations).
SANDBOX_MODES = ("on", "off")
# Older names, still read (old run configs and the manifests `--resume` reuses): both mean on.
SANDBOX_ALIASES = {"required": "on", "auto": "on"}
DEPRECATED_SANDBOX = {"auto"}  # `auto` used to fall back to no sandbox; it now means `on`
LABEL_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
# Fields that decide what the results mean (compared on --resume); the rest only schedule.
IDENTITY = ("agents", "task_ids", "attempts", "platform", "max_iterations", "time_limit_s",
            "sandbox", "seed", "label", "timing", "vs_compile")


@dataclass
class RunConfig:
    agents: list[AgentSpec] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)  # selectors: id, glob, category, tag, 'all'
    tasks_dirs: list[Path] = field(default_factory=list)
    attempts: int = 1
    platform: str | None = None  # None: this machine's GPU, else cpu (resolved when planned)
    max_iterations: int = 3
    time_limit_s: float | None = None  # None: each task's own agent timeout
    sandbox: str = "on"
    seed: int | None = None  # None: drawn once per run and recorded in the manifest
    label: str | None = None
    timing: dict[str, Any] | None = None  # evaluation timing overrides (quick runs, tests)
    vs_compile: bool = False  # torch2* tasks: also time final solutions against torch.compile
    out: Path | None = None
    # Scheduling: may differ between sessions of one run.
    concurrency: int | None = None  # trials at once (agents working); default: evaluation slots
    eval_concurrency: int | None = None  # CPU platform: evaluations at once
    eval_lanes: int | None = None  # evaluations in flight per GPU, timed alone; default 1
    gpus: list[int] | None = None  # which of the visible GPUs to use; default all
    executor: str = "local"
    ray_address: str | None = None
    ray_eval_gpus: float | None = None  # GPUs per evaluation on Ray; default 1 (0 on cpu)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "agents":
                # The settings as given (typed), so that a resume re-reads them exactly;
                # identity() compares AgentSpec.to_json()'s string form instead.
                value = [{"name": a.name, "args": dict(a.args), "label": a.label or a.name}
                         for a in value]
            elif f.name == "tasks_dirs":
                value = [str(p) for p in value]
            elif isinstance(value, Path):
                value = str(value)
            out[f.name] = value
        return out


def _fail(source: str, name: str, problem: str, hint: str | None = None) -> AkaError:
    return AkaError(f"{source}: field '{name}': {problem}", hint)


def sandbox_mode(value: Any, source: str = "run options", warn: bool = True) -> str:
    """`on` or `off`, from a mode as written (old names included: `required` and `auto` are
    `on`; `auto` with a one-line deprecation warning, since it no longer falls back)."""
    if value is False:  # YAML 1.1 reads a bare `off` as false, `on` as true
        value = "off"
    elif value is True:
        value = "on"
    if value in SANDBOX_MODES:
        return str(value)
    if value in SANDBOX_ALIASES:
        if warn and value in DEPRECATED_SANDBOX:
            log.warning("%s: sandbox %r is deprecated and now means 'on' (agents always run "
                        "sandboxed; use 'off' to run them without)", source, value)
        return SANDBOX_ALIASES[value]
    raise _fail(source, "sandbox", f"{value!r} is not one of {', '.join(SANDBOX_MODES)}",
                "on (the default) or off")


def _positive_int(value: Any, source: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _fail(source, name, f"expected a positive integer, got {value!r}")
    return value


def _agents(raw: Any, source: str) -> list[AgentSpec]:
    if isinstance(raw, (str, dict)):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise _fail(source, "agents", "expected a list of agents (names or {name, args, label})")
    specs = []
    for index, item in enumerate(raw):
        where = f"agents[{index}]"
        if isinstance(item, dict):
            unknown = set(item) - {"name", "args", "label"}
            if unknown:
                raise _fail(source, where, f"unknown key(s) {', '.join(sorted(unknown))}",
                            "an agent has name, args and label")
            if not isinstance(item.get("name"), str):
                raise _fail(source, f"{where}.name", "expected the agent's name")
            if not isinstance(item.get("args") or {}, dict):
                raise _fail(source, f"{where}.args", "expected a mapping of settings")
            if item.get("label") is not None and not isinstance(item["label"], str):
                raise _fail(source, f"{where}.label", "expected a string")
        elif not isinstance(item, str):
            raise _fail(source, where, f"expected a name or {{name, args, label}}, got {item!r}")
        specs.append(AgentSpec.of(item))
    return specs


def _str_list(raw: Any, source: str, name: str) -> list[str]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(s, str) and s for s in raw):
        raise _fail(source, name, f"expected a list of strings, got {raw!r}")
    return list(raw)


def _path(raw: Any, base: Path | None) -> Path:
    path = Path(str(raw)).expanduser()
    return path if path.is_absolute() or base is None else base / path


def config_from_mapping(raw: dict[str, Any], source: str, base: Path | None = None,
                        problems: ProblemList | None = None) -> RunConfig:
    """A RunConfig from plain values (a parsed YAML file, or flags). Relative paths are taken
    relative to `base` (the config file's folder), so a config file works from anywhere.

    Every field is checked: with `problems`, each bad one is added there (and left at its
    default) and the rest still parsed; without, the first problem (or all) raise."""
    collect = problems if problems is not None else ProblemList()
    known = {f.name for f in fields(RunConfig)}
    unknown = sorted(set(raw) - known)
    if unknown:
        collect.add(AkaError(f"{source}: unknown field(s) {', '.join(unknown)}",
                             f"known fields: {', '.join(sorted(known))}"))
    config = RunConfig()
    for name, value in raw.items():
        if value is None or name not in known:
            continue
        try:
            _set_field(config, name, value, source, base)
        except AkaError as exc:
            collect.add(exc, name)
    if problems is None:
        collect.raise_all()
    return config


def _set_field(config: RunConfig, name: str, value: Any, source: str, base: Path | None
               ) -> None:
    if name == "agents":
        config.agents = _agents(value, source)
    elif name == "tasks":
        config.tasks = _str_list(value, source, name)
    elif name == "tasks_dirs":
        config.tasks_dirs = [_path(p, base) for p in _str_list(value, source, name)]
    elif name in ("attempts", "max_iterations", "concurrency", "eval_concurrency",
                  "eval_lanes"):
        setattr(config, name, _positive_int(value, source, name))
    elif name == "time_limit_s":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise _fail(source, name, f"expected seconds (a positive number), got {value!r}")
        config.time_limit_s = float(value)
    elif name in ("platform", "label", "ray_address"):
        if not isinstance(value, str):
            raise _fail(source, name, f"expected a string, got {value!r}")
        setattr(config, name, value)
    elif name == "sandbox":
        config.sandbox = sandbox_mode(value, source)
    elif name == "executor":
        if value not in EXECUTORS:
            raise _fail(source, name, f"{value!r} is not one of {', '.join(EXECUTORS)}")
        config.executor = value
    elif name == "seed":
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(source, name, f"expected an integer, got {value!r}")
        config.seed = value
    elif name == "vs_compile":
        if not isinstance(value, bool):
            raise _fail(source, name, f"expected true or false, got {value!r}")
        config.vs_compile = value
    elif name == "timing":
        if not isinstance(value, dict):
            raise _fail(source, name, "expected a mapping of timing overrides")
        config.timing = dict(value)
    elif name == "out":
        config.out = _path(value, base)
    elif name == "gpus":
        items = [value] if isinstance(value, int) else value
        if not isinstance(items, list) or not all(
                isinstance(g, int) and not isinstance(g, bool) and g >= 0 for g in items):
            raise _fail(source, name, f"expected GPU indices, got {value!r}")
        config.gpus = sorted(set(items))
    elif name == "ray_eval_gpus":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise _fail(source, name, f"expected a number >= 0, got {value!r}")
        config.ray_eval_gpus = float(value)


def load_config_file(path: Path) -> dict[str, Any]:
    """The raw mapping of a YAML run config; errors name the file."""
    if not path.is_file():
        raise AkaError(f"run config {path}: no such file")
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}:" if mark is not None else ""
        raise AkaError(f"run config {path}:{line} not valid YAML: "
                       f"{getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(raw, dict):
        raise AkaError(f"run config {path}: expected a mapping of fields at the top level")
    return raw


def merge_config(file_raw: dict[str, Any] | None, file_path: Path | None,
                 overrides: dict[str, Any], problems: ProblemList | None = None) -> RunConfig:
    """The config file's fields with the flags that were given on top (flags win). With
    `problems`, bad fields are collected there instead of raised (see config_from_mapping)."""
    collect = problems if problems is not None else ProblemList()
    source = f"run config {file_path}" if file_path else "run options"
    base = file_path.resolve().parent if file_path else None
    config = config_from_mapping(dict(file_raw or {}), source, base, collect)
    given = {k: v for k, v in overrides.items() if v is not None}
    flags = config_from_mapping(given, "command line", None, collect)
    for name in given:
        setattr(config, name, getattr(flags, name))
    if problems is None:
        collect.raise_all()
    return config


def check_complete(config: RunConfig, problems: ProblemList | None = None) -> None:
    """What a run cannot start without; labels that name folders and report rows. Every
    problem goes to `problems` (without: the first raises). Fields already found invalid
    (`problems.fields`) are not reported again as missing."""
    collect = problems if problems is not None else ProblemList()
    if not config.agents and "agents" not in collect.fields:
        collect.add(AkaError("no agent given",
                             "pass --agent NAME, or `agents:` in a run config"), "agents")
    if not config.tasks and "tasks" not in collect.fields:
        collect.add(AkaError("no tasks given", "pass --tasks SELECTOR (an id, a glob like "
                             "'triton2triton/*', a category, or 'all'), or `tasks:` in a run "
                             "config"), "tasks")
    labels: dict[str, AgentSpec] = {}
    for spec in config.agents:
        label = spec.label or spec.name
        if not LABEL_RE.match(label) or "__" in label:
            collect.add(AkaError(f"agent label {label!r}: use letters, digits, '.', '-', '_' "
                                 "(no '__'), at most 64 characters"), "agents")
        elif label in labels:
            collect.add(AkaError(f"two agents have the label {label!r}",
                                 "give each agent of an A/B run its own `label` in the run "
                                 "config"), "agents")
        labels[label] = spec
        spec.label = label
    if config.label is not None and not LABEL_RE.match(config.label):
        collect.add(AkaError(f"run label {config.label!r}: use letters, digits, '.', '-', "
                             "'_'"), "label")
    if problems is None:
        collect.raise_all()


def identity(config: RunConfig, task_ids: list[str], platform: str) -> dict[str, Any]:
    """What a run folder's results mean; `--resume` requires it unchanged."""
    return {
        "agents": [a.to_json() for a in config.agents],
        "task_ids": list(task_ids),
        "attempts": config.attempts,
        "platform": platform,
        "max_iterations": config.max_iterations,
        "time_limit_s": config.time_limit_s,
        "sandbox": config.sandbox,
        "seed": config.seed,
        "label": config.label,
        "timing": config.timing,
        # Only when on, so that runs made before the option existed keep their identity.
        **({"vs_compile": True} if config.vs_compile else {}),
    }


def identity_diff(old: dict[str, Any], new: dict[str, Any], run_seed: int | None = None
                  ) -> list[str]:
    """Human-readable differences, e.g. "max_iterations: 3 -> 5". More attempts than recorded
    is no difference (resuming with --attempts N adds attempts); fewer is. `run_seed`: the
    seed the run drew for itself, named when a seed is given to a run that had none."""
    diffs = []
    for key in IDENTITY:
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if key == "attempts" and isinstance(before, int) and isinstance(after, int):
            if after > before:
                continue
            diffs.append(f"attempts: {before} -> {after} (attempts can be added to a run, "
                         "not removed)")
            continue
        if key == "seed" and before is None and run_seed is not None:
            diffs.append(f"seed: the run drew its own seed {run_seed} when it started -> "
                         f"{after!r} (leave --seed out, or pass --seed {run_seed})")
            continue
        if key == "sandbox" and before is not None and after is not None:
            try:  # a run recorded as `auto` or `required` is an `on` run
                if sandbox_mode(before, warn=False) == sandbox_mode(after, warn=False):
                    continue
            except AkaError:
                pass
        if key == "task_ids":
            gone = sorted(set(before or []) - set(after or []))
            added = sorted(set(after or []) - set(before or []))
            parts = ([f"{len(added)} added ({', '.join(added[:3])})"] if added else []) + \
                    ([f"{len(gone)} removed ({', '.join(gone[:3])})"] if gone else [])
            diffs.append("tasks: " + ("; ".join(parts) or "order changed"))
        elif key == "agents":
            diffs.append("agents: " + ", ".join(f"{a['label']}={a['name']}{a['args']}"
                                                for a in before or []) + " -> " +
                         ", ".join(f"{a['label']}={a['name']}{a['args']}" for a in after or []))
        else:
            diffs.append(f"{key}: {before!r} -> {after!r}")
    return diffs


def no_sandbox_error(agents: list[str], reason: str) -> AkaError:
    """Why agents that run code cannot be sandboxed here, and the two ways out."""
    return AkaError(f"agent(s) {', '.join(agents)} must run in a sandbox (--sandbox on, the "
                    f"default), and none can be made here: {reason}",
                    "install bubblewrap (`apt-get install -y bubblewrap`), or pass --sandbox "
                    "off (`sandbox: off` in a run config) to run the agents unsandboxed, "
                    "explicitly: they can then read the held-out configurations")
