"""Steamopolis pressure gauge: the rules STM-R-14..20, R-47/48 and the printed
examples that move stones on the gauge.

Expected values come from the rulebook text (seeds/004, page named in each
test), never from running the model.  Where a picture carries the numbers
the digest's minimal reconstruction (*recon*) gives the starting gauge; the
asserted outcome is still the printed one.  Spaces are the digest's g0..g10.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulecraft.model.steamopolis.gauge import (
    STANDARD_LAYOUT,
    BonusMarker,
    Gauge,
    GaugeError,
    Item,
    Stone,
    advance_base_marker,
    arrow_moves,
    arrow_outcomes,
    bump,
    can_move,
    discard_marker,
    gain_stone,
    gauge_of,
    gauge_problems,
    increase,
    increase_one_stone,
    increase_outcomes,
    increment,
    lift,
    marker_spaces_for,
    movable,
    place_bonus_marker,
    setup_gauge,
    stone_to_eight,
    take_back,
    turn_stone,
    values,
)
from rulecraft.model.steamopolis.rules import _pressure_choices

LAYOUT = STANDARD_LAYOUT


def _values_of(outcomes: frozenset[Gauge]) -> set[tuple[str, ...]]:
    return {values(g) for g in outcomes}


# ---------------------------------------------------------------------------
# STM-R-14: the layout, forced by setup and the solo VALUES lines
# ---------------------------------------------------------------------------


def test_r14_gauge_values_and_setup() -> None:
    """STM-R-14/R-10/R-11 (p.6): stones on the first 3 spaces right of the base marker show '1, 1, 2'."""
    assert LAYOUT.values[1:] == (1, 1, 2, 2, 3, 4, 5, 6, 7, 8)
    g = setup_gauge()
    assert g.base == 0 and g.stone_spaces() == (1, 2, 3)
    assert values(g) == ("1", "1", "2")
    assert gauge_problems(g) == []


def test_r14_stones_lie_right_of_the_base_marker() -> None:
    """STM-R-14: no item on or left of the base marker."""
    with pytest.raises(ValueError, match="STM-R-14"):
        Gauge(2, (None, None, Stone(), *([None] * 8)))


def test_r14_the_symbol_space_has_no_value() -> None:
    with pytest.raises(GaugeError, match="STM-R-14"):
        LAYOUT.value(0)


def test_amb03_bonus_numerals_are_the_values_2_to_5() -> None:
    """STM-AMB-03 (a): a left and a right 2-space, one 3, 4 and 5-space (STM-EX-23, p.23)."""
    assert LAYOUT.numeral_spaces(2) == (3, 4)
    assert [LAYOUT.numeral_spaces(n) for n in (3, 4, 5)] == [(5,), (6,), (7,)]


# ---------------------------------------------------------------------------
# STM-R-15 / R-16: increasing the pressure
# ---------------------------------------------------------------------------


def test_ex02_increase_by_6_two_lapse() -> None:
    """STM-EX-02 (p.10), STM-R-15: Black may increase by 6, moves the leftmost stone 4 times,
    reaches the end of the gauge and 2 increases lapse.  *Recon*: stones g4, g8, g9."""
    g = gauge_of([(4, False), (8, False), (9, False)])
    result = increase(g, 6, [4, 5, 6, 7])
    assert result.used == 4 and result.lapsed == 2
    assert result.gauge.stone_spaces() == (8, 9, 10)
    assert movable(result.gauge) == ()
    # "She could also have moved her pressure stones in a different order" (p.10).
    other = increase(g, 6, [9, 8, 4, 5, 6, 7])
    assert other.used == 6 and other.lapsed == 0


def test_r15_increment_jumps_stones_and_markers() -> None:
    """STM-R-15 (p.9): 'place it to the right on the next free space. You may skip occupied spaces';
    'You can never move bonus markers'; STM-R-48: markers are jumped."""
    g = gauge_of([(1, False), (2, False)], markers=[(3, 2)])
    result = increase(g, 1, [1])
    assert result.gauge.stone_spaces() == (2, 4)
    assert result.gauge.marker_spaces() == (3,)


def test_r15_no_voluntary_lapse() -> None:
    """STM-R-15 (p.9): 'You cannot voluntarily let part of the pressure lapse'."""
    g = setup_gauge()
    with pytest.raises(GaugeError, match="STM-R-15"):
        increase(g, 2, [3])
    with pytest.raises(GaugeError, match="STM-R-15"):
        increase(g, 1, [3, 4])
    with pytest.raises(GaugeError, match="STM-R-15"):
        increase(g, 1, [5])  # no stone there


def test_r15_no_stone_can_move_everything_lapses() -> None:
    """STM-R-15 (p.8): 'your pressure stones are already all the way to the right … cannot move'."""
    g = gauge_of([(9, False), (10, False)])
    result = increase(g, 3, [])
    assert result.gauge == g and result.used == 0 and result.lapsed == 3


def test_r16_named_stone_bump_lapses_when_blocked() -> None:
    """STM-R-16: 'increase its pressure by 1' moves the one stone; blocked, it lapses."""
    g = gauge_of([(9, False), (10, False)])
    assert bump(g, 9) == (g, False)
    moved, ok = bump(gauge_of([(8, False), (9, False)]), 8)
    assert ok and moved.stone_spaces() == (9, 10)


def test_r16_one_stone_by_up_to_5() -> None:
    """STM-R-16/R-61 (p.31): 'Choose exactly 1 pressure stone … increase its pressure by up to 5'."""
    g = setup_gauge()
    result = increase_one_stone(g, 1, 5)
    assert result.gauge.stone_spaces() == (2, 3, 8) and result.used == 5
    assert increase_one_stone(g, 1, 0).gauge == g
    assert increase_one_stone(gauge_of([(8, False)]), 8, 5).lapsed == 3
    with pytest.raises(GaugeError, match="STM-R-16"):
        increase_one_stone(g, 1, 6)


# ---------------------------------------------------------------------------
# STM-R-17: the base pressure marker
# ---------------------------------------------------------------------------


def test_ex33_base_marker_bumps_the_stone_ahead() -> None:
    """STM-EX-33 (p.31 picture): the marker moves one space right; the stone there is moved ahead.
    *Recon*: the setup gauge; values then 1, 2, 2."""
    result = advance_base_marker(setup_gauge())
    assert result.gauge.base == 1 and result.bumped
    assert values(result.gauge) == ("1", "2", "2")


def test_r17_base_marker_stops_at_value_4() -> None:
    """STM-R-17 (p.30): 'You cannot move your base pressure marker further than onto the space with
    pressure value 4. (The effect then lapses.)'"""
    g = gauge_of([])
    for _ in range(10):
        g = advance_base_marker(g).gauge
    assert LAYOUT.value(g.base) == 4
    assert advance_base_marker(g).lapsed and advance_base_marker(g).gauge == g


