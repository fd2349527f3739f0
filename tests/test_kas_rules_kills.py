"""Kings of Air and Steam legality (model/kings_of_air_and_steam/rules.py): the rare paths the
survivors of the mutation baseline (bench/mutation/baseline/kas-rules.md) showed unpinned, other
than refusal words (issue 22).

Each test builds a small state, asks one question (``check``, ``rejections``, ``legal_actions`` or a
rules helper) and asserts the value the Hungarian rulebook (seeds/000; digest
/work/shared/rules/kings-of-air-and-steam.md) or the named reading gives; the rule ID and page are in
the test name or docstring.  Expected values never come from running the model.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from kas_helpers import ALL_TILES, PLAN, SPHINX, delivery, game, rule, turn_state

from rulecraft.model.kings_of_air_and_steam.actions import (
    BuildDepot,
    BuildLine,
    Convert,
    CourseCorrection,
    DrawDemandPair,
    DrawDemandTile,
    DrawMarketTile,
    ExtraFlight,
    Fly,
    Grant,
    Load,
    PlaceStartDepot,
    Sell,
    ShipGoods,
    Steal,
    Swap,
    UpgradeAirship,
    UpgradeRail,
)
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.rules import flight_rules
from rulecraft.model.kings_of_air_and_steam.state import CargoStep, KasState, Phase
from rulecraft.tools import tools


def reason(g: KingsOfAirAndSteamGame, state: KasState, action: Any) -> str:
    rejection = g.check(state, action)
    assert rejection is not None, action
    return rejection.reason


def rules_of(g: KingsOfAirAndSteamGame, state: KasState, action: Any) -> list[str]:
    """Every rule ``rejections`` cites, in order."""
    return [r.rule for r in g.rejections(state, action)]


# -- KAS-R-33 (p.12), KAS-AMB-23: depots on partial edge rail hexes -----------------------------------------


def edge_map() -> dict[str, Any]:
    """Line R joins West (0,0) and East (4,0) through (1,0), (2,0) and the partial edge hex (3,0);
    line S joins West and South (0,2) through (0,1)."""
    return {
        "hexes": [[q, r] for q in range(4) for r in (-1, 1)] + [[1, 0], [2, 0], [3, 0, "partial"], [1, 2]],
        "cities": [
            {"name": "West", "at": [0, 0], "demand": "food"},
            {"name": "East", "at": [4, 0], "demand": "luxury"},
            {"name": "South", "at": [0, 2], "demand": "textile"},
        ],
        "lines": [
            {"id": "R", "ends": ["West", "East"], "hexes": [[1, 0], [2, 0], [3, 0]]},
            {"id": "S", "ends": ["West", "South"], "hexes": [[0, 1]]},
        ],
    }


def test_a_partial_edge_rail_hex_takes_a_depot_by_default_r33_p12_amb23() -> None:
    """KAS-R-33 (p.12): 'any rail hex on the board that has no depot'; KAS-AMB-23 default 'any-empty':
    a partial edge hex carrying rail counts, so a depot may be built on it (and on a full one)."""
    g = game()
    s = turn_state(g, {"money": 12, "at": [1, -1]}, {"at": [2, -1]}, map=edge_map())
    assert rule(g, s, BuildDepot(Hex(3, 0))) is None
    assert rule(g, s, BuildDepot(Hex(2, 0))) is None


def test_no_depot_on_a_partial_edge_hex_under_full_hexes_r33_p12_amb23() -> None:
    """KAS-AMB-23 'full-hexes': as 'any-empty' but never on a partial edge hex (KAS-R-33); a full rail
    hex of the same line stays buildable."""
    g = game(**{"KAS-AMB-23": "full-hexes"})
    s = turn_state(g, {"money": 12, "at": [1, -1]}, {"at": [2, -1]}, map=edge_map())
    assert rule(g, s, BuildDepot(Hex(3, 0))) == "KAS-R-33"
    assert rule(g, s, BuildDepot(Hex(2, 0))) is None


def test_no_starting_depot_on_a_partial_edge_hex_under_full_hexes_r07_p6_amb23() -> None:
    """KAS-R-07 (p.6): the starting depot goes on an empty rail hex; under KAS-AMB-23 'full-hexes' a
    partial edge hex is not one (the airship could not even stand there, KAS-R-27)."""
    g = game(**{"KAS-AMB-23": "full-hexes"})
    s = tools(g).scenario_state({"players": 2, "map": edge_map(), "phase": "start-depots", "seat": 1})
    assert rule(g, s, PlaceStartDepot(Hex(3, 0))) == "KAS-R-07"
    assert rule(g, s, PlaceStartDepot(Hex(2, 0))) is None


# -- KAS-R-70 (p.19): Victor Blane's $1 off, down to a free depot ------------------------------------------------


def test_victor_blanes_discount_makes_a_one_dollar_depot_free_r70_p19() -> None:
    """KAS-R-70 (p.19): his depots cost $1 less than KAS-R-33's price.  With the price of a first depot
    set to $1 (parameter depot_cost_first), his costs $0: built with no money at all; another
    character still needs the $1 (KAS-R-55)."""
    g = KingsOfAirAndSteamGame.configured(parameters={"depot_cost_first": 1})
    s = turn_state(
        g, {**SPHINX, "money": 0, "at": [1, -1]}, {"team": "Emperor", "character": "Reginald Kain"}, map=edge_map()
    )
    assert rule(g, s, BuildDepot(Hex(0, 1))) is None
    eva = turn_state(g, {"team": "Sphinx", "character": "Eva Blane", "money": 0, "at": [1, -1]}, SPHINX, map=edge_map())
    assert rule(g, eva, BuildDepot(Hex(0, 1))) == "KAS-R-55"


# -- KAS-R-62 (p.18) with KAS-AMB-29: Harvey Golding's second depot when every line holds one -------------------


def harvey_second_depot(g: KingsOfAirAndSteamGame) -> KasState:
    """Set-up, every line with a depot: Harvey's (seat 0) on line A, seat 1's on line B; each line has
    a free rail hex left.  Harvey now places his free second depot."""
    game_map = {
        "hexes": [[q, r] for q in range(5) for r in (-1, 0, 1)],
        "cities": [
            {"name": "West", "at": [0, 0], "demand": "food"},
            {"name": "East", "at": [4, 0], "demand": "luxury"},
        ],
        "lines": [
            {"id": "A", "ends": ["West", "East"], "hexes": [[1, -1], [2, -1]]},
            {"id": "B", "ends": ["West", "East"], "hexes": [[1, 1], [2, 1]]},
        ],
    }
    s = tools(g).scenario_state(
        {
            "players": 2,
            "map": game_map,
            "phase": "start-depots",
            "seat": 0,
            "players_state": {0: {"team": "Emperor", "character": "Harvey Golding"}, 1: SPHINX},
            "depots": [{"at": [1, -1], "owner": 0}, {"at": [1, 1], "owner": 1}],
        }
    )
    return attrs.evolve(s, bonus="second-depot")


def test_harveys_second_depot_may_join_his_own_line_when_none_is_empty_r62_p18_amb29() -> None:
    """KAS-R-62 (p.18): the second depot goes on a line with no depot; KAS-AMB-29: if none exists, on any
    empty rail hex of a line without *another player's* depot - his own line A qualifies."""
    g = game()
    assert rule(g, harvey_second_depot(g), PlaceStartDepot(Hex(2, -1))) is None


