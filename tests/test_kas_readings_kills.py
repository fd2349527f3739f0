"""Kings of Air and Steam: the readings' own code (issue 22 part 3), played under each reading.

``bench/mutation/readings.py`` counts the mutants on the lines that name an ambiguity.  KAS-AMB-24
(digest /work/shared/rules/kings-of-air-and-steam.md; rulebook p.8 and p.16): round 5 is played in
full, Upkeep included, before the Sellout ('full', default), or its Upkeep is skipped
('skip-upkeep').  Here round 5 ends with a city waiting for a demand tile, so that the Production
(KAS-R-48/49, KAS-AMB-10 'a') stops for a demand draw between the round's end and the Sellout: the
state in between must be a whole state of the game (it is checked and saved and loaded again).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from kas_helpers import ALL_TILES, PLAN, rule, turn_state
from test_kas_mutation_kills import (
    chain_map,
    chain_sellout,
    city,
    city_changed,
    fill_state,
    ship_one_food,
    sphinx_bonus,
)
from test_kas_readings import CLINT, amb, game, legal, state_of
from test_kas_readings import ROW as ROW_MAP

from rulecraft.model.kings_of_air_and_steam import flight, shipping
from rulecraft.model.kings_of_air_and_steam.actions import (
    DrawDemandTile,
    EndSellout,
    Gamble,
    Grant,
    PayUpkeep,
    PlaceStartDepot,
    Sell,
    ShipGoods,
    StartAirship,
)
from rulecraft.model.kings_of_air_and_steam.components import pack_from_data
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, path_hexes
from rulecraft.model.kings_of_air_and_steam.readings import REGISTER
from rulecraft.model.kings_of_air_and_steam.rules import deck_of, flight_rules, robbed_by
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase
from rulecraft.model.kings_of_air_and_steam.transitions import turn_order
from rulecraft.packs import PackError, read_pack_file
from rulecraft.ruleset import Ruleset, UnknownReading
from rulecraft.statefile import admit
from rulecraft.tools import tools

WAITING = "Bown Town"


def round_five_last_turn(reading: str) -> tuple[KingsOfAirAndSteamGame, KasState]:
    """Round 5, cycle 4, seat 0's last card (a Grant) with 1 food held by each seat; the market slots
    hold 3 food and the demand pile none, and Bown Town waits for a demand tile (KAS-AMB-10 'a')."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-24": reading})
    s = turn_state(
        g,
        {"plan": ["S09", "S10", "S11", "S12"], "hold": {"food": 1}},
        {"plan": PLAN, "hold": {"food": 1}},
        cycle=4,
        round=5,
        market={"slots": ["food", "food", "food"], "pile": {}, "demand_pile": ALL_TILES | {"food": 0}},
        cities={WAITING: {"waiting": True}},
    )
    s = attrs.evolve(city_changed(g, s, WAITING, demand=None), waiting_cities=(WAITING,))
    return g, s


def whole(g: KingsOfAirAndSteamGame, s: KasState) -> None:
    """``s`` passes the game's own state check and survives a save and a load unchanged."""
    admit(g, s)
    assert g.state_from_json(g.state_to_json(s)) == s


def test_skip_upkeep_goes_from_round_5_through_production_to_the_sellout_amb_24() -> None:
    """KAS-AMB-24 'skip-upkeep': after round 5's last action (a Grant: $3 from the bank, KAS-R-43, p.14)
    nobody pays storage (both keep their food and pay no $1 for it, KAS-R-45); Production turns the
    3 food slots into demand tiles and Bown Town, waiting, draws one (KAS-R-49, p.16);
    then the Sellout (KAS-R-51, p.16), not a round 6 (KAS-R-50: no market tiles left)."""
    g, s = round_five_last_turn("skip-upkeep")
    money = [p.money for p in s.players]
    drawn = g.apply(s, Grant())
    assert drawn.phase is Phase.DEMAND_DRAW and drawn.demand_for == WAITING
    assert [p.hold for p in drawn.players] == [(0, 0, 1, 0, 0)] * 2
    assert [p.money for p in drawn.players] == [money[0] + 3, money[1]]
    whole(g, drawn)
    sellout = g.apply(drawn, DrawDemandTile("food"))
    assert sellout.phase is Phase.SELLOUT
    assert city(g, sellout, WAITING).demand == "food"
    assert [p.hold for p in sellout.players] == [(0, 0, 1, 0, 0)] * 2
    whole(g, sellout)


def test_full_round_5_pays_upkeep_before_the_demand_draw_amb_24() -> None:
    """KAS-AMB-24 'full' (default): round 5's Upkeep comes first (KAS-R-45, p.16: $1 a stored good or
    discard it), so the waiting city is not served yet; after one seat has paid, the next pays or
    the Production draws the waiting city's tile."""
    g, s = round_five_last_turn("full")
    upkeep = g.apply(s, Grant())
    assert upkeep.phase is Phase.UPKEEP
    assert upkeep.waiting_cities == (WAITING,)
    whole(g, upkeep)
    paid = g.apply(upkeep, PayUpkeep())
    assert paid.phase in (Phase.UPKEEP, Phase.DEMAND_DRAW)


# -- readings played since session 11 (issue 19 part 1): KAS-AMB-15 'revisit', 29 'strict', 43 'repeat' ----


# Two parallel lines between the same two food cities: a route can go round and use a line again.
#
#   Alpha (0,0) -L1- (1,0) (2,0) (3,0) - Beta (4,0)
#         \-L3- (0,1) (1,1) (2,1) (3,1) -/
PARALLEL = {
    "hexes": [[q, 0] for q in range(5)] + [[q, 1] for q in range(4)],
    "cities": [{"name": "Alpha", "at": [0, 0], "demand": "food"}, {"name": "Beta", "at": [4, 0], "demand": "food"}],
    "lines": [
        {"id": "L1", "ends": ["Alpha", "Beta"], "hexes": [[1, 0], [2, 0], [3, 0]]},
        {"id": "L3", "ends": ["Alpha", "Beta"], "hexes": [[0, 1], [1, 1], [2, 1], [3, 1]]},
    ],
}


