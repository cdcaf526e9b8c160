"""`aka tasks import kernelbench`: KernelBench-convention problem files -> task folders.

One task per problem file (or per `*.py` file of a folder). The problem file is kept verbatim as
`problem.py`; `kb_harness.py` runs it (reference, inputs, baseline) with configurations that set
its int constants. A problem is written only when everything about it worked: it parses, its
model builds, it runs on the CPU at small sizes deterministically, its outputs depend on the
inputs, and scaled sizes for held-out configurations keep its structure. Otherwise it is listed
with the reason and nothing of it is written.

Problem files are Python and are executed here, as KernelBench itself does: import only files
you would run.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.importers import kb_configs as cfg
from agentkernelarena.tasks.importers.kb_files import (
    CATEGORY_LANGUAGE,
    TOLERANCE,
    Converted,
    task_files,
)
from agentkernelarena.tasks.importers.kb_parse import MIN_SIZE, Unconvertible, parse_problem
from agentkernelarena.tasks.scaffold import write_task_folder

CATEGORIES = tuple(CATEGORY_LANGUAGE)
_SEEDS = (11, 12)


@dataclass
class ImportReport:
    imported: list[dict[str, str]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"imported": self.imported, "skipped": self.skipped}


def problem_files(sources: list[Path]) -> list[Path]:
    files: list[Path] = []
    for source in sources:
        if source.is_dir():
            files += sorted(p for p in source.glob("*.py") if p.name != "__init__.py")
        elif source.is_file():
            files.append(source)
        else:
            raise AkaError(f"{source}: no such file or folder", "pass problem files or folders")
    return files


def _tensors(args: tuple) -> list[torch.Tensor]:
    return [a for a in args if isinstance(a, torch.Tensor)]


def _validate(problem: Any, values: dict[str, int], n_inputs: int) -> bool:
    """What `aka tasks check` would object to, found before anything is written. Returns
    whether the float64 reference agrees with the model at its own precision."""
    a1, again, a2 = (problem.make_inputs(values, s, "cpu") for s in (_SEEDS[0], *_SEEDS))
    if any(not torch.equal(x, y) for x, y in zip(_tensors(a1), _tensors(again), strict=True)):
        raise Unconvertible("get_inputs() is not reproducible from torch.manual_seed (does it "
                            "use another random generator?)")
    if all(torch.equal(x, y) for x, y in zip(_tensors(a1), _tensors(a2), strict=True)):
        raise Unconvertible("get_inputs() gives the same inputs for every seed")
    for index, x in enumerate(a1[:n_inputs]):
        if isinstance(x, torch.Tensor) and x.is_floating_point() and x.numel() > 1 \
                and bool((x == x.flatten()[0]).all()):
            raise Unconvertible(f"get_inputs() input {index} is constant")
    before = [t.clone() for t in _tensors(a1)]
    try:
        out = cfg.outputs_of(problem.run(a1, clone_inputs=False))
    except Unconvertible:
        raise
    except Exception as exc:
        raise Unconvertible(f"forward fails on the CPU at {values}: "
                            f"{type(exc).__name__}: {exc}") from None
    if any(not torch.equal(x, y) for x, y in zip(before, _tensors(a1), strict=True)):
        raise Unconvertible("forward modifies its inputs in place")
    repeat = cfg.outputs_of(problem.run(a1, clone_inputs=True))
    other = cfg.outputs_of(problem.run(a2, clone_inputs=True))
    for index, (o, r, p) in enumerate(zip(out, repeat, other, strict=True)):
        if not torch.equal(o, r):
            raise Unconvertible("forward is not deterministic (dropout or other random ops?)")
        if o.is_floating_point() and not bool(torch.isfinite(o).all()):
            raise Unconvertible(f"output {index} has NaN or inf at {values}")
        if o.numel() > 1 and bool((o == o.flatten()[0]).all()):
            raise Unconvertible(f"output {index} is constant at {values}")
        if torch.equal(o, p):
            raise Unconvertible(f"output {index} does not change with the inputs")
    return _upcast_agrees(problem, a1, out)


def _upcast_agrees(problem: Any, args: tuple, out: list[torch.Tensor]) -> bool:
    wide = tuple(a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)
    try:
        ref = cfg.outputs_of(problem.run(wide, clone_inputs=True))
    except Exception:  # an op without float64 support: the reference runs at model precision
        return False
    for o, r in zip(out, ref, strict=True):
        tol = TOLERANCE.get(str(o.dtype).removeprefix("torch."))
        if o.shape != r.shape or (tol is None and not torch.equal(o, r.to(o.dtype))):
            return False
        if tol is not None and not torch.allclose(o.double(), r.double(), **tol):
            return False
    return True


def _input_names(model: torch.nn.Module, n_inputs: int) -> list[str]:
    try:
        params = [p for p in inspect.signature(model.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    if len(params) >= n_inputs:
        return [p.name for p in params[:n_inputs]]
    return [f"input{i}" for i in range(n_inputs)]


def convert(path: Path, category: str) -> Converted:
    parsed = parse_problem(path)
    if not parsed.sizes:
        raise Unconvertible("no size constant to scale for held-out configurations (int "
                            f"constants {parsed.constants} are all below {MIN_SIZE} or named "
                            "like kernel sizes, strides, axes)")
    file_values = dict(parsed.constants)
    try:
        inputs, model = cfg.meta_model(parsed, file_values)
    except Exception as exc:
        raise Unconvertible(f"get_inputs() or Model(*get_init_inputs()) fails: "
                            f"{type(exc).__name__}: {exc}") from None
    state = [n for n, _ in model.named_parameters()] + [n for n, _ in model.named_buffers()]
    problem = cfg.harness().Problem(path, list(file_values), len(inputs), state)
    notes: list[str] = []
    try:
        meta: cfg.Shape | None = cfg.meta_shape(parsed, file_values)
    except Unconvertible:
        raise
    except Exception as exc:
        if not isinstance(exc, NotImplementedError) and "meta" not in str(exc).lower():
            raise Unconvertible(f"forward fails at the file's own sizes: "
                                f"{type(exc).__name__}: {str(exc).splitlines()[0]}") from None
        meta = None
        notes.append(f"forward does not run on the meta device ({type(exc).__name__}), so the "
                     "held-out GPU configurations are the small CPU ones")
    cpu_values, cpu_shape = cfg.cpu_visible(file_values, parsed.sizes, problem, meta)
    cpu_held = cfg.held_out(cpu_values, parsed.sizes, cfg.CPU_FACTORS,
                            lambda v: cfg.cpu_shape(problem, v), cpu_shape)
    if not cpu_held:
        raise Unconvertible("no scaled size keeps the problem running on the CPU (held-out "
                            f"configurations scale {', '.join(parsed.sizes)})")
    held = cfg.held_out(file_values, parsed.sizes, cfg.GPU_FACTORS,
                        lambda v: cfg.meta_shape(parsed, v), meta) if meta is not None else []
    if meta is not None and not held:
        notes.append("no scaled GPU size keeps the problem's structure; the held-out GPU "
                     "configurations are the small CPU ones")
    upcast = all([_validate(problem, v, len(inputs)) for v in [cpu_values, *cpu_held]])
    if not upcast:
        notes.append("reference_upcast is off: in float64 the model fails or differs beyond "
                     "the tolerance")
    return Converted(parsed=parsed, category=category, input_names=_input_names(model,
                     len(inputs)), state=state, visible=[file_values],
                     held_out=held or cpu_held, cpu_visible=[cpu_values],
                     cpu_held_out=cpu_held, cpu_shape=cpu_shape, reference_upcast=upcast,
                     notes=notes)


def import_kernelbench(sources: list[Path], out_dir: Path,
                       category: str = "torch2cuda") -> ImportReport:
    """Import every problem of `sources` into `out_dir/<category>/<name>/`."""
    if category not in CATEGORIES:
        raise AkaError(f"cannot import KernelBench problems as '{category}'",
                       f"use one of {', '.join(CATEGORIES)}")
    report = ImportReport()
    for path in problem_files(sources):
        try:
            converted = convert(path, category)
            dest = Path(out_dir) / category / converted.parsed.name
            if dest.exists():
                raise Unconvertible(f"{dest} already exists")
            write_task_folder(task_files(converted), dest)
        except Unconvertible as exc:
            report.skipped.append({"source": str(path), "reason": str(exc)})
            continue
        except AkaError as exc:
            report.skipped.append({"source": str(path), "reason": exc.message})
            continue
        except Exception as exc:  # the problem's own code failed somewhere unforeseen
            report.skipped.append({"source": str(path), "reason": "conversion failed: "
                                   f"{type(exc).__name__}: {str(exc)[:500]}"})
            continue
        report.imported.append({"source": str(path), "task": converted.task_id,
                                "path": str(dest)})
    return report
