"""The workspace of every instruction2triton task gives the agent a specification, never the
answer.

An instruction2triton task ships a correct Triton kernel in solution/ (what the `oracle` agent
applies) and a skeleton as its editable kernel.py. For each bundled task this materializes the
workspace an agent would get and checks that:

- no file in it holds the solution: not its source text, nor the body of any of its
  @triton.jit functions (compared with whitespace and comments normalized away);
- its editable entry does not compute the function: called on the task's first CPU
  configuration (Triton's interpreter) it raises or returns a result the task's own comparison
  rejects. (A skeleton that raises on its first call would fail `aka tasks check`, which
  requires a skeleton to build and run; the bundled skeletons launch a kernel that writes
  zeros.)

So a task whose kernel.py is (or contains) the solution fails here; the last test shows it on a
copy of a task whose kernel.py is its solution (as is, and with renamed kernels).
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path
from typing import Any

import pytest
import torch

from agentkernelarena.evaluate.compare import compare_values
from agentkernelarena.tasks.loader import discover_tasks, load_task
from agentkernelarena.workspace.materialize import materialize

TASKS = [t for t in discover_tasks() if t.category == "instruction2triton"]


def _code_only(text: str) -> str:
    """The source without comments, docstrings or whitespace differences."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return re.sub(r"\s+", "", text)
    kept = []
    previous = None
    for tok in tokens:
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                        tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER):
            continue
        # A string statement right after a definition or at the start is a docstring.
        if tok.type == tokenize.STRING and (previous is None or previous.string == ":"):
            previous = tok
            continue
        kept.append(tok.string)
        previous = tok
    return "".join(kept)


def _is_triton_jit(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ast.unparse(target) in ("triton.jit", "jit", "triton.autotune", "autotune")


def _jit_bodies(source: str) -> list[tuple[str, str]]:
    """(name, normalized body) of every @triton.jit function of a solution file."""
    tree = ast.parse(source)
    bodies = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(_is_triton_jit(d)
                                                     for d in node.decorator_list):
            body = "\n".join(ast.get_source_segment(source, stmt, padded=True) or ""
                             for stmt in node.body)
            bodies.append((node.name, _code_only(body)))
    return bodies


def _workspace_texts(root: Path) -> dict[str, str]:
    texts = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            try:
                texts[str(path.relative_to(root))] = path.read_text()
            except UnicodeDecodeError:
                texts[str(path.relative_to(root))] = path.read_bytes().decode("latin-1")
    return texts


def _load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def test_there_are_instruction_tasks():
    assert TASKS, "no bundled instruction2triton task found"


def _assert_no_solution(task: Any, workspace: Path) -> None:
    solution_dir = task.solution_dir
    texts = _workspace_texts(workspace)
    assert not any(part == "solution" for rel in texts for part in Path(rel).parts)
    if solution_dir is None:  # no known answer shipped (withdrawn: slower than the baseline)
        return
    normalized = {rel: _code_only(text) for rel, text in texts.items()}
    flat = {rel: re.sub(r"\s+", "", text) for rel, text in texts.items()}
    for rel in task.editable:
        solution_text = (solution_dir / rel).read_text()
        whole = re.sub(r"\s+", "", solution_text)
        for name, text in flat.items():
            assert whole not in text, f"{task.id}: workspace file {name} holds solution/{rel}"
        bodies = _jit_bodies(solution_text)
        assert bodies, f"{task.id}: solution/{rel} has no @triton.jit function"
        for fn, body in bodies:
            for name, text in normalized.items():
                assert body not in text, (f"{task.id}: workspace file {name} holds the body of "
                                          f"the solution's kernel {fn}")


def _interpret(monkeypatch: Any) -> None:
    """Triton's interpreter for kernels defined from here on: the variable, and the knob that an
    earlier test of the session may have set in this process (Triton 3.9 reads the knob)."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    import triton

    knobs = getattr(triton, "knobs", None)
    if knobs is not None and hasattr(knobs.runtime, "interpret"):
        monkeypatch.setattr(knobs.runtime, "interpret", True)


def _assert_entry_not_computing(task: Any, workspace: Path, allow_raise: bool = True) -> None:
    """Call the workspace's entry (under Triton's interpreter: TRITON_INTERPRET=1 must be set)
    on the first CPU configuration: it must raise or fail the task's comparison."""
    configs = task.cpu_visible or task.visible
    inputs = _load(workspace / task.inputs.file, f"ws_inputs_{task.name}")
    reference = _load(workspace / task.reference.file, f"ws_reference_{task.name}")
    entry = _load(workspace / task.entry.file, f"ws_entry_{task.name}")
    args = getattr(inputs, task.inputs.function)(configs[0].params, 11, "cpu")
    ref_args = tuple(a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                     for a in args) if task.reference_upcast else args
    with torch.no_grad():
        expected = getattr(reference, task.reference.function)(*ref_args)
        try:
            got = getattr(entry, task.entry.function)(*args)
        except Exception:  # a skeleton that raises computes nothing: what we want
            if allow_raise:
                return
            raise
    tolerances = {k: (v.atol, v.rtol) for k, v in task.tolerance.items()}
    assert compare_values(got, expected, tolerances) is not None, (
        f"{task.id}: the workspace's {task.entry.file} already computes the function")


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_workspace_holds_no_solution(task, tmp_path: Path):
    assert task.skeleton, f"{task.id}: an instruction task starts from a skeleton"
    _assert_no_solution(task, materialize(task, tmp_path / "ws", "cpu"))


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_workspace_entry_does_not_compute_the_function(task, tmp_path: Path, monkeypatch):
    _interpret(monkeypatch)
    _assert_entry_not_computing(task, materialize(task, tmp_path / "ws", "cpu"))


def _shipped_answer(task: Any, tmp_path: Path, disguise: bool) -> Any:
    """A copy of `task` whose editable kernel.py is its solution (renamed kernels, extra
    comments and blank lines with `disguise`)."""
    root = tmp_path / "tasks" / task.category / task.name
    shutil.copytree(task.root, root)
    answer = (task.solution_dir / "kernel.py").read_text()
    if disguise:
        for name, _ in _jit_bodies(answer):
            answer = re.sub(rf"\b{name}\b", f"{name}_renamed", answer)
        answer = answer.replace("\n\n\n", "\n\n\n# a helper, written by me\n\n")
    (root / "kernel.py").write_text(answer)
    return load_task(root)


@pytest.mark.parametrize("disguise", [False, True])
def test_the_checks_catch_a_shipped_answer(tmp_path: Path, monkeypatch, disguise):
    task = _shipped_answer(next(t for t in TASKS if t.solution_dir), tmp_path, disguise)
    workspace = materialize(task, tmp_path / "ws", "cpu")
    with pytest.raises(AssertionError, match="holds"):
        _assert_no_solution(task, workspace)
    # In a fresh process: Triton's interpreter state is per process, and earlier tests of the
    # session may have left it otherwise.
    script = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
              "from agentkernelarena.tasks.loader import load_task; "
              "import test_instruction_workspaces as t; "
              "t._assert_entry_not_computing(load_task(Path(sys.argv[2])), Path(sys.argv[3]), "
              "allow_raise=False)")
    done = subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent),
                           str(task.root), str(workspace)], capture_output=True, text=True,
                          env={**os.environ, "TRITON_INTERPRET": "1"}, timeout=300)
    assert done.returncode != 0 and "already computes" in done.stderr, done.stderr[-2000:]
