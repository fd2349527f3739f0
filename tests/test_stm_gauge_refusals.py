"""Every refusal of the pressure gauge names its rule and says why in its own words, and every
boundary of the gauge (the base marker's space, the last space, a space off the gauge) is where the
rulebook puts it (STM-R-14..20, R-47/48, R-61; issue 22).

The gauge of the standard layout has spaces 0..10 with the values 1, 1, 2, 2, 3, 4, 5, 6, 7, 8 on
spaces 1..10 (STM-R-14, p.9) and the bonus numerals 2, 2, 3, 4, 5 on spaces 3..7 (STM-R-47, p.22).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rulecraft.core import RulecraftError
from rulecraft.model.steamopolis.gauge import (
    STANDARD_LAYOUT,
    BonusMarker,
    Gauge,
    GaugeError,
    GaugeLayout,
    Stone,
    arrow_moves,
    bump,
    discard_marker,
    gain_stone,
    gauge_of,
    gauge_problems,
    increase,
    increase_one_stone,
    increase_outcomes,
    increment,
    lift,
    place_bonus_marker,
    setup_gauge,
    stone_to_eight,
    take_back,
    turn_stone,
)

START = setup_gauge()  # stones on spaces 1, 2, 3 (STM-R-11, p.6)
FULL = gauge_of([(s, False) for s in range(6, 11)], markers=[(3, 2), (4, 2), (5, 3)], base=2)  # no free space
FULL_NO_MARKERS = gauge_of([(s, False) for s in range(6, 11)], base=5)
TOP = gauge_of([(10, False)], markers=[(9, 5)], base=0)  # a stone on the value-8 space, a marker beside it

REFUSALS: list[tuple[str, Callable[[], Any], str, str]] = [
    (
        "the symbol space has no value",
        lambda: STANDARD_LAYOUT.value(0),
        "STM-R-14",
        "space 0 is the base-pressure symbol space and has no value",
    ),
    ("no stone to increment", lambda: increment(START, 5), "STM-R-15", "no pressure stone on space 5"),
    ("nowhere to go", lambda: increment(TOP, 10), "STM-R-15", "the stone on space 10 has no free space to its right"),
    ("no stone to bump", lambda: bump(START, 5), "STM-R-16", "no pressure stone on space 5"),
    ("a negative increase", lambda: increase(START, -1, []), "STM-R-15", "cannot increase the pressure by -1"),
    (
        "more picks than increments",
        lambda: increase(START, 1, [1, 2]),
        "STM-R-15",
        "2 increments chosen, the pressure rises by 1 only",
    ),
    # The first pick moves the stone on 1 to space 4 (2 and 3 are taken); the second names an empty space.
    (
        "a pick without a stone",
        lambda: increase(START, 2, [1, 5]),
        "STM-R-15",
        "increment 2: no stone on space 5 that can move",
    ),
    (
        "pressure lapsing on purpose",
        lambda: increase(START, 2, [3]),
        "STM-R-15",
        "1 increment(s) left and the stones on [1, 2, 4] can still move: pressure may not lapse voluntarily",
    ),
    ("one stone, empty space", lambda: increase_one_stone(START, 5, 1), "STM-R-16", "no pressure stone on space 5"),
    ("one stone, six steps", lambda: increase_one_stone(START, 1, 6), "STM-R-16", "one stone rises by 0 to 5, not 6"),
    (
        "an order missing an arrow stone",
        lambda: arrow_moves(gauge_of([(1, True), (2, True)]), [1]),
        "STM-R-19",
        "the order [1] must list each arrow stone [1, 2] once",
    ),
    (
        "a marker returned with a space free",
        lambda: take_back(START, Stone(), discard=5),
        "STM-R-18",
        "space 4 is free: no bonus marker is returned to make room",
    ),
    (
        "no marker named on a full gauge",
        lambda: take_back(FULL, Stone()),
        "STM-R-18",
        "no free space: choose a bonus marker to return to the box from [3, 4, 5]",
    ),
    ("lifting from an empty space", lambda: lift(START, 5), "STM-R-26", "no pressure stone on space 5"),
    ("turning an empty space", lambda: turn_stone(START, 5, True), "STM-R-19", "no pressure stone on space 5"),
    ("to 8 from an empty space", lambda: stone_to_eight(START, 5), "STM-R-61", "no pressure stone on space 5"),
    (
        "a marker with a space kept back",
        lambda: place_bonus_marker(START, BonusMarker(3), None),
        "STM-R-47",
        "bonus marker #3 has a space: choose one of [5]",
    ),
    (
        "a marker on another numeral",
        lambda: place_bonus_marker(START, BonusMarker(3), 4),
        "STM-R-47",
        "space 4 is not a #3 space right of the base marker [5]",
    ),
    ("discarding from an empty space", lambda: discard_marker(START, 4), "STM-R-48", "no bonus marker on space 4"),
    ("discarding left of the gauge", lambda: discard_marker(TOP, -1), "STM-R-48", "no bonus marker on space -1"),
    ("discarding right of the gauge", lambda: discard_marker(TOP, 11), "STM-R-48", "no bonus marker on space 11"),
]


@pytest.mark.parametrize(("call", "rule", "message"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_a_refused_gauge_move_names_its_rule_and_says_why(call: Callable[[], Any], rule: str, message: str) -> None:
    with pytest.raises(GaugeError) as info:
        call()
    assert (info.value.rule, info.value.message) == (rule, message)
    assert str(info.value) == f"{rule}: {message}" and isinstance(info.value, RulecraftError)


def test_a_stone_off_the_gauge_is_no_stone() -> None:
    """Space -1 is not the last space, nor 11 a space at all: no stone is there (the rule asked for is named)."""
    for space in (-1, 11, 0):
        with pytest.raises(GaugeError) as info:
            TOP.stone_at(space, "STM-R-26")
        assert info.value.rule == "STM-R-26" and info.value.message == f"no pressure stone on space {space}"
    assert TOP.stone_at(10, "STM-R-26") == Stone()


def test_free_spaces_lie_strictly_right_of_the_base_marker_and_on_the_gauge() -> None:
    """Digest section 0 / STM-R-14: the base marker's own space and anything past space 10 are not free."""
    gauge = gauge_of([(5, False)], base=2)
    assert not gauge.is_free(2) and not gauge.is_free(1) and gauge.is_free(3)
    assert not gauge.is_free(11) and not gauge.is_free(5) and gauge.is_free(10)
    assert STANDARD_LAYOUT.space_of_value(8) == 10 and STANDARD_LAYOUT.space_of_value(9) is None
    assert STANDARD_LAYOUT.space_of_value(1) == 2  # the rightmost space of the value