def test_harveys_second_depot_avoids_an_opponents_line_while_his_own_has_room_r62_r07_amb29() -> None:
    """KAS-AMB-29: line B holds seat 1's depot and his own line A still has an empty rail hex, so the
    set-up restriction of KAS-R-07 (p.6: not on a line with another player's depot) still holds."""
    g = game()
    assert rule(g, harvey_second_depot(g), PlaceStartDepot(Hex(2, 1))) == "KAS-R-07"


# -- KAS-R-71 (p.19): Eva Blane's track never crosses a factory ---------------------------------------------------


def test_eva_blanes_track_never_goes_on_a_factory_hex_r71_p19() -> None:
    """KAS-R-71 (p.19): 'Tiles may not go on rail hexes, city hexes or factory hexes': a contiguous
    West-(1,0)-(2,0)-East line is refused because (1,0) is a factory; along the free row above it is
    legal."""
    game_map = {
        "hexes": [[q, r] for q in range(4) for r in (-1, 0)],
        "factories": {"1,0": "food"},
        "cities": [
            {"name": "West", "at": [0, 0], "demand": "food"},
            {"name": "East", "at": [3, 0], "demand": "luxury"},
        ],
        "lines": [],
    }
    g = game()
    me = {"team": "Sphinx", "character": "Eva Blane", "tokens": 5, "money": 5, "at": [0, -1]}
    s = turn_state(g, me, {"team": "Emperor", "character": "Reginald Kain", "at": [1, -1]}, map=game_map)
    through_factory = (Hex(1, 0), Hex(2, 0))
    assert rule(g, s, BuildLine(("West", "East"), through_factory, Hex(2, 0))) == "KAS-R-71"
    above = (Hex(1, -1), Hex(2, -1), Hex(3, -1))  # the row above: free hexes, West to East
    assert rule(g, s, BuildLine(("West", "East"), above, Hex(1, -1))) is None


# -- KAS-R-83 (p.20): Eli Diamond's face-up cards count in the next check ------------------------------------


def test_eli_diamonds_face_up_card_counts_against_his_next_extra_flight_r83_p20() -> None:
    """KAS-R-83 (p.20): the extra card 'stays face up ... its diamonds count in all later diamond checks
    this round': with S05 (1 diamond) face up, current S01 (0) and S11 (2): 1 + 0 + 2 = 3 > rating 2
    (Sky Castle level 1, KAS-R-80): refused; without the face-up card 0 + 0 + 2 = 2: allowed."""
    g = game()
    me = {"team": "Sky Castle", "character": "Eli Diamond", "plan": PLAN}
    s = turn_state(g, me, SPHINX)
    assert g.ctx.rating(s.players[0]) == 2
    assert rule(g, s, ExtraFlight("S11")) is None
    eli = attrs.evolve(s.players[0], extra_cards=("S05",))
    s = attrs.evolve(s, players=(eli, s.players[1]))
    assert rule(g, s, ExtraFlight("S11")) == "KAS-R-83"


# -- KAS-R-29/30 (p.11): loading, with every rule that forbids it -------------------------------------------------


def cargo_state(g: KingsOfAirAndSteamGame, hold: dict[str, int], step: CargoStep, **me: Any) -> KasState:
    """Seat 0's loading step on a food factory (2 food) at (1,0); capacity 2 (airship level 1)."""
    game_map = {
        "hexes": [[q, r] for q in range(4) for r in (0, 1)],
        "factories": {"1,0": "food"},
        "cities": [{"name": "Far", "at": [3, 1], "demand": "luxury"}],
        "lines": [],
    }
    s = turn_state(
        g, {"at": [1, 0], "hold": hold, **me}, {"at": [0, 1]}, map=game_map, phase="cargo", factories={"1,0": 2}
    )
    return attrs.evolve(s, cargo=step)


