"""The files of an imported task: task.yaml, the harness, the reference, baseline and skeleton."""

from __future__ import annotations

import keyword
import re
import textwrap
from dataclasses import dataclass
from string import Template
from typing import Any

import yaml

from agentkernelarena.tasks.importers.kb_configs import Shape
from agentkernelarena.tasks.importers.kb_parse import ParsedProblem
from agentkernelarena.tasks.scaffold import template_text

CATEGORY_LANGUAGE = {"torch2cuda": "cuda", "torch2hip": "hip", "torch2triton": "triton"}
NATIVE_SOURCE = {"cuda": "kernel.cu", "hip": "kernel.hip"}
# By the output's dtype; the reference runs in float64 (reference_upcast) where it can.
TOLERANCE = {
    "float64": {"atol": 1.0e-7, "rtol": 1.0e-7},
    "float32": {"atol": 1.0e-3, "rtol": 1.0e-3},
    "bfloat16": {"atol": 2.0e-2, "rtol": 2.0e-2},
    "float16": {"atol": 1.0e-2, "rtol": 1.0e-2},
}


@dataclass
class Converted:
    """Everything about one problem that the files are written from."""

    parsed: ParsedProblem
    category: str
    input_names: list[str]
    state: list[str]
    visible: list[dict[str, int]]
    held_out: list[dict[str, int]]
    cpu_visible: list[dict[str, int]]
    cpu_held_out: list[dict[str, int]]
    cpu_shape: Shape
    reference_upcast: bool
    notes: list[str]

    @property
    def task_id(self) -> str:
        return f"{self.category}/{self.parsed.name}"


def identifiers(names: list[str]) -> list[str]:
    """Python argument names for `names` (parameter paths like `linear.weight`), unique."""
    out: list[str] = []
    for raw in names:
        name = re.sub(r"\W", "_", raw) or "arg"
        if name[0].isdigit() or keyword.iskeyword(name):
            name = f"_{name}"
        while name in out:
            name += "_"
        out.append(name)
    return out


def _arguments(c: Converted, names: list[str]) -> str:
    detail = c.cpu_shape.detail
    described = detail["inputs"] + detail["state"] + [repr(c.cpu_visible[0][k])
                                                       for k in c.parsed.constants]
    kinds = (["get_inputs()"] * len(c.input_names) + [f"parameter {s}" for s in c.state]
             + ["size constant"] * len(c.parsed.constants))
    rows = [f"  {n}: {kind}, e.g. {d}" for n, kind, d in zip(names, kinds, described,
                                                               strict=True)]
    return "\n".join(rows) + f"\n(examples at the CPU configuration {c.cpu_visible[0]})"


def _skeleton(c: Converted, values: dict[str, str]) -> dict[str, str]:
    language = CATEGORY_LANGUAGE[c.category]
    if language == "triton":
        return {"kernel.py": Template(template_text("kernelbench", "skeleton_triton.py"))
                .safe_substitute(values)}
    source = NATIVE_SOURCE[language]
    values = {**values, "source": source, "language": language.upper()}
    return {
        "kernel.py": Template(template_text("kernelbench", "skeleton_native.py"))
        .safe_substitute(values),
        source: Template(template_text("kernelbench", f"skeleton{source[6:]}"))
        .safe_substitute(values),
        "binding.cpp": Template(template_text("kernelbench", "skeleton_binding.cpp"))
        .safe_substitute(values),
    }


def _configs(items: list[dict[str, int]]) -> list[dict[str, int]]:
    return [dict(v) for v in items]


def task_yaml(c: Converted, editable: list[str]) -> str:
    language = CATEGORY_LANGUAGE[c.category]
    shown = "Triton" if language == "triton" else language.upper()
    description = (
        f"Imported from the KernelBench-convention problem {c.parsed.path.name} (problem.py, "
        f"read-only): compute what its Model.forward computes, with {shown} kernels. The entry "
        "receives the values of get_inputs(), then the parameters and buffers of the model "
        "(seeded per evaluation), then the int constants of the problem (kb_harness.py has the "
        "layout). The baseline is the PyTorch model itself, run eagerly (baseline.py). "
        "kernel.py starts as a skeleton that is wired to its kernels but does not compute the "
        "function yet.")
    raw: dict[str, Any] = {
        "id": c.task_id, "category": c.category, "language": language,
        "description": description,
        "entry": "kernel.py:forward", "editable": editable,
        "context": ["problem.py", "kb_harness.py"],
        "reference": "reference.py:reference", "baseline": "baseline.py:forward",
        "inputs": "reference.py:make_inputs", "skeleton": True,
        "reference_upcast": c.reference_upcast,
        "configs": {"visible": _configs(c.visible), "held_out": _configs(c.held_out),
                    "cpu": {"visible": _configs(c.cpu_visible),
                            "held_out": _configs(c.cpu_held_out)}},
        "tolerance": TOLERANCE,
        "tags": ["kernelbench", "imported"],
    }
    header = "".join(f"# {note}\n" for note in
                     [f"Written by `aka tasks import kernelbench` from {c.parsed.path}."]
                     + c.notes)
    return header + yaml.safe_dump(raw, sort_keys=False, width=100)


def task_files(c: Converted) -> dict[str, str]:
    constants = list(c.parsed.constants)
    names = identifiers(c.input_names + c.state + constants)
    first_tensor = next((n for n, kind in zip(names, c.cpu_shape.inputs, strict=False)
                         if "[" in kind), names[0])
    values = {
        "task_id": c.task_id, "constants": repr(constants), "n_inputs": str(len(c.input_names)),
        "state": repr(c.state), "signature": textwrap.fill(", ".join(names), width=86,
                                   subsequent_indent=" " * 12), "first": first_tensor,
        "arguments": _arguments(c, names),
        "returns": ", ".join(c.cpu_shape.detail["outputs"]) + " at that configuration",
    }
    files = {
        "problem.py": c.parsed.source,
        "kb_harness.py": template_text("kernelbench", "kb_harness.py"),
        "reference.py": Template(template_text("kernelbench", "reference.py"))
        .safe_substitute(values),
        "baseline.py": Template(template_text("kernelbench", "baseline.py"))
        .safe_substitute(values),
        **_skeleton(c, values),
    }
    editable = [f for f in ("kernel.py", "kernel.cu", "kernel.hip", "binding.cpp") if f in files]
    files["task.yaml"] = task_yaml(c, editable)
    return files
