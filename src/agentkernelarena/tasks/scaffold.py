"""`aka tasks new CATEGORY/NAME`: a task folder that passes `aka tasks check` as generated.

Every category gets the same small operator (out = x * alpha + y) in the shape its bundled tasks
have (docs/task-format.md, docs/native.md), so that an author starts from something that works
and edits the reference, the inputs, the configurations and the kernel into their own operator.
The templates are package data under `templates/tasks/new/`.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from agentkernelarena.errors import AkaError
from agentkernelarena.tasks.loader import load_task
from agentkernelarena.tasks.spec import CATEGORIES

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


@dataclass(frozen=True)
class Layout:
    """How a category's task is laid out: its language, its kernel source, its baseline."""

    language: str
    source: str | None  # the native source the agent edits (None: a Triton kernel.py)
    eager_baseline: bool  # torch2* / instruction2*: timed against PyTorch eager (baseline.py)


LAYOUTS = {
    "triton2triton": Layout("triton", None, False),
    "torch2triton": Layout("triton", None, True),
    "instruction2triton": Layout("triton", None, True),
    "cuda2cuda": Layout("cuda", "kernel.cu", False),
    "torch2cuda": Layout("cuda", "kernel.cu", True),
    "hip2hip": Layout("hip", "kernel.hip", False),
    "torch2hip": Layout("hip", "kernel.hip", True),
}


def template_text(*parts: str) -> str:
    """A file of templates/tasks/; those with ${placeholders} end in .tmpl (not Python yet)."""
    base = resources.files("agentkernelarena").joinpath("templates", "tasks", *parts[:-1])
    exact = base.joinpath(parts[-1])
    return (exact if exact.is_file() else base.joinpath(parts[-1] + ".tmpl")).read_text()


def _render(text: str, values: dict[str, str]) -> str:
    return Template(text).safe_substitute(values)


def parse_task_id(task_id: str) -> tuple[str, str]:
    if task_id.count("/") != 1:
        raise AkaError(f"'{task_id}' is not CATEGORY/NAME", "e.g. `aka tasks new torch2cuda/my_op`")
    category, name = task_id.split("/")
    if category not in CATEGORIES:
        raise AkaError(f"unknown category '{category}'", f"one of {', '.join(CATEGORIES)}")
    if category not in LAYOUTS:
        raise AkaError(f"`aka tasks new` cannot scaffold a '{category}' task yet",
                       "repository tasks name a pinned upstream source and a target in it; "
                       "their format comes with the repository-tasks issue")
    if not _NAME.match(name):
        raise AkaError(f"task name '{name}' must be lower case letters, digits and '_', "
                       "starting with a letter", "it also names the C launcher of native tasks")
    return category, name


def _task_yaml(task_id: str, category: str, layout: Layout) -> str:
    native = layout.source is not None
    editable = f"[{layout.source}]" if native else "[kernel.py]"
    lines = [
        f"id: {task_id}",
        f"category: {category}",
        f"language: {layout.language}",
        "description: >-",
        "  out = x * alpha + y over a 1-D tensor of N elements (alpha = 1.5), in float32",
        "  arithmetic. Replace this with what your operator computes, in words a kernel author",
        "  understands, and say what the agent starts from.",
        "entry: kernel.py:forward",
        f"editable: {editable}",
    ]
    if native:
        lines.append("context: [binding.cpp, kernel.py]")
    lines += ["reference: reference.py:reference", "inputs: reference.py:make_inputs"]
    if layout.eager_baseline:
        lines.append("baseline: baseline.py:forward")
    dtypes = ["float32"] if native else ["float32", "float16"]
    big, odd = dtypes[0], dtypes[-1]
    lines += [
        "configs:",
        "  visible:                      # GPU sizes: the baseline runs 0.05-20 ms on an H200",
        f"    - {{N: 33554432, dtype: {big}}}",
        f"    - {{N: 8388608, dtype: {odd}}}",
        "  held_out:                     # never shown to the agent: other, odd sizes",
        f"    - {{N: 30000001, dtype: {big}}}",
        f"    - {{N: 4194305, dtype: {odd}}}",
        "  held_out_draws:",
        "    count: 1",
        "    params: {N: {int: [1000000, 60000000]}, dtype: {choice: [" + ", ".join(dtypes)
        + "]}}",
        "  cpu:                          # small sizes for the CPU platform",
        f"    visible: [{{N: 4096, dtype: {big}}}, {{N: 1000, dtype: {odd}}}]",
        f"    held_out: [{{N: 3001, dtype: {big}}}, {{N: 77, dtype: {odd}}}]",
        "tolerance:",
        "  float32: {atol: 1.0e-5, rtol: 1.0e-5}",
    ]
    if not native:
        lines.append("  float16: {atol: 1.0e-3, rtol: 1.0e-3}")
    lines += ['bytes: "3 * N * size(dtype)"', 'flops: "2 * N"', "tags: [scaffold]"]
    return "\n".join(lines) + "\n"


def scaffold_files(task_id: str) -> dict[str, str]:
    """The files of a new task, by relative path."""
    category, name = parse_task_id(task_id)
    layout = LAYOUTS[category]
    values = {"task_id": task_id, "name": name, "source": layout.source or ""}
    files = {"task.yaml": _task_yaml(task_id, category, layout),
             "reference.py": _render(template_text("new", "reference.py"), values)}
    if layout.eager_baseline:
        files["baseline.py"] = _render(template_text("new", "baseline.py"), values)
    if layout.source is None:
        files["kernel.py"] = _render(template_text("new", "kernel_triton.py"), values)
    else:
        files["kernel.py"] = _render(template_text("new", "kernel_native.py"), values)
        files[layout.source] = _render(template_text("new", layout.source), values)
        files["binding.cpp"] = _render(template_text("new", "binding.cpp"), values)
    return files


def write_task_folder(files: dict[str, str], dest: Path) -> None:
    """Write all files into a temporary folder beside `dest`, load it as a task (the spec's
    checks), then move it into place: a task folder is either whole and valid, or absent."""
    if dest.exists():
        raise AkaError(f"{dest} already exists", "pick another name or --out folder")
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}-", dir=dest.parent))
    try:
        for rel, text in files.items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            (staging / rel).write_text(text)
        load_task(staging)
        staging.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def new_task(task_id: str, out_dir: Path) -> Path:
    """Scaffold `task_id` under `out_dir/<category>/<name>/`; returns the folder."""
    category, name = parse_task_id(task_id)
    dest = Path(out_dir) / category / name
    write_task_folder(scaffold_files(task_id), dest)
    return dest