DISCARDED_FOOD = CargoStep(loaded=frozenset({"chemical"}), discarded=frozenset({"food"}))


def test_a_full_hold_and_a_discarded_type_are_two_reasons_r29_r30_p11() -> None:
    """KAS-R-29 (p.11): the hold may never exceed its capacity; KAS-R-30: a type discarded in this step is
    not loaded back (KAS-AMB-21 'minimal').  Loading food with a full hold after food was discarded
    breaks both: ``rejections`` lists both rules."""
    g = game()
    s = cargo_state(g, {"chemical": 2}, DISCARDED_FOOD)
    assert rule(g, s, Load("food", "factory")) == "KAS-R-29"
    assert rules_of(g, s, Load("food", "factory")) == ["KAS-R-29", "KAS-R-30"]


def test_under_any_swap_a_discarded_type_is_no_second_reason_r29_amb21() -> None:
    """KAS-AMB-21 'any-swap': a discarded type may be loaded again, so only the full hold forbids the load."""
    g = game(**{"KAS-AMB-21": "any-swap"})
    s = cargo_state(g, {"chemical": 2}, DISCARDED_FOOD)
    assert rules_of(g, s, Load("food", "factory")) == ["KAS-R-29"]


def test_with_room_only_the_discard_forbids_loading_it_back_r30_p11() -> None:
    """KAS-R-30 (p.11) under KAS-AMB-21 'minimal': with room in the hold, from a factory that has food,
    loading the discarded food back is refused for that reason alone."""
    g = game()
    s = cargo_state(g, {"chemical": 1}, DISCARDED_FOOD)
    assert rule(g, s, Load("food", "factory")) == "KAS-R-30"
    assert rules_of(g, s, Load("food", "factory")) == ["KAS-R-30"]


def test_any_swap_lets_a_good_go_back_with_room_in_the_hold_amb21_r30() -> None:
    """KAS-AMB-21 'any-swap': 'any hold goods may be discarded when loading goods of another type', room or
    not; under the default 'minimal' only to make room (KAS-R-30, p.11)."""
    swap = Swap("chemical", "food", "factory")
    loose = game(**{"KAS-AMB-21": "any-swap"})
    assert rule(loose, cargo_state(loose, {"chemical": 1}, CargoStep()), swap) is None
    strict = game()
    assert rule(strict, cargo_state(strict, {"chemical": 1}, CargoStep()), swap) == "KAS-R-30"


def test_one_source_step_may_keep_loading_from_its_source_amb22_r29() -> None:
    """KAS-AMB-22 'one-source': one source per loading step - a second food from the same factory is fine."""
    g = game(**{"KAS-AMB-22": "one-source"})
    step = CargoStep(loaded=frozenset({"food"}), source="factory")
    assert rule(g, cargo_state(g, {"food": 1}, step), Load("food", "factory")) is None


# -- KAS-R-26/27 (p.11), KAS-AMB-04/35: flights ------------------------------------------------------------------


def flight_state(
    g: KingsOfAirAndSteamGame, hexes: list[list[Any]], cities: list[dict[str, Any]], **me: Any
) -> KasState:
    """Seat 0 at (0,0) in its flight; seat 1 on the island (9,9)."""
    game_map = {"hexes": [*hexes, [9, 9]], "cities": cities, "lines": []}
    other = {**SPHINX, "at": [9, 9]} if "team" in me else {"at": [9, 9]}  # the advanced game: a team each
    return turn_state(g, {"at": [0, 0], **me}, other, map=game_map, phase="flight")


OPEN = [[q, r] for q in range(7) for r in range(3)]
FAR = [{"name": "Far", "at": [6, 2], "demand": "food"}]


def test_a_zero_flight_is_no_flight_while_the_card_can_fly_r26_p11() -> None:
    """KAS-R-26 (p.11): the airship flies exactly the card's value (S02: 1); staying put is only the
    KAS-AMB-04 (a) escape when no such flight exists."""
    g = game()
    assert rule(g, flight_state(g, OPEN, FAR, plan=["S02", "S03", "S04", "S05"]), Fly(())) == "KAS-R-26"


def test_fly_as_far_as_legal_only_when_the_full_flight_is_impossible_amb04c() -> None:
    """KAS-AMB-04 (c) applies only when no flight of the card's value exists: with room to fly S06's 3
    hexes, a flight of 2 is refused (KAS-R-26)."""
    g = game(**{"KAS-AMB-04": "c"})
    s = flight_state(g, OPEN, FAR, plan=["S06", "S01", "S02", "S03"])
    assert rule(g, s, Fly((0, 0, 0))) is None
    assert rule(g, s, Fly((0, 0))) == "KAS-R-26"


def test_kings_over_aces_card_refusal_names_every_distance_r77_p19() -> None:
    """KAS-R-77 (p.19): the card flies 0, 1, 2 or 3 hexes; a 4-hex flight is refused (KAS-R-26) and the
    words name all four distances."""
    g = game()
    me = {"team": "Kings Over Aces", "character": "Sebastian King", "plan": ["KOA", "S02", "S03", "S04"]}
    s = flight_state(g, OPEN, FAR, **me)
    assert rule(g, s, Fly((0, 0, 0, 0))) == "KAS-R-26"
    assert "0 or 1 or 2 or 3" in reason(g, s, Fly((0, 0, 0, 0)))


def rose_flight(g: KingsOfAirAndSteamGame, card: str = "ROS") -> KasState:
    me = {"team": "Rose & Thorn", "character": "Bishop Kingston", "plan": [card, "S02", "S03", "S01"]}
    return flight_state(g, OPEN, FAR, **me)


