"""Is a task's comparison able to tell wrong from right, and its bound honest? (`aka tasks check`)

Runs the task's own reference and inputs in this process (they are the task author's plain
PyTorch, like `aka tasks check`'s evaluation of the baseline), on every configuration of the
platform, and checks:

- known-wrong outputs (variants.py, plus the task's `wrong_variants`) are rejected by the same
  comparison and tolerances the evaluator uses (evaluate/compare.py);
- zeros are not within tolerance for a large share of the outputs;
- the `bytes` formula never counts more than a correct kernel must move (the task's
  `min_bytes` function, else every input read and every output written once), and the flops
  bound's precision class matches the data (an fp32 task must not get the tensor-core rate);
- the rules the description states are exercised by the inputs (`input_checks`).

What needs a GPU (time windows, headroom, the bound against measured times) is in timing.py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import torch

from agentkernelarena.evaluate import speed_of_light
from agentkernelarena.evaluate.compare import as_tensor_list, compare_values
from agentkernelarena.evaluate.loading import get_function, load_module
from agentkernelarena.evaluate.speed_of_light import evaluate_expression, precision_class
from agentkernelarena.evaluate.worker_support import clone_args, upcast_args
from agentkernelarena.tasks import variants
from agentkernelarena.tasks.spec import Config, FileRef, Task

SEED = 20261202
# Above this share of nonzero reference elements where 0 passes, a kernel may leave most of
# its output unwritten: the tolerance is too loose for the outputs' magnitude.
ZEROS_PASS_LIMIT = 0.25
TF32_BITS = 10


@dataclass
class _Code:
    reference: Any
    make_inputs: Any
    wrong: dict[str, Any]
    input_checks: list[Any]
    min_bytes: Any


@dataclass
class _Tally:
    """What the per-configuration passes found, gathered over configurations."""

    variants: dict[str, dict[str, Any]] = field(default_factory=dict)
    zeros_pass: dict[str, float] = field(default_factory=dict)
    rules: dict[str, list[str]] = field(default_factory=dict)
    bytes: dict[str, dict[str, float]] = field(default_factory=dict)
    tf32_passes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def variant(self, name: str, kind: str, config: str, rejected: bool) -> None:
        entry = self.variants.setdefault(name, {"kind": kind, "rejected_on": [],
                                                "passed_on": []})
        entry["rejected_on" if rejected else "passed_on"].append(config)


def _load(task: Task) -> _Code:
    package = "aka_soundness_" + hashlib.sha1(str(task.root).encode()).hexdigest()[:12]

    def fn(ref: FileRef) -> Any:
        return get_function(load_module(task.root, ref.file, package), ref.function, ref.file)

    return _Code(fn(task.reference), fn(task.inputs),
                 {f"{r.file}:{r.function}": fn(r) for r in task.wrong_variants},
                 [fn(r) for r in task.input_checks],
                 fn(task.min_bytes) if task.min_bytes else None)


def _as_tuple(value: Any) -> tuple[torch.Tensor, ...]:
    return tuple(as_tensor_list(tuple(value) if isinstance(value, list) else value))


def _configs(task: Task, platform: str) -> tuple[list[Config], list[Config]]:
    visible = task.configs_for(platform, "visible")
    return visible, task.configs_for(platform, "held_out", draw_seed=0)


def _tolerances(task: Task) -> dict[str, tuple[float, float]]:
    return {k: (v.atol, v.rtol) for k, v in task.tolerance.items()}


def _tol_of(tolerances: dict[str, tuple[float, float]], t: torch.Tensor) -> tuple[float, float]:
    return tolerances.get(str(t.dtype).removeprefix("torch."), (0.0, 0.0))


class _ConfigPass:
    """Every check of one configuration on one seed's inputs."""

    def __init__(self, task: Task, code: _Code, config: Config, device: str, tally: _Tally):
        self.task, self.code, self.config, self.tally = task, code, config, tally
        self.tolerances = _tolerances(task)
        args = code.make_inputs(dict(config.params), SEED, device)
        self.args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
        self.native = _as_tuple(code.reference(*clone_args(self.args)))
        self.ref = self._reference_of(self.args)
        self.good = tuple(r.to(n.dtype) for r, n in zip(self.ref, self.native, strict=True))

    def _reference_of(self, args: tuple[Any, ...], fn: Any = None) -> tuple[torch.Tensor, ...]:
        fn = fn or self.code.reference
        with torch.no_grad():
            return _as_tuple(fn(*(upcast_args(args) if self.task.reference_upcast
                                  else clone_args(args))))

    def _rejected(self, outputs: tuple[torch.Tensor, ...]) -> bool:
        cast = tuple(o.to(n.dtype) for o, n in zip(outputs, self.native, strict=True))
        return compare_values(cast, self.ref, self.tolerances) is not None

    def run(self, visible: bool) -> None:
        name = self.config.name
        if self._rejected(self.good):
            self.tally.problems.append(
                f"config {name}: the reference rounded to the output dtype fails its own "
                "tolerance: loosen tolerance to at least the dtype's rounding error")
            return
        self._generic()
        self._lower_precision()
        for label, fn in self.code.wrong.items():
            self.tally.variant(label, "declared", name,
                               self._rejected(self._reference_of(self.args, fn)))
        self._zeros_share()
        self._bytes()
        self._rules()
        self._tf32()

    def _generic(self) -> None:
        many = len(self.good) > 1
        for vname, mutate in variants.GENERIC.items():
            for index, g in enumerate(self.good):
                atol, rtol = _tol_of(self.tolerances, g)
                mutated = mutate(g, atol, rtol)
                if mutated is None or torch.equal(mutated, g):
                    continue
                outputs = self.good[:index] + (mutated,) + self.good[index + 1:]
                label = f"{vname}[output {index}]" if many else vname
                self.tally.variant(label, "generic", self.config.name, self._rejected(outputs))

    def _lower_precision(self) -> None:
        low = variants.lower_precision_inputs(self.args, self.native)
        if low is not None:
            self.tally.variant(variants.LOWER_PRECISION, "generic", self.config.name,
                               self._rejected(self._reference_of(low)))

    def _zeros_share(self) -> None:
        for index, r in enumerate(self.ref):
            atol, rtol = _tol_of(self.tolerances, self.native[index])
            share = variants.zeros_pass_share(r, self.native[index].dtype, atol, rtol)
            key = f"{self.config.name}" + (f"[output {index}]" if len(self.ref) > 1 else "")
            self.tally.zeros_pass[key] = round(share, 4)

    def _bytes(self) -> None:
        if not self.task.bytes_expr:
            return
        formula = evaluate_expression(self.task.bytes_expr, self.config.params)
        if self.code.min_bytes is not None:
            needed, source = float(self.code.min_bytes(dict(self.config.params), *self.args)), \
                "min_bytes"
        else:
            tensors = [a for a in self.args if isinstance(a, torch.Tensor)] + list(self.native)
            needed = float(sum(t.numel() * t.element_size() for t in tensors))
            source = "inputs read and outputs written once"
        self.tally.bytes[self.config.name] = {"formula": formula, "needed": needed}
        if formula > needed * (1 + 1e-9):
            self.tally.problems.append(
                f"config {self.config.name}: task.yaml 'bytes' counts {formula:.4g} bytes, more "
                f"than a correct kernel must move ({needed:.4g}: {source}); the speed-of-light "
                "guard would reject an honest fast kernel: count only what must be read/written")

    def _rules(self) -> None:
        for check in self.code.input_checks:
            found = check(dict(self.config.params), *self.args)
            if not isinstance(found, dict):
                raise TypeError(f"input check {check.__name__} returned {type(found).__name__}, "
                                "expected a dict rule -> bool")
            for rule, exercised in found.items():
                hits = self.tally.rules.setdefault(str(rule), [])
                if exercised:
                    hits.append(self.config.name)

    def _tf32(self) -> None:
        """An fp32-class flops bound is only honest if TF32 arithmetic fails the tolerance."""
        if not self.task.flops_expr or not _compute_bound(self.task, self.config) or \
                precision_class(self.task.precision, self.config.params) != "fp32":
            return
        if not any(isinstance(a, torch.Tensor) and a.dtype == torch.float32 for a in self.args):
            return
        low = tuple(variants.round_mantissa(a, TF32_BITS)
                    if isinstance(a, torch.Tensor) and a.dtype == torch.float32 else a
                    for a in self.args)
        if not self._rejected(self._reference_of(low)):
            self.tally.tf32_passes.append(self.config.name)