def test_r17_declined_or_blocked_stone_goes_to_the_supply() -> None:
    """STM-R-17 (p.30): 'If … it is not possible to move the pressure stone, you must discard it
    (pressure stone: into your supply)'; declining is STM-AMB-05 'optional'."""
    full = Gauge(0, (None, *[Stone()] * 10))
    result = advance_base_marker(full)
    assert result.to_supply == Stone() and result.gauge.stones() == 9
    declined = advance_base_marker(setup_gauge(), bump_stone=False)
    assert declined.to_supply == Stone() and declined.gauge.stone_spaces() == (2, 3)


def test_r17_bonus_marker_under_the_base_marker_leaves_the_game() -> None:
    """STM-R-17 (p.30): 'If a bonus marker lies there … bonus marker: remove from the game'."""
    result = advance_base_marker(gauge_of([], markers=[(1, 2)]))
    assert result.to_box == BonusMarker(2) and result.gauge.marker_spaces() == ()


# ---------------------------------------------------------------------------
# STM-R-18 / R-20 / R-34: taking back and gaining stones
# ---------------------------------------------------------------------------


def test_ex07_take_back_to_the_first_free_spaces() -> None:
    """STM-EX-07 (p.15 picture), STM-R-18: the 1st stone goes to the first free space right of the
    base marker, the next to the next free one.  *Recon*: base g0, stones g1, g3."""
    g = gauge_of([(1, False), (3, False)])
    first = take_back(g, Stone())
    assert first.space == 2
    second = take_back(first.gauge, Stone())
    assert second.space == 4


def test_r18_take_back_keeps_the_face_and_skips_markers() -> None:
    """STM-R-18/R-34 (p.15): 'Do not turn over the pressure stone you take back'; skip markers."""
    g = gauge_of([(2, False)], markers=[(1, 5)], base=0)
    result = take_back(g, Stone(arrow=True))
    assert result.space == 3 and result.gauge.spaces[3] == Stone(arrow=True)