def test_kas_amb_15_revisit_routes_may_use_a_line_again() -> None:
    """KAS-R-37/38 (p.13): a stop on each line after the origin's and at the city; $1 per good to
    the opponent stopped at.  Seat 0's food sits on L1, seat 1 has a depot on L3.  'simple': the
    routes are L1 (1 stop) and L1-L3 (2 stops, $1 to seat 1) to either city, whatever the rail
    level.  'revisit': at level 3 also L1-L3-L1 (L3, L1 again, city: 3 stops; the second L1 use
    stops at seat 0's own depot, free); at level 4 also L1-L3-L1-L3 (4 stops, L3 paid twice)."""

    def routes(g: KingsOfAirAndSteamGame, level: int) -> set[tuple[str | None, Any, Any]]:
        s = state_of(g, parallel_given(level))
        return {(a.to_city, a.lines, a.payees) for a in legal(g, s, ShipGoods)}

    simple = {(c, ("L1",), ()) for c in ("Alpha", "Beta")} | {
        (c, ("L1", "L3"), (("L3", 1),)) for c in ("Alpha", "Beta")
    }
    once_more = {(c, ("L1", "L3", "L1"), (("L3", 1),)) for c in ("Alpha", "Beta")}
    twice_l3 = {(c, ("L1", "L3", "L1", "L3"), (("L3", 1), ("L3", 1))) for c in ("Alpha", "Beta")}
    default, revisit = game(), game(**amb(15, "revisit"))
    for level in (2, 3, 4):
        assert routes(default, level) == simple
    assert routes(revisit, 2) == simple
    assert routes(revisit, 3) == simple | once_more
    assert routes(revisit, 4) == simple | once_more | twice_l3

    round_trip = ShipGoods(Hex(2, 0), "food", 1, to_city="Alpha", lines=("L3", "L1", "L3"), payees=(("L3", 1),) * 2)
    s = state_of(default, parallel_given(4))
    rejection = default.check(s, round_trip)
    assert rejection is not None and rejection.rule == "KAS-R-37"
    s = state_of(revisit, parallel_given(4))
    after = revisit.apply(s, round_trip)  # $4 for the food (KAS-R-39), $1 x 2 tolls to seat 1
    assert after.players[0].money - s.players[0].money == 4 - 2
    assert after.players[1].money - s.players[1].money == 2


def parallel_given(level: int) -> dict[str, Any]:
    return {
        "map": PARALLEL,
        "players_state": {0: {"rail_level": level, "at": [1, 0]}, 1: {"at": [1, 1]}},
        "depots": [{"at": [2, 0], "owner": 0, "goods": {"food": 1}}, {"at": [2, 1], "owner": 1}],
    }


def test_kas_amb_29_strict_no_line_left_means_no_starting_depot() -> None:
    """p.6 step D: a starting depot on an empty rail hex, not on a line holding another player's
    depot, and the airship on the same hex.  Seat 0 holds L1 and L2, seat 1 places last.
    'relax': seat 1 may use any empty rail hex.  'strict': no starting depot at all; the airship
    alone goes on an empty rail hex (the completion the register states), its 10 depots kept."""
    given = {
        "phase": "start-depots",
        "seat": 1,
        "depots": [{"at": [1, 0], "owner": 0}, {"at": [5, 0], "owner": 0}],
    }
    empty_rail = {Hex(2, 0), Hex(3, 0), Hex(6, 0), Hex(7, 0)}
    g = game()
    s = state_of(g, given)
    assert {a.at for a in legal(g, s, PlaceStartDepot)} == empty_rail
    assert legal(g, s, StartAirship) == set()
    rejection = g.check(s, StartAirship(Hex(2, 0)))
    assert rejection is not None and rejection.rule == "KAS-R-07"

    g = game(**amb(29, "strict"))
    s = state_of(g, given)
    assert legal(g, s, PlaceStartDepot) == set()
    assert {a.at for a in legal(g, s, StartAirship)} == empty_rail
    rejection = g.check(s, PlaceStartDepot(Hex(2, 0)))
    assert rejection is not None and rejection.rule == "KAS-R-07"
    after = g.apply(s, StartAirship(Hex(2, 0)))
    assert after.players[1].position == Hex(2, 0) and after.players[1].depots_left == 10
    assert [d.owner for d in after.depots] == [0, 0]
    assert after.phase is not Phase.START_DEPOTS  # seat 1 was the last to place: round 1 begins


def test_kas_amb_29_strict_a_free_line_still_takes_the_depot() -> None:
    """While a line without another player's depot has an empty hex (L2 here), 'strict' plays as
    'relax': the depot goes there and the airship cannot start alone."""
    given = {
        "phase": "start-depots",
        "seat": 1,
        "depots": [{"at": [1, 0], "owner": 0}],
    }
    for g in (game(), game(**amb(29, "strict"))):
        s = state_of(g, given)
        assert {a.at for a in legal(g, s, PlaceStartDepot)} == {Hex(5, 0), Hex(6, 0), Hex(7, 0)}
        assert legal(g, s, StartAirship) == set()


def test_kas_amb_29_strict_harveys_second_depot_needs_a_line_with_no_depot() -> None:
    """KAS-R-62 (p.18): after all starting depots Harvey Golding places a second one 'on a line not
    yet taken'.  Seat 1 takes L2, the last free line, while Harvey holds L1.  'relax' falls back to a
    line without another player's depot (his own L1); 'strict' has no fallback: no second depot."""
    harvey = {"team": "Emperor", "character": "Harvey Golding"}
    given = {
        "phase": "start-depots",
        "seat": 1,
        "depots": [{"at": [1, 0], "owner": 0}],
        "players_state": {0: harvey, 1: {"team": "Sphinx", "character": "Victor Blane"}},
    }
    g = game()
    after = g.apply(state_of(g, given), PlaceStartDepot(Hex(5, 0)))
    assert (after.phase, after.seat, after.bonus) == (Phase.START_DEPOTS, 0, "second-depot")
    assert {a.at for a in legal(g, after, PlaceStartDepot)} == {Hex(2, 0), Hex(3, 0)}
    g = game(**amb(29, "strict"))
    after = g.apply(state_of(g, given), PlaceStartDepot(Hex(5, 0)))
    assert after.phase is not Phase.START_DEPOTS and after.bonus is None
    assert len(after.depots) == 2