def _compute_bound(task: Task, config: Config) -> bool:
    """Whether the flops bound at the fp32 rate (the slowest class a task may get) would exceed
    the bytes bound on an H200: only then does the precision class decide the bound."""
    bandwidth = speed_of_light.PEAKS["H200"][0]
    flops = evaluate_expression(task.flops_expr, config.params) if task.flops_expr else 0.0
    moved = evaluate_expression(task.bytes_expr, config.params) if task.bytes_expr else 0.0
    return flops / speed_of_light.RATES["H200"]["fp32"] > moved / bandwidth


def _precision_problems(task: Task, configs: list[Config]) -> list[str]:
    """The flops bound's peak must be the data's: fp32 data at the fp16 tensor-core rate makes
    the guard blind, fp16 data at the fp32 rate rejects honest kernels."""
    if not task.flops_expr:
        return []
    problems = []
    for config in configs:
        declared = task.precision
        by_dtype = precision_class(None, config.params)
        if declared is None and by_dtype is None and _compute_bound(task, config):
            problems.append(f"config {config.name} has no dtype and task.yaml declares no "
                            "'precision': the flops bound falls back to the densest tensor-core "
                            "rate; declare precision (fp32, tf32, fp16, bf16, fp8, int8)")
            break
        if declared is None or by_dtype is None or declared in ("fp8", "int8"):
            continue
        if declared != by_dtype and not (declared == "tf32" and by_dtype == "fp32") \
                and {declared, by_dtype} != {"fp16", "bf16"}:
            problems.append(f"config {config.name}: dtype {config.params.get('dtype')} but "
                            f"precision {declared}: declare the class of the data's arithmetic")
            break
    return problems