def test_r18_full_gauge_discards_a_bonus_marker_or_returns_the_stone() -> None:
    """STM-R-18 (p.15): 'If no space is free, return 1 bonus marker … If you cannot do that, you must
    return the pressure stone to your supply.'"""
    full: list[Item | None] = [None, *[Stone()] * 10]
    full[4] = BonusMarker(2)
    g = Gauge(0, tuple(full))
    with pytest.raises(GaugeError, match="STM-R-18"):
        take_back(g, Stone())
    result = take_back(g, Stone(arrow=True), discard=4)
    assert result.discarded == BonusMarker(2) and result.gauge.spaces[4] == Stone(arrow=True)
    no_markers = Gauge(0, (None, *[Stone()] * 10))
    assert take_back(no_markers, Stone()).space is None
    with pytest.raises(GaugeError, match="STM-R-18"):
        take_back(setup_gauge(), Stone(), discard=4)


def test_ex29_gained_stone_goes_to_the_first_free_space() -> None:
    """STM-EX-29 (symbol pages, "Resource Costs"): 'receives 1 pressure stone, which she places on the 1st free space
    of her pressure gauge to the right of her base pressure marker'. *Recon*: one stone on g1."""
    result = gain_stone(gauge_of([(1, False)]), Stone())
    assert result.space == 2 and result.gauge.stones() == 2


def test_r18_base_marker_moves_where_stones_land() -> None:
    """STM-R-17 (p.30-31): 'As soon as you take back 1 pressure stone, you place it to the right of
    your base pressure marker'."""
    g = gauge_of([], base=3)
    assert take_back(g, Stone()).space == 4


# ---------------------------------------------------------------------------
# STM-R-47 / R-48: bonus markers on the gauge
# ---------------------------------------------------------------------------


def test_ex23_two_bonus_markers() -> None:
    """STM-EX-23 (p.23), STM-R-47: #5 goes on the space with the 5; #2 on the left 2-space, whose stone
    moves to 'the next free space … the one with the 6'.  *Recon*: stones g3-g6."""
    g = gauge_of([(3, False), (4, False), (5, False), (6, False)])
    g = place_bonus_marker(g, BonusMarker(5), LAYOUT.numeral_spaces(5)[0]).gauge
    assert g.marker_spaces() == (7,)
    placed = place_bonus_marker(g, BonusMarker(2), LAYOUT.numeral_spaces(2)[0])
    assert placed.placed and placed.boxed == ()
    assert placed.gauge.spaces[3] == BonusMarker(2)
    assert LAYOUT.value(8) == 6 and isinstance(placed.gauge.spaces[8], Stone)
    assert placed.gauge.stones() == 4


def test_r47_blocked_stone_sends_the_new_marker_to_the_box() -> None:
    """STM-R-47 (p.22): 'If that is not possible, you must put the bonus marker into the box.'"""
    g = Gauge(0, (None, *[Stone()] * 10))
    result = place_bonus_marker(g, BonusMarker(3), 5)
    assert not result.placed and result.boxed == (BonusMarker(3),) and result.gauge == g


def test_r47_old_marker_goes_to_the_box() -> None:
    """STM-R-47 (p.22): 'If there is already a bonus marker there, put it back into the box.'"""
    result = place_bonus_marker(gauge_of([], markers=[(6, 4)]), BonusMarker(4, pink=False), 6)
    assert result.placed and result.boxed == (BonusMarker(4),)


def test_r47_only_spaces_with_the_numeral_right_of_the_base() -> None:
    """STM-R-47 + STM-AMB-15 'box': with no usable space the marker goes to the box."""
    with pytest.raises(GaugeError, match="STM-R-47"):
        place_bonus_marker(gauge_of([]), BonusMarker(2), 5)
    g = gauge_of([], base=5)
    assert marker_spaces_for(g, 2) == ()
    assert place_bonus_marker(g, BonusMarker(2), None).boxed == (BonusMarker(2),)
    with pytest.raises(GaugeError, match="STM-R-47"):
        place_bonus_marker(gauge_of([]), BonusMarker(2), None)


def test_r48_discard_at_any_time() -> None:
    """STM-R-48 (p.23): 'You may discard bonus markers at any time.'"""
    g, marker = discard_marker(gauge_of([], markers=[(4, 2)]), 4)
    assert marker == BonusMarker(2) and g.marker_spaces() == ()
    with pytest.raises(GaugeError, match="STM-R-48"):
        discard_marker(g, 4)