def test_kas_amb_43_repeat_robs_a_victim_on_each_pass() -> None:
    """KAS-R-87 (p.20): $3 from each player whose airship is on a hex his flight passes.  A flight
    round the hexagon (1,0) -> ... -> (1,0) enters seat 1's hex twice: 'entered' robs once,
    'repeat' once per pass, so seat 1 is listed twice."""
    ezekiel = {"team": "Godfather", "character": "Ezekiel Crane", "plan": ["S02", "S03", "S04", "S05"], "at": [0, 0]}
    given = {"phase": "flight", "players_state": {0: ezekiel, 1: {**CLINT, "at": [1, 0]}}}
    start = Hex(0, 0)
    loop = (0, 1, 2, 3, 4, 5, 0)  # wide (60°) bends only: back onto (1,0) on the 7th step
    entered = path_hexes(start, loop)
    assert entered[0] == entered[-1] == Hex(1, 0) and entered.count(Hex(1, 0)) == 2
    for readings, victims in (({}, (1,)), (amb(43, "no-end"), (1,)), (amb(43, "repeat"), (1, 1))):
        g = game(**readings)
        assert robbed_by(g.ctx, state_of(g, given), entered) == victims, readings


def test_kas_amb_43_repeat_cannot_change_play_with_the_bundled_decks() -> None:
    """Re-entering a hex takes a closed walk, and with 60° bends only (KAS-R-26, p.11; no sharp
    turn, never backward) the shortest one is the 6-step hexagon, so an entered hex is entered
    again on the 7th step at the earliest.  Ezekiel Crane (Godfather) flies the 12 standard cards
    and the Godfather card, at most 5 hexes: no flight of his enters a hex twice (the start hex is
    not entered; a hexagon back onto it counts it once), so 'repeat' and 'entered' rob the same
    players on every flight of this pack."""
    g = game(**amb(43, "repeat"))
    teams = {0: {"team": "Godfather", "character": "Ezekiel Crane"}, 1: CLINT}
    area = {"hexes": [[q, r] for q in range(-7, 8) for r in range(-7, 8) if abs(q + r) <= 7]}
    s = state_of(g, {"map": area, "players_state": teams})
    longest = max(max(g.pack.card(c).moves) for c in deck_of(g.ctx, s.players[0]))
    assert longest == 5
    rules = flight_rules(g.ctx)
    centre = Hex(0, 0)
    game_map = g.ctx.map_of(s)

    def repeats(length: int) -> bool:
        paths = flight.legal_flights(game_map, centre, length, rules)
        return any(len(set(path_hexes(centre, p))) < length for p in paths)

    assert not any(repeats(n) for n in range(1, longest + 2))  # a 6-step hexagon re-enters only the start hex
    assert repeats(7)  # the first entered hex is entered again on the 7th step


def test_kas_amb_15_the_route_rules_default_to_simple_routes() -> None:
    """KAS-AMB-15 default 'simple' (p.13): the shipping functions called without readings never
    reuse a line; with ``RouteRules(revisit=True)`` the round trip L1-L3-L1 to either city appears."""
    g = game()
    s = state_of(g, parallel_given(3))
    game_map = g.ctx.map_of(s)

    def line_paths(rules: shipping.RouteRules | None) -> set[tuple[str, ...]]:
        if rules is None:
            found = shipping.routes(game_map, s.depots, 0, Hex(2, 0), 3)
        else:
            found = shipping.routes(game_map, s.depots, 0, Hex(2, 0), 3, rules=rules)
        return {r.lines for r in found}

    assert line_paths(None) == line_paths(shipping.RouteRules()) == {("L1",), ("L1", "L3")}
    assert line_paths(shipping.RouteRules(revisit=True)) == {("L1",), ("L1", "L3"), ("L1", "L3", "L1")}
    problem = shipping.shipment_problem(
        game_map,
        s.depots,
        s.cities,
        0,
        12,
        (4,) * 5,
        3,
        Hex(2, 0),
        "food",
        1,
        shipping.Destination.city("Alpha"),
        ("L3", "L1"),
    )
    assert problem is not None and problem[0] == "KAS-R-37" and "at most once" in problem[1]


def test_kas_amb_29_strict_the_lone_airship_goes_on_an_empty_rail_hex() -> None:
    """p.6 step D's hex: an empty rail hex.  Under 'strict' with no line left (seat 0 holds L1 and
    L2), the factory hex (2,1) is no rail hex and (1,0) holds a depot; during Harvey Golding's
    second-depot step (KAS-R-62) the airship is already placed, and with no line free of depots his
    second depot is refused as KAS-R-62 (the step itself is skipped in play)."""
    g = game(**amb(29, "strict"))
    given = {"phase": "start-depots", "seat": 1, "depots": [{"at": [1, 0], "owner": 0}, {"at": [5, 0], "owner": 0}]}
    s = state_of(g, given)
    for at, words in ((Hex(2, 1), "not a rail hex"), (Hex(1, 0), "holds a depot")):
        rejection = g.check(s, StartAirship(at))
        assert rejection is not None and rejection.rule == "KAS-R-07" and words in rejection.reason
    bonus = attrs.evolve(s, bonus="second-depot")
    rejection = g.check(bonus, StartAirship(Hex(2, 0)))
    assert rejection is not None and rejection.rule == "KAS-R-62"
    assert rejection.reason.startswith("Harvey Golding's airship")
    rejection = g.check(bonus, PlaceStartDepot(Hex(2, 0)))
    assert rejection is not None and rejection.rule == "KAS-R-62"
    assert rejection.reason.startswith("no line without a depot") and "Harvey Golding's" in rejection.reason
    rejection = game().check(state_of(game(), given), StartAirship(Hex(2, 0)))
    assert rejection is not None and rejection.reason.startswith("the airship starts on the starting depot's hex")


def test_kas_amb_29_strict_a_line_holding_only_ones_own_depot_is_still_free() -> None:
    """p.6 step D forbids only lines holding *another* player's depot.  Seat 1 already has a depot
    on L2 (a hand-built state): L2 is still a line of its own with empty hexes, so under 'strict'
    the airship may not start alone; the message says to place the starting depot."""
    g = game(**amb(29, "strict"))
    given = {"phase": "start-depots", "seat": 1, "depots": [{"at": [1, 0], "owner": 0}, {"at": [5, 0], "owner": 1}]}
    s = state_of(g, given)
    assert {a.at for a in legal(g, s, PlaceStartDepot)} == {Hex(6, 0), Hex(7, 0)}
    rejection = g.check(s, StartAirship(Hex(2, 0)))
    assert rejection is not None and rejection.rule == "KAS-R-07"
    assert rejection.reason.startswith("a line without another player's depot")


