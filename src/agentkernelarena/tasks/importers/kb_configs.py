"""Configurations of an imported problem: the file's own sizes, and scaled ones that still run.

GPU-sized configurations are checked on PyTorch's `meta` device (shapes only, no compute, no
memory), small CPU ones by running the model for real. A scaled configuration is kept only if
the problem keeps its structure there (the same inputs, parameter names and output dtypes).
"""

from __future__ import annotations

import importlib.util
import types
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import torch
from torch.func import functional_call

from agentkernelarena.tasks.importers.kb_parse import ParsedProblem, Unconvertible

# Elements (inputs, parameters, outputs) of a CPU configuration: the reference runs in float64
# on the CPU in well under a second.
CPU_BUDGET = 1 << 16
# Held-out sizes relative to the visible ones: smaller and larger, made odd (never a power of
# two, never a multiple of a block).
GPU_FACTORS = (0.75, 1.25)
CPU_FACTORS = (1.5, 0.6)


@cache
def harness() -> types.ModuleType:
    """kb_harness.py, the runtime every imported task carries, loaded from the package data."""
    path = resources.files("agentkernelarena").joinpath("templates", "tasks", "kernelbench",
                                                        "kb_harness.py")
    spec = importlib.util.spec_from_file_location("aka_kb_harness", str(path))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Shape:
    """What one configuration looks like: kinds of the inputs, the state, the outputs."""

    inputs: tuple[str, ...]
    state: tuple[tuple[str, str], ...]
    outputs: tuple[str, ...]
    elements: int
    detail: dict[str, list[Any]] = field(default_factory=dict, compare=False, hash=False)

    @property
    def structure(self) -> tuple[Any, ...]:
        return (self.inputs, self.state, self.outputs)


def _kind(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        return f"{str(value.dtype).removeprefix('torch.')}[{value.dim()}]"
    return type(value).__name__


def outputs_of(value: Any) -> list[torch.Tensor]:
    items = list(value) if isinstance(value, (tuple, list)) else [value]
    if not items or not all(type(v) is torch.Tensor for v in items):
        raise Unconvertible(f"forward returns {type(value).__name__}, not a tensor or a tuple "
                            "of tensors")
    return items


def _shape(inputs: list[Any], state: dict[str, torch.Tensor], out: Any) -> Shape:
    outs = outputs_of(out)
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)] + list(state.values()) + outs
    detail = {"inputs": [_describe(x) for x in inputs],
              "state": [_describe(t) for t in state.values()],
              "outputs": [_describe(t) for t in outs]}
    return Shape(tuple(_kind(x) for x in inputs),
                 tuple((n, str(t.dtype)) for n, t in state.items()),
                 tuple(_kind(t) for t in outs), sum(t.numel() for t in tensors), detail)


def _describe(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        return f"{str(value.dtype).removeprefix('torch.')}{list(value.shape)}"
    return repr(value)


def meta_model(parsed: ParsedProblem, values: dict[str, int]) -> tuple[list[Any], Any]:
    """The inputs and the model of one configuration on the meta device (no compute)."""
    module = harness().Problem(parsed.path, list(values), 0, []).module(values)
    with torch.device("meta"):
        inputs = list(module.get_inputs())
        init = list(module.get_init_inputs()) if parsed.has_init_inputs else []
        model = module.Model(*init)
    return inputs, model


def meta_shape(parsed: ParsedProblem, values: dict[str, int]) -> Shape:
    inputs, model = meta_model(parsed, values)
    state = {**dict(model.named_parameters()), **dict(model.named_buffers())}
    with torch.device("meta"), torch.no_grad():
        out = functional_call(model, state, tuple(inputs))
    return _shape(inputs, state, out)


def cpu_shape(problem: Any, values: dict[str, int]) -> Shape:
    """Runs the model on the CPU through the task's own harness (make_inputs, then run)."""
    args = problem.make_inputs(values, 1, "cpu")
    out = problem.run(args, clone_inputs=True)
    n = problem.n_inputs
    state = dict(zip(problem.state, args[n:n + len(problem.state)], strict=True))
    return _shape(list(args[:n]), state, out)


def _odd(value: float) -> int:
    v = max(1, round(value))
    return v if v % 2 else v + 1


def scaled(values: dict[str, int], sizes: list[str], factor: float, odd: bool = True,
           only: str | None = None) -> dict[str, int]:
    result = dict(values)
    for name in sizes:
        if only is None or name == only:
            raw = values[name] * factor
            result[name] = _odd(raw) if odd else max(1, round(raw))
    return result


def _try(check: Any, values: dict[str, int], reference: Shape) -> bool:
    try:
        shape = check(values)
    except Unconvertible:
        raise
    except Exception:  # a scaled size the problem does not allow: not a configuration
        return False
    return shape.structure == reference.structure


def _variants(base: dict[str, int], sizes: list[str], factor: float) -> list[dict[str, int]]:
    """All sizes scaled and odd; all scaled, parity kept; then one size at a time."""
    out = [scaled(base, sizes, factor), scaled(base, sizes, factor, odd=False)]
    out += [scaled(base, sizes, factor, only=name) for name in sizes]
    return [v for v in out if v != base]


def held_out(base: dict[str, int], sizes: list[str], factors: tuple[float, ...],
             check: Any, reference: Shape) -> list[dict[str, int]]:
    chosen: list[dict[str, int]] = []
    for factor in factors:
        for values in _variants(base, sizes, factor):
            if values not in chosen and _try(check, values, reference):
                chosen.append(values)
                break
    return chosen


def cpu_visible(file_values: dict[str, int], sizes: list[str], problem: Any,
                reference: Shape | None) -> tuple[dict[str, int], Shape]:
    """The largest joint scale-down (a power of two) that fits the CPU budget and runs with
    the structure of `reference` (without one: of the first size that runs)."""
    best: tuple[dict[str, int], Shape] | None = None
    for exponent in range(16, -1, -1):
        values = scaled(file_values, sizes, 2.0 ** -exponent, odd=False)
        try:
            shape = cpu_shape(problem, values)
        except Unconvertible:
            raise
        except Exception:
            continue
        reference = reference or shape
        if shape.structure != reference.structure:
            continue
        if shape.elements > CPU_BUDGET:
            best = best or (values, shape)
            break
        best = (values, shape)
    if best is None:
        raise Unconvertible("forward fails on the CPU at every size tried (the file's own "
                            "sizes scaled down by 2^-16 .. 1)")
    return best