def test_r61_stone_to_8() -> None:
    """STM-R-61 (p.31): 'Place the pressure stone that you took back … on the space with pressure value 8';
    occupied: STM-AMB-22 'lapse'."""
    moved, ok = stone_to_eight(setup_gauge(), 1)
    assert ok and moved.stone_spaces() == (2, 3, 10)
    assert stone_to_eight(gauge_of([(1, False), (10, False)]), 1) == (gauge_of([(1, False), (10, False)]), False)


# ---------------------------------------------------------------------------
# The solo example turns (p.36 ff.): STM-EX-38..43
# ---------------------------------------------------------------------------

SOLO_START = gauge_of([(1, True), (2, False), (3, False)])  # 'VALUES: 1 with arrow, 1, 2' (STM-AMB-30)


def test_ex38_turn_1() -> None:
    """STM-EX-38 (p.36): arrow move → '1, 2, 2 with arrow'; MAKE STEAM with 4 boilers, 'the left pressure
    stone each time … over the two others' → '4, 5 with arrow, 6'."""
    assert values(SOLO_START) == ("1A", "1", "2")
    g = arrow_moves(SOLO_START, [1])
    assert values(g) == ("1", "2", "2A")
    picks = []
    for _ in range(4):
        picks.append(g.stone_spaces()[0])
        g = increase(g, 1, [g.stone_spaces()[0]]).gauge
    assert values(g) == ("4", "5A", "6")
    start = arrow_moves(SOLO_START, [1])
    assert values(increase(start, 4, picks).gauge) == ("4", "5A", "6")


def test_solo_start_needs_the_arrow_on_the_leftmost_stone() -> None:
    """Review correction (p.36): with the arrow on the second value-1 stone, turn 1's '4, 5 with arrow, 6'
    cannot be reached, so the arrow starts on the first space."""
    other = gauge_of([(1, False), (2, True), (3, False)])
    after = arrow_moves(other, [2])
    assert values(after) == ("1", "2", "2A")
    assert ("4", "5A", "6") not in {values(r.gauge) for r in increase_outcomes(after, 4)}


def test_ex39_turn_2_channel_two_plus_ones() -> None:
    """STM-EX-39 (p.36): arrow move → '4, 6, 7 with arrow'; the stone on space 4 is channelled (two
    boilers: 'increase her pressure by a total of 2') → '7 with arrow, 8'."""
    g = gauge_of([(6, False), (7, True), (8, False)])
    g = arrow_moves(g, [7])
    assert values(g) == ("4", "6", "7A")
    g, stone = lift(g, 6)
    assert LAYOUT.value(6) == 4 and stone == Stone()
    # Each machine's +1 is its own increase by 1 (STM-R-15 per increment).
    first = increase(g, 1, [8]).gauge
    second = increase(first, 1, [])
    assert values(second.gauge) == ("7A", "8") and second.lapsed == 1
    # STM-AMB-32: the printed result is an order that used fewer increments than possible.
    pooled = increase_outcomes(g, 2)
    assert ("7A", "8") in {values(r.gauge) for r in pooled}
    assert ("7A", "8") not in {values(r.gauge) for r in increase_outcomes(g, 2, reading="most")}


def test_ex40_turn_3_blocked_arrow_stone() -> None:
    """STM-EX-40 (p.36): 'Since she has reached the end of the pressure gauge … she cannot move the pressure
    stone'; the stone with value 8 goes to level 8 → '7 with arrow'."""
    g = gauge_of([(9, True), (10, False)])
    assert arrow_moves(g, [9]) == g
    g, _ = lift(g, 10)
    assert values(g) == ("7A",)


def test_ex41_turn_4() -> None:
    """STM-EX-41 (p.36): 'moves the pressure stone with an arrow to space 8' → '8 with arrow'."""
    g = arrow_moves(gauge_of([(9, True)]), [9])
    assert values(g) == ("8A",)
    g, _ = lift(g, 10)
    assert g.stones() == 0


def test_ex42_turn_5_take_backs_and_end_of_turn() -> None:
    """STM-EX-42 (p.36 ff.): take-backs '1 with arrow', '1 with arrow, 1', '1 with arrow, 1, 2'; the end-of-turn
    district: 'increases the pressure by 2 and then turns both pressure stones without an arrow'
    → '2 with arrow, 2 with arrow, 3 with arrow'."""
    g = gauge_of([])
    g = take_back(g, Stone(arrow=True)).gauge
    assert values(g) == ("1A",)
    g = take_back(g, Stone()).gauge
    assert values(g) == ("1A", "1")
    g = take_back(g, Stone()).gauge
    assert values(g) == ("1A", "1", "2")
    after = increase(g, 2, [1, 2]).gauge  # g1A → g4, then g2 → g5 (review correction)
    for space in after.stone_spaces():
        after = turn_stone(after, space, True)
    assert values(after) == ("2A", "2A", "3A")
    # Review correction: moving g2 first lets g1 step into g2 ('1, 2, 2' before turning).
    wrong = increase(g, 2, [2, 1]).gauge
    assert [LAYOUT.value(s) for s in wrong.stone_spaces()] == [1, 2, 2]


