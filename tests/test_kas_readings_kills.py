"""Kings of Air and Steam: the readings' own code (issue 22 part 3), played under each reading.

``bench/mutation/readings.py`` counts the mutants on the lines that name an ambiguity.  KAS-AMB-24
(digest /work/shared/rules/kings-of-air-and-steam.md; rulebook p.8 and p.16): round 5 is played in
full, Upkeep included, before the Sellout ('full', default), or its Upkeep is skipped
('skip-upkeep').  Here round 5 ends with a city waiting for a demand tile, so that the Production
(KAS-R-48/49, KAS-AMB-10 'a') stops for a demand draw between the round's end and the Sellout: the
state in between must be a whole state of the game (it is checked and saved and loaded again).
"""

from __future__ import annotations

import attrs
from kas_helpers import ALL_TILES, PLAN, turn_state
from test_kas_mutation_kills import city, city_changed

from rulecraft.model.kings_of_air_and_steam.actions import DrawDemandTile, Grant, PayUpkeep
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase
from rulecraft.statefile import admit

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
