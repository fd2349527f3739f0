"""The shared readers of scenario ``given:`` blocks: a wrong value is one line naming its field."""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.scenarios import given
from rulecraft.scenarios.runner import ScenarioError


@pytest.mark.parametrize(
    ("read", "value", "message"),
    [
        (lambda v: given.whole(v, "given.vp"), True, r"given\.vp: a whole number, got True"),
        (lambda v: given.whole(v, "given.vp"), "3", r"given\.vp: a whole number, got '3'"),
        (lambda v: given.flag(v, "given.first_game"), 1, r"given\.first_game: true or false, got 1"),
        (lambda v: given.mapping(v, "given.seats"), [1], r"given\.seats: a mapping, got \[1\]"),
        (lambda v: given.listing(v, "given.bag"), "AB", r"given\.bag: a list, got 'AB'"),
        (lambda v: given.choice(v, ("action", "flight"), "given.phase"), "fly", r"'fly' is not one of \['action'"),
        (lambda v: given.seat(v, 3, "given.seats.x"), "x", r"given\.seats\.x: a seat 0\.\.2, got 'x'"),
        (lambda v: given.seat(v, 3, "given.seats.3"), 3, r"a seat 0\.\.2, got 3"),
        (lambda v: given.seat(v, 3, "given.seats.t"), True, r"a seat 0\.\.2, got True"),
        (lambda v: given.no_unknown_fields(v, {"vp"}, "given.s"), {"vp": 1, "pv": 2}, r"field\(s\) \[.pv.\]"),
    ],
)
def test_a_wrong_value_is_one_line_naming_its_field(read: Any, value: Any, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        read(value)


def test_right_values_read_as_they_are() -> None:
    assert given.whole(0, "w") == 0 and given.flag(False, "f") is False
    assert given.listing(("a", "b"), "l") == ["a", "b"] and given.mapping({"a": 1}, "m") == {"a": 1}
    assert given.seat("2", 3, "s") == 2 and given.choice("flight", ("action", "flight"), "c") == "flight"
    given.no_unknown_fields({"vp": 1}, {"vp", "money"}, "seats.0")  # no error: every field is known