def test_ex43_turn_6_arrow_order_matters() -> None:
    """STM-EX-43 (p.36 ff.): 'moving her pressure stones with an arrow' → '4 with arrow, 5 with arrow, 6 with
    arrow'; only the left-to-right order gives it (review correction)."""
    g = gauge_of([(3, True), (4, True), (5, True)])
    assert values(arrow_moves(g, [3, 4, 5])) == ("4A", "5A", "6A")
    assert values(arrow_moves(g, [5, 4, 3])) == ("2A", "3A", "4A")
    assert ("4A", "5A", "6A") in _values_of(arrow_outcomes(g))
    with pytest.raises(GaugeError, match="STM-R-19"):
        arrow_moves(g, [3, 4])


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------


@st.composite
def gauges(draw: st.DrawFn) -> Gauge:
    """Any valid gauge: base on g0..g6, ≤5 stones, bonus markers only on spaces with their numeral."""
    base = draw(st.integers(0, LAYOUT.base_limit))
    spaces: list[Item | None] = [None] * len(LAYOUT.values)
    stones = 0
    for i in range(base + 1, len(spaces)):
        kinds = ["empty", "stone"] if stones < 5 else ["empty"]
        if LAYOUT.numerals[i] is not None:
            kinds.append("marker")
        kind = draw(st.sampled_from(kinds))
        if kind == "stone":
            spaces[i] = Stone(draw(st.booleans()))
            stones += 1
        elif kind == "marker":
            numeral = LAYOUT.numerals[i]
            assert numeral is not None
            spaces[i] = BonusMarker(numeral)
    return Gauge(base, tuple(spaces))


def _markers(g: Gauge) -> list[tuple[int, Item | None]]:
    return [(i, g.spaces[i]) for i in g.marker_spaces()]


def _faces(g: Gauge) -> list[bool]:
    return sorted(s.arrow for s in g.spaces if isinstance(s, Stone))


@given(gauges(), st.integers(0, 12), st.randoms(use_true_random=False))
def test_prop_increase_conserves_stones_and_never_moves_markers(g: Gauge, x: int, rng: random.Random) -> None:
    """STM-R-15: stones conserved with their faces, markers never move, used + lapsed = X,
    a lapse only when no stone can move, and every stone only goes right."""
    picks: list[int] = []
    cur = g
    while len(picks) < x and movable(cur):
        space = rng.choice(movable(cur))
        picks.append(space)
        cur = increase(cur, 1, [space]).gauge
    result = increase(g, x, picks)
    assert result.gauge == cur
    assert result.gauge.stones() == g.stones() and _faces(result.gauge) == _faces(g)
    assert _markers(result.gauge) == _markers(g)
    assert result.used + result.lapsed == x
    assert result.lapsed == 0 or movable(result.gauge) == ()
    assert sum(result.gauge.stone_spaces()) >= sum(g.stone_spaces()) + result.used
    assert gauge_problems(result.gauge) == []


@given(gauges(), st.integers(0, 6))
def test_prop_outcomes_contain_the_greedy_run_and_most_is_a_subset(g: Gauge, x: int) -> None:
    """STM-R-15 / STM-AMB-32: every outcome is a maximal run; 'most' keeps a non-empty subset."""
    free = increase_outcomes(g, x)
    most = increase_outcomes(g, x, reading="most")
    assert most and most <= free
    for r in free:
        assert r.lapsed == 0 or movable(r.gauge) == ()
        assert r.gauge.stones() == g.stones()


@given(gauges(), st.lists(st.booleans(), max_size=12))
def test_prop_base_marker_never_above_4_and_stones_accounted(g: Gauge, bumps: list[bool]) -> None:
    """STM-R-17: the base marker never passes the value-4 space; every stone is on the gauge or sent to
    the supply; bonus markers under it leave the game."""
    stones, supply = g.stones(), 0
    for b in bumps:
        result = advance_base_marker(g, bump_stone=b)
        supply += result.to_supply is not None
        g = result.gauge
        assert LAYOUT.value(g.base) <= 4 if g.base else True
        assert g.stones() + supply == stones
        assert gauge_problems(g) == []


