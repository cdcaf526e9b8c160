"""Finding a Triton file's tunable launch parameters with `ast`.

A parameter is one integer literal in the source that only sets *how* a kernel is launched:
a `tl.constexpr` argument of a `@triton.jit` kernel (a block size), `num_warps` or `num_stages`,
passed at a launch site `kernel[grid](...)` either as a literal or through a name bound to
literals (a local or module constant, also in the branches of a device test such as
`1024 if x.device.type == "cpu" else 256`), or an entry of a `triton.autotune` config list. A
launch that passes no `num_warps` / `num_stages` gets an *insert* parameter (the keyword is
added with a value). Anything computed (`triton.next_power_of_2(N)`, a function argument, a
loop variable) is not tunable and is listed as skipped, with why.

Standard library only: this package is copied next to the workspace and runs in the sandbox,
where the arena's own code is hidden.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

BLOCK, NUM_WARPS, NUM_STAGES = "block", "num_warps", "num_stages"
# Triton's defaults where a launch does not say (NVIDIA; AMD's num_stages default is 2).
DEFAULTS = {NUM_WARPS: 4, NUM_STAGES: 3}
CPU, GPU = "cpu", "gpu"
Pos = tuple[int, int, int, int]  # lineno, col_offset, end_lineno, end_col_offset (UTF-8 bytes)


@dataclass
class Param:
    """One tunable integer. `value` None: an insert parameter (the launch does not pass it)."""

    key: str
    file: str
    kind: str
    name: str
    value: int | None
    pos: Pos  # the literal's position; for an insert, the end of the launch's last argument
    device: str | None = None  # only matters on the CPU (interpreter) or only on a GPU
    uses: list[str] = field(default_factory=list)  # "kernel.param" it feeds
    call: Pos | None = None  # an insert's launch call
    empty_call: bool = False  # an insert into a launch without arguments

    @property
    def insert(self) -> bool:
        return self.value is None

    @property
    def start(self) -> int:
        return self.value if self.value is not None else DEFAULTS[self.kind]

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "file": self.file, "line": self.pos[0], "kind": self.kind,
                "name": self.name, "value": self.value, "device": self.device,
                "uses": self.uses, "insert": self.insert}


@dataclass
class Kernel:
    name: str
    params: list[str]
    constexprs: set[str]
    autotuned: bool
    has_loop: bool


@dataclass
class Found:
    params: list[Param]
    skipped: list[str]
    kernels: list[str]


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    return ""


def _is_int(node: ast.AST | None) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, int)
            and not isinstance(node.value, bool))


def _pos(node: ast.AST) -> Pos:
    line, col = node.lineno, node.col_offset  # type: ignore[attr-defined]
    return (line, col, node.end_lineno or line,  # type: ignore[attr-defined]
            node.end_col_offset or 0)  # type: ignore[attr-defined]


def device_branches(test: ast.AST) -> tuple[str, str] | None:
    """(device of the body, device of the else) for `x.device.type == "cpu"` and the like."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = device_branches(test.operand)
        return (inner[1], inner[0]) if inner else None
    if isinstance(test, ast.Attribute) and test.attr == "is_cuda":
        return GPU, CPU
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not (_dotted(left).endswith("device.type") and isinstance(right, ast.Constant)
            and right.value in ("cpu", "cuda", "hip")):
        return None
    body_is_cpu = (right.value == "cpu") == isinstance(test.ops[0], ast.Eq)
    return (CPU, GPU) if body_is_cpu else (GPU, CPU)


def _is_jit(dec: ast.expr) -> bool:
    return _dotted(dec).split(".")[-1] in ("jit", "autotune", "heuristics")


def find_kernels(tree: ast.Module) -> dict[str, Kernel]:
    kernels = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        decs = [_dotted(d).split(".")[-1] for d in node.decorator_list if _is_jit(d)]
        if "jit" not in decs:
            continue
        args = node.args.posonlyargs + node.args.args
        constexprs = {a.arg for a in args
                      if a.annotation is not None and _dotted(a.annotation).endswith("constexpr")}
        has_loop = any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(node))
        kernels[node.name] = Kernel(node.name, [a.arg for a in args], constexprs,
                                    "autotune" in decs, has_loop)
    return kernels


def _own_nodes(scope: ast.AST) -> list[tuple[ast.AST, list[ast.AST]]]:
    """Every node of a function (or module) body with its ancestors, nested defs excluded."""
    out: list[tuple[ast.AST, list[ast.AST]]] = []

    def visit(node: ast.AST, parents: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            out.append((child, parents))
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                      ast.Lambda)):
                visit(child, [*parents, child])

    if isinstance(scope, ast.Module):
        for stmt in scope.body:  # module level: top-level statements only
            out.append((stmt, [scope]))
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                visit(stmt, [scope, stmt])
    else:
        visit(scope, [scope])
    return out


