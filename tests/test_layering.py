"""The package's floors (CONTRIBUTING.md, "Layout"): data flows down

    cli -> runner -> agents -> workspace -> tasks -> evaluate -> native

and no module imports one that imports it back, lazily or not. A knot between floors is how a
change in the evaluator starts to depend on how agents are launched; these tests keep new ones
from coming in unnoticed. `report` and `rl` sit above the floors they read (runs, evaluations);
the task model (what a task *is*: its spec, draws, pins and release cache) is the one thing the
evaluator reads from the floor above it, because evaluating a task needs its definition.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import agentkernelarena

PACKAGE = Path(agentkernelarena.__file__).resolve().parent
FLOORS = ["cli", "runner", "agents", "workspace", "tasks", "evaluate", "native"]
ABOVE_THE_FLOORS = {"report": "runner", "rl": "runner"}  # lowest floor that may import them
TASK_MODEL = {"agentkernelarena.tasks", "agentkernelarena.tasks.spec",
              "agentkernelarena.tasks.draws", "agentkernelarena.tasks.upstream",
              "agentkernelarena.tasks.repository", "agentkernelarena.tasks.upstream_cache",
              "agentkernelarena.tasks.package_index"}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ("suites", "templates"):  # task files, not the arena
            continue
        name = ".".join(("agentkernelarena", *rel.with_suffix("").parts))
        found[name.removesuffix(".__init__")] = path
    return found


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Every arena module each module imports, at the top or inside a function."""
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.append(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in graph.items():
        floor = _package(module)
        if floor not in FLOORS:
            continue
        for target in sorted(targets):
            other = _package(target)
            if other in FLOORS and FLOORS.index(other) < FLOORS.index(floor):
                if not (floor == "evaluate" and target in TASK_MODEL):
                    found.append(f"{module} imports {target} (floor {other} is above {floor})")
            elif other in ABOVE_THE_FLOORS and FLOORS.index(floor) > FLOORS.index(
                    ABOVE_THE_FLOORS[other]):
                found.append(f"{module} imports {target} ({other} sits above {floor})")
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert _cycles(_imports(_modules())) == []


def test_every_floor_imports_only_the_floors_below_it() -> None:
    assert _violations(_imports(_modules())) == []


def test_the_checks_can_fail() -> None:
    """The rules on a made-up graph: a cycle and an upward import are both found."""
    graph = {"agentkernelarena.evaluate.a": {"agentkernelarena.workspace.b",
                                             "agentkernelarena.tasks.spec"},
             "agentkernelarena.workspace.b": {"agentkernelarena.evaluate.a"},
             "agentkernelarena.native.c": {"agentkernelarena.report.d"}}
    assert _cycles(graph) == [["agentkernelarena.evaluate.a", "agentkernelarena.workspace.b"]]
    assert _violations(graph) == [
        "agentkernelarena.evaluate.a imports agentkernelarena.workspace.b "
        "(floor workspace is above evaluate)",
        "agentkernelarena.native.c imports agentkernelarena.report.d (report sits above native)"]
