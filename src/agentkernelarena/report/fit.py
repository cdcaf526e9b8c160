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


# Layouts, most readable first: everything on one line; headers wrapped between words; cells
# wrapped between words too. A number is one word, so none of them cuts one.
WHOLE, HEADERS_WRAP, CELLS_WRAP = 0, 1, 2


def column_widths(rows: Rows, layout: int) -> list[int]:
    headers, body = rows
    widths = []
    for index, header in enumerate(headers):
        cells = [row[index] for row in body]
        head = len(header) if layout == WHOLE else _words(header)
        cell = max([_words(c) if layout == CELLS_WRAP else len(c) for c in cells], default=0)
        widths.append(max(head, cell, 1))
    return widths


def width_of(rows: Rows, layout: int = WHOLE) -> int:
    """The table's width on the screen in `layout`."""
    widths = column_widths(rows, layout)
    return sum(widths) + BORDER * len(widths) + 1


def drop_columns(rows: Rows, names: Sequence[str]) -> Rows:
    headers, body = rows
    keep = [i for i, h in enumerate(headers) if h not in set(names)]
    return [headers[i] for i in keep], [[row[i] for i in keep] for row in body]


def fit(rows: Rows, width: int, drop_order: Sequence[str]) -> tuple[Rows, list[str], int]:
    """The columns that fit in `width`, the headers left out (first: the first of
    `drop_order`) and the layout. Headers wrap before a column is left out; cells wrap only
    when even the essential columns do not fit otherwise. Layout -1: nothing fits."""
    order = [h for h in drop_order if h in rows[0]]
    for layouts in ((WHOLE, HEADERS_WRAP), (CELLS_WRAP,)):
        for count in range(len(order) + 1):
            current = drop_columns(rows, order[:count])
            for layout in layouts:
                if width_of(current, layout) <= width:
                    return current, order[:count], layout
    return drop_columns(rows, order), order, -1


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
    The first `left` columns are left-aligned text, the rest right-aligned figures. Column
    widths are set here, so rich never has to squeeze (and cut) a cell."""
    fitted, dropped, layout = fit(rows, console.width, drop_order)
    if layout < 0:
        return as_list(rows, title), []
    headers, body = fitted
    table = Table(title=title, title_justify="left")
    for index, (header, size) in enumerate(zip(headers, column_widths(fitted, layout),
                                               strict=True)):
        table.add_column(header, justify="left" if index < left else "right",
                         width=size, overflow="fold")
    for row in body:
        table.add_row(*(Text(cell) for cell in row))  # cells are text, never markup
    return table, dropped