class _Finder:
    def __init__(self, file: str, tree: ast.Module, kernels: dict[str, Kernel],
                 launch_options: bool) -> None:
        self.file, self.tree, self.kernels = file, tree, kernels
        self.launch_options = launch_options
        self.params: dict[tuple[Pos, str], Param] = {}
        self.skipped: list[str] = []

    def note(self, node: ast.AST, what: str, why: str) -> None:
        text = f"{self.file}:{getattr(node, 'lineno', '?')}: {what}: {why}"
        if text not in self.skipped:
            self.skipped.append(text)

    def add(self, node: ast.AST, kind: str, name: str, value: int | None, device: str | None,
            use: str, pos: Pos | None = None, call: Pos | None = None,
            empty_call: bool = False) -> None:
        pos = pos or _pos(node)
        slot = (pos, kind if value is None else "")  # a literal is one parameter, whatever feeds
        param = self.params.get(slot)
        if param is None:
            key = f"{self.file}:{pos[0]}:{pos[1]}" + (f":{kind}" if value is None else "")
            param = self.params[slot] = Param(key, self.file, kind, name, value, pos, device,
                                              call=call, empty_call=empty_call)
        if use not in param.uses:
            param.uses.append(use)

    # -- resolving a launch argument to the literals that set it
    def literals(self, expr: ast.AST, scope: ast.AST, device: str | None,
                 depth: int = 0) -> list[tuple[ast.Constant, str | None]] | str:
        """The int literals that decide `expr`, each with its device; or why there are none."""
        if _is_int(expr):
            return [(expr, device)]  # type: ignore[list-item]
        if isinstance(expr, ast.IfExp):
            branches = device_branches(expr.test) or (device, device)
            found: list[tuple[ast.Constant, str | None]] = []
            for part, dev in ((expr.body, branches[0]), (expr.orelse, branches[1])):
                sub = self.literals(part, scope, dev or device, depth)
                if isinstance(sub, list):
                    found += sub
            return found or "no literal in either branch"
        if isinstance(expr, ast.Name) and depth == 0:
            return self.name_literals(expr.id, scope, device)
        return f"computed ({ast.unparse(expr)[:60]})"

    def name_literals(self, name: str, scope: ast.AST,
                      device: str | None) -> list[tuple[ast.Constant, str | None]] | str:
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = scope.args
            if name in {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}:
                return "a function argument"
        bindings = self.bindings(name, scope)
        if isinstance(bindings, str):
            return bindings
        if not bindings and not isinstance(scope, ast.Module):
            return self.name_literals(name, self.tree, device)
        if not bindings:
            return "not bound in this file"
        found: list[tuple[ast.Constant, str | None]] = []
        for value, dev in bindings:
            sub = self.literals(value, scope, dev or device, depth=1)
            if isinstance(sub, str):
                return f"{name} = {ast.unparse(value)[:60]}: {sub}"
            found += sub
        return found

    def bindings(self, name: str, scope: ast.AST) -> list[tuple[ast.expr, str | None]] | str:
        """The values `name` is assigned in `scope`, each with the device of its branch; a
        reason when some binding is not a plain assignment (a loop variable, `+=`, ...)."""
        out: list[tuple[ast.expr, str | None]] = []
        for node, parents in _own_nodes(scope):
            if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
                return "declared global"
            if not (isinstance(node, ast.Name) and node.id == name
                    and isinstance(node.ctx, (ast.Store, ast.Del))):
                continue
            stmt = parents[-1] if parents else None
            if isinstance(stmt, (ast.Tuple, ast.List)) and len(parents) > 1:
                stmt = parents[-2]  # a, b = 64, 32
            value = _assigned_value(stmt, parents, node)
            if value is None:
                return f"{name} is bound by a {type(stmt).__name__}, not a plain assignment"
            out.append((value, _branch_device(parents, node)))
        return out

    # -- launch sites
    def run(self) -> None:
        for node in self.tree.body:
            methods = node.body if isinstance(node, ast.ClassDef) else [node]
            for fn in methods:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.scan_function(fn)

    def scan_function(self, fn: ast.AST) -> None:
        for node, _ in _own_nodes(fn):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.scan_function(node)
            elif isinstance(node, ast.Call):
                self.launch(node, fn)

    def launch(self, call: ast.Call, scope: ast.AST) -> None:
        if not (isinstance(call.func, ast.Subscript) and isinstance(call.func.value, ast.Name)
                and call.func.value.id in self.kernels):
            return
        kernel = self.kernels[call.func.value.id]
        passed: dict[str, ast.expr] = {}
        for index, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break
            if index < len(kernel.params):
                passed[kernel.params[index]] = arg
        has_star_kwargs = any(k.arg is None for k in call.keywords)
        passed.update({k.arg: k.value for k in call.keywords if k.arg is not None})
        for pname, expr in passed.items():
            kind = (NUM_WARPS if pname == NUM_WARPS else NUM_STAGES if pname == NUM_STAGES
                    else BLOCK if pname in kernel.constexprs else None)
            if kind is None:
                continue
            if kind == NUM_STAGES and not kernel.has_loop:
                self.note(expr, f"{kernel.name}.{pname}", "the kernel has no loop to pipeline")
                continue
            self.resolve(expr, scope, kind, pname, f"{kernel.name}.{pname}")
        if kernel.autotuned or has_star_kwargs or not self.launch_options:
            return
        last = max([*call.args, *call.keywords], key=lambda n: (n.end_lineno, n.end_col_offset),
                   default=None)
        # After the last argument (", num_warps=8"), or just before the ")" of an empty call.
        end = _pos(last)[2:] if last is not None else (_pos(call)[2], _pos(call)[3] - 1)
        at = (*end, *end)
        for kind in (NUM_WARPS, NUM_STAGES):
            if kind in passed or (kind == NUM_STAGES and not kernel.has_loop):
                continue
            self.add(call, kind, kind, None, None, f"{kernel.name}.{kind}", pos=at,
                     call=_pos(call), empty_call=last is None)

    def resolve(self, expr: ast.expr, scope: ast.AST, kind: str, name: str, use: str) -> None:
        found = self.literals(expr, scope, None)
        if isinstance(found, str):
            self.note(expr, use, found)
            return
        label = expr.id if isinstance(expr, ast.Name) else name
        for literal, device in found:
            if int(literal.value) < 1:
                self.note(literal, use, f"literal {literal.value} is not a size")
                continue
            self.add(literal, kind, label, int(literal.value), device, use)

    # -- triton.autotune config lists
    def autotune_configs(self) -> None:
        for fn in self.tree.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            for dec in fn.decorator_list:
                if isinstance(dec, ast.Call) and _dotted(dec).endswith("autotune"):
                    self.config_list(fn.name, dec)

    def config_list(self, kernel: str, dec: ast.Call) -> None:
        configs = next((k.value for k in dec.keywords if k.arg == "configs"),
                       dec.args[0] if dec.args else None)
        if isinstance(configs, ast.Name):
            bound = self.bindings(configs.id, self.tree)
            configs = bound[0][0] if isinstance(bound, list) and len(bound) == 1 else None
        if not isinstance(configs, (ast.List, ast.Tuple)):
            self.note(dec, f"{kernel} autotune configs", "not a literal list of triton.Config")
            return
        for index, config in enumerate(configs.elts):
            if not (isinstance(config, ast.Call) and _dotted(config).endswith("Config")):
                continue
            use = f"{kernel}.config[{index}]"
            meta = config.args[0] if config.args else next(
                (k.value for k in config.keywords if k.arg == "kwargs"), None)
            if isinstance(meta, ast.Dict):
                for key, value in zip(meta.keys, meta.values, strict=True):
                    if isinstance(key, ast.Constant) and _is_int(value) and value.value >= 1:
                        self.add(value, BLOCK, str(key.value), int(value.value), None,
                                 f"{use}.{key.value}")
            for kw in config.keywords:
                if kw.arg in (NUM_WARPS, NUM_STAGES) and _is_int(kw.value):
                    self.add(kw.value, kw.arg, kw.arg, int(kw.value.value), None,
                             f"{use}.{kw.arg}")