@given(gauges(), st.booleans())
def test_prop_take_back_lands_first_free_or_supply(g: Gauge, arrow: bool) -> None:
    """STM-R-18: the stone lands on the first free space right of the base, with its face; only with no
    free space is a marker discarded; with neither it goes to the supply."""
    first = g.first_free()
    discard = g.marker_spaces()[-1] if first is None and g.marker_spaces() else None
    result = take_back(g, Stone(arrow), discard)
    if first is not None:
        assert result.space == first and result.discarded is None
    elif discard is not None:
        assert result.space == discard and result.gauge.marker_spaces() == g.marker_spaces()[:-1]
    else:
        assert result.space is None and result.gauge == g
    if result.space is not None:
        assert result.gauge.spaces[result.space] == Stone(arrow)
        assert result.gauge.stones() == g.stones() + 1
        assert all(not result.gauge.is_free(i) for i in range(g.base + 1, result.space))


@given(gauges())
def test_prop_arrow_moves_move_each_arrow_stone_at_most_once(g: Gauge) -> None:
    """STM-R-19: only arrow stones move, each at most one increment; arrowless stones stay."""
    for after in arrow_outcomes(g):
        assert after.stones() == g.stones() and _faces(after) == _faces(g)
        plain = [i for i in g.stone_spaces() if i not in g.arrow_spaces()]
        assert all(after.spaces[i] == Stone(False) for i in plain)
        assert len(after.arrow_spaces()) == len(g.arrow_spaces())


@given(gauges(), st.integers(2, 5), st.booleans())
def test_prop_bonus_marker_placement_conserves_stones(g: Gauge, numeral: int, bump_stone: bool) -> None:
    """STM-R-47: placing a marker never loses a stone; the marker is placed or boxed; at most one old
    marker is boxed besides."""
    spaces = marker_spaces_for(g, numeral)
    result = place_bonus_marker(g, BonusMarker(numeral), spaces[0] if spaces else None, bump_stone=bump_stone)
    assert result.gauge.stones() == g.stones()
    assert result.placed or result.boxed[0] == BonusMarker(numeral)
    assert len(result.boxed) <= 1
    if spaces and result.placed:
        assert result.gauge.spaces[spaces[0]] == BonusMarker(numeral)
    if spaces and isinstance(g.spaces[spaces[0]], Stone):
        assert result.placed == (bump_stone and can_move(g, spaces[0]))
    assert gauge_problems(result.gauge) == []


def _walk_by_increments(g: Gauge, x: int) -> dict[Gauge, tuple[int, ...]]:
    """The reference walk, one ``increment`` at a time: every end gauge with the first of its longest orders."""
    out: dict[Gauge, tuple[int, ...]] = {}
    seen: set[tuple[Gauge, int]] = set()

    def walk(cur: Gauge, left: int, picks: tuple[int, ...]) -> None:
        if (cur, left) in seen:
            return
        seen.add((cur, left))
        options = movable(cur) if left else ()
        if not options:
            if cur not in out or len(picks) > len(out[cur]):
                out[cur] = picks
            return
        for space in options:
            walk(increment(cur, space), left - 1, (*picks, space))

    walk(g, x, ())
    return out


@given(gauges(), st.integers(0, 7))
def test_prop_generation_walk_matches_the_increments(g: Gauge, x: int) -> None:
    """STM-R-15: the generator's walk over bare spaces finds the same end gauges, with the same orders
    in the same sequence, as a walk made of ``increment`` steps; each order reproduces its end gauge."""
    found = _pressure_choices(g, x)
    assert list(found.items()) == list(_walk_by_increments(g, x).items())
    for end, picks in found.items():
        assert increase(g, len(picks), picks).gauge == end


@pytest.mark.parametrize("x", [0, 1, 2])
def test_an_increase_by_x_makes_at_most_x_increments_though_the_stone_could_go_further(x: int) -> None:
    """STM-R-15 (p.8): "increase the pressure by X" is X increments, no more, each moving a stone to
    the nearest free space on its right.  One stone on space 2 of an empty gauge could move eight
    times; by X it moves exactly X spaces, nothing lapses (and by 0 nothing happens)."""
    g = Gauge(0, (None, None, Stone(), *([None] * 8)))
    (only,) = increase_outcomes(g, x)
    assert (only.used, only.lapsed) == (x, 0)
    assert only.gauge.stone_spaces() == (2 + x,)
