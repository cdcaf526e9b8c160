"""Tables that fit the terminal: a table when it fits, else one line per row.

A squeezed rich table cuts cells to an ellipsis (`2.5…`) or wraps numbers mid-way; a line per
row ("task: A 2/2 ok, speedup 1.500x, ...") lets the terminal wrap at spaces, never inside a
number. Full precision stays in JSON.
"""

from __future__ import annotations

from typing import Any

from agentkernelarena.report.render import Rows, rich_table


def fits(rows: Rows, width: int) -> bool:
    """Whether a table of these rows fits `width` columns without wrapping a cell (rich's
    borders and padding take 3 columns per cell)."""
    headers, body = rows
    widths = [max(len(str(r[i])) for r in [headers, *body]) for i in range(len(headers))]
    return sum(widths) + 3 * len(widths) + 1 <= width


def row_lines(rows: Rows, title: str) -> list[str]:
    """A table as one line per row ("header value, ..."), for terminals too narrow for it: the
    terminal wraps the line at spaces, never inside a number."""
    headers, body = rows
    return [f"{title}:"] + [f"  {row[0]}: " + ", ".join(f"{h} {c}" for h, c in
                                                       zip(headers[1:], row[1:], strict=True))
                            for row in body]


def print_rows(out: Any, rows: Rows, title: str, lines: list[str] | None = None) -> None:
    if fits(rows, out.width):
        out.print(rich_table(rows, title))
    else:
        for line in lines or row_lines(rows, title):
            out.print(line, markup=False, highlight=False)