def test_rose_and_thorn_flights_are_exactly_two_by_default_r73_p19_amb35() -> None:
    """KAS-R-73 (p.19): 'move 2 hexes twice'; KAS-AMB-35 default 'exact': a flight of 1 is refused."""
    g = game()
    s = rose_flight(g)
    assert rule(g, s, Fly((0, 0))) is None
    assert rule(g, s, Fly((0,))) == "KAS-R-26"


def test_rose_and_thorn_flights_up_to_two_under_up_to_r73_amb35() -> None:
    """KAS-AMB-35 'up-to': each flight of the Rose & Thorn card is up to 2 hexes: 0, 1 or 2, never 3."""
    g = game(**{"KAS-AMB-35": "up-to"})
    s = rose_flight(g)
    assert rule(g, s, Fly((0,))) is None
    assert rule(g, s, Fly((0, 0))) is None
    assert rule(g, s, Fly((0, 0, 0))) == "KAS-R-26"


def test_up_to_reading_leaves_the_other_cards_exact_r26_amb35() -> None:
    """KAS-AMB-35 'up-to' concerns the Rose & Thorn card only: S04 (2) still flies exactly 2 (KAS-R-26)."""
    g = game(**{"KAS-AMB-35": "up-to"})
    assert rule(g, rose_flight(g, card="S04"), Fly((0,))) == "KAS-R-26"


def city_corridor(city_at: int, last: int) -> tuple[list[list[Any]], list[dict[str, Any]]]:
    """Hexes (0,0)..(last,0) in a row with the city Mid on (city_at, 0): passable, no end (KAS-R-27)."""
    return [[q, 0] for q in range(last + 1)], [{"name": "Mid", "at": [city_at, 0], "demand": "food"}]


def test_as_far_as_legal_can_be_a_single_hex_amb04c_r27() -> None:
    """KAS-AMB-04 (c) with S06 (3): the row (0,0)-(1,0)-Mid(2,0) ends at the city: no flight of 3, and one
    of 2 would end on the city (KAS-R-27, p.11); the farthest legal flight is 1 hex east.  A 1-step
    flight leaving the play area stays refused (KAS-R-27)."""
    g = game(**{"KAS-AMB-04": "c"})
    hexes, cities = city_corridor(2, 2)
    s = flight_state(g, hexes, cities, plan=["S06", "S01", "S02", "S03"])
    assert rule(g, s, Fly((0,))) is None
    assert rule(g, s, Fly((3,))) == "KAS-R-27"
    assert [a for a in g.legal_actions(s) if isinstance(a, Fly)] == [Fly((0,))]


def test_as_far_as_legal_is_shorter_than_the_card_even_when_longer_would_fit_amb04c() -> None:
    """KAS-AMB-04 (c): 'fly as far as legally possible' - shorter than the card's 3.  Row (0,0)..(4,0)
    with Mid on (3,0): a flight of 3 ends on the city; 2 hexes is the farthest (4 is longer than the card)."""
    g = game(**{"KAS-AMB-04": "c"})
    hexes, cities = city_corridor(3, 4)
    s = flight_state(g, hexes, cities, plan=["S06", "S01", "S02", "S03"])
    assert rule(g, s, Fly((0, 0))) is None
    assert rule(g, s, Fly((0, 0, 0, 0))) == "KAS-R-26"


def test_as_far_as_legal_with_no_hex_at_all_the_airship_stays_amb04c() -> None:
    """KAS-AMB-04 (c) on a hex with no neighbour in the play area: the farthest flight is 0 - the airship
    stays (Fly of no step is legal)."""
    g = game(**{"KAS-AMB-04": "c"})
    s = flight_state(g, [[0, 0]], [{"name": "Far", "at": [8, 9], "demand": "food"}], plan=["S02", "S03", "S04", "S05"])
    assert rule(g, s, Fly(())) is None


def test_davincis_shortened_flight_is_still_straight_r65_p18_amb04c() -> None:
    """KAS-R-65 (p.18): the DaVinci card flies all steps in one direction; KAS-AMB-04 (c) when no straight 7
    exists.  From (0,0) the straight flights reach 2 hexes (east); a bent path would reach 4 but bends are
    not allowed, so the farthest flight is the straight 2."""
    g = game(**{"KAS-AMB-04": "c"})
    hexes = [[0, 0], [1, 0], [2, 0], [2, 1], [3, 1]]
    me = {"team": "DaVinci", "character": "Aurelia Bayley", "plan": ["DAV", "S01", "S02", "S03"]}
    s = flight_state(g, hexes, [{"name": "Far", "at": [8, 9], "demand": "food"}], **me)
    assert rule(g, s, Fly((0, 0))) is None
    assert rule(g, s, Fly((0, 0, 5, 0))) is not None


@pytest.mark.parametrize(("reading", "turns"), [("a", "wide"), ("c", "straight")])
def test_flight_rules_without_a_state_are_the_readings_amb01(reading: str, turns: str) -> None:
    """KAS-AMB-01: the turn rules of a flight come from the reading alone when no player is flying
    (no Clint Castle, no DaVinci card): (a) wide turns, (c) every bend is sharp."""
    g = game(**{"KAS-AMB-01": reading})
    rules = flight_rules(g.ctx)
    assert rules.turns == turns and not rules.sharp_ok and not rules.straight_only


# -- KAS-R-42 (p.14): course correction in each of the six directions --------------------------------------------