def test_kas_amb_29_strict_with_full_hexes_the_lone_airship_avoids_partial_hexes() -> None:
    """KAS-AMB-23 'full-hexes' (p.11-12): partial edge rail hexes take no depot, so neither does
    the lone airship take the depot's place there under KAS-AMB-29 'strict' (p.6 step D's hex).
    Row map with (3,0) a partial hex; seat 0 holds L1 and L2."""
    row = {**ROW_MAP, "hexes": [[q, 0, "partial"] if q == 3 else [q, 0] for q in range(9)] + [[q, 1] for q in range(9)]}
    g = game(**amb(29, "strict"), **amb(23, "full-hexes"))
    given = {
        "map": row,
        "phase": "start-depots",
        "seat": 1,
        "depots": [{"at": [1, 0], "owner": 0}, {"at": [5, 0], "owner": 0}],
    }
    s = state_of(g, given)
    assert {a.at for a in legal(g, s, StartAirship)} == {Hex(2, 0), Hex(6, 0), Hex(7, 0)}
    rejection = g.check(s, StartAirship(Hex(3, 0)))
    assert rejection is not None and rejection.rule == "KAS-R-07"
    assert "partial edge hex" in rejection.reason


# -- KAS-AMB-46 'per-character': a pack that prints each character's own priority number -------------------

BUNDLED_PACK = Path(__file__).resolve().parents[1] / "model/kings_of_air_and_steam/packs/reconstructed.yaml"
# A test pack's numbers (the rulebook prints none): Reginald Kain last (14), I.S.A.A.C. 4, Godfather's Ezekiel 2.
OWN_NUMBERS = {
    "Harvey Golding": 1,
    "Reginald Kain": 14,
    "Aurelia Bayley": 3,
    "I.S.A.A.C.": 4,
    "Victor Blane": 5,
    "Eva Blane": 6,
    "Flora Kingston": 7,
    "Bishop Kingston": 8,
    "Sebastian King": 9,
    "Corey McQueen": 10,
    "Eli Diamond": 11,
    "Clint Castle": 12,
    "Thaddeus Birch": 13,
    "Ezekiel Crane": 2,
}


def pack_data(numbers: dict[str, int] | None = None) -> Any:
    """The bundled pack's data, each team given ``numbers`` for its two characters."""
    data = read_pack_file(BUNDLED_PACK)
    for team in data["teams"]:
        team["character_priority"] = {c: (numbers or OWN_NUMBERS)[c] for c in team["characters"]}
    return data


def per_character(reading: str = "per-character") -> KingsOfAirAndSteamGame:
    pack = pack_from_data(pack_data(), "test-pack.yaml")
    return KingsOfAirAndSteamGame(Ruleset.from_overrides(REGISTER, {"KAS-AMB-46": reading}), pack)


EMPEROR_DAVINCI = (("Emperor", "Reginald Kain"), ("DaVinci", "I.S.A.A.C."))


@pytest.mark.parametrize(("reading", "first"), [("team-order", 1), ("per-character", 0)])
def test_kas_amb_46_starting_depots_go_from_the_highest_number_r11_p17(reading: str, first: int) -> None:
    """KAS-R-11 (p.17): starting depots are placed in reverse priority order, highest number first.
    'team-order': Emperor 1, DaVinci 2, so DaVinci's seat 1 places first; 'per-character' with the
    test pack's numbers: Reginald Kain 14 > I.S.A.A.C. 4, so seat 0 places first."""
    g = per_character(reading)
    s = g.new_game(2, teams=EMPEROR_DAVINCI)
    assert s.phase is Phase.START_DEPOTS
    assert s.order == (first, 1 - first) and s.seat == first


@pytest.mark.parametrize(("reading", "first"), [("team-order", 0), ("per-character", 1)])
def test_kas_amb_46_a_letter_tie_goes_to_the_lower_number_r23_p17(reading: str, first: int) -> None:
    """KAS-R-23 (p.17): same letter, the lower priority number acts first.  Both seats reveal the same
    card: under 'team-order' Emperor (1) before DaVinci (2); 'per-character' I.S.A.A.C. (4) before
    Reginald Kain (14)."""
    g = per_character(reading)
    s = g.new_game(2, teams=EMPEROR_DAVINCI)
    planned = tuple(attrs.evolve(p, plan=tuple(PLAN)) for p in s.players)
    s = attrs.evolve(s, players=planned, cycle=1)
    assert turn_order(g.ctx, s) == (first, 1 - first)


def test_kas_amb_46_per_character_needs_the_packs_numbers_one_line() -> None:
    """The rulebook prints no number per character (p.17 shows them only on the cards): with the bundled
    pack, which has none, 'per-character' is refused in one line naming the missing pack field."""
    with pytest.raises(UnknownReading, match=r"KAS-AMB-46=per-character .*teams\[\]\.character_priority") as caught:
        KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-46": "per-character"})
    assert "\n" not in str(caught.value) and "Emperor" in str(caught.value)
    assert per_character().ctx.r("KAS-AMB-46") == "per-character"


@pytest.mark.parametrize(
    ("change", "words"),
    [({"Reginald Kain": 3}, "number 3 is also Reginald Kain's"), ({}, "'Somebody'], not Emperor's characters")],
)
def test_kas_amb_46_a_packs_character_numbers_are_checked(change: dict[str, int], words: str) -> None:
    """KAS-R-10 (p.17): each character card has its number, so two characters may not share one
    (under 'per-character' a tie would have no order), and a team's entry names its two characters."""
    data = pack_data({**OWN_NUMBERS, **change})
    if not change:
        data["teams"][0]["character_priority"] = {"Harvey Golding": 1, "Somebody": 2}
    with pytest.raises(PackError) as caught:
        pack_from_data(data, "test-pack.yaml")
    assert caught.value.where.endswith(".character_priority") and words in str(caught.value)


# -- KAS-AMB-26 'all': the delivery powers in the Sellout, a sale being a one-good delivery ---------------------


def sellout_as(g: KingsOfAirAndSteamGame, team: str, character: str, tolled_lines: int = 0, money: int = 5) -> KasState:
    """Seat 0 (``character``) at the Sellout with 1 food in a depot on L0, Farcity (food) at the chain's end."""
    s = chain_sellout(g, tolled_lines=tolled_lines, money=money, rail_level=5)
    players = (
        attrs.evolve(s.players[0], team=team, character=character, tokens=5),
        attrs.evolve(s.players[1], team="Sphinx", character="Victor Blane"),
    )
    return attrs.evolve(s, players=players, advanced=True)


def bets(g: KingsOfAirAndSteamGame, s: KasState) -> list[int]:
    return sorted(a.bet for a in g.legal_actions(s) if isinstance(a, Sell) and a.bet)


