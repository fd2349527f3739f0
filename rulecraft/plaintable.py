"""A table as rich draws it into a file or a pipe, without rich (issue 18: start-up).

rich spent most of `rulecraft rules GAME` laying out 300 cells (thousands of nested renders) and
importing its table and console (0.03 s); into a file or pipe it draws no colour, so the same
characters can be written directly.  :func:`draw` gives exactly the text rich's ``Table`` (its
default HEAVY_HEAD box, a centred title, columns of fixed width that fold, a space either side of
each cell, the title as it is) prints on a ``Console(width=..., highlight=False, soft_wrap=True)``
writing to a file,
or None where it cannot promise that (a character rich may measure as other than one cell, text
rich would read as markup or an emoji code, a line end, a table wider than the console, a colour
forced on by the environment): the caller then draws with rich.  tests/test_plaintable.py checks
the two agree.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

# rich's own word pattern (rich/_wrap.py): a word is its leading space, itself and its trailing space.
_WORD = re.compile(r"\s*\S+\s*")
# Characters every rich measures as one cell (rich/cells.py's single-cell ranges, less what an
# older rich measures otherwise), and a few typographic marks rulebooks use, checked one by one
# against rich's cell_len in the tests.
_ONE_CELL = re.compile(
    "[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u2013\u2014\u2018\u2019\u201c\u201d\u2020\u2021\u2026]*"
)
# What rich reads as markup ("[") or an emoji code (":name:"): never drawn here.
_RICH_SYNTAX = re.compile(r"\[|:\S*?:")
# Where rich would draw colour or styles into a file anyway (rich.console.Console.is_terminal).
_RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "JUPYTER_COLUMNS", "JUPYTER_LINES")


def plain_stream(stream: Any) -> bool:
    """Whether rich would draw to ``stream`` without colour or styles and with its Unicode box: not a
    terminal, nothing in the environment forcing a terminal, a UTF encoding, not a Windows console."""
    isatty = getattr(stream, "isatty", None)
    if isatty is None or isatty() or sys.platform == "win32":
        return False
    if any(name in os.environ for name in _RICH_ENV):
        return False
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower()
    return encoding.startswith("utf")


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of ``width`` cells, as rich wraps a cell with overflow="fold" (rich/_wrap.py's
    divide_line, every character one cell): a word goes to the next line when it does not fit, a word
    longer than a line is cut into lines; each line then cut or padded to ``width``."""
    breaks: list[int] = []
    offset = 0  # cells used on the current line
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group()
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # fold: cut the word into pieces of a line each
            pieces = [word[i : i + width] for i in range(0, len(word), width)]
            for piece in pieces[:-1]:
                if start:
                    breaks.append(start)
                start += len(piece)
            if start:
                breaks.append(start)
            offset = len(pieces[-1])
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    edges = [0, *breaks, len(text)]
    return [text[a:b][:width].ljust(width) for a, b in pairwise(edges)]


def draw(
    title: str, columns: Sequence[str], widths: Sequence[int], rows: Sequence[Sequence[str]], total: int
) -> str | None:
    """The table rich would print (see the module's text), or None where this cannot promise it.
    ``rows`` hold the cells' plain text (what rich shows of their markup)."""
    cells = [title, *columns, *(cell for row in rows for cell in row)]
    if any(_ONE_CELL.fullmatch(cell) is None or _RICH_SYNTAX.search(cell) for cell in cells):
        return None
    if any(width < 1 for width in widths):
        return None
    inner = sum(widths) + 3 * len(widths) - 1  # each column, a space either side, a rule between
    if inner + 2 > total or title != title.strip() or not columns:
        return None  # rich would narrow the columns, or pad the title: its own layout
    out: list[str] = []
    if title:  # soft_wrap: rich prints the title as it is, neither centred nor wrapped
        out.append(title)
    out.append("┏" + "┳".join("━" * (w + 2) for w in widths) + "┓")
    out.extend(_row(columns, widths, "┃", bottom=True))
    out.append("┡" + "╇".join("━" * (w + 2) for w in widths) + "┩")
    for row in rows:
        out.extend(_row(row, widths, "│"))
    out.append("└" + "┴".join("─" * (w + 2) for w in widths) + "┘")
    return "\n".join(out) + "\n"


def _row(cells: Sequence[str], widths: Sequence[int], rule: str, *, bottom: bool = False) -> list[str]:
    """One row's lines: each cell wrapped to its column, the shorter ones padded with blank lines
    below (the header's above: rich aligns a header to the bottom)."""
    wrapped = [_wrap(cell, width) for cell, width in zip(cells, widths, strict=True)]
    height = max(len(lines) for lines in wrapped)
    if bottom:
        wrapped = [[" " * width] * (height - len(col)) + col for col, width in zip(wrapped, widths, strict=True)]
    lines = []
    for i in range(height):
        parts = [col[i] if i < len(col) else " " * width for col, width in zip(wrapped, widths, strict=True)]
        lines.append(rule + " " + f" {rule} ".join(parts) + " " + rule)
    return lines