def test_course_correction_east_is_a_direction_and_six_is_not_r42_p14() -> None:
    """KAS-R-42 (p.14): 1 hex 'in any direction': direction 0 (east) onto a full hex is legal; 6 is no
    direction of a hex (0..5) and is refused, not crashed on."""
    g = game()
    s = turn_state(g, {"at": [1, 1]}, {"at": [9, 9]}, map={"hexes": [*OPEN, [9, 9]], "cities": FAR, "lines": []})
    assert rule(g, s, CourseCorrection(0)) is None
    assert rule(g, s, CourseCorrection(6)) == "KAS-R-42"


# -- KAS-R-34/35 (p.12), KAS-R-61/67 (p.18): a turn's second action --------------------------------------------------


def second_action(g: KingsOfAirAndSteamGame, taken: tuple[str, ...], **me: Any) -> KasState:
    """The Emperor card (two actions, KAS-R-61) after its first action, ``taken``."""
    spec = {"team": "Emperor", "character": "Reginald Kain", "plan": ["EMP", "S02", "S03", "S04"], "money": 20}
    s = turn_state(g, {**spec, **me}, SPHINX)
    return attrs.evolve(s, actions_left=1, taken=taken)


def test_once_allows_an_upgrade_after_another_kind_of_action_amb20_r34() -> None:
    """KAS-AMB-20 'once': at most one upgrade a turn - after a Grant the upgrade is still the first one."""
    g = game(**{"KAS-AMB-20": "once"})
    assert rule(g, second_action(g, ("grant",)), UpgradeAirship()) is None


def test_once_refuses_the_airship_after_the_rail_under_its_own_rule_amb20_r34_p12() -> None:
    """KAS-AMB-20 'once': a rail upgrade then an airship upgrade - the airship one is refused under the
    airship track's rule KAS-R-34 (p.12)."""
    g = game(**{"KAS-AMB-20": "once"})
    assert rule(g, second_action(g, ("upgrade-rail",)), UpgradeAirship()) == "KAS-R-34"


@pytest.mark.parametrize(("reading", "verdict"), [("distinct", "KAS-R-61"), ("any", None)])
def test_emperor_cards_two_actions_differ_under_distinct_r61_amb32(reading: str, verdict: str | None) -> None:
    """KAS-R-61 (p.18): 'two full actions'; KAS-AMB-32 'distinct': they must differ (a second Grant is
    refused); default 'any': the same action twice is fine."""
    g = game(**{"KAS-AMB-32": reading})
    s = second_action(g, ("grant",))
    assert rule(g, s, Grant()) == verdict
    assert rule(g, s, UpgradeAirship()) is None


