"""`rulecraft rules` into a file or a pipe draws its table without rich (issue 18: start-up): the same
characters rich prints there, checked here against rich itself, on every game's table and on
made-up cells that fold, wrap and space oddly; and rich still draws wherever that cannot be promised."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft import cli, plaintable
from rulecraft.cli import main
from rulecraft.registry import game_ids

COLUMNS = ("rule", "p.", "statement", "enforced in", "scenarios", "tests")
FORCING = ("FORCE_COLOR", "TTY_COMPATIBLE", "JUPYTER_COLUMNS", "JUPYTER_LINES", "NO_COLOR")


@pytest.fixture(autouse=True)
def _no_forced_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich into a file, as a user's shell has it: no variable forcing a terminal."""
    for name in FORCING:
        monkeypatch.delenv(name, raising=False)


def rich_table(
    title: str, columns: Sequence[str], widths: Sequence[int], rows: Sequence[Sequence[str]], total: int
) -> str:
    """What rich prints for the table into a file: the console and table `rulecraft rules` makes."""
    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    console = Console(file=out, highlight=False, soft_wrap=True, width=total)
    table = Table(title=title, show_lines=False)
    for column, width in zip(columns, widths, strict=True):
        table.add_column(column, overflow="fold", width=width)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    return out.getvalue()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("gid", game_ids())
@pytest.mark.parametrize("unexercised", [False, True])
def test_rules_into_a_pipe_prints_what_rich_prints(
    gid: str, unexercised: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game's `rulecraft rules` (and --unexercised) as captured output: the plain table, character
    for character rich's (drawn by rich when the plain drawing is switched off)."""
    words = ["rules", gid, *(["--unexercised"] if unexercised else [])]
    drawn: list[str | None] = []
    draw = plaintable.draw

    def spy(*args: Any) -> str | None:
        drawn.append(draw(*args))
        return drawn[-1]

    monkeypatch.setattr(plaintable, "draw", spy)
    plain = run(capsys, *words)
    assert drawn and drawn[0] is not None  # the plain drawing printed it, not a fallback to rich
    monkeypatch.setattr(plaintable, "plain_stream", lambda stream: False)
    assert run(capsys, *words) == plain
    assert plain.splitlines()[-1].endswith("rules exercised by a scenario or a test")


CELL = st.text(alphabet=st.sampled_from("ab  -,.:£‡—\u00a0xyz1"), max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(st.lists(CELL, min_size=3, max_size=3), max_size=4),
    widths=st.lists(st.integers(1, 12), min_size=3, max_size=3),
    title=st.text(alphabet="ab :", max_size=30),
)
def test_made_up_tables_print_what_rich_prints(rows: list[list[str]], widths: list[int], title: str) -> None:
    """Cells that fold (a word longer than its column), wrap, run spaces together, start or end with
    spaces, or are empty, no rows, a title wider than the table: the plain table is rich's wherever
    it draws one."""
    total = sum(widths) + 3 * len(widths) + 1
    text = plaintable.draw(title, ("one", "two", "three"), widths, rows, total)
    if text is not None:
        assert text == rich_table(title, ("one", "two", "three"), widths, rows, total)


@pytest.mark.parametrize(
    "cell",
    ["[red]x[/red]", "a [b] c", "a :smile: b", "two\nlines", "tab\there", "wide 漢字", "e\u0301", "soft\u00adhyphen"],
)
def test_what_rich_may_draw_otherwise_is_left_to_rich(cell: str) -> None:
    """Markup, an emoji code, a line end or tab, a character rich may not measure as one cell: no
    plain table (the caller asks rich)."""
    assert plaintable.draw("t", ("a",), (10,), [[cell]], 160) is None
    assert plaintable.draw("t", ("a",), (10,), [["fine"]], 160) is not None


def test_a_table_wider_than_the_console_or_a_padded_title_is_left_to_rich() -> None:
    assert plaintable.draw("t", ("a", "b"), (10, 10), [["x", "y"]], 26) is None  # 27 wide
    assert plaintable.draw("t", ("a", "b"), (10, 10), [["x", "y"]], 27) is not None
    assert plaintable.draw(" t", ("a",), (10,), [["x"]], 160) is None


def test_the_typographic_marks_drawn_plainly_are_one_cell_to_rich() -> None:
    """The characters beyond rich's own single-cell ranges that the plain table accepts."""
    from rich.cells import cell_len

    extra = "\u2013\u2014\u2018\u2019\u201c\u201d\u2020\u2021\u2026"
    assert all(plaintable._ONE_CELL.fullmatch(c) for c in extra)
    assert [cell_len(c) for c in extra] == [1] * len(extra)


class Stream(io.StringIO):
    def __init__(self, tty: bool, encoding: str | None) -> None:
        super().__init__()
        self.tty, self.coding = tty, encoding

    def isatty(self) -> bool:
        return self.tty

    @property
    def encoding(self) -> str | None:  # type: ignore[override]
        return self.coding


def test_the_plain_table_is_for_a_file_or_pipe_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal gets rich's colours; so does a pipe when FORCE_COLOR or TTY_COMPATIBLE asks rich for
    them; a non-UTF pipe gets rich's ASCII box."""
    assert plaintable.plain_stream(Stream(False, "utf-8"))
    assert plaintable.plain_stream(Stream(False, "UTF8"))
    assert plaintable.plain_stream(Stream(False, None))
    assert not plaintable.plain_stream(Stream(True, "utf-8"))
    assert not plaintable.plain_stream(Stream(False, "latin-1"))
    assert not plaintable.plain_stream(object())
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        with monkeypatch.context() as env:
            env.setenv(name, "1")
            assert not plaintable.plain_stream(Stream(False, "utf-8"))


def test_the_pipe_width_is_the_consoles() -> None:
    """The plain table is laid out for the width rich's console has in a pipe."""
    assert cli._console(Stream(False, "utf-8")).width == cli.PIPE_WIDTH