@pytest.mark.parametrize(("win", "money"), [(True, 5 - 2 + 4 + 2), (False, 5 - 2 + 4)])
def test_kas_amb_26_all_sebastian_bets_on_a_sale_r78_p19(win: bool, money: int) -> None:
    """KAS-AMB-26 'all': the Sellout sale (p.16, $4 for the good) counts as a delivery, so Sebastian King
    may bet $1-$3 on it (KAS-R-78, p.19: the bet goes to the bank, a token showing the goods pays $2 per
    delivered good, here 1).  $5, bet $2: $7 after the sale, $9 if the bet wins; then the Sellout goes on."""
    g = game(**amb(26, "all"))
    s = sellout_as(g, "Kings Over Aces", "Sebastian King")
    assert bets(g, s) == [1, 2, 3]
    s = g.apply(s, Sell(Hex(1, 0), "food", "Farcity", bet=2))
    assert s.phase is Phase.GAMBLE and s.players[0].money == 5 - 2 + 4
    s = g.apply(s, Gamble(win))
    assert s.phase is Phase.SELLOUT and s.seat == 0 and s.gamble is None
    assert s.players[0].money == money and s.depots[0].goods == (0, 0, 0, 0, 0)


def test_kas_amb_26_the_default_keeps_delivery_powers_out_of_the_sellout_r51_p16() -> None:
    """KAS-AMB-26 'birch-only' (default): a sale returns the good to the supply (p.16), no delivery, so no
    bet is offered and one is refused under KAS-R-51; under 'all' others than Sebastian King may not bet
    (KAS-R-78), nor bet more than $3 or more than they hold."""
    g = game()
    s = sellout_as(g, "Kings Over Aces", "Sebastian King")
    assert bets(g, s) == [] and rule(g, s, Sell(Hex(1, 0), "food", "Farcity", bet=1)) == "KAS-R-51"
    rejection = g.check(s, Sell(Hex(1, 0), "food", "Farcity", bet=1))
    assert rejection is not None and rejection.reason == (
        "a Sellout sale returns the good to the supply for $4: no delivery power (KAS-AMB-26)"
    )
    g = game(**amb(26, "all"))
    assert rule(g, sellout_as(g, "Kings Over Aces", "Corey McQueen"), Sell(Hex(1, 0), "food", "Farcity", bet=1)) == (
        "KAS-R-78"
    )
    s = sellout_as(g, "Kings Over Aces", "Sebastian King", money=1)
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity", bet=4)) == "KAS-R-78"
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity", bet=2)) == "KAS-R-78"
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity", bet=1)) is None


def test_kas_amb_26_all_a_bet_is_paid_before_the_toll_r78_r55() -> None:
    """KAS-R-78: the bet is paid first; KAS-R-51/55: the toll comes from the $4 and the purse.  With 4
    opponent lines the toll is $4: $1 held, no bet: $5 covers it; betting the $1 leaves $0 + $4: still
    covered exactly (KAS-R-55 allows the last dollar)."""
    g = game(**amb(26, "all"))
    s = sellout_as(g, "Kings Over Aces", "Sebastian King", tolled_lines=4, money=1)
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity")) is None
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity", bet=1)) is None
    after = g.apply(s, Sell(Hex(1, 0), "food", "Farcity", bet=1))
    assert after.players[0].money == 0


def test_kas_amb_26_all_a_bet_can_leave_too_little_for_a_five_dollar_toll_r78_r55() -> None:
    """KAS-R-78: the bet is paid before anything else; KAS-R-55: a toll is paid from the $4 and the purse.
    5 opponent lines (rail level 6, KAS-R-37: a stop each), toll $5 with $1 held: $1 + $4 covers it without a
    bet, but after a $1 bet only $0 + $4 is left: refused."""
    g = game(**amb(26, "all"))
    s = sellout_as(g, "Kings Over Aces", "Sebastian King", tolled_lines=5, money=1)
    s = attrs.evolve(s, players=(attrs.evolve(s.players[0], rail_level=6), s.players[1]))
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity")) is None
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity", bet=1)) == "KAS-R-55"


@pytest.mark.parametrize(("returned", "filled"), [(False, 1), (True, 0)])
def test_kas_amb_26_all_bishop_puts_the_sold_good_back_r75_p19(returned: bool, filled: int) -> None:
    """KAS-R-75 (p.19): on a delivery Bishop Kingston may put one good back into the supply instead of
    onto a city slot, paid all the same.  KAS-AMB-25 'consume-room' makes a sold good take a slot; with
    KAS-AMB-26 'all' he may put it back: Farcity stays empty, the $4 is paid either way."""
    g = game(**amb(26, "all"), **amb(25, "consume-room"))
    s = sellout_as(g, "Rose & Thorn", "Bishop Kingston")
    offered = {a.returned for a in g.legal_actions(s) if isinstance(a, Sell)}
    assert offered == {False, True}
    after = g.apply(s, Sell(Hex(1, 0), "food", "Farcity", returned=returned))
    assert city(g, after, "Farcity").filled == filled and after.players[0].money == 5 + 4
    assert rule(
        g, sellout_as(g, "Kings Over Aces", "Sebastian King"), Sell(Hex(1, 0), "food", "Farcity", returned=True)
    ) == ("KAS-R-75")


# -- KAS-AMB-10 'd' (stays-full): a printed city filled with an empty demand pile keeps its goods ----------
#
# KAS-R-40 (p.14): 'Ha egy város teljesen fel lett töltve, akkor vegyétek le mind az 5 árut róla, és
# tegyétek vissza azokat a talonjukba. Húzzatok egy keresletlapkát ...'; KAS-R-49 (p.16): the demand pile
# gets its tiles only in step 2 of the Production, after the factories produced (step 1, KAS-R-48).
# KAS-AMB-10 (d): 'the city is not cleared (stays full) until a tile is available': its goods stay on its
# slots (out of the supply), it accepts nothing (KAS-R-36, p.14: no more goods than it can take), and it is
# cleared, as the rulebook clears a filled city, when its tile comes.  FOOD = index of food in the goods order.

FOOD = 2
STAYS_FULL = {"KAS-AMB-10": "d"}