def _skip(task: Task, name: str) -> str | None:
    base = name.split("[", 1)[0]
    return task.soundness_skip.get(name) or task.soundness_skip.get(base)


def _verdicts(task: Task, tally: _Tally, visible: list[Config],
              held: list[Config]) -> list[str]:
    """A variant is caught when it fails on a visible and on a held-out configuration: each
    split's verdict is the conjunction over its configurations, so one that tells suffices
    (a 7-element histogram cannot see rounded inputs; a larger configuration must)."""
    problems = []
    splits = (("visible", {c.name for c in visible}), ("held-out", {c.name for c in held}))
    for name, entry in tally.variants.items():
        reason = _skip(task, name)
        if reason:
            entry["skipped"] = reason
            continue
        applied = set(entry["rejected_on"]) | set(entry["passed_on"])
        blind = [split for split, names in splits
                 if applied & names and not set(entry["rejected_on"]) & names]
        entry["caught"] = not blind
        if not blind:
            continue
        what = "known-wrong variant" if entry["kind"] == "generic" else "declared wrong variant"
        hint = (f"if it cannot apply, give the reason in soundness_skip: "
                f"{{{name.split('[', 1)[0]}: ...}}" if entry["kind"] == "generic" else
                "add a configuration that tells it apart (e.g. float32)")
        where = " and every ".join(blind)
        problems.append(f"{what} '{name}' passes the comparison on every {where} configuration "
                        f"(e.g. {entry['passed_on'][:3]}): tighten the tolerance of that output's "
                        f"dtype or change the inputs or configurations; {hint}")
    for key, share in tally.zeros_pass.items():
        if share > ZEROS_PASS_LIMIT and not _skip(task, "zeros_pass"):
            problems.append(f"config {key}: zero is within tolerance for {share:.0%} of the "
                            "nonzero reference elements: use a relative tolerance (rtol) and an "
                            "atol below the outputs' typical magnitude")
    for rule, hits in tally.rules.items():
        if not hits:
            problems.append(f"the description's rule '{rule}' is exercised by no configuration's "
                            "inputs: make make_inputs exercise it, or add a configuration")
    if tally.tf32_passes and not _skip(task, "tf32"):
        problems.append(f"the float32 tolerance admits TF32 arithmetic on config(s) "
                        f"{tally.tf32_passes[:4]} while the flops bound uses the fp32 rate: "
                        "declare precision: tf32, or tighten the tolerance")
    return problems


def check_soundness(task: Task, platform: str, device: str) -> dict[str, Any]:
    """The CPU-side soundness report of one task: per-variant verdicts, zero-pass shares,
    byte counts, exercised rules, and problems (each naming the rule and what to change)."""
    tally = _Tally()
    visible, held = _configs(task, platform)
    try:
        code = _load(task)
    except Exception as exc:  # the task's files: report, never crash the whole check
        return {"problems": [f"soundness: cannot load the task's functions: "
                             f"{type(exc).__name__}: {exc}"]}
    tally.problems += _precision_problems(task, visible + held)
    if code.min_bytes is None and task.bytes_expr and not _skip(task, "min_bytes"):
        mask_check = True
    else:
        mask_check = False
    for config, is_visible in [(c, True) for c in visible] + [(c, False) for c in held]:
        try:
            step = _ConfigPass(task, code, config, device, tally)
            if mask_check and any(isinstance(a, torch.Tensor) and a.dtype == torch.bool
                                  for a in step.args):
                tally.problems.append(
                    "an input is a bool tensor (a mask?) but task.yaml declares no min_bytes: "
                    "masked elements need not be read, so give min_bytes: "
                    "reference.py:fn(config, *inputs) -> bytes a correct kernel must move "
                    "(or soundness_skip: {min_bytes: reason})")
                mask_check = False
            step.run(is_visible)
        except Exception as exc:  # a task's reference or hook that raises: name it, go on
            tally.problems.append(f"config {config.name}: the reference, inputs or a soundness "
                                  f"hook raised {type(exc).__name__}: {str(exc)[:300]}")
        finally:
            step = None  # noqa: F841 - free device memory before the next configuration
    tally.problems += _verdicts(task, tally, visible, held)
    return {"variants": tally.variants, "zeros_pass": tally.zeros_pass, "rules": tally.rules,
            "bytes": tally.bytes, "problems": tally.problems}