def isaac_extra(g: KingsOfAirAndSteamGame) -> KasState:
    """I.S.A.A.C. (KAS-R-67) taking his extra action after a Grant, with a plain card."""
    s = turn_state(g, {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": 4}, SPHINX)
    return attrs.evolve(s, taken=("grant",), extra_taken=True)


@pytest.mark.parametrize(("reading", "verdict"), [("different", "KAS-R-67"), ("any", None)])
def test_isaacs_extra_action_differs_under_different_r67_amb45(reading: str, verdict: str | None) -> None:
    """KAS-R-67 (p.18): 'a second action of his choice'; KAS-AMB-45 'different': of another type than the
    first (a second Grant is refused); default 'any': it may repeat it."""
    g = game(**{"KAS-AMB-45": reading})
    assert rule(g, isaac_extra(g), Grant()) == verdict


def test_distinct_concerns_the_emperor_card_only_r61_r67_amb32() -> None:
    """KAS-AMB-32 'distinct' is a rule of the Emperor card: I.S.A.A.C. repeating his action with a plain
    card is judged by KAS-AMB-45 alone (default 'any': allowed)."""
    g = game(**{"KAS-AMB-32": "distinct"})
    assert rule(g, isaac_extra(g), Grant()) is None


# -- KAS-R-55 (p.6, p.12-16): the price beside the other conditions in ``rejections`` ----------------------------------


def test_a_depot_at_exactly_its_price_is_affordable_even_without_tokens_r33_r55_p12() -> None:
    """KAS-R-33 (p.12): $4 on a line with no depot; no depot token left forbids it (KAS-R-33), and the
    money does not: with exactly $4 only KAS-R-33 is cited, with $3 both."""
    g = game()
    rich = turn_state(g, {"money": 4, "depots_left": 0, "at": [1, -1]}, {"at": [2, -1]}, map=edge_map())
    assert rules_of(g, rich, BuildDepot(Hex(0, 1))) == ["KAS-R-33"]
    poor = turn_state(g, {"money": 3, "depots_left": 0, "at": [1, -1]}, {"at": [2, -1]}, map=edge_map())
    assert rules_of(g, poor, BuildDepot(Hex(0, 1))) == ["KAS-R-33", "KAS-R-55"]


def test_a_hex_off_the_rail_has_no_price_r33_p12() -> None:
    """KAS-R-33 (p.12): the target is a rail hex; a hex off the rail takes no depot at any price, so a
    player with $0 is refused for KAS-R-33 only (no KAS-R-55)."""
    g = game()
    s = turn_state(g, {"money": 0, "at": [1, -1]}, {"at": [2, -1]}, map=edge_map())
    assert rules_of(g, s, BuildDepot(Hex(1, -1))) == ["KAS-R-33"]


def test_evas_tiles_cost_a_dollar_each_beside_her_tile_budget_r71_r55_p19() -> None:
    """KAS-R-71 (p.19): $1 per tile; 2 tiles with 1 tile left break KAS-R-71, and with $1 also KAS-R-55;
    with exactly $2 the money is no reason."""
    game_map = {
        "hexes": [[q, r] for q in range(4) for r in (-1, 0)],
        "cities": [
            {"name": "West", "at": [0, 0], "demand": "food"},
            {"name": "East", "at": [3, 0], "demand": "luxury"},
        ],
        "lines": [],
    }
    g = game()
    action = BuildLine(("West", "East"), (Hex(1, 0), Hex(2, 0)), Hex(1, 0))
    for money, cited in ((1, ["KAS-R-71", "KAS-R-55"]), (2, ["KAS-R-71"])):
        me = {"team": "Sphinx", "character": "Eva Blane", "tokens": 1, "money": money, "at": [0, -1]}
        s = turn_state(g, me, {"team": "Emperor", "character": "Reginald Kain", "at": [1, -1]}, map=game_map)
        assert rules_of(g, s, action) == cited


def test_a_conversion_short_of_supply_beside_a_full_hold_r66_amb44_amb12() -> None:
    """KAS-R-66 (p.18) with KAS-AMB-44 'capacity': 1 food in a full hold cannot become 2 goods (KAS-R-29);
    the supply must also hold the 2 new goods (KAS-AMB-12): with 1 machine left both rules are cited,
    with exactly 2 only the hold."""
    g = game()
    me = {"team": "DaVinci", "character": "Aurelia Bayley", "tokens": 3, "hold": {"food": 1, "luxury": 1}}
    s = turn_state(g, me, SPHINX)
    for machines, cited in ((1, ["KAS-R-29", "KAS-R-66"]), (2, ["KAS-R-29"])):
        supply = (s.supply[0], machines, *s.supply[2:])
        assert rules_of(g, attrs.evolve(s, supply=supply), Convert("food", "machine")) == cited


def chain_map(lines: int, demand: str = "food") -> dict[str, Any]:
    """Cities C0, C1, ... on row 0, Farcity (``demand``) at the far end; line Li joins its neighbours
    through one rail hex at (2i+1, 0).  The other cities demand luxury."""
    names = [f"C{i}" for i in range(lines)] + ["Farcity"]
    cities = [
        {"name": nm, "at": [2 * i, 0], "demand": demand if nm == "Farcity" else "luxury"} for i, nm in enumerate(names)
    ]
    rail = [{"id": f"L{i}", "ends": [names[i], names[i + 1]], "hexes": [[2 * i + 1, 0]]} for i in range(lines)]
    return {"hexes": [[q, r] for q in range(2 * lines + 1) for r in (0, 1)], "cities": cities, "lines": rail}


def test_sphinx_free_good_beside_a_shipping_fault_r69_r36_p19() -> None:
    """KAS-R-69 (p.19): the Sphinx card ships 'one good' (KAS-AMB-33 (a)); 2 food from a depot that holds
    1 break that rule and KAS-R-36 (p.13: a depot ships what it holds): both are cited."""
    g = game()
    me = {"team": "Sphinx", "character": "Victor Blane", "plan": ["SPH", "S02", "S03", "S04"], "at": [0, 1]}
    s = turn_state(
        g,
        me,
        {"team": "Emperor", "character": "Reginald Kain", "at": [1, 1]},
        map=chain_map(1),
        depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 1}}],
    )
    s = attrs.evolve(s, phase=Phase.BONUS, bonus="ship-one")
    assert rules_of(g, s, ShipGoods(Hex(1, 0), "food", 2, to_city="Farcity")) == ["KAS-R-69", "KAS-R-36"]


# -- KAS-R-15 (p.8), KAS-R-40 (p.14), KAS-R-74 (p.19): tiles that are not in the pile ---------------------------------


def test_an_exhausted_market_tile_type_is_not_drawn_r15_p8() -> None:
    """KAS-R-15 (p.8): tiles come from the market draw pile; with no food tile left none is drawn."""
    g = game()
    s = tools(g).scenario_state({"players": 2, "phase": "new-market", "market": {"pile": {"luxury": 3}}})
    assert rule(g, s, DrawMarketTile("food")) == "KAS-R-15"
    assert rule(g, s, DrawMarketTile("luxury")) is None


def test_an_exhausted_demand_tile_type_is_not_drawn_r40_p14() -> None:
    """KAS-R-40 (p.14): a demand tile is drawn from the demand pile; no food tile there, none drawn."""
    g = game()
    s = tools(g).scenario_state({"players": 2, "phase": "demand-draw", "market": {"demand_pile": {"luxury": 1}}})
    assert rule(g, s, DrawDemandTile("food")) == "KAS-R-40"
    assert rule(g, s, DrawDemandTile("luxury")) is None


@pytest.mark.parametrize(("food", "verdict"), [(1, "KAS-R-74"), (2, None)])
def test_floras_two_blind_tiles_of_one_type_need_two_in_the_pile_r74_p19(food: int, verdict: str | None) -> None:
    """KAS-R-74 (p.19): she draws two demand tiles; two food tiles need two in the pile."""
    g = game()
    s = tools(g).scenario_state(
        {"players": 2, "phase": "demand-pair", "market": {"demand_pile": {"food": food, "luxury": 1}}}
    )
    assert rule(g, s, DrawDemandPair("food", "food")) == verdict


def test_a_fully_upgraded_rail_refusal_names_the_rail_track_r35_p12() -> None:
    """KAS-R-35 (p.12): the rail track ends; the refusal says it is the rail track that is full."""
    g = game()
    top = len(g.pack.rail_track)
    s = turn_state(g, {"rail_level": top, "money": 30})
    assert rule(g, s, UpgradeRail()) == "KAS-R-35"
    assert "the rail track" in reason(g, s, UpgradeRail())


# -- KAS-R-75/78/79 (p.19): the delivery powers --------------------------------------------------------------------


