"""Tables that fit the terminal without cutting a number.

rich shrinks a table that is wider than the terminal by cutting cells (`2.5…`, `$0.…`), which
turns a result into a wrong one. Instead, columns are left out in a stated order of
importance until the rest fits with every word whole (cells may wrap between words, never
inside one); where even the essential columns cannot fit, the table becomes a list, one
`header: value` line per cell. Full precision stays in JSON and CSV.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

Rows = tuple[list[str], list[list[str]]]
BORDER = 3  # rich's default box: "│ " before each cell, " " after, and one closing "│"


def _words(text: str) -> int:
    return max((len(w) for w in text.split()), default=0)


def width_of(rows: Rows, whole_cells: bool) -> int:
    """The table's width with every cell on one line (`whole_cells`), or at its narrowest
    (every cell wrapped between words)."""
    headers, body = rows
    total = 1
    for index, header in enumerate(headers):
        cells = [row[index] for row in body]
        if whole_cells:
            need = max([_words(header), *(len(c) for c in cells)])
        else:
            need = max([_words(header), *(_words(c) for c in cells)])
        total += need + BORDER
    return total


def drop_columns(rows: Rows, names: Sequence[str]) -> Rows:
    headers, body = rows
    keep = [i for i, h in enumerate(headers) if h not in set(names)]
    return [headers[i] for i in keep], [[row[i] for i in keep] for row in body]


def fit(rows: Rows, width: int, drop_order: Sequence[str]) -> tuple[Rows, list[str]]:
    """The columns that fit in `width` (left out first: the first of `drop_order`), and the
    headers left out. Whole cells are preferred; else the narrowest layout that still keeps
    every word whole."""
    headers = rows[0]
    order = [h for h in drop_order if h in headers]
    for whole in (True, False):
        dropped: list[str] = []
        current = rows
        for name in [None, *order]:
            if name is not None:
                dropped.append(name)
                current = drop_columns(rows, dropped)
            if width_of(current, whole) <= width:
                return current, dropped
    return drop_columns(rows, order), order


def as_list(rows: Rows, title: str) -> Text:
    """The vertical layout: a block per row, `header: value` per cell."""
    headers, body = rows
    lines = [title]
    for row in body:
        lines.append(f"- {row[0]}")
        lines += [f"    {h}: {c}" for h, c in zip(headers[1:], row[1:], strict=True)]
    return Text("\n".join(lines))


def fitted_table(rows: Rows, title: str, console: Console, drop_order: Sequence[str] = (),
                 left: int = 2) -> tuple[RenderableType, list[str]]:
    """A rich table (or list) of `rows` that fits `console`'s width, and the columns left out.
    The first `left` columns are left-aligned text, the rest right-aligned figures."""
    width = console.width
    fitted, dropped = fit(rows, width, drop_order)
    if width_of(fitted, whole_cells=False) > width:
        return as_list(rows, title), []
    headers, body = fitted
    table = Table(title=title, title_justify="left")
    for index, header in enumerate(headers):
        table.add_column(header, justify="left" if index < left else "right",
                         overflow="fold")
    for row in body:
        table.add_row(*row)
    return table, dropped