def _assigned_value(stmt: ast.AST | None, parents: list[ast.AST],
                    target: ast.Name) -> ast.expr | None:
    """The expression a plain assignment gives `target` (element-wise for tuples), else None."""
    if isinstance(stmt, ast.AnnAssign) and stmt.target is target:
        return stmt.value
    if not isinstance(stmt, ast.Assign):
        return None
    for tgt in stmt.targets:
        if tgt is target:
            return stmt.value
        if (isinstance(tgt, ast.Tuple) and target in tgt.elts
                and isinstance(stmt.value, ast.Tuple) and len(stmt.value.elts) == len(tgt.elts)
                and not any(isinstance(e, ast.Starred) for e in tgt.elts)):
            return stmt.value.elts[tgt.elts.index(target)]
    return None


def _branch_device(parents: list[ast.AST], node: ast.AST) -> str | None:
    """The device of the innermost `if <device test>:` branch that holds `node`."""
    chain = [*parents, node]
    for parent, child in zip(reversed(chain[:-1]), reversed(chain[1:]), strict=True):
        if isinstance(parent, ast.If):
            branches = device_branches(parent.test)
            if branches is None:
                continue
            if child in parent.body:
                return branches[0]
            if child in parent.orelse:
                return branches[1]
    return None


def find_params(source: str, file: str, launch_options: bool = True) -> Found:
    """The tunable parameters of one Python source file (empty when it has no Triton kernel)."""
    tree = ast.parse(source)
    kernels = find_kernels(tree)
    finder = _Finder(file, tree, kernels, launch_options)
    if kernels:
        finder.run()
        finder.autotune_configs()
    params = sorted(finder.params.values(), key=lambda p: (p.pos, p.kind))
    return Found(params, finder.skipped, sorted(kernels))