def test_kas_amb_10_d_a_city_filled_with_an_empty_pile_keeps_its_five_goods_r40_p14() -> None:
    """KAS-AMB-10 'd': the fifth food fills Bown Town in round 1 (demand pile empty, KAS-R-49): the city
    keeps the 5 food on its printed demand and its 5 slots, the supply gets none back, and it queues for
    a tile.  A further food for it is refused: it has no empty slot (KAS-R-36, p.14)."""
    g = game(**STAYS_FULL)
    s = fill_state(g, flora_seat=None, pile={})
    after = g.apply(s, ship_one_food(g))
    bown = city(g, after, "Bown Town")
    assert (bown.demand, bown.filled, bown.slots, bown.tile, bown.waiting, bown.closed) == (
        "food",
        5,
        5,
        False,
        False,
        False,
    )
    assert after.supply == s.supply and after.waiting_cities == ("Bown Town",)
    assert after.phase is not Phase.DEMAND_DRAW and after.demand_for is None
    assert tools(g).violations(after) == []
    again = attrs.evolve(s, cities=after.cities, waiting_cities=after.waiting_cities)
    assert rule(g, again, ship_one_food(g)) == "KAS-R-36"
    assert rule(game(), s, ship_one_food(g)) is None  # one food fits the 5th slot (KAS-R-36)


def test_kas_amb_10_d_with_a_tile_in_the_pile_the_city_is_cleared_and_draws_r40_p14() -> None:
    """KAS-R-40 (p.14): with a demand tile in the pile nothing is ambiguous, 'd' as every reading: the 5 food
    return to the supply and a tile is drawn for Bown Town."""
    g = game(**STAYS_FULL)
    s = fill_state(g, flora_seat=None, pile={"luxury": 1})
    after = g.apply(s, ship_one_food(g))
    assert after.phase is Phase.DEMAND_DRAW and after.demand_for == "Bown Town"
    assert city(g, after, "Bown Town").filled == 0 and after.waiting_cities == ()
    assert after.supply[FOOD] == s.supply[FOOD] + 5


def test_kas_amb_10_d_a_filled_demand_tile_still_turns_face_down_r41_p14() -> None:
    """KAS-R-41 (p.14): a filled demand tile (3 slots) gives its goods back and turns face down, whatever
    the demand pile holds; KAS-AMB-10 is about printed cities only."""
    g = game(**STAYS_FULL)
    s = fill_state(g, flora_seat=None, pile={}, filled=2, tile=True)
    after = g.apply(s, ship_one_food(g))
    bown = city(g, after, "Bown Town")
    assert (bown.closed, bown.filled, bown.waiting) == (True, 0, False)
    assert after.supply[FOOD] == s.supply[FOOD] + 3 and after.waiting_cities == ()


@pytest.mark.parametrize(("reading", "made", "supply_after"), [("a", 4, 4), ("d", 3, 5)])
def test_kas_amb_10_d_capped_the_full_city_keeps_goods_from_the_factories_r48_r49_p16(
    reading: str, made: int, supply_after: int
) -> None:
    """KAS-AMB-12 'capped' (20 cubes a type, KAS-P-09): 12 food on the one food factory of map ABC, Bown Town
    filled while the demand pile was empty.  Round 1's Production (p.16): step 1, the food factory makes
    1 + 3 (three food market tiles, KAS-R-48), no more than the supply holds; step 2, the 3 tiles become
    demand tiles (KAS-R-49) and Bown Town draws one (KAS-AMB-10).  Under 'a' the city was cleared when it
    filled: the supply holds 20 - 12 = 8, the factory gets 4, 4 are left.  Under 'd' its 5 food are still on
    it in step 1: the supply holds 20 - 12 - 5 = 3, the factory gets only 3; the city is cleared when the
    tiles come, so the supply ends with 0 + 5."""
    g = game(**{"KAS-AMB-10": reading, "KAS-AMB-12": "capped"})
    food_factory = g.ctx.game_map("ABC").factory_index(Hex(7, -2))
    assert food_factory is not None
    filled = 5 if reading == "d" else 0
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "upkeep",
            "seat": 1,
            "factories": {"7,-2": 12},
            "cities": {"Bown Town": {"filled": filled}},
            "market": {"slots": ["food", "food", "food"]},
        }
    )
    if reading == "a":  # cleared at the fill: no demand, waiting for a tile
        s = city_changed(g, s, "Bown Town", demand=None, waiting=True)
    s = attrs.evolve(s, waiting_cities=("Bown Town",))
    assert s.supply[FOOD] == 20 - 12 - filled
    assert tools(g).violations(s) == []
    drawn = g.apply(s, PayUpkeep())
    assert drawn.phase is Phase.DEMAND_DRAW and drawn.demand_for == "Bown Town"
    assert drawn.factories[food_factory] == 12 + made
    assert drawn.supply[FOOD] == supply_after
    assert city(g, drawn, "Bown Town").filled == 0 and drawn.waiting_cities == ()
    assert tools(g).violations(drawn) == []
    after = g.apply(drawn, DrawDemandTile("food"))
    bown = city(g, after, "Bown Town")
    assert (bown.demand, bown.slots, bown.tile, bown.filled) == ("food", 3, True, 0)
    assert after.phase is Phase.NEW_MARKET and after.round == 2


