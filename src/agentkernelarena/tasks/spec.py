"""The typed task spec (docs/task-format.md), validated when task.yaml is read.

Every error names the file, the field and what to do, because task authors (people and import
scripts) fix them from the message alone.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkernelarena.errors import TaskError
from agentkernelarena.tasks.draws import DrawSpec, draw_configs, parse_draw_spec
from agentkernelarena.tasks.upstream import Upstream, check_editable, parse_upstream

CATEGORIES = (
    "triton2triton",
    "hip2hip",
    "torch2hip",
    "cuda2cuda",
    "torch2cuda",
    "torch2triton",
    "instruction2triton",
    "repository",
)
LANGUAGES = ("triton", "hip", "cuda", "torch")
TORCH_DTYPES = (
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "uint8",
    "int16",
    "int32",
    "int64",
    "bool",
    "float8_e4m3fn",
    "float8_e5m2",
)
DEFAULT_TIMEOUTS = {"compile": 300.0, "correctness": 300.0, "performance": 300.0, "agent": 3600.0}

_REQUIRED = ("id", "category", "language", "description", "entry", "editable", "reference",
             "inputs", "configs", "tolerance")
_OPTIONAL = ("reference_upcast", "in_place", "bytes", "flops", "timeouts", "tags", "hardware_notes",
             "baseline", "context", "precision", "min_bytes", "wrong_variants", "input_checks",
             "soundness_skip", "skeleton", "upstream")
# Peak-rate classes of the speed-of-light bound (evaluate/speed_of_light.py).
PRECISIONS = ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8")
_CONFIG_SETS = ("visible", "held_out", "held_out_draws", "cpu")


@dataclass(frozen=True)
class Config:
    """One input configuration: named parameters for `make_inputs`."""

    name: str
    params: dict[str, Any]
    # Drawn at evaluation time from `held_out_draws` (tasks/draws.py), not fixed in the task.
    drawn: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, **self.params}


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float


@dataclass(frozen=True)
class FileRef:
    """`file.py:function`, relative to the task folder."""

    file: str
    function: str

    def __str__(self) -> str:
        return f"{self.file}:{self.function}"


@dataclass
class Task:
    id: str
    category: str
    language: str
    description: str
    entry: FileRef
    editable: list[str]
    reference: FileRef
    inputs: FileRef
    visible: list[Config]
    held_out: list[Config]
    cpu_visible: list[Config]
    cpu_held_out: list[Config]
    tolerance: dict[str, Tolerance]
    root: Path
    reference_upcast: bool = True
    in_place: bool = False
    bytes_expr: str | None = None
    flops_expr: str | None = None
    timeouts: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))
    tags: list[str] = field(default_factory=list)
    hardware_notes: str = ""
    held_out_draws: DrawSpec | None = None
    cpu_held_out_draws: DrawSpec | None = None
    # What the candidate is timed against; default: the entry of the pristine task. torch2*
    # tasks name their eager PyTorch operator (baseline.py:forward) here.
    baseline: FileRef | None = None
    # Pristine files the agent may read but not change (copied into the workspace read-only),
    # e.g. a native task's binding.cpp.
    context: list[str] = field(default_factory=list)
    # The pristine editable files are a starting point that does not compute the function yet
    # (imported tasks): `aka tasks check` then runs the baseline in the candidate's place.
    skeleton: bool = False
    # Soundness (tasks/soundness.py, docs/task-format.md): the peak-rate class of the flops
    # bound (None: each configuration's dtype decides), a function of the inputs giving the
    # bytes a correct kernel must move, functions computing known-wrong variants, functions
    # saying which stated rules the inputs exercise, and generic variants that do not apply.
    precision: str | None = None
    min_bytes: FileRef | None = None
    wrong_variants: list[FileRef] = field(default_factory=list)
    input_checks: list[FileRef] = field(default_factory=list)
    soundness_skip: dict[str, str] = field(default_factory=dict)
    # `repository` tasks: the pinned upstream release whose target files are the editable ones
    # (tasks/upstream.py); the package lives in the cache, never in the task folder.
    upstream: Upstream | None = None

    @property
    def name(self) -> str:
        return self.id.split("/", 1)[1]

    @property
    def solution_dir(self) -> Path | None:
        path = self.root / "solution"
        return path if path.is_dir() else None

    def configs_for(self, platform: str, split: str, draw_seed: int | None = None) -> list[Config]:
        """The configurations one platform evaluates: the CPU uses its small ones when present.
        Held-out sets get the configurations drawn with `draw_seed` appended."""
        if split not in ("visible", "held_out"):
            raise ValueError(f"unknown split {split!r}")
        small = platform == "cpu" and bool(self.cpu_visible if split == "visible"
                                             else self.cpu_held_out)
        if split == "visible":
            return self.cpu_visible if small else self.visible
        fixed = self.cpu_held_out if small else self.held_out
        spec = self.cpu_held_out_draws if platform == "cpu" and small else self.held_out_draws
        if draw_seed is None or spec is None:
            return fixed
        return fixed + [Config(name, params, drawn=True)
                        for name, params in draw_configs(spec, draw_seed)]

    @property
    def held_out_count(self) -> int:
        return len(self.held_out) + (self.held_out_draws.count if self.held_out_draws else 0)

    def public_json(self) -> dict[str, Any]:
        """What `aka tasks show` prints: everything an agent may know, never held-out configs."""
        return {
            "id": self.id,
            "category": self.category,
            "language": self.language,
            "description": self.description,
            "entry": str(self.entry),
            "reference": str(self.reference),
            "editable": list(self.editable),
            "visible_configs": [c.to_json() for c in self.visible],
            "cpu_visible_configs": [c.to_json() for c in self.cpu_visible],
            "held_out_count": self.held_out_count,
            "tolerance": {k: {"atol": v.atol, "rtol": v.rtol} for k, v in self.tolerance.items()},
            "in_place": self.in_place,
            "has_solution": self.solution_dir is not None,
            "skeleton": self.skeleton,
            "bytes": self.bytes_expr,
            "flops": self.flops_expr,
            "tags": list(self.tags),
            "path": str(self.root),
            **({"upstream": self.upstream.to_json()} if self.upstream else {}),
        }


def config_name(params: dict[str, Any]) -> str:
    return "-".join(f"{k}{v}" if k != "dtype" else str(v) for k, v in params.items())


def _fail(where: Path, field_name: str, problem: str, hint: str | None = None) -> TaskError:
    return TaskError(f"{where}: field '{field_name}': {problem}", hint)


def _parse_file_ref(raw: Any, where: Path, field_name: str) -> FileRef:
    if not isinstance(raw, str) or raw.count(":") != 1:
        raise _fail(where, field_name, f"expected 'file.py:function', got {raw!r}")
    file, function = raw.split(":")
    if not file.endswith(".py") or not function.isidentifier():
        raise _fail(where, field_name, f"expected 'file.py:function', got {raw!r}")
    return FileRef(file, function)


def _parse_file_refs(raw: Any, where: Path, field_name: str) -> list[FileRef]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(where, field_name, "expected a list of 'file.py:function'")
    return [_parse_file_ref(item, where, f"{field_name}[{i}]") for i, item in enumerate(raw)]


def _parse_configs(raw: Any, where: Path, field_name: str, required: bool) -> list[Config]:
    if raw is None and not required:
        return []
    if not isinstance(raw, list) or (required and not raw):
        raise _fail(where, field_name, "expected a non-empty list of configurations")
    configs: list[Config] = []
    for index, item in enumerate(raw):
        label = f"{field_name}[{index}]"
        if not isinstance(item, dict):
            raise _fail(where, label, f"expected a mapping of parameters, got {item!r}")
        params = {str(k): v for k, v in item.items() if k != "name"}
        if not params:
            raise _fail(where, label, "a configuration needs at least one parameter")
        dtype = params.get("dtype")
        if dtype is not None and dtype not in TORCH_DTYPES:
            close = difflib.get_close_matches(str(dtype), TORCH_DTYPES, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"one of {', '.join(TORCH_DTYPES)}"
            raise _fail(where, f"{label}.dtype", f"unknown dtype {dtype!r}", hint)
        name = str(item.get("name") or config_name(params))
        configs.append(Config(name=name, params=params))
    names = [c.name for c in configs]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise _fail(where, field_name, f"duplicate configuration names {duplicated}")
    return configs


def _parse_tolerance(raw: Any, where: Path) -> dict[str, Tolerance]:
    if not isinstance(raw, dict) or not raw:
        raise _fail(where, "tolerance", "expected a mapping dtype -> {atol, rtol}")
    result: dict[str, Tolerance] = {}
    for dtype, spec in raw.items():
        if dtype not in TORCH_DTYPES:
            raise _fail(where, f"tolerance.{dtype}", "unknown dtype")
        if not isinstance(spec, dict) or set(spec) != {"atol", "rtol"}:
            raise _fail(where, f"tolerance.{dtype}", "expected {atol: number, rtol: number}")
        try:
            atol, rtol = float(spec["atol"]), float(spec["rtol"])
        except (TypeError, ValueError):
            raise _fail(where, f"tolerance.{dtype}", "atol and rtol must be numbers") from None
        if atol < 0 or rtol < 0:
            raise _fail(where, f"tolerance.{dtype}", "atol and rtol must not be negative")
        result[str(dtype)] = Tolerance(atol, rtol)
    return result


def _check_keys(raw: dict[str, Any], allowed: tuple[str, ...], where: Path, prefix: str) -> None:
    for key in raw:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known fields: {', '.join(allowed)}"
            raise _fail(where, f"{prefix}{key}", "unknown field", hint)


def parse_task(raw: Any, task_yaml: Path) -> Task:
    """Build a `Task` from the parsed YAML of `task_yaml`, or raise `TaskError`."""
    if not isinstance(raw, dict):
        raise TaskError(f"{task_yaml}: expected a mapping of fields at the top level")
    _check_keys(raw, _REQUIRED + _OPTIONAL, task_yaml, "")
    for key in _REQUIRED:
        if key not in raw:
            raise _fail(task_yaml, key, "missing", "see docs/task-format.md for every field")

    task_id = raw["id"]
    if not isinstance(task_id, str) or task_id.count("/") != 1:
        raise _fail(task_yaml, "id", f"expected 'category/name', got {task_id!r}")
    category, language = raw["category"], raw["language"]
    if category not in CATEGORIES:
        raise _fail(task_yaml, "category", f"unknown category {category!r}",
                    f"one of {', '.join(CATEGORIES)}")
    if task_id.split("/")[0] != category:
        raise _fail(task_yaml, "id", f"must start with its category '{category}/'")
    if language not in LANGUAGES:
        raise _fail(task_yaml, "language", f"unknown language {language!r}",
                    f"one of {', '.join(LANGUAGES)}")
    if not isinstance(raw["description"], str) or not raw["description"].strip():
        raise _fail(task_yaml, "description", "expected a non-empty text")

    editable = raw["editable"]
    if not isinstance(editable, list) or not editable or not all(
        isinstance(p, str) and p and not Path(p).is_absolute() and ".." not in Path(p).parts
        for p in editable
    ):
        raise _fail(task_yaml, "editable", "expected a non-empty list of relative file paths")

    configs = raw["configs"]
    if not isinstance(configs, dict):
        raise _fail(task_yaml, "configs", "expected a mapping with 'visible' and 'held_out'")
    _check_keys(configs, _CONFIG_SETS, task_yaml, "configs.")
    cpu = configs.get("cpu") or {}
    if not isinstance(cpu, dict):
        raise _fail(task_yaml, "configs.cpu", "expected a mapping with 'visible' and 'held_out'")
    _check_keys(cpu, ("visible", "held_out", "held_out_draws"), task_yaml, "configs.cpu.")

    timeouts = dict(DEFAULT_TIMEOUTS)
    raw_timeouts = raw.get("timeouts") or {}
    if not isinstance(raw_timeouts, dict):
        raise _fail(task_yaml, "timeouts", "expected a mapping")
    _check_keys(raw_timeouts, tuple(DEFAULT_TIMEOUTS), task_yaml, "timeouts.")
    for key, value in raw_timeouts.items():
        if not isinstance(value, (int, float)) or value <= 0:
            raise _fail(task_yaml, f"timeouts.{key}", "expected a positive number of seconds")
        timeouts[key] = float(value)

    for key in ("bytes", "flops"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            raise _fail(task_yaml, key, "expected a Python expression as a string")

    precision = raw.get("precision")
    if precision is not None and precision not in PRECISIONS:
        raise _fail(task_yaml, "precision", f"unknown precision class {precision!r}",
                    f"one of {', '.join(PRECISIONS)}")
    skip = raw.get("soundness_skip") or {}
    if not isinstance(skip, dict) or not all(
            isinstance(v, str) and v.strip() for v in skip.values()):
        raise _fail(task_yaml, "soundness_skip", "expected a mapping variant -> reason (text)")

    task = Task(
        id=task_id,
        category=category,
        language=language,
        description=raw["description"].strip(),
        entry=_parse_file_ref(raw["entry"], task_yaml, "entry"),
        editable=[str(p) for p in editable],
        reference=_parse_file_ref(raw["reference"], task_yaml, "reference"),
        inputs=_parse_file_ref(raw["inputs"], task_yaml, "inputs"),
        visible=_parse_configs(configs.get("visible"), task_yaml, "configs.visible", True),
        held_out=_parse_configs(configs.get("held_out"), task_yaml, "configs.held_out", True),
        cpu_visible=_parse_configs(cpu.get("visible"), task_yaml, "configs.cpu.visible", False),
        cpu_held_out=_parse_configs(cpu.get("held_out"), task_yaml, "configs.cpu.held_out", False),
        tolerance=_parse_tolerance(raw["tolerance"], task_yaml),
        root=task_yaml.parent,
        reference_upcast=bool(raw.get("reference_upcast", True)),
        in_place=bool(raw.get("in_place", False)),
        bytes_expr=raw.get("bytes"),
        flops_expr=raw.get("flops"),
        timeouts=timeouts,
        tags=[str(t) for t in raw.get("tags") or []],
        hardware_notes=str(raw.get("hardware_notes") or ""),
        held_out_draws=parse_draw_spec(configs.get("held_out_draws"), task_yaml,
                                       "configs.held_out_draws"),
        cpu_held_out_draws=parse_draw_spec(cpu.get("held_out_draws"), task_yaml,
                                           "configs.cpu.held_out_draws"),
        baseline=(_parse_file_ref(raw["baseline"], task_yaml, "baseline")
                  if raw.get("baseline") is not None else None),
        context=[str(p) for p in raw.get("context") or []],
        skeleton=bool(raw.get("skeleton", False)),
        precision=precision,
        min_bytes=(_parse_file_ref(raw["min_bytes"], task_yaml, "min_bytes")
                   if raw.get("min_bytes") is not None else None),
        wrong_variants=_parse_file_refs(raw.get("wrong_variants"), task_yaml, "wrong_variants"),
        input_checks=_parse_file_refs(raw.get("input_checks"), task_yaml, "input_checks"),
        soundness_skip={str(k): str(v) for k, v in skip.items()},
        upstream=(parse_upstream(raw["upstream"], task_yaml)
                  if raw.get("upstream") is not None else None),
    )
    if (task.category == "repository") != (task.upstream is not None):
        raise _fail(task_yaml, "upstream", "a repository task needs 'upstream', and only a "
                    "repository task may have one", "see docs/task-format.md#repository-tasks")
    if task.upstream is not None:
        check_editable(task.upstream, task.editable, task_yaml)
        if task.entry.file in task.editable:
            raise _fail(task_yaml, "entry", "a repository task's entry is the arena's wrapper "
                        "around the upstream function: it must not be editable")
    if task.entry.file in {task.reference.file}:
        raise _fail(task_yaml, "entry", "the entry and the reference must be different files")
    if task.reference.file in task.editable or task.inputs.file in task.editable:
        raise _fail(task_yaml, "editable", "the reference and inputs files must not be editable")
    if task.baseline is not None and task.baseline.file in task.editable:
        raise _fail(task_yaml, "baseline", "the baseline must not be an editable file")
    if task.skeleton and task.baseline is None:
        raise _fail(task_yaml, "skeleton", "a skeleton task needs a 'baseline' that computes "
                    "the function (the check runs it in the skeleton's place)")
    if set(task.context) & set(task.editable):
        raise _fail(task_yaml, "context", "context files are read-only: not editable ones")
    return task
