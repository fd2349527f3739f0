"""rulecraft.plainjson: the fast reader of a state's own plain JSON, and where it hands over."""

from __future__ import annotations

import enum

import attrs
import pytest

from rulecraft.plainjson import NotPlain, plain_reader


class Colour(enum.Enum):
    RED = "red"


@attrs.frozen
class Inner:
    n: int
    word: str = "x"


@attrs.frozen
class Outer:
    inners: tuple[Inner, ...]
    pair: tuple[int, str]
    colour: Colour
    maybe: int | None = None
    flags: tuple[bool, ...] = ()


READ = plain_reader(Outer)


def test_plain_data_is_read_into_the_classes_it_names() -> None:
    data = {"inners": [{"n": 1}, {"n": 2, "word": "y"}], "pair": [3, "z"], "colour": "red", "flags": [True]}
    assert READ(data) == Outer((Inner(1), Inner(2, "y")), (3, "z"), Colour.RED, None, (True,))


@pytest.mark.parametrize(
    "data",
    [
        {"inners": [{"n": True}], "pair": [3, "z"], "colour": "red"},  # a bool where a number goes
        {"inners": [], "pair": [3, "z", 4], "colour": "red"},  # a wrong length
        {"inners": [], "pair": [3, "z"], "colour": "blue"},  # no such member
        {"inners": [], "pair": [3, "z"]},  # a missing key
        {"inners": [], "pair": [3, "z"], "colour": "red", "extra": 1},  # an unknown key
        {"inners": "no", "pair": [3, "z"], "colour": "red"},
        [1, 2],
    ],
)
def test_anything_not_plain_is_handed_over(data: object) -> None:
    with pytest.raises(NotPlain):
        READ(data)


def test_a_games_own_type_takes_its_reader_and_an_unknown_type_is_refused_at_once() -> None:
    read = plain_reader(Inner, {int: lambda v: -1})
    assert read({"n": 5}) == Inner(-1)
    with pytest.raises(TypeError, match="no plain reader"):
        plain_reader(dict[str, int])