def test_kas_amb_10_d_the_sphinx_free_good_fills_a_city_that_stays_full_then_the_action_r69_p19() -> None:
    """KAS-R-69 (p.19): Victor Blane's free one-good shipment comes before his action; it fills Farcity (food,
    printed, 4 of 5) in round 1 with the demand pile empty (KAS-R-40, p.14; KAS-R-49, p.16).  Under
    KAS-AMB-10 'd' the city keeps its 5 food and waits for a tile; the turn's action still follows."""
    g = game(**STAYS_FULL)
    s = sphinx_bonus(
        g,
        map=chain_map(1),
        depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}],
        cities={"Farcity": {"filled": 4}},
        market={"slots": ["luxury", "luxury", "machine"], "demand_pile": {}},
    )
    after = g.apply(s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity"))
    assert after.phase is Phase.ACTION and after.seat == 0 and after.bonus is None
    assert city(g, after, "Farcity").filled == 5 and after.waiting_cities == ("Farcity",)
    assert after.supply == s.supply


# -- KAS-AMB-39 'any-depot' (p.19, KAS-R-79): Corey McQueen's swindled good from another own depot ----------

B2_RAIL = Hex(3, -2)  # map ABC: line B2's rail hex, beside Bown Town (printed demand: food)
A2_RAIL = Hex(-1, 0)  # map ABC: line A2's rail hex beside Wiesbaden (printed demand: textile)
A1_RAIL = Hex(0, -2)  # map ABC: a rail hex of line A1
COREY = {"team": "Kings Over Aces", "character": "Corey McQueen", "tokens": 5, "money": 5}


def corey_with_a_textile_elsewhere(g: KingsOfAirAndSteamGame) -> KasState:
    """Corey McQueen (5 swindler tokens, $5) with 2 food in his depot on B2 and 1 textile only in his depot
    on A2; the opponent (the Sphinx) has a textile in a depot on A1.  One food tile is on the market, so
    food is worth $5 (KAS-R-16, p.8: the value track $4, $5, $6, $8)."""
    return turn_state(
        g,
        COREY,
        {"team": "Sphinx", "character": "Victor Blane"},
        depots=[
            {"at": [B2_RAIL.q, B2_RAIL.r], "owner": 0, "goods": {"food": 2}},
            {"at": [A2_RAIL.q, A2_RAIL.r], "owner": 0, "goods": {"textile": 1}},
            {"at": [A1_RAIL.q, A1_RAIL.r], "owner": 1, "goods": {"textile": 1}},
        ],
        market={"slots": ["food", "machine", "textile"], "demand_pile": {"machine": 1}},
    )


def swindle_from(at: Hex | None, swindle: str | None = "textile") -> ShipGoods:
    """p.19's example: 2 food and 1 textile instead of 3 food, to Bown Town along line B2."""
    return ShipGoods(B2_RAIL, "food", 3, to_city="Bown Town", swindle=swindle, swindle_from=at)


def test_kas_amb_39_any_depot_the_swindled_textile_comes_from_another_own_depot_r79_p19() -> None:
    """KAS-R-79 (p.19): Corey 'may spend one token to put one good of another type into the shipment
    (e.g. two food and one textile instead of three food)' and is paid as if all were of the right type.
    By default (KAS-AMB-39 'same-depot') the textile must lie in the shipment's own depot, and his B2
    depot has none; under 'any-depot' it is taken from his A2 depot, while the shipment still leaves B2
    along B2 (his own line: no toll, KAS-R-38, p.13).  Paid 3 x $5, a token spent, 3 goods on 3 slots."""
    default, anywhere = game(), game(**amb(39, "any-depot"))
    s = corey_with_a_textile_elsewhere(default)
    action = swindle_from(A2_RAIL)
    refusal = default.check(s, action)
    assert refusal is not None and refusal.rule == "KAS-R-79"
    assert refusal.reason == "the swindled good goes in the shipment from its own depot (KAS-AMB-39)"
    assert rule(default, s, swindle_from(None)) == "KAS-R-79"  # no textile in the B2 depot
    assert rule(anywhere, s, action) is None
    after = anywhere.apply(s, action)
    depots = {d.at: d.goods for d in after.depots}
    assert depots[B2_RAIL] == (0, 0, 0, 0, 0) and depots[A2_RAIL] == (0, 0, 0, 0, 0)
    assert depots[A1_RAIL] == (0, 0, 0, 1, 0)  # the opponent's textile stays
    assert after.players[0].money == 5 + 3 * 5 and after.players[0].tokens == 4
    assert after.players[1].money == s.players[1].money
    bown = city(anywhere, after, "Bown Town")
    assert bown.filled == 3 and bown.other == ("textile",)


def test_kas_amb_39_any_depot_refuses_a_swindle_from_a_depot_not_his_or_without_the_good_r79_p19() -> None:
    """KAS-R-79 (p.19): the swindled good is Corey's own ('put one good ... into the shipment'): under
    'any-depot' not from the opponent's depot on A1, not from a hex with no depot of his, not a luxury his
    A2 depot does not hold; naming a depot but no swindled good is refused under both readings."""
    default, anywhere = game(), game(**amb(39, "any-depot"))
    s = corey_with_a_textile_elsewhere(default)
    assert rule(anywhere, s, swindle_from(A1_RAIL)) == "KAS-R-79"
    assert rule(anywhere, s, swindle_from(Hex(0, 0))) == "KAS-R-79"
    assert rule(anywhere, s, swindle_from(A2_RAIL, "luxury")) == "KAS-R-79"
    plain = attrs.evolve(swindle_from(A2_RAIL, None), count=2)
    for g in (default, anywhere):
        refusal = g.check(s, plain)
        assert refusal is not None and refusal.rule == "KAS-R-79"
        assert refusal.reason == "a depot for the swindled good, but no swindled good"
    assert rule(anywhere, s, attrs.evolve(plain, swindle_from=None)) is None  # 2 food, no swindle


def test_kas_amb_39_any_depot_offers_the_swindles_from_his_other_depot_r79_p19() -> None:
    """KAS-R-79 (p.19) with the printed demands of map ABC: Bown Town food, Wiesbaden textile.  By default
    no swindle is offered (the B2 depot holds only food, the A2 depot only textile); under 'any-depot' the
    A2 textile may ride with the B2 food, and the B2 food with the A2 textile, each shipment on its own
    line."""
    default, anywhere = game(), game(**amb(39, "any-depot"))
    s = corey_with_a_textile_elsewhere(default)
    assert not [a for a in legal(default, s, ShipGoods) if a.swindle is not None]
    offered = {(a.origin, a.swindle, a.swindle_from) for a in legal(anywhere, s, ShipGoods) if a.swindle is not None}
    assert offered == {(B2_RAIL, "textile", A2_RAIL), (A2_RAIL, "food", B2_RAIL)}


# -- KAS-AMB-30 'simultaneous' (p.5, 16-17, KAS-R-51): tolls received in the Sellout ----------------------


def sellout_after_a_tolled_sale(g: KingsOfAirAndSteamGame, money: int = 0) -> KasState:
    """A base-game Sellout on a chain C0 -L0- C1 -L1- ... -L5- Farcity (food), C0 demanding textile, the
    other cities luxury; seat 1 sells first.  Seat 1 (rail level 2) has a depot on each of L1..L5 and a
    textile on L1, which reaches C0 only over L0, where seat 0's depot stands ($1 toll to seat 0, KAS-R-38).
    Seat 0 (``money``, rail level 6) has 1 food on L0; its route to Farcity stops at seat 1's depots on
    L1..L5: a $5 toll, $1 more than the sale's $4 (p.16)."""
    chain = chain_map(6)
    chain["cities"][0]["demand"] = "textile"
    depots: list[dict[str, Any]] = [{"at": [1, 0], "owner": 0, "goods": {"food": 1}}]
    depots.append({"at": [3, 0], "owner": 1, "goods": {"textile": 1}})
    depots += [{"at": [2 * i + 1, 0], "owner": 1} for i in range(2, 6)]
    s = tools(g).scenario_state(
        {
            "players": 2,
            "map": chain,
            "phase": "sellout",
            "round": 6,
            "seat": 1,
            "players_state": {
                0: {"at": [0, 1], "money": money, "rail_level": 6},
                1: {"at": [1, 1], "money": 0, "rail_level": 2},
            },
            "depots": depots,
            "market": {"pile": {}, "demand_pile": ALL_TILES},
        }
    )
    return attrs.evolve(s, order=(1, 0), turn=0)


TEXTILE_OVER_L0 = Sell(Hex(3, 0), "textile", "C0")
FOOD_TO_FARCITY = Sell(Hex(1, 0), "food", "Farcity")


def test_kas_amb_30_priority_a_toll_received_from_an_earlier_seller_pays_a_later_toll_r51_p16() -> None:
    """p.16 (KAS-R-51): each good that could be shipped returns for $4 and its toll is paid; p.5/p.17
    (KAS-AMB-30 'priority'): the sellers go one after another.  Seat 1's textile pays seat 0 $1 on L0
    ($4 - $1 = $3 left); then seat 0 ($0 + $1) pays the $5 toll of its food: $1 + $4 - $5 = $0, and seat 1
    gets $3 + $5 = $8."""
    g = game()
    s = sellout_after_a_tolled_sale(g)
    assert rule(g, s, TEXTILE_OVER_L0) is None
    first = g.apply(s, TEXTILE_OVER_L0)
    assert (first.players[0].money, first.players[1].money) == (1, 3)
    mine = g.apply(first, EndSellout())
    assert mine.seat == 0 and rule(g, mine, FOOD_TO_FARCITY) is None
    assert FOOD_TO_FARCITY in {attrs.evolve(a, lines=None, payees=None) for a in legal(g, mine, Sell)}
    after = g.apply(mine, FOOD_TO_FARCITY)
    assert (after.players[0].money, after.players[1].money) == (0, 8)


def test_kas_amb_30_simultaneous_a_toll_received_in_the_sellout_pays_no_toll_in_it_r51_p16() -> None:
    """KAS-AMB-30 'simultaneous' (p.5, 17): every sale is judged against the Sellout's start, the tolls
    received being paid out after all sales.  Seat 0 holds $1, but only from seat 1's toll: its $5 toll
    exceeds the $4 (KAS-R-55, p.16) and the food is not offered.  With $1 of its own at the Sellout's start
    (and seat 1's $1 on top) the same sale is legal: $2 + $4 - $5 = $1."""
    g = game(**amb(30, "simultaneous"))
    s = sellout_after_a_tolled_sale(g)
    mine = g.apply(g.apply(s, TEXTILE_OVER_L0), EndSellout())
    assert mine.seat == 0 and mine.players[0].money == 1
    assert rule(g, mine, FOOD_TO_FARCITY) == "KAS-R-55"
    assert g.legal_actions(mine) == [EndSellout()]
    rich = sellout_after_a_tolled_sale(g, money=1)
    own = g.apply(g.apply(rich, TEXTILE_OVER_L0), EndSellout())
    assert own.seat == 0 and own.players[0].money == 2 and rule(g, own, FOOD_TO_FARCITY) is None
    assert g.apply(own, FOOD_TO_FARCITY).players[0].money == 1


def test_kas_amb_30_simultaneous_a_toll_received_in_the_sellout_funds_no_bet_r51_r78_p16_p19() -> None:
    """KAS-AMB-26 'all' (p.16, 19): a Sellout sale is a one-good delivery, so Sebastian King may bet $1-$3 on
    it, paid first (KAS-R-78).  Chain C0 -L0- C1 -L1- C2 -L2- Farcity (food), C0 demanding textile: the Sphinx
    (priority 3) sells first, its textile from L1 to C0 paying $1 at Sebastian's L0 depot (KAS-R-38); then
    Sebastian ($0 + $1, priority 5) sells his food from L2 to Farcity, toll-free.  By priority the $1 pays a
    $1 bet; under 'simultaneous' it is paid out only after all sales, and the bet is refused."""
    chain = chain_map(3)
    chain["cities"][0]["demand"] = "textile"
    sebastian = {"team": "Kings Over Aces", "character": "Sebastian King", "tokens": 5}
    sides = []
    for reading in ("priority", "simultaneous"):
        g = game(**amb(26, "all"), **amb(30, reading))
        s = tools(g).scenario_state(
            {
                "players": 2,
                "map": chain,
                "phase": "sellout",
                "round": 6,
                "seat": 1,
                "players_state": {
                    0: {**sebastian, "at": [0, 1], "money": 0, "rail_level": 2},
                    1: {"team": "Sphinx", "character": "Victor Blane", "at": [1, 1], "money": 0, "rail_level": 2},
                },
                "depots": [
                    {"at": [1, 0], "owner": 0},
                    {"at": [5, 0], "owner": 0, "goods": {"food": 1}},
                    {"at": [3, 0], "owner": 1, "goods": {"textile": 1}},
                ],
                "market": {"pile": {}, "demand_pile": ALL_TILES},
            }
        )
        s = attrs.evolve(s, order=(1, 0), turn=0)
        mine = g.apply(g.apply(s, Sell(Hex(3, 0), "textile", "C0")), EndSellout())
        assert mine.seat == 0 and mine.players[0].money == 1
        bet = Sell(Hex(5, 0), "food", "Farcity", bet=1)
        assert rule(g, mine, attrs.evolve(bet, bet=0)) is None
        sides.append(rule(g, mine, bet))
    assert sides == [None, "KAS-R-78"]


def test_kas_amb_30_simultaneous_with_25_consume_room_is_refused_as_a_combination_p5_p16_p17() -> None:
    """KAS-AMB-25 'consume-room' (p.16: sold goods take a city's slots) with KAS-AMB-30 'simultaneous'
    (p.5, 17) would need a rule for sellers claiming a city's last slots at once; the rulebook gives none, so
    the pair is refused in one line naming both (each alone is played)."""
    from rulecraft.registry import make_game

    with pytest.raises(UnknownReading, match=r"KAS-AMB-25=consume-room with KAS-AMB-30=simultaneous .*p\.16.*p\.5, 17"):
        make_game("kas", readings={"KAS-AMB-30": "simultaneous", "KAS-AMB-25": "consume-room"})
    assert game(**amb(30, "simultaneous")).ctx.r("KAS-AMB-30") == "simultaneous"
    assert game(**amb(25, "consume-room")).ctx.r("KAS-AMB-25") == "consume-room"
