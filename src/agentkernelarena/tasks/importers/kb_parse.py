"""Reading a KernelBench-convention problem file without running it (`ast`).

The convention: a `Model(nn.Module)` whose `__init__` takes the values of `get_init_inputs()`,
a `forward`, `get_inputs()`, and sizes as module-level int constants (`batch_size = 16`). The
constants become the task's configuration parameters; those that look like sizes are the ones
the importer scales for held-out and CPU configurations.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

# Constants that are not sizes even when large: scaling them changes the operator, not its size.
_NOT_SIZES = re.compile(r"(kernel|stride|pad|dilation|group|window|pool|layer|depth|axis|seed"
                        r"|iter|step)", re.IGNORECASE)
# Axes and small structural numbers (a reduction dim of 1, 3 input channels) stay as they are.
MIN_SIZE = 8


class Unconvertible(Exception):
    """A problem the importer cannot turn into a task; the message is the reason."""


@dataclass(frozen=True)
class ParsedProblem:
    path: Path
    name: str
    source: str
    constants: dict[str, int]  # every module-level int constant, in file order
    sizes: list[str]  # the constants the importer may scale
    has_init_inputs: bool


def task_name(path: Path) -> str:
    """`19_ReLU.py` -> `kb_19_relu`: lower case, '_' for anything else, never a leading digit."""
    stem = re.sub(r"[^a-z0-9_]+", "_", path.stem.lower()).strip("_") or "problem"
    name = stem if stem[0].isalpha() else f"kb_{stem}"
    return name[:64].rstrip("_")


def _int_constants(tree: ast.Module) -> tuple[dict[str, int], set[str]]:
    constants: dict[str, int] = {}
    reassigned: set[str] = set()
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name) and target.id in constants:
                reassigned.add(target.id)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Constant) and type(node.value.value) is int:
            constants.setdefault(node.targets[0].id, node.value.value)
    return constants, reassigned


def parse_problem(path: Path) -> ParsedProblem:
    """The problem's structure and constants, or `Unconvertible` with the reason."""
    try:
        source = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise Unconvertible(f"cannot read it: {exc}") from None
    try:
        tree = ast.parse(source, str(path))
    except SyntaxError as exc:
        raise Unconvertible(f"not valid Python: line {exc.lineno}: {exc.msg}") from None
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    if "Model" not in classes:
        raise Unconvertible("no class Model (the KernelBench convention: class Model(nn.Module))")
    methods = {n.name for n in classes["Model"].body if isinstance(n, ast.FunctionDef)}
    if "forward" not in methods:
        raise Unconvertible("Model defines no forward()")
    if "get_inputs" not in functions:
        raise Unconvertible("get_inputs() missing (it makes the forward's inputs)")
    constants, reassigned = _int_constants(tree)
    if reassigned:
        raise Unconvertible(f"sizes not constant: {', '.join(sorted(reassigned))} assigned more "
                            "than once at module level")
    if not constants:
        raise Unconvertible("sizes not constant: no module-level int constants "
                            "(write them as `batch_size = 16` and use them in get_inputs)")
    sizes = [name for name, value in constants.items()
             if value >= MIN_SIZE and not _NOT_SIZES.search(name)]
    return ParsedProblem(path=path, name=task_name(path), source=source, constants=constants,
                         sizes=sizes, has_init_inputs="get_init_inputs" in functions)