def test_a_full_gauge_takes_a_stone_back_into_a_returned_markers_space_or_the_supply() -> None:
    """STM-R-18 (p.15): no free space: a bonus marker the player names goes to the box and the stone
    takes its space; with no marker either, the stone goes to the personal supply (STM-R-20: a gained
    stone likewise)."""
    back = take_back(FULL, Stone(True), discard=4)
    assert (back.space, back.discarded) == (4, BonusMarker(2))
    assert back.gauge.spaces[4] == Stone(True)
    gained = gain_stone(FULL, Stone(), discard=5)
    assert (gained.space, gained.discarded) == (5, BonusMarker(3)) and gained.gauge.spaces[5] == Stone()
    to_supply = take_back(FULL_NO_MARKERS, Stone())
    assert to_supply.space is None and to_supply.gauge == FULL_NO_MARKERS and to_supply.discarded is None


def test_the_stone_already_on_the_value_8_space_stays_there() -> None:
    """STM-R-61 (p.31): 'stone to 8' for the stone already there changes nothing, even when the
    occupant of the 8 would be bumped (STM-AMB-22 'bump')."""
    assert stone_to_eight(TOP, 10, bump=True) == (TOP, False)
    assert stone_to_eight(TOP, 10) == (TOP, False)
    moved, done = stone_to_eight(gauge_of([(4, False)]), 4)
    assert done and moved.stone_spaces() == (10,)


def test_a_marker_without_a_usable_space_goes_to_the_box() -> None:
    """STM-R-47 with STM-AMB-15 'box' (p.22): past the base marker no #2 space is left: the marker is boxed."""
    beyond = gauge_of([(6, False)], base=5)
    placed = place_bonus_marker(beyond, BonusMarker(2), None)
    assert placed.placed is False and placed.boxed == (BonusMarker(2),) and placed.gauge == beyond


