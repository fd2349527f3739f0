"""Kings of Air and Steam flights (KAS-R-26, -27, -42 and the special cards/characters).

Printed examples: KAS-EX-06 and KAS-EX-07 (p.11), KAS-EX-16 (p.14), with the
reconstructed geometry of the rules digest.  Readings: KAS-AMB-01/02/04.
"""

from __future__ import annotations

import gc
import itertools
import re
import weakref
from collections.abc import Iterable
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulecraft.model.kings_of_air_and_steam import flight
from rulecraft.model.kings_of_air_and_steam.components import City, GameMap, MapHex
from rulecraft.model.kings_of_air_and_steam.flight import (
    FlightRules,
    card_flights,
    course_correction_problem,
    course_corrections,
    endpoints,
    flight_problem,
    legal_flights,
)
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, path_hexes

ORIGIN = Hex(0, 0)
WIDE = FlightRules()
E, NE, NW, W, SW, SE = range(6)


def disc(radius: int, centre: Hex = ORIGIN) -> list[Hex]:
    return [
        Hex(centre.q + q, centre.r + r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if ORIGIN.distance(Hex(q, r)) <= radius
    ]


def ring(radius: int, centre: Hex = ORIGIN) -> set[Hex]:
    return {h for h in disc(radius, centre) if centre.distance(h) == radius}


def make_map(
    area: Iterable[Hex], *, cities: dict[Hex, str] | None = None, partial: Iterable[Hex] = (), layout: str = "t"
) -> GameMap:
    """A play area of full hexes, with some city hexes and partial (pass-through) hexes."""
    cities = cities or {}
    cut = set(partial)
    hexes = {h: MapHex(at=h, board="A", partial=h in cut, city=cities.get(h)) for h in area}
    city_objects = tuple(sorted((City(name, at, "food") for at, name in cities.items()), key=lambda c: c.name))
    return GameMap(layout=layout, hexes=hexes, cities=city_objects, lines=(), factories=())


def end_of(start: Hex, flight: tuple[int, ...]) -> Hex:
    return path_hexes(start, flight)[-1] if flight else start


RADIUS3 = make_map(disc(3))
RADIUS7 = make_map(disc(7))


# --- KAS-EX-06: straight / wide turn OK, sharp turn not OK (p.11) ---------------------------------


def test_ex06_straight_and_wide_turn_are_legal_kas_r_26() -> None:
    assert flight_problem(RADIUS3, ORIGIN, (E, E, E), 3, WIDE) is None
    assert flight_problem(RADIUS3, ORIGIN, (E, NE, NE), 3, WIDE) is None


def test_ex06_sharp_turn_and_backwards_are_illegal_kas_r_26() -> None:
    assert flight_problem(RADIUS3, ORIGIN, (E, NW), 2, WIDE) == ("KAS-R-26", "step 2 turns 120° (a sharp turn)")
    assert flight_problem(RADIUS3, ORIGIN, (E, W), 2, WIDE) == ("KAS-R-26", "step 2 goes backwards")
    assert flight_problem(RADIUS3, ORIGIN, (E, E, W), 3, WIDE) == ("KAS-R-26", "step 3 goes backwards")


def test_ex06_clint_castle_may_turn_sharply_but_never_backwards_kas_r_82_amb_40() -> None:
    clint = FlightRules(sharp_ok=True)
    assert flight_problem(RADIUS3, ORIGIN, (E, NW), 2, clint) is None
    assert flight_problem(RADIUS3, ORIGIN, (E, SW), 2, clint) is None
    assert flight_problem(RADIUS3, ORIGIN, (E, W), 2, clint) == ("KAS-R-26", "step 2 goes backwards")
    # Clint's 2-flights reach the adjacent ring too (via 120°), never the start (that needs 180°).
    assert set(endpoints(RADIUS3, ORIGIN, 2, clint)) == ring(1) | ring(2)


def test_the_flight_must_be_exactly_the_cards_movement_kas_r_26() -> None:
    assert flight_problem(RADIUS3, ORIGIN, (E, E), 3, WIDE) == (
        "KAS-R-26",
        "the card moves 3 hexes; the flight has 2 steps",
    )
    assert flight_problem(RADIUS3, ORIGIN, (), 1, WIDE) == ("KAS-R-26", "the card moves 1 hex; the flight has 0 steps")
    assert flight_problem(RADIUS3, ORIGIN, (), 0, WIDE) is None  # a 0 card: the airship stays


def test_the_first_step_may_go_any_direction_kas_r_26() -> None:
    assert all(flight_problem(RADIUS3, ORIGIN, (d,), 1, WIDE) is None for d in range(6))
    assert set(endpoints(RADIUS3, ORIGIN, 1, WIDE)) == ring(1)


# --- KAS-EX-07: which factory can Yellow reach? (p.11) -------------------------------------------


def test_ex07_yellow_with_movement_2_reaches_exactly_the_12_hexes_at_distance_2() -> None:
    ends = endpoints(RADIUS3, ORIGIN, 2, WIDE)
    assert set(ends) == ring(2)
    assert len(ends) == 12


def test_ex07_textile_factory_reachable_chemical_factory_not() -> None:
    ends = endpoints(RADIUS3, ORIGIN, 2, WIDE)
    assert ends[Hex(2, 0)] == (E, E)  # the textile factory, flown straight
    assert Hex(1, 0) not in ends  # the adjacent chemical factory ...
    # ... because the only 2-step ways there bend by 120° (e.g. NE then SE).
    assert flight_problem(RADIUS3, ORIGIN, (NE, SE), 2, WIDE) == ("KAS-R-26", "step 2 turns 120° (a sharp turn)")
    assert not [f for f in legal_flights(RADIUS3, ORIGIN, 2, WIDE) if end_of(ORIGIN, f) == Hex(1, 0)]


def test_legal_flight_counts_under_the_wide_reading_amb_01a() -> None:
    # 6·3^(n-1) sequences on a map big enough that nothing leaves it.
    assert [len(list(legal_flights(RADIUS7, ORIGIN, n, WIDE))) for n in range(6)] == [1, 6, 18, 54, 162, 486]


# --- KAS-EX-16: Course Correction (p.14) ---------------------------------------------------------


def test_ex16_luxury_factory_is_not_a_2_flight_end_but_course_correction_gets_there() -> None:
    luxury = Hex(0, 3)
    ends = endpoints(RADIUS3, ORIGIN, 2, WIDE)
    assert luxury not in ends  # distance 3
    assert flight_problem(RADIUS3, ORIGIN, (SE, SE), 2, WIDE) is None
    assert end_of(ORIGIN, (SE, SE)) == Hex(0, 2)
    assert course_correction_problem(RADIUS3, Hex(0, 2), SE) is None  # KAS-R-42
    assert course_corrections(RADIUS3, Hex(0, 2))[luxury] == SE


def test_ex16_course_correction_ignores_turn_rules_kas_r_42() -> None:
    # Straight back against the flight's last step: no turn restriction, facing irrelevant.
    assert course_correction_problem(RADIUS3, Hex(0, 2), NW) is None
    assert course_corrections(RADIUS3, ORIGIN) == {ORIGIN.step(d): d for d in range(6)}


def test_ex16_course_correction_may_not_enter_a_city_or_partial_hex_kas_r_42() -> None:
    area = disc(3)
    with_city = make_map(area, cities={Hex(0, 3): "Warsop"})
    with_cut = make_map(area, partial=[Hex(0, 3)])
    assert course_correction_problem(with_city, Hex(0, 2), SE) == (
        "KAS-R-42",
        "course correction may not enter the city Warsop",
    )
    assert course_correction_problem(with_cut, Hex(0, 2), SE) == (
        "KAS-R-42",
        "course correction may not enter a partial hex (0,3)",
    )
    assert course_correction_problem(RADIUS3, Hex(0, 3), SE) == (
        "KAS-R-42",
        "course correction leaves the play area at (0,4)",
    )
    assert Hex(0, 3) not in course_corrections(with_city, Hex(0, 2))
    assert Hex(0, 3) not in course_corrections(with_cut, Hex(0, 2))
    assert len(course_corrections(with_cut, Hex(0, 2))) == 5
    with pytest.raises(ValueError):
        course_correction_problem(RADIUS3, ORIGIN, 6)


# --- KAS-R-27: where an airship may go -----------------------------------------------------------

R27_MAP = make_map(disc(4), cities={Hex(1, 0): "Warsop"}, partial=[Hex(3, 0), Hex(0, 4)])


def test_r27_may_not_end_on_a_city_but_may_pass_through() -> None:
    assert flight_problem(R27_MAP, ORIGIN, (E,), 1, WIDE) == ("KAS-R-27", "a flight may not end on the city Warsop")
    assert flight_problem(R27_MAP, ORIGIN, (E, E), 2, WIDE) is None
    assert endpoints(R27_MAP, ORIGIN, 2, WIDE)[Hex(2, 0)] == (E, E)
    assert Hex(1, 0) not in endpoints(R27_MAP, ORIGIN, 1, WIDE)


def test_r27_may_not_end_on_a_partial_hex_but_may_pass_through() -> None:
    assert flight_problem(R27_MAP, ORIGIN, (E, E, E), 3, WIDE) == (
        "KAS-R-27",
        "a flight may not end on a partial hex (3,0)",
    )
    assert flight_problem(R27_MAP, ORIGIN, (E, E, E, E), 4, WIDE) is None  # through the city and the cut hex
    assert Hex(3, 0) not in endpoints(R27_MAP, ORIGIN, 3, WIDE)
    assert Hex(4, 0) in endpoints(R27_MAP, ORIGIN, 4, WIDE)


def test_r27_may_not_leave_the_play_area() -> None:
    assert flight_problem(R27_MAP, Hex(2, -1), (E, E, E), 3, WIDE) == (
        "KAS-R-27",
        "step 3 leaves the play area at (5,-1)",
    )
    # Leaving and coming back in is still leaving.
    assert flight_problem(R27_MAP, Hex(4, 0), (E, NW, W), 3, FlightRules(sharp_ok=True)) == (
        "KAS-R-27",
        "step 1 leaves the play area at (5,0)",
    )
    ends = endpoints(R27_MAP, Hex(4, -2), 2, WIDE)
    assert all(h in R27_MAP.hexes for h in ends)


def test_r27_other_contents_do_not_matter() -> None:
    # Factories, rail and water are ordinary ends (only cities and partial hexes are special).
    hexes = {h: MapHex(at=h, board="A") for h in disc(2)}
    hexes[Hex(2, 0)] = MapHex(at=Hex(2, 0), board="A", factory="textile")
    hexes[Hex(0, 2)] = MapHex(at=Hex(0, 2), board="A", water=True)
    hexes[Hex(-2, 0)] = MapHex(at=Hex(-2, 0), board="A", rail="L1")
    special = GameMap(layout="t", hexes=hexes, cities=(), lines=(), factories=((Hex(2, 0), "textile"),))
    assert {Hex(2, 0), Hex(0, 2), Hex(-2, 0)} <= set(endpoints(special, ORIGIN, 2, WIDE))


# --- the special cards ---------------------------------------------------------------------------


def test_davinci_flies_seven_hexes_straight_only_kas_r_65() -> None:
    davinci = FlightRules(straight_only=True)
    flights = list(legal_flights(RADIUS7, ORIGIN, 7, davinci))
    assert flights == [(d,) * 7 for d in range(6)]
    assert set(endpoints(RADIUS7, ORIGIN, 7, davinci)) == {
        Hex(7 * dq, 7 * dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    }
    assert flight_problem(RADIUS7, ORIGIN, (E, E, NE, NE, NE, NE, NE), 7, davinci) == (
        "KAS-R-65",
        "step 3 turns 60° (the DaVinci card flies in one direction only)",
    )


def test_davinci_near_the_edge_may_have_no_flight_amb_04() -> None:
    davinci = FlightRules(straight_only=True)
    assert endpoints(RADIUS3, ORIGIN, 7, davinci) == {}  # the caller applies KAS-AMB-04
    assert list(legal_flights(RADIUS3, ORIGIN, 7, davinci)) == []
    # Off-centre on the radius-7 disc: only the directions that stay inside.
    start = Hex(-3, 0)
    assert list(legal_flights(RADIUS7, start, 7, davinci)) == [(E,) * 7, (NE,) * 7, (SE,) * 7]


def test_sky_castle_six_turns_normally_kas_r_81() -> None:
    assert flight_problem(RADIUS7, ORIGIN, (E, NE, NE, E, SE, SE), 6, WIDE) is None
    assert len(list(legal_flights(RADIUS7, ORIGIN, 6, WIDE))) == 6 * 3**5


def test_kings_over_aces_and_godfather_choose_a_distance_kas_r_77_r_85() -> None:
    aces = card_flights(RADIUS3, ORIGIN, (0, 1, 2, 3), WIDE)
    assert sorted(aces) == [0, 1, 2, 3]
    assert aces[0] == {ORIGIN: ()}  # distance 0 is always possible (KAS-AMB-04)
    assert set(aces[1]) == ring(1)
    assert set(aces[2]) == ring(2)
    assert aces[3] == endpoints(RADIUS3, ORIGIN, 3, WIDE)
    godfather = card_flights(RADIUS3, ORIGIN, (0, 1, 2), WIDE)
    assert sorted(godfather) == [0, 1, 2]
    assert card_flights(RADIUS3, ORIGIN, (2,), WIDE) == {2: endpoints(RADIUS3, ORIGIN, 2, WIDE)}
    assert card_flights(RADIUS3, ORIGIN, (), WIDE) == {}  # the Emperor card: no movement step


def test_rose_and_thorn_second_flight_may_return_to_the_start_kas_r_73_amb_35() -> None:
    # Two separate 2-flights: each is judged alone, so a reversal between them is fine.
    assert flight_problem(RADIUS3, ORIGIN, (E, E), 2, WIDE) is None
    assert flight_problem(RADIUS3, Hex(2, 0), (W, W), 2, WIDE) is None
    assert endpoints(RADIUS3, Hex(2, 0), 2, WIDE)[ORIGIN] == (W, W)


# --- readings ------------------------------------------------------------------------------------

LOOP = (E, NE, NW, W, SW, SE)  # six 60° left turns: back to the start


def test_amb_02a_revisits_are_fine() -> None:
    assert flight_problem(RADIUS3, ORIGIN, LOOP, 6, WIDE) is None
    assert endpoints(RADIUS3, ORIGIN, 6, WIDE)[ORIGIN] == LOOP


def test_amb_02b_no_hex_entered_twice() -> None:
    rules = FlightRules.from_readings({"KAS-AMB-02": "b"})
    assert rules == FlightRules(no_revisit=True)
    assert flight_problem(RADIUS3, ORIGIN, LOOP, 6, rules) == (
        "KAS-R-26",
        "step 6 re-enters (0,0), already visited in this flight (reading KAS-AMB-02 (b))",
    )
    assert ORIGIN not in endpoints(RADIUS3, ORIGIN, 6, rules)
    # Entering (1,0) a second time on step 7 (under reading a, this flight is fine).
    seven = (*LOOP, E)
    assert flight_problem(RADIUS3, ORIGIN, seven, 7, WIDE) is None
    assert flight_problem(RADIUS3, Hex(-1, 0), (E, *seven[:-1]), 7, rules) == (
        "KAS-R-26",
        "step 7 re-enters (0,0), already visited in this flight (reading KAS-AMB-02 (b))",
    )
    assert all(len(set(path_hexes(ORIGIN, f))) == 7 for f in legal_flights(RADIUS7, ORIGIN, 7, rules))


def test_amb_02c_no_ending_on_the_start_hex() -> None:
    rules = FlightRules.from_readings({"KAS-AMB-02": "c"})
    assert rules == FlightRules(no_return=True)
    assert flight_problem(RADIUS3, ORIGIN, LOOP, 6, rules) == (
        "KAS-R-26",
        "the flight ends on its start hex (0,0) (reading KAS-AMB-02 (c))",
    )
    assert set(endpoints(RADIUS3, ORIGIN, 6, rules)) == set(endpoints(RADIUS3, ORIGIN, 6, WIDE)) - {ORIGIN}
    assert endpoints(RADIUS3, ORIGIN, 0, rules) == {ORIGIN: ()}  # a 0 card still stays put


def test_amb_01b_spaced_turns_need_a_straight_step_between() -> None:
    spaced = FlightRules.from_readings({"KAS-AMB-01": "b"})
    assert spaced == FlightRules(turns="spaced")
    assert flight_problem(RADIUS3, ORIGIN, (E, NE, NE), 3, spaced) is None
    assert flight_problem(RADIUS3, ORIGIN, (E, NE, NW), 3, spaced) == (
        "KAS-R-26",
        "step 3 turns 60° right after another turn (reading KAS-AMB-01 (b): turns need a straight step between)",
    )
    assert flight_problem(RADIUS3, ORIGIN, (E, NE, E), 3, spaced) is not None  # a zig-zag is two bends in a row
    assert flight_problem(RADIUS7, ORIGIN, (E, E, NE, NE, NW), 5, spaced) is None
    assert flight_problem(RADIUS3, ORIGIN, (E, NW), 2, spaced) == ("KAS-R-26", "step 2 turns 120° (a sharp turn)")
    assert set(endpoints(RADIUS3, ORIGIN, 2, spaced)) == ring(2)  # one bend: same as reading (a)
    assert len(list(legal_flights(RADIUS7, ORIGIN, 3, spaced))) == 6 * 5  # changes per first direction: 00, 0±1, ±10


def test_amb_01c_straight_reading_forbids_every_bend() -> None:
    straight = FlightRules.from_readings({"KAS-AMB-01": "c"})
    assert straight == FlightRules(turns="straight")
    assert flight_problem(RADIUS3, ORIGIN, (E, NE), 2, straight) == (
        "KAS-R-26",
        "step 2 turns 60° (reading KAS-AMB-01 (c): every bend is a sharp turn)",
    )
    assert set(endpoints(RADIUS3, ORIGIN, 2, straight)) == {ORIGIN.step(d).step(d) for d in range(6)}


def test_from_readings_defaults_and_flags() -> None:
    assert FlightRules.from_readings({}) == FlightRules()
    assert FlightRules.from_readings({"KAS-AMB-01": "a", "KAS-AMB-02": "a", "KAS-AMB-99": "z"}) == FlightRules()
    assert FlightRules.from_readings({}, sharp_ok=True) == FlightRules(sharp_ok=True)
    assert FlightRules.from_readings({"KAS-AMB-01": "b"}, straight_only=True) == FlightRules(
        turns="spaced", straight_only=True
    )
    with pytest.raises(ValueError):
        FlightRules.from_readings({"KAS-AMB-01": "d"})
    with pytest.raises(ValueError):
        FlightRules.from_readings({"KAS-AMB-02": "x"})
    with pytest.raises(ValueError):
        FlightRules(turns="curly")


def test_bad_arguments_are_errors_not_problems() -> None:
    with pytest.raises(ValueError):
        flight_problem(RADIUS3, ORIGIN, (6,), 1, WIDE)
    with pytest.raises(ValueError):
        flight_problem(RADIUS3, ORIGIN, (), -1, WIDE)
    with pytest.raises(ValueError):
        endpoints(RADIUS3, Hex(9, 9), 2, WIDE)  # an airship is never off the map
    with pytest.raises(ValueError):
        list(legal_flights(RADIUS3, ORIGIN, -1, WIDE))


def test_a_one_step_flight_for_a_longer_card_is_described_in_the_singular_kas_r_26() -> None:
    """KAS-R-26 (p.11): the card's full movement must be flown; a 2-card flown 1 hex is refused, and the
    refusal counts the flight's one step in the singular (the plural is tested above)."""
    assert flight_problem(RADIUS3, ORIGIN, (E,), 2, WIDE) == (
        "KAS-R-26",
        "the card moves 2 hexes; the flight has 1 step",
    )


def test_bad_arguments_name_the_bad_value() -> None:
    """A caller's error says what was wrong: the readings of KAS-AMB-01/02 are a, b, c (digest); the six
    hex directions are 0..5; a movement value (KAS-R-26, p.11: the card's value) is never negative; an
    airship's start hex is in the play area (KAS-R-27, p.11: it may not leave it)."""
    with pytest.raises(ValueError, match=re.escape("KAS-AMB-01 has readings a, b, c; got 'd'")):
        FlightRules.from_readings({"KAS-AMB-01": "d"})
    with pytest.raises(ValueError, match=re.escape("KAS-AMB-02 has readings a, b, c; got 'x'")):
        FlightRules.from_readings({"KAS-AMB-02": "x"})
    with pytest.raises(ValueError, match=re.escape("directions are 0..5, got (0, 6)")):
        flight_problem(RADIUS3, ORIGIN, (0, 6), 2, WIDE)
    with pytest.raises(ValueError, match=re.escape("a movement value is never negative, got -1")):
        flight_problem(RADIUS3, ORIGIN, (), -1, WIDE)
    with pytest.raises(ValueError, match=re.escape("a movement value is never negative, got -2")):
        list(legal_flights(RADIUS3, ORIGIN, -2, WIDE))
    with pytest.raises(ValueError, match=re.escape("a movement value is never negative, got -3")):
        endpoints(RADIUS3, ORIGIN, -3, WIDE)
    with pytest.raises(ValueError, match=re.escape(f"the start hex {Hex(9, 9)} is not in the play area")):
        endpoints(RADIUS3, Hex(9, 9), 2, WIDE)
    with pytest.raises(ValueError, match=re.escape(f"the start hex {Hex(9, 9)} is not in the play area")):
        list(legal_flights(RADIUS3, Hex(9, 9), 2, WIDE))
    with pytest.raises(ValueError, match=re.escape("directions are 0..5, got 6")):
        course_correction_problem(RADIUS3, ORIGIN, 6)


# --- caching -------------------------------------------------------------------------------------


def test_the_cache_tells_apart_maps_that_compare_equal() -> None:
    # GameMap equality ignores hexes, so a cache keyed by == would mix these two up.
    small = make_map(disc(1), layout="same")
    big = make_map(disc(3), layout="same")
    assert small == big
    assert endpoints(small, ORIGIN, 2, WIDE) == {}
    assert set(endpoints(big, ORIGIN, 2, WIDE)) == ring(2)


def test_callers_cannot_corrupt_the_cache() -> None:
    ends = endpoints(RADIUS3, ORIGIN, 2, WIDE)
    ends.clear()
    assert len(endpoints(RADIUS3, ORIGIN, 2, WIDE)) == 12


def test_two_maps_asked_in_turn_keep_their_own_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """endpoints is cached per map: two play areas asked alternately are each searched once, not once per
    switch (a cache slot shared by all maps would pass the single-map test below and fail this one).
    The answers are KAS-R-26's: a 2-flight ends exactly 2 hexes away, on both discs the ring of 12."""
    first_area = make_map(disc(3))
    second_area = make_map(disc(4))
    searches: list[int] = []
    search = flight._search_endpoints

    def counted(*args: Any, **kwargs: Any) -> Any:
        searches.append(1)
        return search(*args, **kwargs)

    monkeypatch.setattr(flight, "_search_endpoints", counted)
    for _ in range(3):
        assert set(endpoints(first_area, ORIGIN, 2, WIDE)) == ring(2)
        assert set(endpoints(second_area, ORIGIN, 2, WIDE)) == ring(2)
    assert len(searches) == 2


def test_a_maps_tables_go_when_the_map_goes() -> None:
    """The per-map tables are dropped with their map (a long session builds many maps: no leak)."""
    area = make_map(disc(2))
    key = id(area)
    assert set(endpoints(area, ORIGIN, 1, WIDE)) == ring(1)  # KAS-R-26: a 1-flight ends next door
    assert key in flight._TABLES
    alive = weakref.ref(area)
    del area
    gc.collect()
    assert alive() is None
    assert key not in flight._TABLES


def test_endpoints_are_searched_once_per_map_start_length_and_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flight's endpoints are searched once per (map, start, length, rules) and then read from the
    map's tables (the time is measured in bench/kings_of_air_and_steam.py: speed is never asserted in a
    test)."""
    area = make_map(disc(7))  # 169 hexes
    searches: list[int] = []
    search = flight._search_endpoints

    def counted(*args: Any, **kwargs: Any) -> Any:
        searches.append(1)
        return search(*args, **kwargs)

    monkeypatch.setattr(flight, "_search_endpoints", counted)
    first = endpoints(area, ORIGIN, 5, WIDE)
    for _ in range(100):
        again = endpoints(area, ORIGIN, 5, WIDE)
    assert again == first and len(first) > 0
    assert len(searches) == 1
    endpoints(area, ORIGIN, 4, WIDE)
    assert len(searches) == 2


# --- properties ----------------------------------------------------------------------------------

KINDS = ("full", "full", "full", "full", "partial", "city", "gone")


@st.composite
def small_maps(draw: st.DrawFn) -> GameMap:
    """A disc of radius 1..3 with some hexes cut, made cities or removed; the centre stays full."""
    area = disc(draw(st.integers(1, 3)))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=len(area), max_size=len(area)))
    chosen = {h: k for h, k in zip(area, kinds, strict=True) if h == ORIGIN or k != "gone"}
    chosen[ORIGIN] = "full"
    return make_map(
        chosen,
        cities={h: f"City{i}" for i, (h, k) in enumerate(chosen.items()) if k == "city"},
        partial=[h for h, k in chosen.items() if k == "partial"],
    )


any_rules = st.builds(
    FlightRules,
    turns=st.sampled_from(("wide", "spaced", "straight")),
    sharp_ok=st.booleans(),
    straight_only=st.booleans(),
    no_revisit=st.booleans(),
    no_return=st.booleans(),
)


@given(game_map=small_maps(), length=st.integers(0, 5), rules=any_rules, data=st.data())
def test_enumerators_agree_with_the_judge(
    game_map: GameMap, length: int, rules: FlightRules, data: st.DataObject
) -> None:
    """KAS-R-26/27: legal_flights, endpoints and flight_problem describe the same flights."""
    flights = list(legal_flights(game_map, ORIGIN, length, rules))
    assert flights == sorted(set(flights))  # lexicographic, no duplicates
    assert all(flight_problem(game_map, ORIGIN, f, length, rules) is None for f in flights)
    ends = endpoints(game_map, ORIGIN, length, rules)
    smallest: dict[Hex, tuple[int, ...]] = {}
    for f in flights:
        smallest.setdefault(end_of(ORIGIN, f), f)
    assert ends == smallest
    legal = set(flights)
    if length <= 4:
        # Exhaustive: every other direction tuple of this length is refused.
        brute = {
            f
            for f in itertools.product(range(6), repeat=length)
            if flight_problem(game_map, ORIGIN, f, length, rules) is None
        }
        assert brute == legal
    else:
        others = data.draw(st.lists(st.tuples(*[st.integers(0, 5)] * length), max_size=20))
        for f in others:
            assert (flight_problem(game_map, ORIGIN, f, length, rules) is None) == (f in legal)
    wrong = data.draw(st.lists(st.integers(0, 5), max_size=6).filter(lambda f: len(f) != length))
    assert flight_problem(game_map, ORIGIN, tuple(wrong), length, rules) is not None


@given(game_map=small_maps(), start=st.sampled_from(disc(3)))
def test_wide_two_flights_end_at_distance_exactly_two(game_map: GameMap, start: Hex) -> None:
    """KAS-R-26 consequence: with 0° / 60° changes a 2-flight ends 2 hexes away (never on or next to the start)."""
    if start not in game_map.hexes:
        start = ORIGIN
    assert all(start.distance(h) == 2 for h in endpoints(game_map, start, 2, WIDE))
    assert all(start.distance(h) == 2 for h in endpoints(game_map, start, 2, FlightRules(turns="spaced")))


@pytest.mark.parametrize(
    ("rules", "longest"),
    [
        (FlightRules(), 7),
        (FlightRules(turns="spaced"), 7),
        (FlightRules(turns="straight"), 7),
        (FlightRules(sharp_ok=True), 5),
        (FlightRules(no_revisit=True), 7),
        (FlightRules(turns="spaced", no_revisit=True), 7),
        (FlightRules(no_return=True), 7),
    ],
    ids=repr,
)
def test_long_flights_on_a_big_map_agree_with_simpler_oracles(rules: FlightRules, longest: int) -> None:
    """KAS-R-26 with each reading, up to DaVinci's 7 (the random maps above are too small for loops).

    The readings' extra conditions only remove flights, so filtering the plain
    turn rules' flights is an oracle for them; endpoints must be the smallest
    path per end of what legal_flights lists.
    """
    area = make_map(disc(4), partial=[Hex(4, -2)], cities={Hex(1, 1): "Inner"})
    start = Hex(-1, 0)
    plain = attrs.evolve(rules, no_revisit=False, no_return=False)
    for n in range(longest + 1):
        flights = list(legal_flights(area, start, n, rules))
        oracle = [
            f
            for f in legal_flights(area, start, n, plain)
            if not (rules.no_revisit and len({start, *path_hexes(start, f)}) != n + 1)
            and not (rules.no_return and n > 0 and end_of(start, f) == start)
        ]
        assert flights == oracle
        smallest: dict[Hex, tuple[int, ...]] = {}
        for f in flights:
            smallest.setdefault(end_of(start, f), f)
        assert endpoints(area, start, n, rules) == smallest


def test_no_revisit_search_does_not_reuse_dead_ends_kas_amb_02b() -> None:
    """Under KAS-AMB-02 (b) a dead end depends on the hexes already visited, so it may not be remembered.

    A holey radius-2 area (found by a random search) where Clint's 5-flights
    meet the same (hex, direction, steps left) with different visited hexes.
    """
    holey = make_map(
        [
            Hex(q, r)
            for q, r in [(-2, 2), (-1, -1), (-1, 0), (-1, 1), (-1, 2), (0, -2), (0, -1), (0, 0), (0, 1), (0, 2)]
            + [(1, 0), (2, -2), (2, 0)]
        ]
    )
    rules = FlightRules(sharp_ok=True, no_revisit=True)
    plain = FlightRules(sharp_ok=True)
    for n in range(6):
        oracle = [f for f in legal_flights(holey, ORIGIN, n, plain) if len({ORIGIN, *path_hexes(ORIGIN, f)}) == n + 1]
        assert list(legal_flights(holey, ORIGIN, n, rules)) == oracle
        assert set(endpoints(holey, ORIGIN, n, rules)) == {end_of(ORIGIN, f) for f in oracle}