def test_bishop_may_keep_back_the_only_good_of_a_delivery_r75_p19() -> None:
    """KAS-R-75 (p.19): 'one good of the shipment' back to the supply: a 1-good delivery qualifies."""
    g = game()
    s, depot = delivery(g, "Bishop Kingston", "Rose & Thorn")
    assert rule(g, s, ShipGoods(depot, "food", 1, to_city="Bown Town", returned=True)) is None


def test_only_bishop_kingston_keeps_a_good_back_r75_p19() -> None:
    """KAS-R-75 (p.19) is Bishop Kingston's power: the refusal names him."""
    g = game()
    s, depot = delivery(g, "Flora Kingston", "Rose & Thorn")
    action = ShipGoods(depot, "food", 2, to_city="Bown Town", returned=True)
    assert rule(g, s, action) == "KAS-R-75"
    assert reason(g, s, action).startswith("only Bishop Kingston")


def test_only_sebastian_king_bets_r78_p19() -> None:
    """KAS-R-78 (p.19) is Sebastian King's power: the refusal names him."""
    g = game()
    s, depot = delivery(g, "Corey McQueen", "Kings Over Aces", tokens=5)
    action = ShipGoods(depot, "food", 2, to_city="Bown Town", bet=1)
    assert rule(g, s, action) == "KAS-R-78"
    assert reason(g, s, action).startswith("only Sebastian King")


def test_spent_tokens_limit_the_bet_to_the_tokens_left_r78_p19_amb38() -> None:
    """KAS-R-78 (p.19): one token turned per dollar; KAS-AMB-38 'spent': with 2 tokens left a $2 bet is
    possible, a $3 bet is not (KAS-R-78)."""
    g = game(**{"KAS-AMB-38": "spent"})
    s, depot = delivery(g, "Sebastian King", "Kings Over Aces", tokens=2)
    assert rule(g, s, ShipGoods(depot, "food", 2, to_city="Bown Town", bet=2)) is None
    assert rule(g, s, ShipGoods(depot, "food", 2, to_city="Bown Town", bet=3)) == "KAS-R-78"


def test_only_corey_mcqueen_swindles_r79_p19() -> None:
    """KAS-R-79 (p.19) is Corey McQueen's power: Sebastian King, even holding tokens, may not slip a
    textile into a food delivery; the refusal names Corey."""
    g = game()
    s, depot = delivery(g, "Sebastian King", "Kings Over Aces", tokens=5)
    action = ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="textile")
    assert rule(g, s, action) == "KAS-R-79"
    assert reason(g, s, action).startswith("only Corey McQueen")


def test_coreys_swindle_needs_a_token_and_another_type_r79_p19() -> None:
    """KAS-R-79 (p.19): 'spend one token to include one good of a different type': without a token, or
    with a good of the demanded type, it is refused, and the words say which."""
    g = game()
    broke, depot = delivery(g, "Corey McQueen", "Kings Over Aces", tokens=0)
    action = ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="textile")
    assert rule(g, broke, action) == "KAS-R-79"
    assert reason(g, broke, action).startswith("no swindler token")
    s, depot = delivery(g, "Corey McQueen", "Kings Over Aces", tokens=5)
    same = ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="food")
    assert rule(g, s, same) == "KAS-R-79"
    assert reason(g, s, same).startswith("one good of another type")


def test_all_of_type_refuses_an_unknown_goods_name_r36_amb18() -> None:
    """KAS-R-36 (p.13): goods of one type; under KAS-AMB-18 'all-of-type' a name that is no goods type is
    refused (KAS-R-36), not crashed on."""
    g = game(**{"KAS-AMB-18": "all-of-type"})
    s, depot = delivery(g, "Bishop Kingston", "Rose & Thorn")
    assert rule(g, s, ShipGoods(depot, "gold", 1, to_city="Bown Town")) == "KAS-R-36"


@pytest.mark.parametrize(("filled", "verdict"), [(3, True), (4, False)])
def test_bishops_returned_good_needs_no_slot_under_placed_r75_amb37(filled: int, verdict: bool) -> None:
    """KAS-AMB-37 'placed': the city needs room only for the goods placed, n - 1: 3 food with one kept
    back fit into Bown Town's 2 free slots (3 of 5 filled), not into 1."""
    g = game(**{"KAS-AMB-37": "placed"})
    s, depot = delivery(g, "Bishop Kingston", "Rose & Thorn", filled=filled)
    assert (rule(g, s, ShipGoods(depot, "food", 3, to_city="Bown Town", returned=True)) is None) == verdict


def tolled(g: KingsOfAirAndSteamGame, **me: Any) -> KasState:
    """Chain C0 -L0- C1 -L1- Farcity (food): seat 0's depot on L0 with 2 food, seat 1's on L1: $1 toll a good."""
    return turn_state(
        g,
        {"at": [0, 1], "rail_level": 2, **me},
        {**SPHINX, "at": [1, 1]},
        map=chain_map(2),
        depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}, {"at": [3, 0], "owner": 1}],
        market={"slots": ["luxury", "luxury", "machine"]},
    )