def test_a_marker_goes_by_the_numerals_of_the_layout_it_is_given() -> None:
    """STM-R-47: the printed numeral decides; a layout printing #3 on space 2 offers space 2."""
    layout = GaugeLayout(
        values=(None, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8),
        numerals=(None, None, 3, 2, 2, None, 4, 5, None, None, None),
    )
    empty = Gauge(0, (None,) * 11)
    with pytest.raises(GaugeError) as info:
        place_bonus_marker(empty, BonusMarker(3), None, layout)
    assert info.value.message == "bonus marker #3 has a space: choose one of [2]"
    assert place_bonus_marker(empty, BonusMarker(3), 2, layout).gauge.spaces[2] == BonusMarker(3)


@pytest.mark.parametrize(
    ("values", "numerals", "base_max", "message"),
    [
        (
            (None, 1, 2),
            (None, None),
            1,
            "a gauge layout needs one value and one numeral per space, and at least 2 spaces",
        ),
        ((None,), (None,), 4, "a gauge layout needs one value and one numeral per space, and at least 2 spaces"),
        ((1, 2, 4), (None, None, None), 4, "space 0 is the base-pressure symbol space; every other space has a value"),
        (
            (None, None, 4),
            (None, None, None),
            4,
            "space 0 is the base-pressure symbol space; every other space has a value",
        ),
        (
            (None, 4, None),
            (None, None, None),
            4,
            "space 0 is the base-pressure symbol space; every other space has a value",
        ),
        ((None, 1, 2), (None, None, None), 9, "no space has the base marker's maximum value 9"),
    ],
)
def test_a_malformed_layout_is_refused_in_words(
    values: tuple[int | None, ...], numerals: tuple[int | None, ...], base_max: int, message: str
) -> None:
    with pytest.raises(ValueError) as info:
        GaugeLayout(values=values, numerals=numerals, base_max_value=base_max)
    assert str(info.value) == message


def test_the_smallest_layouts_are_accepted() -> None:
    """Two spaces are enough, and the base marker's maximum may be the first value."""
    assert GaugeLayout(values=(None, 4), numerals=(None, None)).base_limit == 1
    assert GaugeLayout(values=(None, 4, 5), numerals=(None, None, None)).last == 2


def test_a_gauge_keeps_its_items_right_of_the_base_marker_on_the_gauge() -> None:
    """STM-R-14: the base marker lies on spaces 0..10 and nothing lies on or left of it."""
    with pytest.raises(ValueError) as info:
        Gauge(11, (None,) * 11)
    assert str(info.value) == "base marker on space 11, outside 0..10"
    with pytest.raises(ValueError) as info:
        gauge_of([(2, False)], base=2)
    assert str(info.value) == "an item lies on or left of the base pressure marker (STM-R-14)"
    assert Gauge(10, (None,) * 11).base == 10


def test_gauge_problems_name_each_rule() -> None:
    """Digest 3.14: 11 spaces (STM-R-14), the base marker at most on the value-4 space (STM-R-17),
    at most 5 stones (STM-R-08), white markers on their printed numeral (STM-R-47; the pink one's
    space is not printed)."""
    assert gauge_problems(START) == []
    six = gauge_of([(s, False) for s in range(1, 7)])
    assert gauge_problems(six) == ["STM-R-08: 6 stones on the gauge, a player owns 5"]
    assert gauge_problems(gauge_of([(s, False) for s in range(1, 6)])) == []
    far = gauge_of([(8, False)], base=7)
    assert gauge_problems(far) == ["STM-R-17: base marker on space 7, beyond the value-4 space"]
    assert gauge_problems(gauge_of([(8, False)], base=6)) == []
    short = Gauge(0, (None, Stone()))
    assert gauge_problems(short) == ["STM-R-14: 2 spaces, the layout has 11"]
    wrong = gauge_of([(1, False)], markers=[(5, 2)])
    assert gauge_problems(wrong) == ["STM-R-47: bonus marker #2 on space 5, printed numeral 3"]
    pink = Gauge(0, (None, Stone(), None, None, None, BonusMarker(4, pink=True), None, None, None, None, None))
    assert gauge_problems(pink) == []


def test_the_increase_outcomes_know_only_the_readings_of_stm_amb_32() -> None:
    with pytest.raises(ValueError) as info:
        increase_outcomes(START, 1, reading="fastest")
    assert str(info.value) == "STM-AMB-32 has no reading 'fastest'"
