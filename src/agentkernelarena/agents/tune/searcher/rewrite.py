"""Writing a variant: new values for a file's parameters, and proof that nothing else changed.

The edit is textual (only the literal's characters, or one keyword added to a launch), so
comments and layout survive and the diff reads as what it is. Then `verify` parses the result
and compares it with the original tree carrying exactly the intended changes: any other
difference (a shifted offset, a broken line) is refused before the variant is measured.
"""

from __future__ import annotations

import ast
import copy

from .params import NUM_STAGES, NUM_WARPS, Param, Pos


class RewriteError(Exception):
    """A variant whose source would differ from the original by more than its parameters."""


def _offsets(source: bytes) -> list[int]:
    """Byte offset of the start of each line (1-based: index 0 is unused)."""
    starts = [0, 0]
    for index, byte in enumerate(source):
        if byte == 0x0A:
            starts.append(index + 1)
    return starts


def _changes(params: list[Param], values: dict[str, int]) -> list[tuple[Param, int]]:
    out = []
    for param in params:
        value = values.get(param.key, param.value)
        if value is None or value == param.value:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise RewriteError(f"{param.key}: {value!r} is not a positive integer")
        out.append((param, value))
    return out


def apply(source: str, params: list[Param], values: dict[str, int]) -> str:
    """`source` with each parameter set to `values[key]` (absent: unchanged; an insert
    parameter absent or None: not added)."""
    data = source.encode()
    starts = _offsets(data)
    edits: dict[tuple[int, int], list[tuple[Param, int]]] = {}
    for param, value in _changes(params, values):
        line, col, end_line, end_col = param.pos
        begin, end = starts[line] + col, starts[end_line] + end_col
        edits.setdefault((begin, end), []).append((param, value))
    # Back to front, so earlier offsets stay valid; an insert right after a literal goes first.
    for (begin, end), group in sorted(edits.items(), reverse=True):
        if group[0][0].insert:
            group.sort(key=lambda pv: (NUM_WARPS, NUM_STAGES).index(pv[0].kind))
            words = [f"{p.kind}={v}" for p, v in group]
            text = ", ".join(words) if group[0][0].empty_call else "".join(f", {w}" for w in words)
        else:
            text = str(group[0][1])
        data = data[:begin] + text.encode() + data[end:]
    return data.decode()


def _by_pos(tree: ast.AST, cls: type) -> dict[Pos, ast.AST]:
    return {(n.lineno, n.col_offset, n.end_lineno, n.end_col_offset): n  # type: ignore[attr-defined]
            for n in ast.walk(tree) if isinstance(n, cls)}


def verify(original: str, rewritten: str, params: list[Param], values: dict[str, int]) -> None:
    """Raise RewriteError unless `rewritten` parses to `original`'s tree with exactly these
    parameter changes (literals replaced, launch keywords added) and nothing else."""
    try:
        new_tree = ast.parse(rewritten)
    except SyntaxError as exc:
        raise RewriteError(f"the variant does not parse: {exc}") from None
    expected = copy.deepcopy(ast.parse(original))
    constants, calls = _by_pos(expected, ast.Constant), _by_pos(expected, ast.Call)
    inserts: dict[Pos, list[tuple[Param, int]]] = {}
    for param, value in _changes(params, values):
        if param.insert:
            inserts.setdefault(param.call or param.pos, []).append((param, value))
            continue
        node = constants.get(param.pos)
        if not isinstance(node, ast.Constant) or node.value != param.value:
            raise RewriteError(f"{param.key}: no literal {param.value} at that position")
        node.value = value
    for call_pos, group in inserts.items():
        call = calls.get(call_pos)
        if not isinstance(call, ast.Call):
            raise RewriteError(f"{group[0][0].key}: no launch at that position")
        group.sort(key=lambda pv: (NUM_WARPS, NUM_STAGES).index(pv[0].kind))
        call.keywords += [ast.keyword(arg=p.kind, value=ast.Constant(v)) for p, v in group]
    if ast.dump(expected) != ast.dump(new_tree):
        raise RewriteError("the variant differs from the original in more than its launch "
                           "parameters")


def rewrite(source: str, params: list[Param], values: dict[str, int]) -> str:
    """apply + verify: the variant's source, or RewriteError."""
    new = apply(source, params, values)
    verify(source, new, params, values)
    return new