@pytest.mark.parametrize(("bet", "verdict"), [(3, "KAS-R-38"), (2, None)])
def test_the_bet_is_paid_before_the_toll_under_cash_only_r78_r38_amb17(bet: int, verdict: str | None) -> None:
    """KAS-AMB-17 'cash-only': tolls are covered by money held; the bet is paid first (KAS-R-78: 'paid to
    the bank').  $3 with a $3 bet leaves nothing for the $1 toll; a $2 bet leaves $1."""
    g = game(**{"KAS-AMB-17": "cash-only"})
    s = tolled(g, team="Kings Over Aces", character="Sebastian King", tokens=5, money=3)
    assert rule(g, s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity", bet=bet)) == verdict


def test_cash_only_tolls_are_not_paid_from_the_income_r38_amb17() -> None:
    """KAS-AMB-17 'cash-only': with $0 the $1 toll is refused (KAS-R-38) though the delivery earns $4;
    under the default 'income' it is paid from the income."""
    ship = ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity")
    strict = game(**{"KAS-AMB-17": "cash-only"})
    assert rule(strict, tolled(strict, team="Emperor", character="Reginald Kain", money=0), ship) == "KAS-R-38"
    loose = game()
    assert rule(loose, tolled(loose, team="Emperor", character="Reginald Kain", money=0), ship) is None


def test_thaddeus_birch_owes_no_toll_even_with_no_money_r86_p20() -> None:
    """KAS-R-86 (p.20): 'he never pays tolls': under 'cash-only' his $0 is no obstacle."""
    g = game(**{"KAS-AMB-17": "cash-only"})
    s = tolled(g, team="Godfather", character="Thaddeus Birch", money=0)
    assert rule(g, s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity")) is None


def test_a_shipment_names_its_destination_r36_p13() -> None:
    """KAS-R-36 (p.13): goods go to a city or to another own depot; with neither named it is refused."""
    g = game()
    assert (
        rule(g, tolled(g, team="Emperor", character="Reginald Kain", money=5), ShipGoods(Hex(1, 0), "food", 1))
        == "KAS-R-36"
    )


def test_the_named_lines_must_reach_the_destination_r37_p13() -> None:
    """KAS-R-37 (p.13): the route is the shipper's; line L0 alone does not reach Farcity (L1 does)."""
    g = game()
    s = tolled(g, team="Emperor", character="Reginald Kain", money=5)
    assert rule(g, s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity", lines=("L0",))) == "KAS-R-37"
    assert rule(g, s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity", lines=("L0", "L1"))) is None


def test_sellout_counts_the_origin_line_as_a_stop_under_origin_stop_r51_amb14() -> None:
    """KAS-R-51 (p.16): a good sold 'could be shipped ... under the normal rules'; KAS-AMB-14
    'origin-stop': the origin's line needs a stop too, so 2 tolled lines and the city take 4 stops,
    one more than rail level 3 allows (3 are enough under the default)."""
    hexes = [[q, r] for q in range(7) for r in (0, 1)]
    names = ["C0", "C1", "C2", "Farcity"]
    cities = [
        {"name": nm, "at": [2 * i, 0], "demand": "food" if nm == "Farcity" else "luxury"} for i, nm in enumerate(names)
    ]
    lines = [{"id": f"L{i}", "ends": [names[i], names[i + 1]], "hexes": [[2 * i + 1, 0]]} for i in range(3)]
    given = {
        "players": 2,
        "map": {"hexes": hexes, "cities": cities, "lines": lines},
        "phase": "sellout",
        "round": 6,
        "seat": 0,
        "players_state": {0: {"at": [0, 1], "money": 5, "rail_level": 3}, 1: {"at": [1, 1]}},
        "depots": [
            {"at": [1, 0], "owner": 0, "goods": {"food": 1}},
            {"at": [3, 0], "owner": 1},
            {"at": [5, 0], "owner": 1},
        ],
        "market": {"pile": {}, "demand_pile": ALL_TILES},
    }
    sell = Sell(Hex(1, 0), "food", "Farcity")
    plain = game()
    assert rule(plain, tools(plain).scenario_state(given), sell) is None
    strict = game(**{"KAS-AMB-14": "origin-stop"})
    assert rule(strict, tools(strict).scenario_state(given), sell) == "KAS-R-51"


# -- KAS-R-85 (p.20): the Godfather's discard is a good he holds ----------------------------------------------------


def godfather_on_a_depot(g: KingsOfAirAndSteamGame, hold: dict[str, int]) -> tuple[KasState, Hex]:
    """The Godfather (capacity 3 at level 1, KAS-R-84) after his movement step on seat 1's depot (2 food)."""
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    at = [depot.q, depot.r]
    me = {"team": "Godfather", "character": "Ezekiel Crane", "plan": ["GOD", "S02", "S03", "S04"], "at": at}
    s = turn_state(g, {**me, "hold": hold}, {**SPHINX, "at": at}, depots=[{"at": at, "owner": 1, "goods": {"food": 2}}])
    return attrs.evolve(s, phase=Phase.BONUS, bonus="steal"), depot


@pytest.mark.parametrize("hold", [{"machine": 3}, {"chemical": 3}])
def test_the_godfathers_discard_must_be_a_good_in_his_hold_r85_p20(hold: dict[str, int]) -> None:
    """KAS-R-85 (p.20): with a full hold (capacity 3) he 'must first discard 1 good' - one of his; a name
    that is no goods type discards nothing and is refused (KAS-R-85), whatever the hold holds."""
    g = game()
    s, depot = godfather_on_a_depot(g, hold)
    assert rule(g, s, Steal(1, "food", depot, discard="gold")) == "KAS-R-85"
    assert rule(g, s, Steal(1, "food", depot, discard=next(iter(hold)))) is None


def test_the_godfather_may_discard_his_only_good_of_a_type_r85_p20() -> None:
    """KAS-R-85 (p.20): 'discard 1 good of any type': the single chemical of a full hold will do."""
    g = game()
    s, depot = godfather_on_a_depot(g, {"machine": 2, "chemical": 1})
    assert rule(g, s, Steal(1, "food", depot, discard="chemical")) is None
