"""Kings of Air and Steam: rare paths pinned to the rulebook, written to kill surviving mutants.

Issue 22 (a mutation score for every game).  Each test builds a small state, takes one
action or asks one question, and asserts the value the Hungarian rulebook (seeds/000,
digest /work/shared/rules/kings-of-air-and-steam.md) gives; the rule ID and page are in
the test name or docstring.  Expected values never come from running the model.
Favoured: ends of tracks, exact money thresholds, ties, 2 and 7 players, empty piles.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest
from kas_helpers import ALL_TILES, PLAN, SPHINX, delivery, game, rule, turn_state

from rulecraft.model.kings_of_air_and_steam.actions import (
    ChooseDemandTile,
    DrawDemandPair,
    DrawDemandTile,
    DrawMarketTile,
    PayUpkeep,
    Sell,
    ShipGoods,
    UpgradeAirship,
    UpgradeRail,
)
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.state import CargoStep, KasState, Phase, SlotStatus
from rulecraft.registry import make_game
from rulecraft.tools import tools

EXE, PLA = SlotStatus.EXECUTED, SlotStatus.PLANNED


def city(g: KingsOfAirAndSteamGame, state: KasState, name: str) -> Any:
    return state.cities[g.ctx.map_of(state).city_index(name)]


# -- KAS-R-47 (p.15): the start-player token passes clockwise -----------------------------------------


def upkeep_last(g: KingsOfAirAndSteamGame, players: int, start: int) -> KasState:
    """The Upkeep of round 1 with only the last player (counter-clockwise neighbour of the holder) to pay."""
    last = (start - 1) % players
    return tools(g).scenario_state({"players": players, "start_player": start, "phase": "upkeep", "seat": last})


@pytest.mark.parametrize(("players", "start", "after"), [(2, 1, 0), (3, 0, 1), (3, 2, 0), (7, 6, 0), (7, 3, 4)])
def test_start_player_token_passes_clockwise_after_upkeep_r47_p15(players: int, start: int, after: int) -> None:
    """KAS-R-47 (p.15, Upkeep step 3): 'A kezdőjátékos-jelző az óramutató járásának megfelelően tovább
    kerül': to the holder's left neighbour (seat + 1), wrapping round the table."""
    g = game()
    s = g.apply(upkeep_last(g, players, start), PayUpkeep())
    assert s.start_player == after
    assert s.phase is Phase.NEW_MARKET and s.round == 2


def test_next_rounds_planning_starts_with_the_new_token_holder_r47_r19_p15() -> None:
    """KAS-R-47 (p.15) then KAS-R-15 (p.8): three tiles drawn, the next round is planned from the new
    holder clockwise (3 players, token 0 -> 1: planning order 1, 2, 0)."""
    g = game()
    s = g.apply(upkeep_last(g, 3, 0), PayUpkeep())
    for goods in ("food", "food", "luxury"):
        s = g.apply(s, DrawMarketTile(goods))
    assert s.phase is Phase.PLANNING
    assert s.order == (1, 2, 0) and s.seat == 1


# -- KAS-R-22 (p.10): ties broken clockwise from the token holder ---------------------------------------


def action_state(
    g: KingsOfAirAndSteamGame, players: int, start: int, plans: dict[int, list[str]], seat: int
) -> KasState:
    specs = {s: {"plan": plans.get(s, PLAN), "at": [0, -1]} for s in range(players)}
    return tools(g).scenario_state(
        {
            "players": players,
            "start_player": start,
            "phase": "action",
            "seat": seat,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": specs,
        }
    )


@pytest.mark.parametrize(
    ("players", "start", "order"),
    [(3, 1, (1, 2, 0)), (3, 2, (2, 0, 1)), (2, 1, (1, 0)), (7, 5, (5, 6, 0, 1, 2, 3, 4))],
)
def test_equal_letters_act_clockwise_from_the_start_player_r22_p10(
    players: int, start: int, order: tuple[int, ...]
) -> None:
    """KAS-R-22 (p.10): 'közülük az jön előbb, aki a kezdőjátékoshoz közelebb ül az óramutató járása
    szerint' - the holder first, then clockwise; everyone reveals letter A."""
    g = game()
    s = action_state(g, players, start, {}, seat=start)
    assert s.order == order


def test_ex03_letter_before_seat_with_the_token_on_the_last_seat_r22_p10() -> None:
    """KAS-EX-03 (p.10) with the token on seat 2 of 3: seat 0 plays B, seats 1 and 2 play C.  B acts
    first whatever the seat; of the C cards the holder (2) acts before seat 1."""
    g = game()
    plans = {0: ["S03", "S01", "S02", "S04"], 1: ["S05", "S01", "S02", "S03"], 2: ["S06", "S01", "S02", "S03"]}
    s = action_state(g, 3, 2, plans, seat=0)
    assert s.order == (0, 2, 1)


# -- KAS-R-34 / KAS-R-35 (p.12, p.16): one level per action, never past level 6 -------------------------


def upgrade_state(g: KingsOfAirAndSteamGame, other: dict[str, Any] | None = None, **me: Any) -> KasState:
    return turn_state(g, me, other)


def test_a_fully_upgraded_airship_cannot_upgrade_again_r34_p12() -> None:
    """KAS-R-34 (p.12): the airship track ends at level 6 ('teljesen fejlesztett', 15 VP p.16):
    no upgrade from level 6, however rich the player; the action is not offered."""
    g = game()
    s = upgrade_state(g, airship_level=6, money=60)
    assert rule(g, s, UpgradeAirship()) == "KAS-R-34"
    assert UpgradeAirship() not in g.legal_actions(s)


def test_a_fully_upgraded_rail_cannot_upgrade_again_r35_p12() -> None:
    """KAS-R-35 (p.12, p.16): rail level 6 (30 VP) is the top of the track."""
    g = game()
    s = upgrade_state(g, rail_level=6, money=60)
    assert rule(g, s, UpgradeRail()) == "KAS-R-35"
    assert UpgradeRail() not in g.legal_actions(s)


def test_ex11_airship_upgrade_with_exactly_three_dollars_r34_p12() -> None:
    """KAS-EX-11 (p.12): $3 for level 2; diamond rating stays 1, capacity 2 -> 3.  With exactly $3
    the player ends at $0; with $2 the upgrade is refused (KAS-R-55: no payment without the money)."""
    g = game()
    before = upgrade_state(g, money=3)
    s = g.apply(before, UpgradeAirship())
    me = s.players[0]
    assert (me.airship_level, me.money) == (2, 0)
    assert (g.ctx.rating(me), g.ctx.capacity(me)) == (1, 3)
    assert s.bank == before.bank + 3, "the $3 goes to the bank"
    assert rule(g, upgrade_state(g, money=2), UpgradeAirship()) == "KAS-R-55"


def test_ex12_rail_upgrade_three_to_four_with_exactly_four_dollars_r35_p12() -> None:
    """KAS-EX-12 (p.12): Green at rail level 3 pays $4 for level 4 (5 VP, p.16)."""
    g = game()
    s = g.apply(upgrade_state(g, rail_level=3, money=4), UpgradeRail())
    assert (s.players[0].rail_level, s.players[0].money) == (4, 0)
    assert g.score_parts(s)[0]["rail"] == 5
    assert rule(g, upgrade_state(g, rail_level=3, money=3), UpgradeRail()) == "KAS-R-55"


def test_the_last_airship_level_scores_fifteen_r34_r52_p16() -> None:
    """KAS-R-34 (p.12), KAS-R-52 (p.16): level 5 -> 6 is still one legal upgrade, and only level 6 scores
    15 VP ('A léghajó 6-os szintre fejlesztése 15 GyP-t ér')."""
    g = game()
    s = upgrade_state(g, airship_level=5, money=30)
    assert rule(g, s, UpgradeAirship()) is None
    assert g.score_parts(s)[0]["airship"] == 0
    after = g.apply(s, UpgradeAirship())
    assert after.players[0].airship_level == 6
    assert after.players[0].money < 30, "the upgrade costs the price printed on the track"
    assert g.score_parts(after)[0]["airship"] == 15


# -- KAS-R-40 / KAS-R-74 (p.14, p.19): demand tiles after a printed city fills ---------------------------


def fill_state(
    g: KingsOfAirAndSteamGame, flora_seat: int | None, pile: dict[str, int], filled: int = 4, **city: Any
) -> KasState:
    """Seat 0 in its action with 5 food in a depot on line B2 beside Bown Town (food, printed city)."""
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    flora = {"team": "Rose & Thorn", "character": "Flora Kingston"}
    plain = {"team": "Sphinx", "character": "Victor Blane"}
    specs: dict[int, dict[str, Any]] = {}
    for seat, plan in ((0, PLAN), (1, ["S12", "S11", "S10", "S09"])):
        who = flora if seat == flora_seat else plain
        specs[seat] = {"plan": plan, "at": [0, -1] if seat == 0 else [3, 3], **(who if flora_seat is not None else {})}
    return tools(g).scenario_state(
        {
            "players": 2,
            "seat": 0,
            "phase": "action",
            "depots": [{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 5}}],
            "cities": {"Bown Town": {"filled": filled, **city}},
            "market": {"slots": ["food", "machine", "textile"], "demand_pile": pile},
            "players_state": specs,
        }
    )


def ship_one_food(g: KingsOfAirAndSteamGame) -> ShipGoods:
    return ShipGoods(g.ctx.game_map("ABC").line("B2").hexes[0], "food", 1, to_city="Bown Town")


def test_flora_with_one_demand_tile_left_the_one_tile_is_drawn_r74_p19_amb36() -> None:
    """KAS-R-74 (p.19): an opponent fills a printed city, Flora 'húzz vakon két keresletlapkát'; with only
    one tile in the pile there are not two to draw (KAS-AMB-36): that one tile is drawn, as normal."""
    g = game()
    s = g.apply(fill_state(g, flora_seat=1, pile={"luxury": 1}), ship_one_food(g))
    assert s.phase is Phase.DEMAND_DRAW
    assert dict(g.chance_outcomes(s)) == {DrawDemandTile("luxury"): Fraction(1)}
    after = g.apply(s, DrawDemandTile("luxury"))
    bown = city(g, after, "Bown Town")
    assert (bown.demand, bown.slots, bown.tile) == ("luxury", 3, True)
    assert sum(after.demand_pile) == 0


def test_flora_with_exactly_two_demand_tiles_draws_both_blind_r74_p19() -> None:
    """KAS-R-74 (p.19): with two tiles in the pile an opponent's fill gives Flora both, she chooses."""
    g = game()
    s = g.apply(fill_state(g, flora_seat=1, pile={"luxury": 1, "chemical": 1}), ship_one_food(g))
    assert s.phase is Phase.DEMAND_PAIR
    assert dict(g.chance_outcomes(s)) == {DrawDemandPair("chemical", "luxury"): Fraction(1)}
    s = g.apply(s, DrawDemandPair("chemical", "luxury"))
    assert s.phase is Phase.DEMAND_CHOICE and g.to_move(s) == 1
    after = g.apply(s, ChooseDemandTile("luxury"))
    assert city(g, after, "Bown Town").demand == "luxury"
    assert after.demand_pile == (1, 0, 0, 0, 0), "the other tile goes back into the pile"
    assert after.decider is None and after.demand_choices == ()


def test_flora_chooses_only_between_the_two_tiles_drawn_r74_p19() -> None:
    """KAS-R-74 (p.19): 'Az egyiket válaszd ki' - one of the two drawn, not a third tile of the pile."""
    g = game()
    s = g.apply(fill_state(g, flora_seat=1, pile={"luxury": 1, "chemical": 1, "food": 1}), ship_one_food(g))
    s = g.apply(s, DrawDemandPair("chemical", "luxury"))
    assert rule(g, s, ChooseDemandTile("food")) == "KAS-R-74"
    assert set(g.legal_actions(s)) == {ChooseDemandTile("chemical"), ChooseDemandTile("luxury")}


def test_flora_filling_herself_with_one_tile_chooses_from_that_one_r74_p19() -> None:
    """KAS-R-74 (p.19): her own fill: she looks through the pile (here a single tile) and places it."""
    g = game()
    s = g.apply(fill_state(g, flora_seat=0, pile={"textile": 1}), ship_one_food(g))
    assert s.phase is Phase.DEMAND_CHOICE and g.to_move(s) == 0
    assert g.legal_actions(s) == [ChooseDemandTile("textile")]


def test_without_flora_a_printed_city_draws_one_tile_r40_p14() -> None:
    """KAS-R-40 (p.14): the 5 cubes go back to the supply and one demand tile is drawn at random."""
    g = game()
    s = fill_state(g, flora_seat=None, pile={"textile": 2, "machine": 1})
    food_supply = s.supply[2]
    s = g.apply(s, ship_one_food(g))
    assert s.phase is Phase.DEMAND_DRAW
    assert dict(g.chance_outcomes(s)) == {
        DrawDemandTile("machine"): Fraction(1, 3),
        DrawDemandTile("textile"): Fraction(2, 3),
    }
    assert s.supply[2] == food_supply + 5, "4 cubes on the city + the one delivered: all 5 return"
    assert city(g, s, "Bown Town").filled == 0


def test_a_filled_demand_tile_closes_the_city_without_a_draw_r41_p14() -> None:
    """KAS-R-41 (p.4, p.14): 3 slots filled: the 3 cubes return, the tile turns face down, no tile is
    drawn, and the city accepts nothing more."""
    g = game()
    s = fill_state(g, flora_seat=None, pile={"textile": 2}, filled=2, demand="food", tile=True)
    food_supply = s.supply[2]
    s = g.apply(s, ship_one_food(g))
    bown = city(g, s, "Bown Town")
    assert bown.closed and bown.filled == 0
    assert s.supply[2] == food_supply + 3, "2 cubes on the tile + the one delivered"
    assert s.demand_pile == (0, 0, 0, 2, 0), "no tile drawn"
    assert s.phase is not Phase.DEMAND_DRAW
    assert tools(g).violations(s) == []


# -- KAS-R-51 (p.16): the Sellout pays $4 per good, and the toll comes out of it ------------------------


def chain_sellout(g: KingsOfAirAndSteamGame, tolled_lines: int, money: int, rail_level: int) -> KasState:
    """Seat 0 at the Sellout with 1 food in a depot on L0; the route to Farcity (food) crosses
    ``tolled_lines`` lines that hold only seat 1's depots: toll $1 per line per good (KAS-R-38)."""
    n = tolled_lines + 1
    names = [f"C{i}" for i in range(n)] + ["Farcity"]
    cities = [
        {"name": nm, "at": [2 * i, 0], "demand": "luxury" if nm != "Farcity" else "food"} for i, nm in enumerate(names)
    ]
    lines = [{"id": f"L{i}", "ends": [names[i], names[i + 1]], "hexes": [[2 * i + 1, 0]]} for i in range(n)]
    depots = [{"at": [1, 0], "owner": 0, "goods": {"food": 1}}]
    depots += [{"at": [2 * i + 1, 0], "owner": 1} for i in range(1, n)]
    hexes = [[q, r] for q in range(2 * n + 1) for r in (0, 1)]
    return tools(g).scenario_state(
        {
            "players": 2,
            "map": {"hexes": hexes, "cities": cities, "lines": lines},
            "phase": "sellout",
            "round": 6,
            "seat": 0,
            "players_state": {0: {"at": [0, 1], "money": money, "rail_level": rail_level}, 1: {"at": [1, 1]}},
            "depots": depots,
            "market": {"pile": {}, "demand_pile": ALL_TILES},
        }
    )


def sell_food() -> Sell:
    return Sell(Hex(1, 0), "food", "Farcity")


def test_sellout_toll_is_paid_from_the_four_dollars_with_an_empty_purse_r51_p16() -> None:
    """KAS-R-51 (p.16): 'Minden visszatett áruért 4 $-t kapsz a banktól, és ki kell fizetned a megfelelő
    vámot': with $0 a good owing a $1 toll is still sold; the player ends with $3, the owner +$1."""
    g = game()
    s = chain_sellout(g, tolled_lines=1, money=0, rail_level=2)
    other = s.players[1].money
    assert rule(g, s, sell_food()) is None
    after = g.apply(s, sell_food())
    assert after.players[0].money == 3
    assert after.players[1].money == other + 1
    assert after.depots[0].goods == (0, 0, 0, 0, 0), "the good returns to the supply"
    assert tools(g).violations(after) == []


def test_sellout_toll_of_exactly_four_with_no_money_is_payable_r51_r55_p16() -> None:
    """KAS-R-51 (p.16), KAS-R-55: 4 opponent lines, toll $4 with $0: the $4 covers it exactly ($0 after)."""
    g = game()
    s = chain_sellout(g, tolled_lines=4, money=0, rail_level=5)
    after = g.apply(s, sell_food())
    assert after.players[0].money == 0
    assert after.players[1].money == s.players[1].money + 4


def test_sellout_toll_above_four_needs_money_of_ones_own_r51_r55_p16() -> None:
    """KAS-R-51 (p.16), KAS-R-55 (money never below $0): toll $5 with $0 cannot be paid; with $1 it can."""
    g = game()
    assert rule(g, chain_sellout(g, tolled_lines=5, money=0, rail_level=6), sell_food()) == "KAS-R-55"
    s = chain_sellout(g, tolled_lines=5, money=1, rail_level=6)
    after = g.apply(s, sell_food())
    assert after.players[0].money == 0


def test_sellout_route_needs_the_rail_level_r51_r37_p16() -> None:
    """KAS-R-51 (p.16), KAS-R-37 (p.13): 2 tolled lines + the city = 3 stops; rail level 2 is too low
    (as the chemical that 'nem érne el Irdyoig' in the example), rail level 3 suffices."""
    g = game()
    assert rule(g, chain_sellout(g, tolled_lines=2, money=5, rail_level=2), sell_food()) == "KAS-R-51"
    assert rule(g, chain_sellout(g, tolled_lines=2, money=5, rail_level=3), sell_food()) is None


# -- money-conserved invariant (KAS-R-55): money is neither created nor destroyed ------------------------


def test_money_invariant_flags_money_destroyed_as_well_as_created_r55() -> None:
    """KAS-R-55 with KAS-R-03: players' money + the bank's takings = the starting money.  A dollar
    that vanishes is as wrong as a dollar that appears; money below $0 is flagged too."""
    g = game()
    s = upgrade_state(g, money=5)
    assert [v.invariant for v in tools(g).violations(s)] == []

    def with_money(money: int) -> KasState:
        return attrs.evolve(s, players=(attrs.evolve(s.players[0], money=money), s.players[1]))

    assert "money-conserved" in [v.invariant for v in tools(g).violations(with_money(4))], "a dollar destroyed"
    assert "money-conserved" in [v.invariant for v in tools(g).violations(with_money(6))], "a dollar created"
    negative = attrs.evolve(with_money(-1), bank=s.bank + 6)  # conserved in total, but below $0
    messages = [v.message for v in tools(g).violations(negative) if v.invariant == "money-conserved"]
    assert messages == ["seat 0 has $-1"]


# -- KAS-AMB-10 with KAS-R-40 (p.14): a printed city filled while the demand pile is empty ---------------


def test_a_city_filled_with_an_empty_demand_pile_waits_for_a_tile_r40_amb10() -> None:
    """KAS-R-40 (p.14) draws a tile 'a keresletpakliból'; in round 1 that pile is empty (KAS-R-05/49).
    KAS-AMB-10 default (a): the 5 cubes return, the city demands nothing and waits for the next tile."""
    g = game()
    s = fill_state(g, flora_seat=None, pile={})
    food_supply = s.supply[2]
    after = g.apply(s, ship_one_food(g))
    bown = city(g, after, "Bown Town")
    assert (bown.demand, bown.waiting, bown.filled, bown.closed) == (None, True, 0, False)
    assert after.waiting_cities == ("Bown Town",)
    assert after.supply[2] == food_supply + 5
    assert after.phase is not Phase.DEMAND_DRAW
    assert tools(g).violations(after) == []


def test_a_waiting_city_gets_the_first_tile_after_production_r49_amb10() -> None:
    """KAS-R-49 (p.16): the 3 market tiles become demand tiles; KAS-AMB-10 (a): the waiting city then
    draws one, before the next round's New Market."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "upkeep",
            "seat": 1,
            "cities": {"Bown Town": {"waiting": True}},
            "market": {"slots": ["textile", "textile", "machine"]},
        }
    )
    s = attrs.evolve(
        s,
        cities=tuple(attrs.evolve(c, demand=None) if c.waiting else c for c in s.cities),
        waiting_cities=("Bown Town",),
    )
    s = g.apply(s, PayUpkeep())
    assert s.phase is Phase.DEMAND_DRAW and s.demand_for == "Bown Town"
    assert dict(g.chance_outcomes(s)) == {
        DrawDemandTile("machine"): Fraction(1, 3),
        DrawDemandTile("textile"): Fraction(2, 3),
    }
    s = g.apply(s, DrawDemandTile("textile"))
    bown = city(g, s, "Bown Town")
    assert (bown.demand, bown.slots, bown.tile, bown.waiting) == ("textile", 3, True, False)
    assert s.phase is Phase.NEW_MARKET and s.round == 2 and s.waiting_cities == ()
    assert s.demand_pile == (0, 1, 0, 1, 0)


# -- KAS-R-50 / KAS-R-51 (p.8, p.16): the end of round 5 leads to the Sellout ------------------------------


def test_after_round_five_the_sellout_begins_with_the_new_token_holder_r50_r51_p16() -> None:
    """KAS-R-50 (p.8, p.16): no market tiles left after round 5's Production: the Sellout follows.
    KAS-R-47 passes the token in round 5 too (KAS-AMB-24: round 5 is complete); the Sellout is taken
    clockwise from the holder (KAS-AMB-30): 3 players, token 1 -> 2, order 2, 0, 1."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 3,
            "start_player": 1,
            "phase": "upkeep",
            "round": 5,
            "seat": 0,
            "market": {"slots": ["textile", "textile", "machine"], "pile": {}, "demand_pile": {"food": 3}},
        }
    )
    s = g.apply(s, PayUpkeep())
    assert s.phase is Phase.SELLOUT and s.round == 6
    assert s.order == (2, 0, 1) and s.seat == 2
    assert s.demand_pile == (0, 1, 3, 2, 0), "round 5's tiles joined the demand pile"
    from rulecraft.model.kings_of_air_and_steam.actions import EndSellout

    for seat in (0, 1):
        s = g.apply(s, EndSellout())
        assert s.phase is Phase.SELLOUT and s.seat == seat
    assert g.apply(s, EndSellout()).phase is Phase.OVER


def test_the_sellout_ends_after_the_last_player_r51_p16() -> None:
    """KAS-R-51 (p.16): 'Amikor minden játékos végzett, a Kiárusításfázis véget ér' - one EndSellout per
    player in order, then the game is over and scored (KAS-R-52)."""
    from rulecraft.model.kings_of_air_and_steam.actions import EndSellout

    g = game()
    s = chain_sellout(g, tolled_lines=1, money=0, rail_level=2)
    assert s.order == (0, 1)
    s = g.apply(s, EndSellout())
    assert s.phase is Phase.SELLOUT and s.seat == 1
    s = g.apply(s, EndSellout())
    assert s.phase is Phase.OVER and g.is_over(s)


def test_advanced_sellout_goes_by_priority_number_r58_amb30() -> None:
    """KAS-R-58 (p.17): no start-player token in the advanced game; KAS-AMB-30: simultaneous phases
    go by ascending priority: Emperor (1) in seat 2, Sphinx (3) in seat 1, Godfather (7) in seat 0."""
    g = game()
    teams = {0: ("Godfather", "Ezekiel Crane"), 1: ("Sphinx", "Victor Blane"), 2: ("Emperor", "Reginald Kain")}
    s = tools(g).scenario_state(
        {
            "players": 3,
            "phase": "upkeep",
            "round": 5,
            "seat": 2,
            "players_state": {k: {"team": t, "character": c} for k, (t, c) in teams.items()},
            "market": {"slots": ["textile", "textile", "machine"], "pile": {}, "demand_pile": {"food": 3}},
        }
    )
    s = attrs.evolve(s, order=(2, 1, 0), turn=1, seat=1)
    s = g.apply(s, PayUpkeep())
    assert s.start_player == 1, "the token still moves, but the clockwise order 1, 2, 0 is not used"
    assert s.phase is Phase.SELLOUT and s.order == (2, 1, 0) and s.seat == 2


# -- KAS-R-66 (p.18): Aurelia Bayley's conversion, in the hold or in a depot --------------------------------


def test_aurelia_converts_in_a_depot_and_the_supply_balances_r66_p18() -> None:
    """KAS-R-66 (KAS-EX-23, p.18): 1 chemical -> 2 machines 'egyik raktáradban vagy a rakteredben';
    the chemical returns to the supply, the 2 machines come from it; one converter token spent."""
    from rulecraft.model.kings_of_air_and_steam.actions import Convert

    g = game()
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "action",
            "seat": 0,
            "market": {"slots": ["food", "food", "food"]},
            "depots": [{"at": [depot.q, depot.r], "owner": 0, "goods": {"chemical": 1, "food": 1}}],
            "players_state": {
                0: {"team": "DaVinci", "character": "Aurelia Bayley", "tokens": 1, "plan": PLAN, "at": [0, -1]},
                1: {"team": "Sphinx", "character": "Victor Blane", "plan": PLAN, "at": [0, -1]},
            },
        }
    )
    after = g.apply(s, Convert("chemical", "machine", depot))
    assert after.depots[0].goods == (0, 2, 1, 0, 0)
    assert after.supply[0] == s.supply[0] + 1 and after.supply[1] == s.supply[1] - 2
    assert after.players[0].tokens == 0 and after.players[0].hold == s.players[0].hold
    assert tools(g).violations(after) == []
    assert rule(g, after, Convert("food", "machine", depot)) is not None, "no token left"


def test_aurelia_converts_in_the_hold_keeping_other_goods_r66_p18() -> None:
    """KAS-R-66 (p.18): 1 food of a hold of 1 food -> 2 luxury; supply food +1, luxury -2."""
    from rulecraft.model.kings_of_air_and_steam.actions import Convert

    g = game()
    s = upgrade_state(
        g, SPHINX, team="DaVinci", character="Aurelia Bayley", tokens=3, hold={"food": 1}, airship_level=2
    )
    after = g.apply(s, Convert("food", "luxury"))
    assert after.players[0].hold == (0, 0, 0, 0, 2)
    assert after.supply[2] == s.supply[2] + 1 and after.supply[4] == s.supply[4] - 2
    assert after.players[0].tokens == 2
    assert tools(g).violations(after) == []


# -- KAS-R-85 (p.20): the Godfather card steals one good on the same hex -------------------------------------


def steal_state(
    g: KingsOfAirAndSteamGame, hold: dict[str, int], victim_hold: dict[str, int] | None = None
) -> tuple[KasState, Hex]:
    """The Godfather (seat 0, capacity 3 at level 1, KAS-R-84) on the hex of seat 1's depot (2 food),
    after the card's movement step: the steal comes before the action."""
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    at = [depot.q, depot.r]
    me = {"team": "Godfather", "character": "Ezekiel Crane", "plan": ["GOD", "S02", "S03", "S04"], "at": at}
    s = turn_state(
        g,
        {**me, "hold": hold},
        {**SPHINX, "at": at, "hold": victim_hold or {}},
        depots=[{"at": at, "owner": 1, "goods": {"food": 2}}],
    )
    return attrs.evolve(s, phase=Phase.BONUS, bonus="steal"), depot


def test_godfather_steals_from_a_depot_on_his_hex_with_room_r85_p20() -> None:
    """KAS-R-85 (p.20): one good from another player's depot on the same hex into the hold; with room
    nothing is discarded (KAS-R-30: discarding only to make room); then the action."""
    from rulecraft.model.kings_of_air_and_steam.actions import Steal

    g = game()
    s, depot = steal_state(g, {"chemical": 1})
    assert rule(g, s, Steal(1, "food", depot, discard="chemical")) == "KAS-R-30"
    after = g.apply(s, Steal(1, "food", depot))
    assert after.players[0].hold == (1, 0, 1, 0, 0)
    assert after.depots[0].goods == (0, 0, 1, 0, 0)
    assert after.supply == s.supply
    assert after.phase is Phase.ACTION and after.bonus is None
    assert tools(g).violations(after) == []


def test_godfather_with_a_full_hold_discards_one_to_the_supply_first_r85_p20() -> None:
    """KAS-R-85 (p.20): 'If the Godfather's hold is full, they must first discard 1 good of any type to
    the supply': 3 chemical (capacity 3) -> 2 chemical + the stolen food; chemical supply +1."""
    from rulecraft.model.kings_of_air_and_steam.actions import Steal

    g = game()
    s, depot = steal_state(g, {"chemical": 3}, victim_hold={"luxury": 1})
    assert rule(g, s, Steal(1, "food", depot)) == "KAS-R-85"
    after = g.apply(s, Steal(1, "food", depot, discard="chemical"))
    assert after.players[0].hold == (2, 0, 1, 0, 0)
    assert after.supply[0] == s.supply[0] + 1
    assert after.depots[0].goods == (0, 0, 1, 0, 0)
    from_hold = g.apply(s, Steal(1, "luxury", discard="chemical"))
    assert from_hold.players[0].hold == (2, 0, 0, 0, 1) and from_hold.players[1].hold == (0, 0, 0, 0, 0)
    assert tools(g).violations(after) == [] and tools(g).violations(from_hold) == []


# -- KAS-R-45 (p.15): the Upkeep goes player by player ------------------------------------------------------


def test_returning_the_last_stored_good_ends_that_players_upkeep_r45_p15() -> None:
    """KAS-R-45 (p.15): each good costs $1 or goes back to the supply; once seat 0 has returned its only
    good it owes nothing more and the next player clockwise (seat 1) settles, not seat 2."""
    from rulecraft.model.kings_of_air_and_steam.actions import ReturnGood

    g = game()
    s = tools(g).scenario_state(
        {
            "players": 3,
            "phase": "upkeep",
            "seat": 0,
            "players_state": {0: {"hold": {"food": 1}}, 1: {"hold": {"food": 1}}, 2: {"hold": {"food": 1}}},
        }
    )
    after = g.apply(s, ReturnGood("food"))
    assert after.players[0].hold == (0, 0, 0, 0, 0) and after.supply[2] == s.supply[2] + 1
    assert after.phase is Phase.UPKEEP and (after.seat, after.turn) == (1, 1)
    assert after.players[0].money == s.players[0].money, "a returned good costs nothing"


# -- KAS-R-30 (p.11): a discard only makes room for a good of another type ------------------------------------


def test_a_type_discarded_in_a_loading_step_is_not_loaded_back_r30_p11() -> None:
    """KAS-R-30 (p.11), KAS-AMB-21: goods go back to the supply only to make room for goods of a
    *different* type.  Having discarded the chemical for a textile, swapping the food for a chemical in
    the same step would turn the first discard into a same-type exchange: refused (KAS-R-30)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Swap

    g = game()
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = turn_state(
        g,
        {"at": [depot.q, depot.r], "hold": {"chemical": 1, "food": 1}},
        phase="cargo",
        depots=[{"at": [depot.q, depot.r], "owner": 0, "goods": {"textile": 1, "chemical": 1}}],
    )
    s = g.apply(s, Swap("chemical", "textile", "depot"))
    assert s.players[0].hold == (0, 0, 1, 1, 0)
    assert rule(g, s, Swap("food", "chemical", "depot")) == "KAS-R-30"


# -- KAS-R-87 (p.20): Ezekiel Crane takes $3 from each airship he passes ---------------------------------------


def test_ezekiel_crane_takes_exactly_three_dollars_from_a_rich_airship_only_r87_p20() -> None:
    """KAS-R-87 (p.20): passing an airship he may steal $3 from that player - $3, not more, from a
    player holding $10; a player whose airship is elsewhere loses nothing."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = game()
    s = two_airships_on_the_way(g, third_at=(3, 3))  # seat 2 away from the flight
    after = g.apply(s, Fly((0, 0)))
    assert after.players[0].position == Hex(2, 0)
    assert [p.money for p in after.players] == [s.players[0].money + 3, 7, 10]


def two_airships_on_the_way(
    g: KingsOfAirAndSteamGame, character: str = "Ezekiel Crane", third_at: tuple[int, int] = (2, 0)
) -> KasState:
    """Seat 0 (``character``) at (0, 0) to fly card S04 (2 hexes); seat 1's airship on (1, 0), seat 2's on
    ``third_at`` ((2, 0): the straight flight east passes both), both with $10."""
    me = {"team": "Godfather", "character": character, "at": [0, 0], "plan": ["S04", "S05", "S06", "S07"]}
    return tools(g).scenario_state(
        {
            "players": 3,
            "phase": "flight",
            "seat": 0,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: me,
                1: {**SPHINX, "plan": PLAN, "at": [1, 0], "money": 10},
                2: {"team": "Emperor", "character": "Reginald Kain", "plan": PLAN, "at": list(third_at), "money": 10},
            },
        }
    )


@pytest.mark.parametrize(
    ("spare", "money"), [((), [6, 7, 7]), ((1,), [3, 10, 7]), ((2,), [3, 7, 10]), ((1, 2), [0, 10, 10])]
)
def test_ezekiel_crane_may_let_an_airship_he_passes_keep_its_money_r87_p20(
    spare: tuple[int, ...], money: list[int]
) -> None:
    """KAS-R-87 (p.20): 'akkor ellophatsz attól a játékostól 3 $-t' - he MAY steal $3 from that player, and
    may rob several in one flight.  Passing two airships he robs both, one, the other or neither: each
    one he lets go keeps its $10, each one robbed pays him $3 (he starts this test with $0)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = game()
    s = two_airships_on_the_way(g)
    s = attrs.evolve(s, players=(attrs.evolve(s.players[0], money=0), *s.players[1:]))
    after = g.apply(s, Fly((0, 0), spare))
    assert after.players[0].position == Hex(2, 0)
    assert [p.money for p in after.players] == money


def test_ezekiel_crane_is_offered_every_choice_of_whom_to_rob_r87_p20() -> None:
    """KAS-R-87 (p.20): the thefts are his choice, so the flight east offers all four choices (rob both,
    spare seat 1, spare seat 2, spare both), each accepted by the check; only the straight flight ends
    on (2, 0) in 2 hexes (KAS-R-26: no backward step), so these are its only ways there."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = game()
    s = two_airships_on_the_way(g)
    there = [a for a in g.legal_actions(s) if isinstance(a, Fly) and a.path == (0, 0)]
    assert sorted(a.spare for a in there) == [(), (1,), (1, 2), (2,)]
    assert all(g.check(s, a) is None for a in there)


def test_only_ezekiel_crane_spares_and_only_whom_he_passes_r87_p20() -> None:
    """KAS-R-87 (p.20): the theft is Ezekiel Crane's power, so Thaddeus Birch (his team-mate, KAS-R-86)
    has nobody to spare; Ezekiel passes each airship once (KAS-AMB-43 'entered'), so he cannot spare a
    seat his flight does not pass, nor the same seat twice."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = game()
    birch = two_airships_on_the_way(g, "Thaddeus Birch")
    assert rule(g, birch, Fly((0, 0))) is None
    assert rule(g, birch, Fly((0, 0), (1,))) == "KAS-R-87"
    crane = two_airships_on_the_way(g)
    assert rule(g, crane, Fly((0, 1), (2,))) == "KAS-R-87"  # east then north-east: (1, 0), (2, -1)
    assert rule(g, crane, Fly((0, 1), (1,))) is None
    assert rule(g, crane, Fly((0, 0), (1, 1))) == "KAS-R-87"
    assert rule(g, crane, Fly((0, 0), (1, 2))) is None
    rejection = g.check(crane, Fly((0, 0), (1, 1)))
    assert rejection is not None and "p.20" in rejection.reason
    rejection = g.check(birch, Fly((0, 0), (1,)))
    assert rejection is not None and rejection.reason.endswith("; Thaddeus Birch spares nobody")
    base = attrs.evolve(birch, players=(attrs.evolve(birch.players[0], team=None, character=None), *birch.players[1:]))
    rejection = g.check(base, Fly((0, 0), (1,)))
    assert rejection is not None and rejection.reason.endswith("; this player spares nobody")


# -- shipping through the action (KAS-R-36..39, p.13-p.14) on a chain of lines -------------------------------


def chain_map(lines: int, demand: str = "food") -> dict[str, Any]:
    """Cities C0, C1, ... on row 0, Farcity (``demand``) at the far end; line Li joins its neighbours
    through one rail hex at (2i+1, 0).  The other cities demand luxury."""
    names = [f"C{i}" for i in range(lines)] + ["Farcity"]
    cities = [
        {"name": nm, "at": [2 * i, 0], "demand": demand if nm == "Farcity" else "luxury"} for i, nm in enumerate(names)
    ]
    rail = [{"id": f"L{i}", "ends": [names[i], names[i + 1]], "hexes": [[2 * i + 1, 0]]} for i in range(lines)]
    return {"hexes": [[q, r] for q in range(2 * lines + 1) for r in (0, 1)], "cities": cities, "lines": rail}


def test_a_shipment_to_a_city_beyond_other_cities_pays_income_then_toll_r38_r39_p14() -> None:
    """KAS-R-39 (p.14): $ value per cube delivered (food at $4: no food tile drawn); KAS-R-38: $1 per good
    to the owner of the depot stopped at on the line without an own depot.  1 food: +$4 - $1."""
    g = game()
    s = turn_state(
        g,
        {"at": [0, 1], "money": 0, "rail_level": 2},
        {"at": [1, 1]},
        map=chain_map(2),
        depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}, {"at": [3, 0], "owner": 1}],
        market={"slots": ["luxury", "luxury", "machine"]},
    )
    after = g.apply(s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity"))
    assert after.players[0].money == 3 and after.players[1].money == s.players[1].money + 1
    assert city(g, after, "Farcity").filled == 1
    assert after.depots[0].goods == (0, 0, 1, 0, 0)


def two_ways_state(g: KingsOfAirAndSteamGame) -> KasState:
    """Home -L0- X, then X -P- Y (seat 0's depot) and X -Q- Y (seat 1's depot); Y demands food."""
    game_map = {
        "hexes": [[q, r] for q in range(5) for r in (-1, 0, 1)],
        "cities": [
            {"name": "Home", "at": [0, 0], "demand": "luxury"},
            {"name": "X", "at": [2, 0], "demand": "luxury"},
            {"name": "Y", "at": [4, 0], "demand": "food"},
        ],
        "lines": [
            {"id": "L0", "ends": ["Home", "X"], "hexes": [[1, 0]]},
            {"id": "P", "ends": ["X", "Y"], "hexes": [[3, 0]]},
            {"id": "Q", "ends": ["X", "Y"], "hexes": [[3, -1]]},
        ],
    }
    return turn_state(
        g,
        {"at": [0, 1], "money": 5, "rail_level": 2},
        {"at": [1, 1]},
        map=game_map,
        depots=[
            {"at": [1, 0], "owner": 0, "goods": {"food": 2}},
            {"at": [3, 0], "owner": 0},
            {"at": [3, -1], "owner": 1},
        ],
        market={"slots": ["luxury", "luxury", "machine"]},
    )


@pytest.mark.parametrize(("line", "toll"), [("P", 0), ("Q", 2)])
def test_the_toll_follows_the_lines_the_shipper_names_r37_r38_p13(line: str, toll: int) -> None:
    """KAS-R-37/38 (p.13): the route is the shipper's choice; over the own depot's line P there is no
    toll, over Q (only seat 1's depot) $1 per good: 2 food at $4 = $8 income, less $2 over Q."""
    g = game()
    s = two_ways_state(g)
    after = g.apply(s, ShipGoods(Hex(1, 0), "food", 2, to_city="Y", lines=(line,)))
    assert after.players[0].money == 5 + 8 - toll
    assert after.players[1].money == s.players[1].money + toll


# -- KAS-R-69 (p.19): the Sphinx card's free shipment is not the action ------------------------------------------


def sphinx_bonus(g: KingsOfAirAndSteamGame, **given: Any) -> KasState:
    me = {"team": "Sphinx", "character": "Victor Blane", "plan": ["SPH", "S02", "S03", "S04"], "at": [0, 1]}
    s = turn_state(g, me, {"team": "Emperor", "character": "Reginald Kain", "at": [1, 1]}, **given)
    return attrs.evolve(s, phase=Phase.BONUS, bonus="ship-one")


def test_sphinx_free_shipment_to_an_own_depot_leaves_the_action_r69_p19() -> None:
    """KAS-R-69 (p.19): the free shipment may go to an own depot (standard Ship Goods rules, KAS-R-36);
    the turn's action still follows."""
    g = game()
    s = sphinx_bonus(
        g,
        map=chain_map(2),
        depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}, {"at": [3, 0], "owner": 0}],
    )
    after = g.apply(s, ShipGoods(Hex(1, 0), "food", 1, to_depot=Hex(3, 0)))
    assert after.phase is Phase.ACTION and after.seat == 0 and after.bonus is None
    assert [d.goods[2] for d in after.depots] == [1, 1]


def test_sphinx_free_shipment_closing_a_demand_tile_leaves_the_action_r69_r41_p19() -> None:
    """KAS-R-69 (p.19) with KAS-R-41 (p.14): the free good fills the tile's third slot: the tile turns
    face down, the city closes, and the action still follows."""
    g = game()
    s = sphinx_bonus(
        g,
        map=chain_map(1),
        depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}],
        cities={"Farcity": {"demand": "food", "tile": True, "filled": 2}},
        market={"slots": ["luxury", "luxury", "machine"], "demand_pile": {"chemical": 1}},
    )
    after = g.apply(s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity"))
    assert city(g, after, "Farcity").closed
    assert after.phase is Phase.ACTION and after.seat == 0


# -- KAS-R-75 / KAS-R-79 (p.19): the delivery powers and the supply --------------------------------------------


def test_bishop_kingstons_kept_back_good_goes_to_the_supply_r75_p19() -> None:
    """KAS-R-75 (p.19): one good of the shipment 'visszateheted a talonba' instead of onto a slot, and is
    paid for: 3 food at $5 = $15, 2 slots taken, food supply +1."""
    g = game()
    s, depot = delivery(g, "Bishop Kingston", "Rose & Thorn")
    after = g.apply(s, ShipGoods(depot, "food", 3, to_city="Bown Town", returned=True))
    assert after.players[0].money == 5 + 15
    assert city(g, after, "Bown Town").filled == 2
    assert after.supply[2] == s.supply[2] + 1
    assert tools(g).violations(after) == []


def test_corey_mcqueens_swindled_good_returns_with_the_filled_citys_cubes_r79_r40_p19() -> None:
    """KAS-R-79 (p.19) with KAS-R-40 (p.14): 1 food + 1 swindled textile fill the last 2 of 5 slots; all
    5 cubes return to the supply by type: food +4 (3 already there + 1), textile +1."""
    g = game()
    s, depot = delivery(g, "Corey McQueen", "Kings Over Aces", filled=3, tokens=5)
    after = g.apply(s, ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="textile"))
    assert after.supply[2] == s.supply[2] + 4 and after.supply[3] == s.supply[3] + 1
    bown = city(g, after, "Bown Town")
    assert bown.filled == 0 and bown.other == ()
    assert after.players[0].money == 5 + 2 * 5, "paid as 2 food"
    assert tools(g).violations(after) == []


# -- KAS-R-86 with KAS-AMB-26 (p.20): Thaddeus Birch pays no toll in the Sellout either -----------------------


def test_thaddeus_birch_sells_without_toll_r86_p20_amb26() -> None:
    """KAS-R-86 (p.20): he never pays tolls; KAS-AMB-26: also in the Sellout.  $4 kept whole; nobody paid."""
    g = game()
    s = chain_sellout(g, tolled_lines=1, money=0, rail_level=2)
    players = (
        attrs.evolve(s.players[0], team="Godfather", character="Thaddeus Birch"),
        attrs.evolve(s.players[1], team="Sphinx", character="Victor Blane"),
    )
    s = attrs.evolve(s, players=players, advanced=True)
    after = g.apply(s, sell_food())
    assert after.players[0].money == 4 and after.players[1].money == s.players[1].money


# -- KAS-R-71 (p.19): Eva Blane's new line takes one of her depots ---------------------------------------------


def test_eva_blanes_free_depot_is_one_of_her_ten_r71_p19() -> None:
    """KAS-R-71 (p.19): $1 per tile to the bank, then one of her depots on the new line for free:
    her depot supply drops by exactly one (KAS-R-02: 10 in all)."""
    from rulecraft.model.kings_of_air_and_steam.actions import BuildLine

    g = game()
    s = turn_state(
        g,
        {"team": "Sphinx", "character": "Eva Blane", "tokens": 5, "money": 10},
        {"team": "Emperor", "character": "Reginald Kain"},
    )
    build = min((a for a in g.legal_actions(s) if isinstance(a, BuildLine)), key=lambda a: len(a.hexes))
    after = g.apply(s, build)
    assert after.players[0].depots_left == 9
    assert after.players[0].money == 10 - len(build.hexes) and after.bank == s.bank + len(build.hexes)
    assert tools(g).violations(after) == []


def test_a_type_loaded_in_a_step_is_not_discarded_in_it_r30_p11() -> None:
    """KAS-R-30 (p.11), KAS-AMB-21: discards make room for *other* goods.  Food loaded into the last
    free place cannot then go back to the supply to make room for a textile in the same step."""
    from rulecraft.model.kings_of_air_and_steam.actions import Load, Swap

    g = game()
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = turn_state(
        g,
        {"at": [depot.q, depot.r], "hold": {"chemical": 1}},
        phase="cargo",
        depots=[{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 2, "textile": 1}}],
    )
    s = g.apply(s, Load("food", "depot"))
    assert s.players[0].hold == (1, 0, 1, 0, 0)
    assert rule(g, s, Swap("food", "textile", "depot")) == "KAS-R-30"
    assert rule(g, s, Swap("chemical", "textile", "depot")) is None, "the chemical may make room"


def crane_flight(g: KingsOfAirAndSteamGame, victim_at: list[int]) -> KasState:
    crane = {"team": "Godfather", "character": "Ezekiel Crane", "at": [0, 0], "plan": ["S04", "S05", "S06", "S07"]}
    return turn_state(g, crane, {**SPHINX, "at": victim_at, "money": 10}, phase="flight")


@pytest.mark.parametrize(
    ("reading", "victim_at", "robbed"), [("entered", [2, 0], 3), ("no-end", [2, 0], 0), ("no-end", [1, 0], 3)]
)
def test_ezekiel_crane_and_the_hex_his_flight_ends_on_r87_p20_amb43(
    reading: str, victim_at: list[int], robbed: int
) -> None:
    """KAS-R-87 (p.20) 'passes through'; KAS-AMB-43 default 'entered': the end hex counts; the flag
    'no-end': an airship on the end hex is not passed through, one on the middle hex is."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-43": reading})
    s = crane_flight(g, victim_at)
    after = g.apply(s, Fly((0, 0)))
    assert after.players[1].money == 10 - robbed
    assert after.players[0].money == s.players[0].money + robbed


# -- readings the defaults leave unexercised: their own definitions give the values -------------------------


def test_sebastians_turned_tokens_are_used_up_under_spent_r78_p19_amb38() -> None:
    """KAS-R-78 (p.19): one token turned per dollar bet; a token showing the shipment's goods pays $2 per
    good delivered.  KAS-AMB-38 'spent': the turned tokens are gone, and the used-up ones are kept in
    goods order: after chemical+food, a machine token makes chemical, machine, food."""
    from rulecraft.model.kings_of_air_and_steam.actions import Gamble

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-38": "spent"})
    s, depot = delivery(g, "Sebastian King", "Kings Over Aces", tokens=5)
    s = g.apply(s, ShipGoods(depot, "food", 2, to_city="Bown Town", bet=2))
    assert s.phase is Phase.GAMBLE and s.players[0].money == 5 - 2 + 2 * 5
    won = g.apply(s, Gamble(True, ("chemical", "food")))
    me = won.players[0]
    assert (me.tokens, me.spent_tokens, me.money) == (3, ("chemical", "food"), 13 + 4)
    assert won.gamble is None and won.seat != 0
    again = attrs.evolve(
        s, players=(attrs.evolve(s.players[0], tokens=3, spent_tokens=("chemical", "food")), s.players[1])
    )
    lost = g.apply(attrs.evolve(again, gamble=(1, 2, "Bown Town")), Gamble(False, ("machine",)))
    assert lost.players[0].spent_tokens == ("chemical", "machine", "food")
    assert lost.players[0].tokens == 2 and lost.players[0].money == 13


def test_a_sold_good_takes_a_slot_under_consume_room_r51_p16_amb25() -> None:
    """KAS-R-51 (p.16); KAS-AMB-25 'consume-room': the sold good fills a slot of the city (instead of going
    to the supply), so the $4 and the toll are as usual but Farcity has one good more."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-25": "consume-room"})
    s = chain_sellout(g, tolled_lines=1, money=0, rail_level=2)
    after = g.apply(s, sell_food())
    assert city(g, after, "Farcity").filled == 1
    assert after.supply == s.supply
    assert after.players[0].money == 3
    assert tools(g).violations(after) == []


def stuck_flight(g: KingsOfAirAndSteamGame) -> KasState:
    """Seat 0 (card S02: move 1) on a hex with no neighbour in the play area: no flight of 1 exists."""
    island = {
        "hexes": [[0, 0], [5, 5], [6, 5], [7, 5]],
        "cities": [{"name": "East", "at": [7, 5], "demand": "food"}],
        "lines": [],
    }
    me = {"at": [0, 0], "plan": ["S02", "S03", "S04", "S05"]}
    return turn_state(g, me, {"at": [5, 5], "plan": ["S03", "S04", "S05", "S06"]}, map=island, phase="flight")


@pytest.mark.parametrize(("reading", "phase", "seat"), [("a", Phase.CARGO, 0), ("b", Phase.FLIGHT, 1)])
def test_no_legal_flight_stay_or_lose_the_turn_r26_amb04(reading: str, phase: Phase, seat: int) -> None:
    """KAS-R-26 (p.11): the card is flown in full; KAS-AMB-04 when no such flight exists: (a, default) the
    airship stays, then loads/unloads and acts; (b) the turn is lost as with a diamond overflow (KAS-R-25):
    the card goes back to the deck and the next player (seat 1, letter B) flies."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-04": reading})
    s = stuck_flight(g)
    assert rule(g, s, Fly(())) is None
    after = g.apply(s, Fly(()))
    assert after.phase is phase and after.seat == seat
    assert after.players[0].position == Hex(0, 0)
    if reading == "b":
        assert after.players[0].slots[0] is SlotStatus.RETURNED and after.cargo is None


# -- set-up (KAS-R-04, KAS-R-07, KAS-R-12; p.6, p.18) --------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "start", "order"), [(2, 0, (1, 0)), (4, 1, (0, 3, 2, 1)), (7, 0, (6, 5, 4, 3, 2, 1, 0))]
)
def test_starting_depots_go_counter_clockwise_ending_with_the_start_player_r07_p6(
    players: int, start: int, order: tuple[int, ...]
) -> None:
    """KAS-R-07 (p.6): 'fordított körsorrendben (a kezdőjátékos jobb oldalán ülővel kezdve és óramutató
    járásával ellentétesen haladva)': the right-hand neighbour (seat - 1) first, the start player last."""
    s = game().new_game(players, first_seat=start)
    assert s.phase is Phase.START_DEPOTS
    assert s.order == order and s.seat == order[0]


@pytest.mark.parametrize(("reading", "total"), [("unlimited", 1000), ("capped", 20)])
def test_one_good_on_every_factory_the_rest_is_the_supply_with_seven_players_r04_p6(reading: str, total: int) -> None:
    """KAS-R-04 (p.6): 1 cube of the matching type on every factory, the rest forms the general supply.
    With 7 players (all boards) the types have different factory counts; KAS-AMB-12 'capped' (about 20
    per type, KAS-P-09): supply = 20 - factories of that type; default: a supply that never runs out."""
    from collections import Counter

    from rulecraft.model.kings_of_air_and_steam.components import GOODS

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-12": reading})
    s = g.new_game(7)
    made = Counter(kind for _, kind in g.ctx.map_of(s).factories)
    assert len(set(made.values())) > 1, "the check needs types with different factory counts"
    assert s.supply == tuple(total - made[goods] for goods in GOODS)
    assert set(s.factories) == {1}


def test_only_the_token_characters_start_with_five_tokens_r12_p18() -> None:
    """KAS-R-12 (p.18-20): Aurelia, I.S.A.A.C., Eva, Sebastian and Corey take 5 tokens; Reginald Kain none
    (he starts with $20 instead, KAS-R-63)."""
    s = game().new_game(2, teams=[("Emperor", "Reginald Kain"), ("Kings Over Aces", "Corey McQueen")])
    assert [(p.tokens, p.money) for p in s.players] == [(0, 20), (5, 12)]


def test_rail_marker_on_level_zero_under_rail_0_amb07() -> None:
    """KAS-AMB-07 (p.6, p.12) 'rail-0': the rail marker's starting space is level 0 (default level 1)."""
    s = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-07": "rail-0"}).new_game(2)
    assert [p.rail_level for p in s.players] == [0, 0]
    assert [p.rail_level for p in game().new_game(2).players] == [1, 1]


# -- KAS-R-67 (p.18): I.S.A.A.C.'s extra action, once per turn, a token each -------------------------------


@pytest.mark.parametrize(("tokens", "offered"), [(1, True), (0, False)])
def test_isaac_is_offered_the_extra_action_while_a_token_is_left_r67_p18(tokens: int, offered: bool) -> None:
    """KAS-R-67 (p.18): after the action he may spend a perpetual-motion token for a second action: with his
    last token yes, with none left no (the turn ends)."""
    g = game()
    s = turn_state(g, {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": tokens}, SPHINX)
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    after = g.apply(s, Grant())
    assert (after.phase is Phase.BONUS and after.seat == 0) is offered


def test_isaac_may_take_the_extra_action_again_in_his_next_turn_r67_p18() -> None:
    """KAS-R-67 (p.18): 'once per turn': the extra action of cycle 1 does not use up cycle 2's.  Seat 0
    (I.S.A.A.C., letter A) takes Grant + extra Grant; seat 1 acts; in cycle 2 he is offered it again."""
    from rulecraft.model.kings_of_air_and_steam.actions import EndCargo, ExtraAction, Fly, Grant

    g = game()
    s = turn_state(
        g,
        {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": 5, "plan": ["S01", "S02", "S03", "S04"]},
        {**SPHINX, "plan": ["S05", "S06", "S07", "S08"]},
    )
    s = g.apply(g.apply(g.apply(s, Grant()), ExtraAction()), Grant())
    assert s.seat == 1 and s.players[0].tokens == 4
    s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fly)))
    s = g.apply(g.apply(s, EndCargo()), Grant())
    assert s.cycle == 2 and s.seat == 0 and s.phase is Phase.FLIGHT
    s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fly)))
    s = g.apply(g.apply(s, EndCargo()), Grant())
    assert s.phase is Phase.BONUS and s.bonus == "extra-action" and s.seat == 0


# -- KAS-R-61 (p.18): the Emperor card's second action follows a city fill ----------------------------------


def test_emperor_card_second_action_after_a_shipment_that_fills_a_city_r61_p18() -> None:
    """KAS-R-61 (p.18): two full actions.  The first, a delivery, fills Bown Town and a demand tile is
    drawn (KAS-R-40); after the draw the second action is still to come."""
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    g = game()
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = turn_state(
        g,
        {"team": "Emperor", "character": "Reginald Kain", "plan": ["EMP", "S02", "S03", "S04"], "money": 20},
        SPHINX,
        depots=[{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 1}}],
        cities={"Bown Town": {"filled": 4}},
        market={"slots": ["food", "machine", "textile"], "demand_pile": {"luxury": 1}},
    )
    s = attrs.evolve(s, actions_left=2)
    s = g.apply(s, ship_one_food(g))
    assert s.phase is Phase.DEMAND_DRAW
    s = g.apply(s, DrawDemandTile("luxury"))
    assert s.phase is Phase.ACTION and s.seat == 0
    after = g.apply(s, Grant())
    assert after.seat == 1 and after.players[0].money == 20 + 5 + 3


# -- KAS-R-45 / KAS-R-46 (p.15): the Upkeep after cycle 4 ---------------------------------------------------


def test_after_cycle_four_the_upkeep_goes_clockwise_from_the_holder_skipping_empty_handed_r45_p15() -> None:
    """KAS-R-14, KAS-R-45 (p.15): after the 4th cycle every player settles storage; clockwise from the
    start player (seat 1; KAS-AMB-30).  Seat 1 stores nothing (nothing to pay), so seat 2, who holds
    a single good, is the first asked."""
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    g = game()
    plans = {0: ["S01", "S02", "S03", "S04"], 1: ["S05", "S06", "S07", "S08"], 2: ["S09", "S10", "S11", "S12"]}
    s = tools(g).scenario_state(
        {
            "players": 3,
            "start_player": 1,
            "phase": "action",
            "cycle": 4,
            "seat": 2,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: {"plan": plans[0], "at": [0, -1], "hold": {"food": 2}},
                1: {"plan": plans[1], "at": [0, -1]},
                2: {"plan": plans[2], "at": [0, -1], "hold": {"luxury": 1}},
            },
        }
    )
    assert s.order[-1] == 2, "letter G acts last"
    after = g.apply(s, Grant())
    assert after.phase is Phase.UPKEEP
    assert after.order == (1, 2, 0) and after.seat == 2 and after.turn == 1


def test_paying_upkeep_costs_a_dollar_a_good_then_the_next_player_r45_p15() -> None:
    """KAS-R-45 (p.15): $1 per stored good (hold and depots); then the next player clockwise."""
    g = game()
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = tools(g).scenario_state(
        {
            "players": 3,
            "phase": "upkeep",
            "seat": 0,
            "depots": [{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 2}}],
            "players_state": {
                0: {"hold": {"luxury": 1}, "money": 3},
                1: {"hold": {"food": 1}},
                2: {"hold": {"food": 1}},
            },
        }
    )
    after = g.apply(s, PayUpkeep())
    assert after.players[0].money == 0 and after.bank == s.bank + 3
    assert (after.seat, after.turn, after.phase) == (1, 1, Phase.UPKEEP)
    assert (
        rule(g, attrs.evolve(s, players=(attrs.evolve(s.players[0], money=2), *s.players[1:])), PayUpkeep())
        == "KAS-R-45"
    )


def test_eli_diamonds_face_up_cards_return_to_the_deck_at_upkeep_r46_r83_p15() -> None:
    """KAS-R-46 (p.15), KAS-R-83 (p.20): all cards played this round, Eli's face-up ones too, go back."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "upkeep",
            "seat": 1,
            "players_state": {0: {"team": "Sky Castle", "character": "Eli Diamond"}, 1: SPHINX},
        }
    )
    s = attrs.evolve(s, players=(attrs.evolve(s.players[0], extra_cards=("S12",)), s.players[1]))
    after = g.apply(s, PayUpkeep())
    assert after.players[0].extra_cards == () and after.players[0].plan == ()


def test_advanced_upkeep_goes_by_priority_number_r58_amb30() -> None:
    """KAS-R-58 (p.17): no token in the advanced game; KAS-AMB-30: ascending priority: Emperor (1,
    seat 1) before Godfather (7, seat 0)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    g = game()
    s = turn_state(
        g,
        {"team": "Godfather", "character": "Ezekiel Crane", "plan": ["S09", "S10", "S11", "S12"], "hold": {"food": 1}},
        {"team": "Emperor", "character": "Reginald Kain", "plan": PLAN, "hold": {"food": 1}},
        cycle=4,
    )
    assert s.order == (1, 0) and s.seat == 0
    after = g.apply(s, Grant())
    assert after.phase is Phase.UPKEEP and after.order == (1, 0) and after.seat == 1


def test_round_five_upkeep_skipped_under_skip_upkeep_amb24() -> None:
    """KAS-AMB-24 'skip-upkeep': after round 5's last cycle nobody pays storage; the Sellout follows at
    once with the goods kept (default 'full': round 5's Upkeep is played)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    for reading, phase in (("skip-upkeep", Phase.SELLOUT), ("full", Phase.UPKEEP)):
        g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-24": reading})
        s = turn_state(
            g,
            {"plan": ["S09", "S10", "S11", "S12"], "hold": {"food": 1}},
            {"hold": {"food": 1}},
            cycle=4,
            round=5,
            market={"slots": ["food", "food", "food"], "pile": {}, "demand_pile": ALL_TILES | {"food": 0}},
        )
        after = g.apply(s, Grant())
        assert after.phase is phase
        assert [p.hold for p in after.players] == [(0, 0, 1, 0, 0)] * 2


def test_three_waiting_cities_take_the_three_new_tiles_in_the_order_they_filled_r49_amb10() -> None:
    """KAS-R-49 (p.16): 3 market tiles become demand tiles; KAS-AMB-10 (a): cities filled while the pile
    was empty get them in the order they were filled - the third takes the very last tile, the fourth waits."""
    g = game()
    waiting = ("Warsop", "Aldenville", "Bown Town", "Irdyo")
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "upkeep",
            "seat": 1,
            "cities": {name: {"waiting": True} for name in waiting},
            "market": {"slots": ["textile", "textile", "machine"]},
        }
    )
    s = attrs.evolve(
        s, cities=tuple(attrs.evolve(c, demand=None) if c.waiting else c for c in s.cities), waiting_cities=waiting
    )
    s = g.apply(s, PayUpkeep())
    for name, tile in zip(waiting[:3], ("textile", "machine", "textile"), strict=True):
        assert s.phase is Phase.DEMAND_DRAW and s.demand_for == name
        s = g.apply(s, DrawDemandTile(tile))
        assert city(g, s, name).demand == tile
    assert s.phase is Phase.NEW_MARKET and s.round == 2 and sum(s.demand_pile) == 0
    assert s.waiting_cities == ("Irdyo",), "the fourth city waits for the next Production"


def test_one_upgrade_per_turn_under_once_amb20() -> None:
    """KAS-R-34/35 (p.12) one level per action; KAS-AMB-20 'once': the Emperor card's two actions hold at
    most one upgrade (default 'allowed': two upgrades, one per action)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    for reading, second in (("once", "KAS-R-35"), ("allowed", None)):
        g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-20": reading})
        s = turn_state(
            g,
            {"team": "Emperor", "character": "Reginald Kain", "plan": ["EMP", "S02", "S03", "S04"], "money": 20},
            SPHINX,
        )
        s = g.apply(attrs.evolve(s, actions_left=2), UpgradeAirship())
        assert s.phase is Phase.ACTION and s.seat == 0
        assert rule(g, s, UpgradeRail()) == second
        assert rule(g, s, Grant()) is None


def test_passing_the_action_under_pass_allowed_amb19() -> None:
    """KAS-R-32 (p.12): exactly one action; KAS-AMB-19 'pass-allowed': the action step may be passed,
    the turn then ends with money unchanged (default 'mandatory': no pass, KAS-R-32)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Pass

    strict = game()
    assert rule(strict, upgrade_state(strict), Pass()) == "KAS-R-32"
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-19": "pass-allowed"})
    s = upgrade_state(g)
    after = g.apply(s, Pass())
    assert after.seat == 1 and after.players[0].money == s.players[0].money


def test_clint_castle_loads_before_a_course_correction_under_all_moves_r82_amb40() -> None:
    """KAS-R-42 (p.14), KAS-R-82 (p.20); KAS-AMB-40 'all-moves': Clint may load/unload before the
    Course Correction step as well: the step waits until his cargo step ends, then he stands one hex on
    and may load again."""
    from rulecraft.model.kings_of_air_and_steam.actions import CourseCorrection, EndCargo, Unload

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-40": "all-moves"})
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = turn_state(
        g,
        {"team": "Sky Castle", "character": "Clint Castle", "at": [depot.q, depot.r], "hold": {"food": 1}},
        SPHINX,
        depots=[{"at": [depot.q, depot.r], "owner": 0}],
    )
    direction = next(d for d in range(6) if g.check(s, CourseCorrection(d)) is None)
    s = g.apply(s, CourseCorrection(direction))
    assert s.phase is Phase.CARGO and s.players[0].position == depot
    s = g.apply(s, Unload("food"))
    s = g.apply(s, EndCargo())
    assert s.phase is Phase.CARGO and s.players[0].position == depot.step(direction)
    assert s.depots[0].goods == (0, 0, 1, 0, 0)
    assert g.apply(s, EndCargo()).seat == 1


# -- KAS-R-83 (p.20): Eli Diamond's extra flight, within the diamond rating --------------------------------


def eli_state(g: KingsOfAirAndSteamGame, plan: list[str], character: str = "Eli Diamond", **given: Any) -> KasState:
    """Sky Castle (diamond rating 2 at level 1, KAS-R-80) in its action."""
    me = {"team": "Sky Castle", "character": character, "plan": plan}
    return turn_state(g, me, SPHINX, **given)


def test_eli_diamond_extra_card_up_to_exactly_his_rating_r83_p20() -> None:
    """KAS-R-83 (p.20): any card of his deck 'unless its diamonds would exceed his diamond rating'
    (D_prev + d <= R as in KAS-R-25): current card 0 + extra 2 = 2 = rating: allowed; current card
    1 + extra 2 = 3 > 2: refused.  A planned card is not in the deck; only Eli has the power."""
    from rulecraft.model.kings_of_air_and_steam.actions import ExtraFlight

    g = game()
    s = eli_state(g, ["S01", "S02", "S03", "S04"])
    assert g.ctx.rating(s.players[0]) == 2
    assert rule(g, s, ExtraFlight("S11")) is None
    assert rule(g, eli_state(g, ["S05", "S02", "S03", "S04"]), ExtraFlight("S11")) == "KAS-R-83"
    assert rule(g, s, ExtraFlight("S02")) == "KAS-R-83", "planned for slot 2: not in the deck"
    assert rule(g, eli_state(g, ["S01", "S02", "S03", "S04"], "Clint Castle"), ExtraFlight("S11")) == "KAS-R-83"


@pytest.mark.parametrize(("reading", "verdict"), [("any-deck", None), ("unreturned", "KAS-R-83")])
def test_eli_and_a_card_lost_to_the_diamond_check_amb41(reading: str, verdict: str | None) -> None:
    """KAS-R-25 (p.10): a card over the rating 'goes back into the deck'; KAS-R-83: Eli plays a card from
    his deck.  KAS-AMB-41 default 'any-deck': that returned card is playable again; 'unreturned': not."""
    from rulecraft.model.kings_of_air_and_steam.actions import ExtraFlight

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-41": reading})
    me = {
        "team": "Sky Castle",
        "character": "Eli Diamond",
        "plan": ["S11", "S01", "S03", "S04"],
        "slots": ["returned", "planned", "planned", "planned"],
    }
    s = turn_state(g, me, {**SPHINX, "slots": ["executed", "planned", "planned", "planned"]}, cycle=2)
    assert rule(g, s, ExtraFlight("S11")) == verdict


# -- KAS-R-71 (p.19): Eva Blane's new line: the conditions one by one -----------------------------------------


def eva_state(g: KingsOfAirAndSteamGame, **me: Any) -> KasState:
    """Cities West (0,0) and East (3,0) with free full hexes (1,0), (2,0) between them; a factory at
    (1,1), rail of line R at (2,1) (West-South), a partial hex at (3,-1)."""
    game_map = {
        "hexes": [[0, -1], [1, -1], [2, -1], [3, -1, "partial"], [0, 0], [1, 0], [2, 0], [3, 0]]
        + [[0, 1], [1, 1], [2, 1], [0, 2], [1, 2]],
        "factories": {"1,1": "food"},
        "cities": [
            {"name": "West", "at": [0, 0], "demand": "food"},
            {"name": "East", "at": [3, 0], "demand": "luxury"},
            {"name": "South", "at": [1, 2], "demand": "textile"},
        ],
        "lines": [{"id": "R", "ends": ["West", "South"], "hexes": [[2, 1]]}],
    }
    spec = {"team": "Sphinx", "character": "Eva Blane", "tokens": 2, "money": 2, "at": [0, -1], **me}
    return turn_state(g, spec, {"team": "Emperor", "character": "Reginald Kain", "at": [1, -1]}, map=game_map)


def line(hexes: list[tuple[int, int]], ends: tuple[str, str] = ("West", "East"), depot: int = 0) -> Any:
    from rulecraft.model.kings_of_air_and_steam.actions import BuildLine

    path = tuple(Hex(q, r) for q, r in hexes)
    return BuildLine(ends, path, path[depot] if path else Hex(9, 9))


STRAIGHT = [(1, 0), (2, 0)]


def test_eva_builds_with_exactly_her_tiles_money_and_last_depot_r71_p19() -> None:
    """KAS-R-71 (p.19): $1 per tile from 2 tiles, $2 and 1 depot token left: exactly enough."""
    g = game()
    s = eva_state(g, depots_left=1)
    assert rule(g, s, line(STRAIGHT)) is None
    after = g.apply(s, line(STRAIGHT))
    assert (after.players[0].tokens, after.players[0].money, after.players[0].depots_left) == (0, 0, 0)


@pytest.mark.parametrize(
    ("me", "what"),
    [
        ({"tokens": 1}, "tiles"),
        ({"money": 1}, "money"),
        ({"depots_left": 0}, "depot"),
        ({"character": "Victor Blane"}, "who"),
    ],
)
def test_eva_lacking_one_thing_cannot_build_r71_r55_p19(me: dict[str, Any], what: str) -> None:
    """KAS-R-71 (p.19): 2 tiles need 2 track tiles, $2 (KAS-R-55: no payment without the money) and a
    depot token for the free depot; only Eva Blane builds lines."""
    g = game()
    expected = "KAS-R-55" if what == "money" else "KAS-R-71"
    assert rule(g, eva_state(g, **me), line(STRAIGHT)) == expected


@pytest.mark.parametrize(
    "build",
    [
        line([]),
        line([(1, 0), (1, 0)]),
        line(STRAIGHT, ("West", "West")),
        line(STRAIGHT, ("West", "Nowhere")),
        line([(1, 0), (2, 1)]),
        line([(1, 1), (2, 0)]),
        line([(1, -1), (2, -1), (3, -1)], ("West", "East")),
        line([(2, 0), (1, 0)]),
        line([(1, -1), (2, -1)]),
    ],
)
def test_eva_track_must_join_two_cities_over_free_full_hexes_r71_p19(build: Any) -> None:
    """KAS-R-71 (p.19): a new line between two (different) cities, one tile per hex, joined up, never on
    rail, city or factory hexes (KAS-AMB-34: full hexes only).  Refused: no tile; a hex twice; one city
    twice; an unknown city; a rail hex; a factory hex; a partial hex; tiles not joined in order; a path
    whose ends do not touch the cities."""
    g = game()
    assert rule(g, eva_state(g, tokens=5, money=5), build) == "KAS-R-71"


def test_eva_free_depot_goes_on_the_new_line_r71_p19() -> None:
    """KAS-R-71 (p.19): 'Tegyél egy új raktárat (ingyen) az épp megépített új vasútvonalra'."""
    from rulecraft.model.kings_of_air_and_steam.actions import BuildLine

    g = game()
    assert rule(g, eva_state(g), BuildLine(("West", "East"), (Hex(1, 0), Hex(2, 0)), Hex(1, -1))) == "KAS-R-71"


def test_eva_may_join_cities_already_joined_unless_strict_amb34() -> None:
    """KAS-AMB-34: default: the two cities may already be joined; 'strict': not."""
    south = line([(0, 1), (0, 2)], ("West", "South"))
    g = game()
    assert rule(g, eva_state(g), south) is None
    strict = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-34": "strict"})
    assert rule(strict, eva_state(strict), south) == "KAS-R-71"
    assert rule(strict, eva_state(strict), line(STRAIGHT)) is None


# -- KAS-AMB-04 'c' (p.11): fly as far as is legal -------------------------------------------------------------


def test_fly_as_far_as_legal_when_the_full_flight_is_impossible_amb04c() -> None:
    """KAS-R-26 (p.11) and KAS-AMB-04 'c': a move-3 card in a corridor of 3 hexes can fly 2 at most;
    exactly that farthest flight is the legal one (not 3, not 1)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-04": "c"})
    corridor = {
        "hexes": [[0, 0], [1, 0], [2, 0], [6, 6], [7, 6]],
        "cities": [{"name": "Far", "at": [7, 6], "demand": "food"}],
        "lines": [],
    }
    me = {"at": [0, 0], "plan": ["S06", "S01", "S02", "S03"]}
    s = turn_state(g, me, {"at": [6, 6], "plan": ["S07", "S01", "S02", "S03"]}, map=corridor, phase="flight")
    assert rule(g, s, Fly((0, 0))) is None
    assert rule(g, s, Fly((0,))) == "KAS-R-26"
    assert rule(g, s, Fly(())) == "KAS-R-26"
    assert [a for a in g.legal_actions(s) if isinstance(a, Fly)] == [Fly((0, 0))]


# -- KAS-R-85 (p.20): what the Godfather card cannot steal ----------------------------------------------------


def godfather_in_seat_1(g: KingsOfAirAndSteamGame, victim: dict[str, Any], **given: Any) -> KasState:
    """Seat 1 (Godfather, card GOD, capacity 3) at (3,-2) after its movement step; seat 0 the victim."""
    me = {"team": "Godfather", "character": "Thaddeus Birch", "plan": ["GOD", "S02", "S03", "S04"], "at": [3, -2]}
    s = tools(g).scenario_state(
        {
            "players": 3,
            "phase": "action",
            "seat": 1,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: {**SPHINX, "plan": ["S05", "S06", "S07", "S08"], **victim},
                1: {**me, "hold": given.pop("hold", {})},
                2: {
                    "team": "Emperor",
                    "character": "Reginald Kain",
                    "plan": ["S09", "S10", "S11", "S12"],
                    "at": [3, -2],
                },
            },
            **given,
        }
    )
    return attrs.evolve(s, phase=Phase.BONUS, bonus="steal")


def test_godfather_steals_from_seat_zero_but_never_from_himself_or_a_missing_seat_r85_p20() -> None:
    """KAS-R-85 (p.20): 'another player's' hold on the same hex: seat 0 is a victim like any other; the
    Godfather himself (seat 1) and seat 3 of a 3-player game are not."""
    from rulecraft.model.kings_of_air_and_steam.actions import Steal

    g = game()
    s = godfather_in_seat_1(g, {"at": [3, -2], "hold": {"food": 1}}, hold={"food": 1})
    assert rule(g, s, Steal(0, "food")) is None
    assert rule(g, s, Steal(1, "food")) == "KAS-R-85"
    assert rule(g, s, Steal(3, "food")) == "KAS-R-85"
    assert rule(g, s, Steal(0, "gold")) == "KAS-R-85"


def test_godfather_needs_the_victims_airship_and_good_on_his_hex_r85_p20() -> None:
    """KAS-R-85 (p.20): from a hold only when that airship is on the same hex, and only a good it holds."""
    from rulecraft.model.kings_of_air_and_steam.actions import Steal

    g = game()
    away = godfather_in_seat_1(g, {"at": [0, -1], "hold": {"food": 1}})
    assert rule(g, away, Steal(0, "food")) == "KAS-R-85"
    here = godfather_in_seat_1(g, {"at": [3, -2], "hold": {"food": 1}})
    assert rule(g, here, Steal(0, "luxury")) == "KAS-R-85"


def test_godfather_steals_from_a_depot_only_of_that_player_on_his_hex_r85_p20() -> None:
    """KAS-R-85 (p.20): 'another player's depot' on the same hex: the depot must be there, be the named
    victim's and hold the good; under KAS-AMB-42 'hold-only' depots are out of reach altogether."""
    from rulecraft.model.kings_of_air_and_steam.actions import Steal

    g = game()
    at = g.ctx.game_map("ABC").line("B2").hexes[0]
    depots = [{"at": [at.q, at.r], "owner": 0, "goods": {"food": 1}}]
    s = godfather_in_seat_1(g, {"at": [0, -1]}, depots=depots)
    assert rule(g, s, Steal(0, "food", at)) is None
    assert rule(g, s, Steal(2, "food", at)) == "KAS-R-85", "the depot is seat 0's, not seat 2's"
    assert rule(g, s, Steal(0, "luxury", at)) == "KAS-R-85"
    assert rule(g, s, Steal(0, "food", Hex(0, -1))) == "KAS-R-85", "not on his hex"
    elsewhere = g.ctx.game_map("ABC").line("B1").hexes[0]
    moved = attrs.evolve(s, depots=(attrs.evolve(s.depots[0], at=elsewhere),))
    assert rule(g, moved, Steal(0, "food", at)) == "KAS-R-85", "no depot on his hex"
    strict = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-42": "hold-only"})
    assert rule(strict, godfather_in_seat_1(strict, {"at": [0, -1]}, depots=depots), Steal(0, "food", at)) == "KAS-R-85"


def test_godfather_with_a_full_hold_discards_a_good_he_has_r85_p20() -> None:
    """KAS-R-85 (p.20): with a full hold (3 of 3) he first discards 1 good 'of any type' - one he holds."""
    from rulecraft.model.kings_of_air_and_steam.actions import Steal

    g = game()
    s = godfather_in_seat_1(g, {"at": [3, -2], "hold": {"food": 1}}, hold={"machine": 3})
    assert rule(g, s, Steal(0, "food", discard="chemical")) == "KAS-R-85"
    assert rule(g, s, Steal(0, "food", discard="machine")) is None


# -- KAS-R-66 (p.18): conversion needs a token, two types, and two goods in the supply ------------------------


def test_aurelia_with_her_last_token_converts_r66_p18() -> None:
    """KAS-R-66 (p.18): 5 tokens at the start, one spent per conversion: the last one still works;
    unknown goods are refused."""
    from rulecraft.model.kings_of_air_and_steam.actions import Convert

    g = game()
    s = upgrade_state(
        g, SPHINX, team="DaVinci", character="Aurelia Bayley", tokens=1, hold={"food": 1}, airship_level=2
    )
    assert rule(g, s, Convert("food", "machine")) is None
    assert rule(g, s, Convert("gold", "machine")) == "KAS-R-66"
    assert rule(g, s, Convert("food", "gold")) == "KAS-R-66"


@pytest.mark.parametrize(("left", "verdict"), [(2, None), (1, "KAS-R-66")])
def test_aurelia_needs_two_goods_in_a_capped_supply_r66_amb12(left: int, verdict: str | None) -> None:
    """KAS-R-66 (p.18): 2 goods of the other type come from the supply; KAS-AMB-12 'capped': with 2 left
    that works, with 1 it cannot."""
    from rulecraft.model.kings_of_air_and_steam.actions import Convert

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-12": "capped"})
    s = upgrade_state(
        g, SPHINX, team="DaVinci", character="Aurelia Bayley", tokens=5, hold={"food": 1}, airship_level=2
    )
    s = attrs.evolve(s, supply=(s.supply[0], left, *s.supply[2:]))
    assert rule(g, s, Convert("food", "machine")) == verdict


# -- KAS-R-78 with KAS-AMB-38 'spent': naming the turned tokens -------------------------------------------------


def test_sebastians_turned_tokens_must_match_the_bet_and_the_outcome_r78_amb38() -> None:
    """KAS-R-78 (p.19): one token turned per dollar; the bet wins exactly when one shows the shipment's
    goods.  Under 'spent' the turned tokens are named in goods order from those left; under the default
    'reuse' they are not kept at all."""
    from rulecraft.model.kings_of_air_and_steam.actions import Gamble

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-38": "spent"})
    s, depot = delivery(g, "Sebastian King", "Kings Over Aces", tokens=5)
    s = g.apply(s, ShipGoods(depot, "food", 2, to_city="Bown Town", bet=2))
    assert rule(g, s, Gamble(True, ("chemical", "food"))) is None
    assert rule(g, s, Gamble(False, ("chemical", "machine"))) is None
    assert rule(g, s, Gamble(False, ("chemical", "food"))) == "KAS-R-78", "a food token wins"
    assert rule(g, s, Gamble(True, ("chemical", "machine"))) == "KAS-R-78", "no food token: no win"
    assert rule(g, s, Gamble(True, ("food",))) == "KAS-R-78", "$2 turns two tokens"
    assert rule(g, s, Gamble(True, ("food", "chemical"))) == "KAS-R-78", "goods order"
    spent = attrs.evolve(s, players=(attrs.evolve(s.players[0], spent_tokens=("chemical",)), s.players[1]))
    assert rule(g, spent, Gamble(True, ("chemical", "food"))) == "KAS-R-78", "the chemical token is used up"
    plain = game()
    r, depot = delivery(plain, "Sebastian King", "Kings Over Aces", tokens=5)
    r = plain.apply(r, ShipGoods(depot, "food", 2, to_city="Bown Town", bet=2))
    assert rule(plain, r, Gamble(True, ("food", "textile"))) == "KAS-R-78"
    assert rule(plain, r, Gamble(True)) is None


# -- KAS-R-79 (p.19): the swindled good counts as one of the demanded type -------------------------------------


@pytest.mark.parametrize("demand", ["chemical", "machine", "textile"])
def test_corey_needs_one_good_of_the_demanded_type_per_slot_but_one_r79_p19(demand: str) -> None:
    """KAS-R-79 (p.19): 'egy másik típusú árut' - one good of another type in the shipment, the others of
    the demanded type.  A depot with 1 demanded good and 1 luxury ships 2 (1 + the swindle), not 3."""
    g = game()
    s = turn_state(
        g,
        {"team": "Kings Over Aces", "character": "Corey McQueen", "tokens": 5, "at": [0, 1]},
        {**SPHINX, "at": [1, 1]},
        map=chain_map(1, demand),
        depots=[{"at": [1, 0], "owner": 0, "goods": {demand: 1, "luxury": 1, "food": 1}}],
        market={"slots": ["food", "food", "food"]},
    )
    assert rule(g, s, ShipGoods(Hex(1, 0), demand, 2, to_city="Farcity", swindle="luxury")) is None
    assert rule(g, s, ShipGoods(Hex(1, 0), demand, 3, to_city="Farcity", swindle="luxury")) is not None


# -- KAS-R-51 (p.16): what a Sell must name --------------------------------------------------------------------


def test_a_sell_needs_an_own_depot_holding_the_good_and_a_real_route_r51_p16() -> None:
    """KAS-R-51 (p.16): goods 'a raktáraidban' only; the route named must be a route of the good."""
    g = game()
    s = chain_sellout(g, tolled_lines=1, money=0, rail_level=2)
    assert rule(g, s, Sell(Hex(1, 0), "luxury", "Farcity")) == "KAS-R-51", "no luxury there"
    assert rule(g, s, Sell(Hex(3, 0), "food", "Farcity")) == "KAS-R-51", "seat 1's depot"
    assert rule(g, s, Sell(Hex(1, 0), "gold", "Farcity")) == "KAS-R-51"
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity", lines=("L1",))) is None
    assert rule(g, s, Sell(Hex(1, 0), "food", "Farcity", lines=("L0",))) == "KAS-R-51", "not that route"


def test_thaddeus_birch_sells_past_five_tolled_lines_with_no_money_r86_amb26() -> None:
    """KAS-R-86 (p.20) with KAS-AMB-26: no toll, so 5 opponent lines cost him nothing; $4 kept."""
    g = game()
    s = chain_sellout(g, tolled_lines=5, money=0, rail_level=6)
    players = (
        attrs.evolve(s.players[0], team="Godfather", character="Thaddeus Birch"),
        attrs.evolve(s.players[1], team="Sphinx", character="Victor Blane"),
    )
    s = attrs.evolve(s, players=players, advanced=True)
    assert rule(g, s, sell_food()) is None
    assert g.apply(s, sell_food()).players[0].money == 4


# -- every rule that forbids an action (KAS-R-33 with KAS-R-55, p.12) ---------------------------------------------


def test_every_rule_against_a_depot_without_token_or_money_is_listed_r33_r55_p12() -> None:
    """KAS-R-33 (p.12): a depot needs a token left ('legfeljebb 10 raktárat') and the price ($4 on an
    empty line); both fail: both rules are listed, the token's first."""
    from rulecraft.model.kings_of_air_and_steam.actions import BuildDepot

    g = game()
    at = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = upgrade_state(g, money=3, depots_left=0)
    assert [r.rule for r in g.rejections(s, BuildDepot(at))] == ["KAS-R-33", "KAS-R-55"]
    assert [r.rule for r in g.rejections(upgrade_state(g, money=3), BuildDepot(at))] == ["KAS-R-55"]
    assert g.rejections(upgrade_state(g, money=4), BuildDepot(at)) == ()


# -- the invariants: each named check flags its fact broken on purpose (and only at the boundary) ----------------


def invariant_base(g: KingsOfAirAndSteamGame) -> KasState:
    """A valid mid-turn state: seat 0 with 2 goods in the hold, a depot with food, a part-filled city."""
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = turn_state(
        g,
        {"hold": {"food": 1, "textile": 1}, "money": 7},
        {"money": 9},
        depots=[{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 2}}],
        cities={"Bown Town": {"filled": 2}},
        market={"slots": ["food", "machine", "textile"]},
    )
    assert tools(g).violations(s) == []
    return s


def seat0(s: KasState, **changes: Any) -> KasState:
    return attrs.evolve(s, players=(attrs.evolve(s.players[0], **changes), *s.players[1:]))


def city_changed(g: KingsOfAirAndSteamGame, s: KasState, name: str, **changes: Any) -> KasState:
    i = g.ctx.map_of(s).city_index(name)
    return attrs.evolve(s, cities=tuple(attrs.evolve(c, **changes) if j == i else c for j, c in enumerate(s.cities)))


BREAKS: list[tuple[str, str, Any]] = [
    (
        "goods-conserved",
        "a food cube created in the supply",
        lambda g, s: attrs.evolve(s, supply=(s.supply[0], s.supply[1], s.supply[2] + 1, *s.supply[3:])),
    ),
    (
        "goods-conserved",
        "a food cube lost from the supply",
        lambda g, s: attrs.evolve(s, supply=(s.supply[0], s.supply[1], s.supply[2] - 1, *s.supply[3:])),
    ),
    (
        "goods-conserved",
        "a hold below zero balanced by the supply",
        lambda g, s: attrs.evolve(
            seat0(s, hold=(0, 0, -1, 1, 0)), supply=(s.supply[0], s.supply[1], s.supply[2] + 2, *s.supply[3:])
        ),
    ),
    ("goods-conserved", "a good on a city slot vanishes", lambda g, s: city_changed(g, s, "Bown Town", filled=1)),
    ("depots-limited", "an eleventh depot counted", lambda g, s: seat0(s, depots_left=10)),
    ("depots-limited", "two depots on one hex", lambda g, s: attrs.evolve(s, depots=(s.depots[0], s.depots[0]))),
    (
        "depots-limited",
        "a depot off the rail",
        lambda g, s: attrs.evolve(s, depots=(attrs.evolve(s.depots[0], at=Hex(0, -1)),)),
    ),
    (
        "depots-limited",
        "a depot of no seat",
        lambda g, s: attrs.evolve(s, depots=(attrs.evolve(s.depots[0], owner=2),)),
    ),
    (
        "hold-within-capacity",
        "3 goods in a hold of 2",
        lambda g, s: attrs.evolve(seat0(s, hold=(1, 0, 1, 1, 0)), supply=(s.supply[0] - 1, *s.supply[1:])),
    ),
    ("tracks-in-range", "airship level 7", lambda g, s: seat0(s, airship_level=7)),
    ("tracks-in-range", "rail level 7", lambda g, s: seat0(s, rail_level=7)),
    ("tracks-in-range", "rail level 0", lambda g, s: seat0(s, rail_level=0)),
    ("market-prices", "a push without a tile", lambda g, s: attrs.evolve(s, pushes=(1, *s.pushes[1:]))),
    ("market-tiles-accounted", "a demand tile from nowhere", lambda g, s: attrs.evolve(s, demand_pile=(1, 0, 0, 0, 0))),
    (
        "market-tiles-accounted",
        "a fourth future-market slot",
        lambda g, s: attrs.evolve(s, market_slots=(*s.market_slots, "luxury"), market_pile=(3, 3, 2, 2, 2)),
    ),
    (
        "cities-consistent",
        "6 goods on 5 slots",
        lambda g, s: attrs.evolve(
            city_changed(g, s, "Bown Town", filled=6), supply=(s.supply[0], s.supply[1], s.supply[2] - 4, *s.supply[3:])
        ),
    ),
    ("cities-consistent", "a closed city holding goods", lambda g, s: city_changed(g, s, "Bown Town", closed=True)),
    ("cities-consistent", "a waiting city holding goods", lambda g, s: city_changed(g, s, "Bown Town", waiting=True)),
    ("cities-consistent", "a printed city with 3 slots", lambda g, s: city_changed(g, s, "Bown Town", slots=3)),
    (
        "diamonds-within-rating",
        "2 diamonds executed on rating 1",
        lambda g, s: attrs.evolve(seat0(s, plan=("S11", "S02", "S03", "S04"), slots=(EXE, PLA, PLA, PLA)), cycle=2),
    ),
    ("phase-bookkeeping", "round 7", lambda g, s: attrs.evolve(s, round=7)),
    ("phase-bookkeeping", "cycle 5", lambda g, s: attrs.evolve(s, cycle=5)),
    ("phase-bookkeeping", "seat 2 of 2", lambda g, s: attrs.evolve(s, seat=2)),
    (
        "phase-bookkeeping",
        "a plan of 3 cards",
        lambda g, s: seat0(s, plan=("S01", "S02", "S03"), slots=s.players[0].slots[:3]),
    ),
    ("phase-bookkeeping", "a card of a later cycle already played", lambda g, s: seat0(s, slots=(PLA, EXE, PLA, PLA))),
    ("phase-bookkeeping", "a load step outside the cargo phase", lambda g, s: attrs.evolve(s, cargo=CargoStep())),
]


@pytest.mark.parametrize(("name", "what", "brk"), BREAKS, ids=[b[1] for b in BREAKS])
def test_each_invariant_flags_its_fact_broken(name: str, what: str, brk: Any) -> None:
    """KAS-R-02/04/05/16/25/29/33/34/35/36/40/41/54/56: every named invariant reports the fact it guards,
    broken on purpose in an otherwise valid state."""
    g = game()
    broken = brk(g, invariant_base(g))
    assert name in {v.invariant for v in tools(g).violations(broken)}, what


def test_invariant_boundaries_are_not_flagged_r34_r35_r56() -> None:
    """KAS-R-34/35 (p.12), KAS-R-56: levels 6 and 1 are on the tracks; a full city (5 of 5) or a full
    hold (2 of 2) is fine."""
    g = game()
    s = invariant_base(g)
    for ok in (
        seat0(s, airship_level=6, rail_level=6),
        seat0(s, airship_level=1, rail_level=1),
        attrs.evolve(
            city_changed(g, s, "Bown Town", filled=5), supply=(s.supply[0], s.supply[1], s.supply[2] - 3, *s.supply[3:])
        ),
    ):
        assert tools(g).violations(ok) == []


def test_the_score_formula_invariant_reads_kas_r52_p16() -> None:
    """KAS-R-52 (p.16): money + 10 per depot + 15 at airship level 6 + rail 4/5/6 = 5/15/30.  Seat 0: $7,
    one depot, airship 6, rail 5 = 7 + 10 + 15 + 15 = 47."""
    g = game()
    s = seat0(invariant_base(g), airship_level=6, rail_level=5)
    assert g.scores(s)[0] == 47
    assert tools(g).violations(s) == []


# -- KAS-R-07 (p.6) and KAS-R-62 (p.18): where a starting depot may go ------------------------------------------


def start_depots(
    g: KingsOfAirAndSteamGame, depots: list[dict[str, Any]], players: int = 2, seat: int = 1, **me: Any
) -> KasState:
    """The start-depot step of the 3-board map (A1, A2, B1, B2, C1, C2), ``seat`` to place."""
    return tools(g).scenario_state(
        {
            "players": players,
            "phase": "start-depots",
            "seat": seat,
            "depots": depots,
            "players_state": {seat: me} if me else {},
        }
    )


def test_a_starting_depot_goes_on_an_empty_rail_hex_of_a_line_of_ones_own_r07_p6() -> None:
    """KAS-R-07 (p.6): 'valamelyik üres vasútmezőre'; not on a line that already holds another player's
    depot ('nem tehetik a kezdőraktárukat olyan vasútvonalra, amire másik játékos')."""
    from rulecraft.model.kings_of_air_and_steam.actions import PlaceStartDepot

    g = game()
    s = start_depots(g, [{"at": [1, -2], "owner": 0}])
    assert rule(g, s, PlaceStartDepot(Hex(0, -2))) == "KAS-R-07", "line A1 is seat 0's"
    assert rule(g, s, PlaceStartDepot(Hex(1, -2))) == "KAS-R-54", "one depot per rail hex"
    assert rule(g, s, PlaceStartDepot(Hex(2, 0))) == "KAS-R-07", "a factory, not a rail hex"
    assert rule(g, s, PlaceStartDepot(Hex(3, -2))) is None
    after = g.apply(s, PlaceStartDepot(Hex(3, -2)))
    assert after.players[1].position == Hex(3, -2), "the airship goes on the same hex"
    assert after.players[1].depots_left == 9


def test_with_every_line_taken_the_setup_restriction_gives_way_amb29() -> None:
    """KAS-AMB-29: if every line already holds another player's depot, the last player may place on any
    empty rail hex (here line A1, shared with seat 0)."""
    from rulecraft.model.kings_of_air_and_steam.actions import PlaceStartDepot

    g = game()
    taken = [
        {"at": [h.q, h.r], "owner": 0} for h in (Hex(1, -2), Hex(-1, 0), Hex(5, -3), Hex(3, -2), Hex(1, 3), Hex(4, 1))
    ]
    s = start_depots(g, taken)
    assert rule(g, s, PlaceStartDepot(Hex(0, -2))) is None


def harveys_second_depot_step(g: KingsOfAirAndSteamGame) -> KasState:
    """KAS-R-62 (p.18): the set-up step after every starting depot, where Harvey Golding (seat 0, his
    depot on A1 at (1,-2)) places a second one; seat 1 (Sphinx) holds a depot at (3,-2)."""
    harvey = {"team": "Emperor", "character": "Harvey Golding", "at": [1, -2]}
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "start-depots",
            "seat": 0,
            "depots": [{"at": [1, -2], "owner": 0}, {"at": [3, -2], "owner": 1}],
            "players_state": {0: harvey, 1: SPHINX},
        }
    )
    return attrs.evolve(s, bonus="second-depot")


def test_harveys_second_depot_goes_on_a_line_without_depots_r62_p18() -> None:
    """KAS-R-62 (p.18): after all starting depots Harvey places a second one, free, 'valamelyik még nem
    foglalt vasútvonalra'; his airship stays on his first depot."""
    from rulecraft.model.kings_of_air_and_steam.actions import PlaceStartDepot

    g = game()
    s = harveys_second_depot_step(g)
    assert rule(g, s, PlaceStartDepot(Hex(0, -2))) == "KAS-R-62", "A1 holds his first depot"
    assert rule(g, s, PlaceStartDepot(Hex(5, -3))) is None
    after = g.apply(s, PlaceStartDepot(Hex(5, -3)))
    assert after.players[0].position == Hex(1, -2) and after.players[0].money == s.players[0].money
    assert after.phase is Phase.NEW_MARKET


# -- KAS-R-19 / KAS-R-20 (p.9): planning ----------------------------------------------------------------------------


def test_plan_four_different_cards_of_ones_own_deck_r19_r02_p9() -> None:
    """KAS-R-19 (p.9): any 4 cards of the deck, one per slot; KAS-R-02 (p.6): the base game's deck has
    no star card; KAS-R-08: a team keeps its star card."""
    from rulecraft.model.kings_of_air_and_steam.actions import Plan

    g = game()
    s = tools(g).scenario_state({"players": 2, "phase": "planning", "seat": 0, "players_state": {0: {"plan": ["S01"]}}})
    s = attrs.evolve(s, players=(attrs.evolve(s.players[0], plan=("S01",), slots=(PLA,)), s.players[1]))
    assert rule(g, s, Plan("S01")) == "KAS-R-19", "already planned"
    assert rule(g, s, Plan("EMP")) == "KAS-R-19", "no star card in the base game"
    assert rule(g, s, Plan("S12")) is None
    team = attrs.evolve(
        s, players=(attrs.evolve(s.players[0], team="Emperor", character="Reginald Kain"), s.players[1])
    )
    assert rule(g, team, Plan("EMP")) is None
    assert rule(g, team, Plan("SKY")) == "KAS-R-19", "another team's star card"


def test_the_plan_is_locked_after_planning_r20_p9() -> None:
    """KAS-R-20 (p.9): once planning ends no card is exchanged."""
    from rulecraft.model.kings_of_air_and_steam.actions import Plan

    g = game()
    assert rule(g, upgrade_state(g), Plan("S12")) == "KAS-R-20"


# -- KAS-R-29..31 (p.11): loading and unloading -------------------------------------------------------------------


def cargo_at(g: KingsOfAirAndSteamGame, at: list[int], hold: dict[str, int] | None = None, **given: Any) -> KasState:
    return turn_state(g, {"at": at, "hold": hold or {}}, phase="cargo", **given)


def test_loading_from_a_factory_needs_that_factorys_type_and_a_good_on_it_r29_p11() -> None:
    """KAS-R-29 (p.11): goods come from a factory on the airship's hex that has at least 1 good."""
    from rulecraft.model.kings_of_air_and_steam.actions import Load

    g = game()
    s = cargo_at(g, [2, 0])  # the chemical factory, 1 good (KAS-R-04)
    assert rule(g, s, Load("chemical", "factory")) is None
    assert rule(g, s, Load("food", "factory")) == "KAS-R-29", "a chemical factory"
    assert rule(g, s, Load("gold", "factory")) == "KAS-R-29"
    assert rule(g, s, Load("chemical", "ship")) == "KAS-R-29", "a factory or an own depot only"
    empty = cargo_at(g, [2, 0], factories={"2,0": 0})
    assert rule(g, empty, Load("chemical", "factory")) == "KAS-R-29"
    assert rule(g, cargo_at(g, [2, 1]), Load("chemical", "factory")) == "KAS-R-29", "no factory here"


def test_loading_from_a_depot_only_ones_own_with_the_good_r29_p11() -> None:
    """KAS-R-29 (p.11): from one's own depot on the hex (opponents' depots cannot be loaded from)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Load, Unload

    g = game()
    mine = cargo_at(g, [3, -2], {"luxury": 1}, depots=[{"at": [3, -2], "owner": 0, "goods": {"food": 1}}])
    theirs = cargo_at(g, [3, -2], {"luxury": 1}, depots=[{"at": [3, -2], "owner": 1, "goods": {"food": 1}}])
    assert rule(g, mine, Load("food", "depot")) is None
    assert rule(g, mine, Load("machine", "depot")) == "KAS-R-29"
    assert rule(g, theirs, Load("food", "depot")) == "KAS-R-29"
    assert rule(g, mine, Unload("luxury")) is None
    assert rule(g, mine, Unload("food")) == "KAS-R-31", "no food in the hold"
    assert rule(g, theirs, Unload("luxury")) == "KAS-R-31", "only onto one's own depot"


def test_a_full_hold_loads_only_by_swapping_a_good_of_another_type_r29_r30_p11() -> None:
    """KAS-EX-08 (p.11): capacity 2.  With 2 goods aboard a plain load is refused; a swap of another type
    works, of the same type not; with 1 good aboard a swap is refused (there is room)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Load, Swap

    g = game()
    full = cargo_at(g, [2, 0], {"food": 2})
    assert rule(g, full, Load("chemical", "factory")) == "KAS-R-29"
    assert rule(g, full, Swap("food", "chemical", "factory")) is None
    assert rule(g, full, Swap("luxury", "chemical", "factory")) == "KAS-R-30", "no luxury aboard"
    same = cargo_at(g, [2, 0], {"chemical": 2})
    assert rule(g, same, Swap("chemical", "chemical", "factory")) == "KAS-R-30"
    room = cargo_at(g, [2, 0], {"food": 1})
    assert rule(g, room, Load("chemical", "factory")) is None
    assert rule(g, room, Swap("food", "chemical", "factory")) == "KAS-R-30"


# -- KAS-R-26 / KAS-R-61 (p.11, p.18): the flight's length -------------------------------------------------------


def test_the_flight_is_exactly_the_cards_value_r26_p11() -> None:
    """KAS-R-26 (p.11): 'pontosan annyi mezőt' - S06 moves 3: 2 or 4 steps are refused, 3 straight is fine."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = game()
    s = turn_state(g, {"at": [0, 0], "plan": ["S06", "S01", "S02", "S03"]}, phase="flight")
    flights = [a for a in g.legal_actions(s) if isinstance(a, Fly)]
    assert flights and {len(a.path) for a in flights} == {3}
    path = flights[0].path
    assert rule(g, s, Fly(path[:2])) == "KAS-R-26"
    assert rule(g, s, Fly((*path, path[-1]))) == "KAS-R-26"
    assert rule(g, s, Fly((path[0], 6, path[2]))) == "KAS-R-26", "directions are 0..5"


# -- KAS-R-67 / KAS-AMB-19 (p.12, p.18): what may be declined ----------------------------------------------------


def test_an_extra_action_needs_isaacs_offer_and_a_token_r67_p18() -> None:
    """KAS-R-67 (p.18): the extra action is I.S.A.A.C.'s, right after his action, for a token."""
    from rulecraft.model.kings_of_air_and_steam.actions import ExtraAction, Grant, Pass

    g = game()
    isaac = turn_state(g, {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": 1}, SPHINX)
    offered = g.apply(isaac, Grant())
    assert rule(g, offered, ExtraAction()) is None
    assert rule(g, offered, Pass()) is None
    broke = attrs.evolve(offered, players=(attrs.evolve(offered.players[0], tokens=0), offered.players[1]))
    assert rule(g, broke, ExtraAction()) == "KAS-R-67"
    other_bonus = attrs.evolve(offered, bonus="steal")
    assert rule(g, other_bonus, ExtraAction()) == "KAS-R-67"
    nothing = attrs.evolve(offered, bonus=None)
    assert rule(g, nothing, Pass()) == "KAS-R-57", "nothing to decline"


# -- KAS-R-75/78/79 (p.19): the delivery powers are their characters' own ------------------------------------------


def test_delivery_powers_belong_to_their_characters_and_to_city_deliveries_r75_r78_r79_p19() -> None:
    """KAS-R-75 (Bishop: one good back), KAS-R-78 (Sebastian: a bet of up to $3, paid first), KAS-R-79
    (Corey: one good of another type, a token each) - each only for its character and only 'ha árut
    szállítasz egy városba'."""
    g = game()
    bishop, depot = delivery(g, "Bishop Kingston", "Rose & Thorn")
    to_depot = ShipGoods(depot, "food", 1, to_depot=depot, returned=True)
    assert rule(g, bishop, to_depot) == "KAS-R-75"
    seb, _ = delivery(g, "Sebastian King", "Kings Over Aces", money=3)
    assert rule(g, seb, ShipGoods(depot, "food", 1, to_city="Bown Town", bet=3)) is None
    assert rule(g, seb, ShipGoods(depot, "food", 1, to_city="Bown Town", bet=4)) == "KAS-R-78"
    poor, _ = delivery(g, "Sebastian King", "Kings Over Aces", money=2)
    assert rule(g, poor, ShipGoods(depot, "food", 1, to_city="Bown Town", bet=3)) == "KAS-R-78"
    assert rule(g, bishop, ShipGoods(depot, "food", 1, to_city="Bown Town", bet=1)) == "KAS-R-78"
    corey, _ = delivery(g, "Corey McQueen", "Kings Over Aces", tokens=1)
    assert rule(g, corey, ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="textile")) is None
    assert rule(g, corey, ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="food")) == "KAS-R-79"
    assert rule(g, corey, ShipGoods(depot, "food", 1, to_city="Bown Town", swindle="textile")) == "KAS-R-79"
    assert rule(g, corey, ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="luxury")) == "KAS-R-79"
    broke, _ = delivery(g, "Corey McQueen", "Kings Over Aces", tokens=0)
    assert rule(g, broke, ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="textile")) == "KAS-R-79"
    assert rule(g, bishop, ShipGoods(depot, "food", 2, to_city="Bown Town", swindle="textile")) == "KAS-R-79"


@pytest.mark.parametrize(("reading", "verdict"), [("whole", "KAS-R-36"), ("placed", None)])
def test_bishops_returned_good_and_the_room_it_needs_r75_amb37(reading: str, verdict: str | None) -> None:
    """KAS-R-75 (p.19), KAS-AMB-37: 3 food with 2 free slots: 'whole' (default) needs room for all 3
    (KAS-R-36: the whole shipment must fit); 'placed' only for the 2 placed."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-37": reading})
    s, depot = delivery(g, "Bishop Kingston", "Rose & Thorn", filled=3)
    assert rule(g, s, ShipGoods(depot, "food", 3, to_city="Bown Town", returned=True)) == verdict


@pytest.mark.parametrize(("reading", "verdict"), [("any-count", None), ("all-of-type", "KAS-R-36")])
def test_part_of_a_depots_goods_under_all_of_type_amb18(reading: str, verdict: str | None) -> None:
    """KAS-R-36 (p.13) 'any number'; KAS-AMB-18 'all-of-type': all goods of that type in the depot go:
    2 of 3 food is refused, 3 of 3 is fine; Corey's off-type good rides along uncounted."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-18": reading})
    s, depot = delivery(g, "Corey McQueen", "Kings Over Aces", tokens=1)
    assert rule(g, s, ShipGoods(depot, "food", 2, to_city="Bown Town")) == verdict
    assert rule(g, s, ShipGoods(depot, "food", 3, to_city="Bown Town")) is None
    assert rule(g, s, ShipGoods(depot, "food", 4, to_city="Bown Town", swindle="textile")) is None


@pytest.mark.parametrize(("reading", "verdict"), [("a", "KAS-R-69"), ("b", None)])
def test_sphinx_free_shipment_one_good_or_one_shipment_r69_amb33(reading: str, verdict: str | None) -> None:
    """KAS-R-69 (p.19) 'egy árut'; KAS-AMB-33 (a, default): exactly one cube; (b): one shipment of any size."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-33": reading})
    s = sphinx_bonus(g, map=chain_map(1), depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}])
    assert rule(g, s, ShipGoods(Hex(1, 0), "food", 2, to_city="Farcity")) == verdict
    assert rule(g, s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity")) is None
    assert rule(g, attrs.evolve(s, bonus="steal"), ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity")) == "KAS-R-32"


@pytest.mark.parametrize(("reading", "seat"), [("not-counted", 0), ("counted", 1)])
def test_a_returned_cards_diamonds_under_counted_r25_amb05(reading: str, seat: int) -> None:
    """KAS-EX-04 (p.10): rating 1, slot 2 (1 diamond) executed, slot 3 (1 diamond) returned; the slot-4
    card has 0 diamonds.  KAS-AMB-05 default: the returned card no longer counts: 1 + 0 <= 1, the turn is
    played; 'counted': 2 + 0 > 1, this turn is lost too (seat 1 acts)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-05": reading})
    green = {"plan": ["S01", "S05", "S07", "S02"], "slots": ["executed", "executed", "returned", "planned"]}
    other = {"plan": ["S03", "S04", "S06", "S01"], "slots": ["executed", "executed", "executed", "planned"]}
    s = tools(g).scenario_state(
        {
            "players": 3,
            "start_player": 2,
            "phase": "action",
            "cycle": 4,
            "seat": 2,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {0: {**green, "at": [0, -1]}, 1: {**other, "at": [0, -1]}, 2: {**other, "at": [0, -1]}},
        }
    )
    assert s.order == (2, 0, 1)
    after = g.apply(s, Grant())
    assert after.seat == seat and after.phase is Phase.FLIGHT


def test_ezekiel_crane_three_hex_flight_under_no_end_amb43() -> None:
    """KAS-R-87 (p.20), KAS-AMB-43 'no-end': of a 3-hex flight the first two hexes count, the third (the
    end) does not: an airship on the second hex is robbed."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-43": "no-end"})
    crane = {"team": "Godfather", "character": "Ezekiel Crane", "at": [0, 0], "plan": ["S06", "S05", "S04", "S07"]}
    s = turn_state(g, crane, {**SPHINX, "at": [2, 0], "money": 10}, phase="flight")
    after = g.apply(s, Fly((0, 0, 0)))
    assert after.players[1].money == 7


@pytest.mark.parametrize(("reading", "toll"), [("birch-only", 0), ("none", 1)])
def test_thaddeus_birch_in_the_sellout_under_none_amb26(reading: str, toll: int) -> None:
    """KAS-R-86 (p.20); KAS-AMB-26 'none': no power applies in the Sellout, so Birch pays the $1 toll
    there - while his delivery shipments stay toll-free (KAS-R-86 itself)."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-26": reading})
    s = chain_sellout(g, tolled_lines=1, money=0, rail_level=2)
    birch = (
        attrs.evolve(s.players[0], team="Godfather", character="Thaddeus Birch"),
        attrs.evolve(s.players[1], team="Sphinx", character="Victor Blane"),
    )
    s = attrs.evolve(s, players=birch, advanced=True)
    assert g.apply(s, sell_food()).players[0].money == 4 - toll
    ship = turn_state(
        g,
        {"team": "Godfather", "character": "Thaddeus Birch", "at": [0, 1], "money": 0, "rail_level": 2},
        {**SPHINX, "at": [1, 1]},
        map=chain_map(2),
        depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 1}}, {"at": [3, 0], "owner": 1}],
        market={"slots": ["luxury", "luxury", "machine"]},
    )
    assert g.apply(ship, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity")).players[0].money == 4


def test_sellout_toll_follows_the_lines_named_r51_r38_p16() -> None:
    """KAS-R-51 (p.16) with KAS-R-38: the Sellout uses the normal shipping rules, so the route named
    decides the toll: over P (own depot) $4 kept, over Q (seat 1's depot) $4 - $1."""
    g = game()
    for line, money in (("P", 9), ("Q", 8)):
        s = attrs.evolve(two_ways_state(g), phase=Phase.SELLOUT, order=(0, 1), turn=0, round=6)
        after = g.apply(s, Sell(Hex(1, 0), "food", "Y", lines=(line,)))
        assert after.players[0].money == money


def test_sphinx_free_shipment_filling_a_city_then_the_action_r69_r40_p19() -> None:
    """KAS-R-69 (p.19) with KAS-R-40 (p.14): the free good fills a printed city; whether a demand tile is
    drawn (then placed) or the pile is empty (KAS-AMB-10: the city waits), the action still follows."""
    g = game()
    for pile in ({"textile": 1}, {}):
        s = sphinx_bonus(
            g,
            map=chain_map(1),
            depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}],
            cities={"Farcity": {"filled": 4}},
            market={"slots": ["luxury", "luxury", "machine"], "demand_pile": pile},
        )
        s = g.apply(s, ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity"))
        if pile:
            assert s.phase is Phase.DEMAND_DRAW
            s = g.apply(s, DrawDemandTile("textile"))
        assert s.phase is Phase.ACTION and s.seat == 0


@pytest.mark.parametrize(
    ("reading", "demand", "closed", "waiting"),
    [("a", None, False, True), ("b", None, True, False), ("c", "food", False, False)],
)
def test_a_city_filled_with_an_empty_pile_under_each_reading_r40_amb10(
    reading: str, demand: str | None, closed: bool, waiting: bool
) -> None:
    """KAS-R-40 (p.14), KAS-AMB-10 with an empty demand pile: (a) the city waits for a tile; (b) it is
    closed for good; (c) it keeps its printed demand with 5 empty slots."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-10": reading})
    after = g.apply(fill_state(g, flora_seat=None, pile={}), ship_one_food(g))
    bown = city(g, after, "Bown Town")
    assert (bown.demand, bown.closed, bown.waiting, bown.filled, bown.slots) == (demand, closed, waiting, 0, 5)
    assert after.cycle == 2, "the delivery was the action; seat 1's 2-diamond card is lost (KAS-R-25)"


def test_a_waiting_city_served_after_the_last_production_then_the_sellout_by_priority_amb10_amb30() -> None:
    """KAS-AMB-10 (a): after round 5's Production a waiting city takes a tile; then KAS-R-50: the Sellout,
    in the advanced game by ascending priority (KAS-AMB-30): Emperor (seat 1) before Godfather (seat 0)."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "upkeep",
            "round": 5,
            "seat": 1,
            "cities": {"Bown Town": {"waiting": True}},
            "players_state": {
                0: {"team": "Godfather", "character": "Ezekiel Crane"},
                1: {"team": "Emperor", "character": "Reginald Kain"},
            },
            "market": {
                "slots": ["textile", "textile", "machine"],
                "pile": {},
                "demand_pile": {"food": 3, "chemical": 3, "luxury": 3, "machine": 2, "textile": 1},
            },
        }
    )
    s = attrs.evolve(
        s,
        cities=tuple(attrs.evolve(c, demand=None) if c.waiting else c for c in s.cities),
        waiting_cities=("Bown Town",),
        order=(0, 1),
        turn=1,
    )
    s = g.apply(s, PayUpkeep())
    assert s.phase is Phase.DEMAND_DRAW
    s = g.apply(s, DrawDemandTile("machine"))
    assert s.phase is Phase.SELLOUT and s.order == (1, 0) and s.seat == 1


def test_clint_castle_course_correction_steps_at_once_by_default_r42_amb40() -> None:
    """KAS-R-42 (p.14): one hex, then load/unload; KAS-AMB-40 default: Clint's 'before and/or after'
    (KAS-R-82) is about his flights, so the Course Correction step is taken at once."""
    from rulecraft.model.kings_of_air_and_steam.actions import CourseCorrection

    g = game()
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = turn_state(g, {"team": "Sky Castle", "character": "Clint Castle", "at": [depot.q, depot.r]}, SPHINX)
    direction = next(d for d in range(6) if g.check(s, CourseCorrection(d)) is None)
    after = g.apply(s, CourseCorrection(direction))
    assert after.phase is Phase.CARGO and after.players[0].position == depot.step(direction)


def test_a_lost_flight_turn_passes_to_the_next_in_order_of_three_amb04b() -> None:
    """KAS-AMB-04 'b' with 3 players: seat 0 (letter A) cannot fly its card and loses the turn; the next
    in turn order (seat 1, letter B) flies - not the last (seat 2, letter C)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Fly

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-04": "b"})
    island = {
        "hexes": [[0, 0], [5, 5], [6, 5], [7, 5], [5, 6]],
        "cities": [{"name": "East", "at": [7, 5], "demand": "food"}],
        "lines": [],
    }
    s = tools(g).scenario_state(
        {
            "players": 3,
            "map": island,
            "phase": "flight",
            "seat": 0,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: {"at": [0, 0], "plan": ["S02", "S03", "S04", "S05"]},
                1: {"at": [5, 5], "plan": ["S03", "S04", "S05", "S06"]},
                2: {"at": [5, 6], "plan": ["S05", "S06", "S07", "S08"]},
            },
        }
    )
    assert s.order == (0, 1, 2)
    after = g.apply(s, Fly(()))
    assert after.seat == 1 and after.turn == 1 and after.phase is Phase.FLIGHT


@pytest.mark.parametrize(("reading", "verdict"), [("both", None), ("one-source", "KAS-R-29")])
def test_loading_from_a_factory_and_a_depot_on_one_hex_amb22(reading: str, verdict: str | None) -> None:
    """KAS-R-29 (p.11) 'and/or': a factory and an own depot on the hex may both be loaded from
    (KAS-AMB-22 default); under 'one-source' a loading step takes from one source only."""
    from rulecraft.model.kings_of_air_and_steam.actions import Load

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-22": reading})
    game_map = {
        "hexes": [[q, r] for q in range(3) for r in (0, 1)],
        "factories": {"1,0": "food"},
        "cities": [{"name": "W", "at": [0, 0], "demand": "luxury"}, {"name": "E", "at": [2, 0], "demand": "food"}],
        "lines": [{"id": "L", "ends": ["W", "E"], "hexes": [[1, 0]]}],
    }
    s = turn_state(
        g,
        {"at": [1, 0]},
        {"at": [1, 1]},
        map=game_map,
        phase="cargo",
        depots=[{"at": [1, 0], "owner": 0, "goods": {"textile": 1}}],
    )
    s = g.apply(s, Load("food", "factory"))
    assert rule(g, s, Load("textile", "depot")) == verdict


# -- more boundaries of the checks --------------------------------------------------------------------------------


def test_eva_one_tile_line_and_a_rail_hex_in_a_joined_path_r71_p19() -> None:
    """KAS-R-71 (p.19): a single track tile joining two cities is a line (her last token, her last $1);
    a joined-up path over a rail hex is refused ('nem teheted vasútmezőre')."""
    g = game()
    small = {
        "hexes": [[q, r] for q in range(-1, 4) for r in range(-3, 2)],
        "cities": [
            {"name": "A", "at": [0, 0], "demand": "food"},
            {"name": "B", "at": [2, -1], "demand": "luxury"},
            {"name": "C", "at": [1, -2], "demand": "textile"},
        ],
        "lines": [{"id": "R", "ends": ["A", "C"], "hexes": [[1, -1]]}],
    }
    eva = {"team": "Sphinx", "character": "Eva Blane", "tokens": 1, "money": 1, "at": [3, 1]}
    s = turn_state(g, eva, {"team": "Emperor", "character": "Reginald Kain", "at": [3, 0]}, map=small)
    assert rule(g, s, line([(1, 0)], ("A", "B"))) is None
    assert rule(g, s, line([(1, -1)], ("A", "B"))) == "KAS-R-71"


def test_every_rule_against_a_load_convert_line_and_free_shipment_is_listed_r29_r30_r66_r69() -> None:
    """KAS-R-29/30 (p.11), KAS-R-66 (p.18), KAS-R-71 (p.19), KAS-R-69 (p.19): the rules listing names each
    broken rule of an action, the cost beside the need."""
    from rulecraft.model.kings_of_air_and_steam.actions import Convert, Load, Swap

    g = game()
    full = cargo_at(g, [2, 0], {"food": 2})
    assert [r.rule for r in g.rejections(full, Load("chemical", "factory"))] == ["KAS-R-29"]
    swapped = g.apply(cargo_at(g, [2, 0], {"food": 2}, factories={"2,0": 2}), Swap("food", "chemical", "factory"))
    assert {r.rule for r in g.rejections(swapped, Load("food", "factory"))} >= {"KAS-R-29"}
    capped = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-12": "capped"})
    s = upgrade_state(
        capped, SPHINX, team="DaVinci", character="Aurelia Bayley", tokens=0, hold={"food": 1}, airship_level=2
    )
    s = attrs.evolve(s, supply=(s.supply[0], 1, *s.supply[2:]))
    assert [r.rule for r in capped.rejections(s, Convert("food", "machine"))] == ["KAS-R-66"]
    poor = eva_state(g, money=1)
    assert [r.rule for r in g.rejections(poor, line(STRAIGHT))] == ["KAS-R-55"]
    bonus = sphinx_bonus(g, map=chain_map(1), depots=[{"at": [1, 0], "owner": 0, "goods": {"food": 2}}])
    assert [r.rule for r in g.rejections(bonus, ShipGoods(Hex(1, 0), "food", 2, to_city="Farcity"))] == ["KAS-R-69"]


def test_birch_under_none_cannot_sell_past_five_tolled_lines_with_no_money_r51_amb26() -> None:
    """KAS-AMB-26 'none': Birch pays Sellout tolls like anyone: $5 of tolls with $0 cannot be paid
    (KAS-R-55), while by default he sells freely."""
    for reading, verdict in (("none", "KAS-R-55"), ("birch-only", None)):
        g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-26": reading})
        s = chain_sellout(g, tolled_lines=5, money=0, rail_level=6)
        birch = (
            attrs.evolve(s.players[0], team="Godfather", character="Thaddeus Birch"),
            attrs.evolve(s.players[1], team="Sphinx", character="Victor Blane"),
        )
        assert rule(g, attrs.evolve(s, players=birch, advanced=True), sell_food()) == verdict


def test_godfather_may_discard_his_only_good_of_a_type_r85_p20() -> None:
    """KAS-R-85 (p.20): with a full hold any good may be discarded - also the only one of its type."""
    from rulecraft.model.kings_of_air_and_steam.actions import Steal

    g = game()
    s = godfather_in_seat_1(g, {"at": [3, -2], "hold": {"food": 1}}, hold={"machine": 2, "luxury": 1})
    assert rule(g, s, Steal(0, "food", discard="luxury")) is None


def test_the_last_depot_token_the_smallest_bet_and_a_depots_only_good_r33_r78_r45() -> None:
    """KAS-R-33 (p.12): the tenth depot may still be built; KAS-R-78 (p.19): 'legfeljebb 3 $' - a $1 bet
    is a bet; KAS-R-45 (p.15): the only good of a depot may be returned at Upkeep."""
    from rulecraft.model.kings_of_air_and_steam.actions import BuildDepot, ReturnGood

    g = game()
    at = g.ctx.game_map("ABC").line("B2").hexes[0]
    assert rule(g, upgrade_state(g, money=4, depots_left=1), BuildDepot(at)) is None
    seb, depot = delivery(g, "Sebastian King", "Kings Over Aces")
    assert rule(g, seb, ShipGoods(depot, "food", 1, to_city="Bown Town", bet=1)) is None
    assert rule(g, seb, ShipGoods(depot, "food", 1, to_city="Bown Town", bet=0)) is None, "no bet"
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "upkeep",
            "seat": 0,
            "depots": [{"at": [at.q, at.r], "owner": 0, "goods": {"food": 1}}],
        }
    )
    assert rule(g, s, ReturnGood("food", at)) is None
    assert rule(g, s, ReturnGood("luxury", at)) == "KAS-R-45"


# -- the hold capacity invariant under KAS-AMB-44, and the violation report (invariants module) -------------


@pytest.mark.parametrize(
    ("reading", "character", "tokens", "goods", "flagged"),
    [
        # level 2 holds 3 goods (p.12, KAS-EX-11); 2 tokens spent = 2 conversions beyond it
        ("ignore-capacity", "Aurelia Bayley", 3, 5, False),
        ("ignore-capacity", "Aurelia Bayley", 3, 6, True),  # one more than her conversions allow
        ("ignore-capacity", "Aurelia Bayley", 5, 4, True),  # no token spent: no room beyond 3
        ("ignore-capacity", "Victor Blane", 5, 4, True),  # only Aurelia converts
    ],
)
def test_hold_capacity_invariant_allows_aurelias_conversions_only_r66_amb44(
    reading: str, character: str, tokens: int, goods: int, flagged: bool
) -> None:
    """KAS-AMB-44 'ignore-capacity' (KAS-R-66, p.18): each converter token Aurelia Bayley has spent
    (she starts with 5, KAS-R-12) may leave one good beyond her airship's capacity; nobody else's hold
    may exceed it.  Under the default reading no hold exceeds it."""
    g = make_game("kas", readings={"KAS-AMB-44": reading})
    assert isinstance(g, KingsOfAirAndSteamGame)
    team = "DaVinci" if character == "Aurelia Bayley" else "Sphinx"
    s = upgrade_state(g, SPHINX, team=team, character=character, tokens=tokens, airship_level=2)
    hold = (goods, 0, 0, 0, 0)
    s = attrs.evolve(s, players=(attrs.evolve(s.players[0], hold=hold), *s.players[1:]))
    names = {v.invariant for v in tools(g).violations(s)}
    assert any("hold" in n or "capacity" in n for n in names) is flagged, names
    default = make_game("kas")
    assert any("hold" in v.invariant or "capacity" in v.invariant for v in tools(default).violations(s)) is (goods > 3)


def test_the_violation_report_names_each_invariant_its_rules_and_count() -> None:
    from rulecraft.invariants.kings_of_air_and_steam import Violation, report

    one = Violation("money-conserved", ("KAS-R-55", "KAS-R-51"), "$3 created")
    assert str(one) == "money-conserved [KAS-R-55, KAS-R-51]: $3 created"
    assert report([one]) == "state violates 1 invariant:\n  money-conserved [KAS-R-55, KAS-R-51]: $3 created"
    two = [one, Violation("hold", ("KAS-R-34",), "5 goods")]
    assert report(two, "after step 7").splitlines() == [
        "state after step 7 violates 2 invariants:",
        "  money-conserved [KAS-R-55, KAS-R-51]: $3 created",
        "  hold [KAS-R-34]: 5 goods",
    ]


def test_a_check_that_crashes_is_a_violation_naming_the_error_and_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state too broken to check is reported, not skipped: the invariant's name, its rules and the
    exception's kind."""
    from rulecraft.invariants import kings_of_air_and_steam as inv

    def crashes(game: KingsOfAirAndSteamGame, state: KasState) -> Any:
        raise ZeroDivisionError("no room")

    monkeypatch.setattr(inv._REGISTRY, "invariants", {})
    inv._invariant("probe", "KAS-R-34")(crashes)
    g = game()
    (v,) = inv.check_all(g, g.new_game(2))
    assert v == inv.Violation("probe", ("KAS-R-34",), "the check could not run: ZeroDivisionError: no room")


# -- issue 22, session 12: the transitions.py survivors of the session-11 run ------------------------------------------
# (bench/mutation/baseline/kas-rules-transitions-session11.md lists each survivor: killed here or equivalent)


def saved_and_loaded(g: KingsOfAirAndSteamGame, s: KasState) -> None:
    """``s`` is a whole state of the game: it passes the game's own state check and a save and a load
    give it back unchanged (as in test_kas_readings_kills.py)."""
    from rulecraft.statefile import admit

    admit(g, s)
    assert g.state_from_json(g.state_to_json(s)) == s


def test_a_lost_rose_and_thorn_turn_leaves_the_next_player_one_flight_r24_r73_amb04b() -> None:
    """KAS-AMB-04 'b': seat 0 (Rose & Thorn, KAS-R-73 p.19: 'move 2 hexes twice') cannot make its first
    2-hex flight from an island hex and loses the turn.  The second flight belongs to that card only:
    the next player (Kings Over Aces, letter E as well, priority 5 after 4, KAS-R-23) flies once, loads,
    and then takes its action (KAS-R-24 p.10: one movement, then one action).  Seat 2 (letter A) acts
    first, so seat 0's turn begins in play."""
    from rulecraft.model.kings_of_air_and_steam.actions import EndCargo, Fly, Grant

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-04": "b"})
    island = {
        "hexes": [[0, 0]] + [[q, 5] for q in range(4, 9)],
        "cities": [{"name": "East", "at": [8, 5], "demand": "food"}],
        "lines": [],
    }
    rose = {"team": "Rose & Thorn", "character": "Bishop Kingston", "airship_level": 3, "at": [0, 0]}
    corey = {"team": "Kings Over Aces", "character": "Corey McQueen", "at": [4, 5]}
    s = tools(g).scenario_state(
        {
            "players": 3,
            "map": island,
            "phase": "action",
            "seat": 2,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: {**rose, "plan": ["ROS", *PLAN[1:]]},
                1: {**corey, "plan": ["S09", *PLAN[1:]]},
                2: {**SPHINX, "plan": PLAN, "at": [5, 5]},
            },
        }
    )
    assert s.order == (2, 0, 1)
    s = g.apply(s, Grant())
    assert s.seat == 0 and s.phase is Phase.FLIGHT
    lost = g.apply(s, Fly(()))
    assert lost.seat == 1 and lost.phase is Phase.FLIGHT and lost.players[0].slots[0] is SlotStatus.RETURNED
    flight = Fly((0, 0, 0))  # S09: 3 hexes east, to (7, 5)
    assert rule(g, lost, flight) is None
    cargo = g.apply(lost, flight)
    assert cargo.phase is Phase.CARGO  # KAS-R-28: loading after the flight, a whole state
    saved_and_loaded(g, cargo)
    after = g.apply(cargo, EndCargo())
    assert after.players[1].position == Hex(7, 5)
    assert after.phase is Phase.ACTION and after.seat == 1


def row_start_depots(g: KingsOfAirAndSteamGame, players: int, seat: int, **seats: dict[str, Any]) -> KasState:
    """The start-depot step on a map of two lines (L1 Alpha-Beta, L2 Beta-Gamma), both already taken:
    L1 by seat 0, L2 by seat 1; ``seat`` places next (the scenario's order is 0, 1, 2, ...)."""
    from test_kas_readings import ROW

    row = {k: v for k, v in ROW.items() if k != "factories"}
    return tools(g).scenario_state(
        {
            "players": players,
            "map": row,
            "phase": "start-depots",
            "seat": seat,
            "depots": [{"at": [1, 0], "owner": 0}, {"at": [5, 0], "owner": 1}],
            "players_state": {int(k[4:]): v for k, v in seats.items()},
        }
    )


def test_strict_set_up_an_airship_alone_then_the_next_player_places_amb29_r07_p6() -> None:
    """KAS-AMB-29 'strict' with 4 players and 2 lines, both taken: seat 2 has no line of its own, so its
    airship alone goes on an empty rail hex (p.6 step D without the depot).  Set-up goes on: seat 3
    (the same plight) places next, and only after the last player does round 1 begin (KAS-R-07)."""
    from rulecraft.model.kings_of_air_and_steam.actions import StartAirship

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-29": "strict"})
    s = row_start_depots(g, 4, 2)
    assert rule(g, s, StartAirship(Hex(2, 0))) is None
    after = g.apply(s, StartAirship(Hex(2, 0)))
    assert after.phase is Phase.START_DEPOTS and after.seat == 3
    assert after.players[2].position == Hex(2, 0) and after.players[2].depots_left == 10
    last = g.apply(after, StartAirship(Hex(6, 0)))
    assert last.phase is Phase.NEW_MARKET and last.players[3].position == Hex(6, 0)


def test_strict_with_every_line_taken_harvey_gets_no_second_depot_amb29_r62_p18() -> None:
    """KAS-R-62 (p.18): after all starting depots Harvey Golding places a second one on a line with no
    depot; KAS-AMB-29 'strict': with none left he places none.  The last player (seat 2) starts its
    airship alone; then round 1 begins with Harvey's one depot and no step of his pending."""
    from rulecraft.model.kings_of_air_and_steam.actions import StartAirship

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-29": "strict"})
    harvey = {"team": "Emperor", "character": "Harvey Golding", "at": [1, 0]}
    others = {"team": "Sphinx", "character": "Victor Blane", "at": [5, 0]}
    s = row_start_depots(g, 3, 2, seat0=harvey, seat1=others, seat2={"team": "DaVinci", "character": "I.S.A.A.C."})
    after = g.apply(s, StartAirship(Hex(7, 0)))
    assert after.phase is Phase.NEW_MARKET and after.bonus is None
    assert [d.owner for d in after.depots] == [0, 1]
    assert after.players[0].depots_left == s.players[0].depots_left


def test_harveys_second_depot_leaves_no_step_pending_at_round_one_r62_r14_p18() -> None:
    """KAS-R-62 (p.18): Harvey's second depot is a set-up step, placed once.  After it round 1's New
    Market begins (KAS-R-14) with nothing of his step left over: no second-depot step pending, the
    first cycle still ahead (cycle 1)."""
    from rulecraft.model.kings_of_air_and_steam.actions import PlaceStartDepot

    g = game()
    after = g.apply(harveys_second_depot_step(g), PlaceStartDepot(Hex(5, -3)))
    assert after.phase is Phase.NEW_MARKET
    assert after.bonus is None and after.cycle == 1 and after.round == 1
    saved_and_loaded(g, after)


def test_the_next_round_starts_again_at_cycle_one_r14_r47_p8_p15() -> None:
    """KAS-R-14 (p.8): a round is New Market, Planning, then Move & Action cycles 1 to 4, Upkeep and
    Production.  After round 1's Upkeep (its 4th cycle done) round 2's New Market and Planning come
    before its cycle 1: the cycle count starts over, and the first cards revealed are slot 1's."""
    from rulecraft.model.kings_of_air_and_steam.actions import Plan

    g = game()
    s = tools(g).scenario_state({"players": 2, "start_player": 0, "phase": "upkeep", "seat": 1, "cycle": 4})
    s = g.apply(s, PayUpkeep())
    assert s.phase is Phase.NEW_MARKET and s.round == 2 and s.cycle == 1
    for goods in ("food", "machine", "luxury"):
        s = g.apply(s, DrawMarketTile(goods))
    assert s.phase is Phase.PLANNING and s.cycle == 1
    saved_and_loaded(g, s)
    for card in ("S05", "S01", "S02", "S03", "S01", "S02", "S03", "S04"):  # seat 1 plans first (KAS-R-47)
        s = g.apply(s, Plan(card))
    assert s.phase is Phase.FLIGHT and s.cycle == 1
    assert s.order == (0, 1), "slot 1: seat 0's S01 (letter A) before seat 1's S05 (letter C)"


def test_a_turn_beginning_is_a_whole_state_r24_p10() -> None:
    """KAS-R-24 (p.10): after seat 0's one action (a Grant, KAS-R-43) its card slides and seat 1's turn
    begins with its flight.  The state between is a whole state: checked, saved and loaded unchanged
    (I.S.A.A.C.'s extra action not taken, KAS-R-67, is a yes/no)."""
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    g = game()
    s = turn_state(g, {})
    after = g.apply(s, Grant())
    assert after.phase is Phase.FLIGHT and after.seat == 1 and after.extra_taken is False
    saved_and_loaded(g, after)


def test_the_set_up_ends_in_a_whole_state_r07_r14_p6() -> None:
    """KAS-R-07 (p.6): the last starting depot ends the set-up; round 1's New Market follows
    (KAS-R-14).  That state is checked, saved and loaded unchanged."""
    from rulecraft.model.kings_of_air_and_steam.actions import PlaceStartDepot

    g = game()
    s = start_depots(g, [{"at": [1, -2], "owner": 0}], seat=1)
    after = g.apply(s, PlaceStartDepot(Hex(3, -2)))
    assert after.phase is Phase.NEW_MARKET
    saved_and_loaded(g, after)


def test_flora_filling_a_city_herself_looks_through_the_whole_pile_r74_p19() -> None:
    """KAS-R-74 (p.19): when Flora herself fills a printed city she looks through the demand pile and
    chooses any tile of it (here textile or luxury), not one of a drawn pair; the state of her choice
    is a whole state (checked, saved, loaded)."""
    g = game()
    s = g.apply(fill_state(g, flora_seat=0, pile={"textile": 1, "luxury": 2}), ship_one_food(g))
    assert s.phase is Phase.DEMAND_CHOICE and g.to_move(s) == 0
    assert set(g.legal_actions(s)) == {ChooseDemandTile("textile"), ChooseDemandTile("luxury")}
    saved_and_loaded(g, s)


def test_eli_diamonds_extra_flight_is_one_flight_r83_p20() -> None:
    """KAS-R-83 (p.20): Eli lays an extra card face up and flies it as his action: one flight of that
    card (S04: 2 hexes), then loading, then his turn is over.  The state of the flight is whole."""
    from rulecraft.model.kings_of_air_and_steam.actions import EndCargo, ExtraFlight, Fly

    g = game()
    s = eli_state(g, ["S01", "S02", "S03", "S05"])
    flying = g.apply(s, ExtraFlight("S04"))
    assert flying.phase is Phase.FLIGHT and flying.flying == "S04"
    saved_and_loaded(g, flying)
    paths = [a for a in g.legal_actions(flying) if isinstance(a, Fly)]
    assert paths and {len(a.path) for a in paths} == {2}
    after = g.apply(g.apply(flying, paths[0]), EndCargo())
    assert after.seat == 1 and after.phase is Phase.FLIGHT


def test_an_errata_starting_money_is_every_characters_but_reginalds_r03_r63_p6_p18() -> None:
    """KAS-R-03 (p.6): every player starts with the ``starting_money`` ($12 printed; an erratum may say
    $15); KAS-R-63 (p.18): Reginald Kain starts with $20 whatever the others have."""
    g = make_game("kas", parameters={"starting_money": 15})
    s = g.new_game(2, teams=[("Emperor", "Reginald Kain"), ("Sphinx", "Victor Blane")])
    assert [p.money for p in s.players] == [20, 15]
    s = g.new_game(2, teams=[("Sphinx", "Eva Blane"), ("Emperor", "Harvey Golding")])
    assert [p.money for p in s.players] == [15, 15]


def test_a_users_board_with_its_own_slots_and_factories_r04_p6_amb13(tmp_path: Path) -> None:
    """A user's pack (the same components, board B's textile factory printed as luxury, Bown Town with
    4 slots).  KAS-R-04 (p.6): one good on every factory, the rest is the supply: under KAS-AMB-12
    'capped' (20 a type) 20 - 1 textile and 20 - 3 luxury on map ABC.  KAS-AMB-13: a printed city has the
    slots its board prints (5 on the bundled boards, 4 here)."""
    from importlib.resources import files

    import yaml

    from rulecraft.model.kings_of_air_and_steam.components import GOODS_INDEX, PACKAGE

    pack = yaml.safe_load(files(PACKAGE).joinpath("packs", "reconstructed.yaml").read_text("utf-8"))
    board_b = pack["boards"][1]
    (textile,) = [h for h in board_b["hexes"] if h.get("factory") == "textile"]
    textile["factory"] = "luxury"
    (bown,) = [c for c in pack["boards"][0]["cities"] if c["name"] == "Bown Town"]
    bown["slots"] = 4
    path = tmp_path / "pack.yaml"
    path.write_text(yaml.safe_dump(pack), "utf-8")
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-12": "capped"}, components=str(path))
    s = g.new_game(2, layout="ABC")
    kinds = [kind for _, kind in g.ctx.map_of(s).factories]
    assert (kinds.count("textile"), kinds.count("luxury")) == (1, 3)
    assert s.supply[GOODS_INDEX["textile"]] == 20 - 1 and s.supply[GOODS_INDEX["luxury"]] == 20 - 3
    assert city(g, s, "Bown Town").slots == 4 and city(g, s, "Wiesbaden").slots == 5


def test_an_open_route_choice_under_open_only_avoids_the_closed_city_r38_amb15() -> None:
    """KAS-AMB-15 'open-only': a route may end at a closed city but not pass through one.  Food from
    seat 0's depot on L1 to Gamma: through Beta (closed, its tile face down, KAS-R-41) on L2, seat 1's
    line, or round through Alpha on L3, seat 2's line (2 stops either way, rail level 2).  With the route
    left open only the L3 route is legal, so the $1 toll (KAS-R-38, p.13) goes to seat 2, not seat 1."""
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-15": "open-only"})
    from test_kas_readings import ROW

    # test_kas_readings.ROW's row of three cities on L1 and L2 (no factory), with L3 round above it
    three_lines = {
        "hexes": [[q, 0] for q in range(9)] + [[q, -1] for q in range(1, 9)],
        "cities": ROW["cities"],
        "lines": [*ROW["lines"], {"id": "L3", "ends": ["Alpha", "Gamma"], "hexes": [[q, -1] for q in range(1, 9)]}],
    }
    s = tools(g).scenario_state(
        {
            "players": 3,
            "map": three_lines,
            "phase": "action",
            "seat": 0,
            "market": {"slots": ["food", "food", "food"]},
            "cities": {"Beta": {"demand": "food", "tile": True, "closed": True}},
            "depots": [
                {"at": [1, 0], "owner": 0, "goods": {"food": 1}},
                {"at": [5, 0], "owner": 1},
                {"at": [4, -1], "owner": 2},
            ],
            "players_state": {
                0: {"plan": PLAN, "at": [0, 1], "rail_level": 2},
                1: {"plan": PLAN, "at": [0, 1]},
                2: {"plan": PLAN, "at": [0, 1]},
            },
        }
    )
    ship = ShipGoods(Hex(1, 0), "food", 1, to_city="Gamma")
    assert rule(g, s, ship) is None
    after = g.apply(s, ship)
    assert after.players[1].money == s.players[1].money, "L2 passes the closed Beta: not this route"
    assert after.players[2].money == s.players[2].money + 1
    assert city(g, after, "Gamma").filled == 1


def test_sebastians_bet_on_a_filling_delivery_then_the_demand_tile_then_the_turn_goes_on_r78_r40_p14_p19() -> None:
    """KAS-R-78 (p.19): Sebastian King bets $1 on a delivery; the token is turned.  The delivery fills
    Bown Town (4 + 1 of 5 slots), so KAS-R-40 (p.14): its cubes go back and a demand tile is drawn (the
    pile holds one machine tile).  Then his action is over and the turn passes on (KAS-R-24, KAS-R-44):
    seat 1 (Sphinx, priority 3) acted before him in cycle 1, so cycle 2 of the same round begins, both
    reveal S02 (letter A) and the lower priority number flies first (KAS-R-23, p.17): seat 1."""
    from rulecraft.model.kings_of_air_and_steam.actions import Gamble

    g = game()
    s, depot = delivery(g, "Sebastian King", "Kings Over Aces", filled=4, tokens=5)
    s = g.apply(s, ShipGoods(depot, "food", 1, to_city="Bown Town", bet=1))
    assert s.phase is Phase.GAMBLE
    s = g.apply(s, Gamble(False))
    assert s.phase is Phase.DEMAND_DRAW and s.demand_for == "Bown Town"
    after = g.apply(s, DrawDemandTile("machine"))
    assert city(g, after, "Bown Town").demand == "machine"
    assert after.round == 1 and after.cycle == 2
    assert after.seat == 1 and after.phase is Phase.FLIGHT
    assert after.players[0].slots[0] is SlotStatus.EXECUTED


def test_eva_blanes_lines_are_named_eva1_eva2_in_building_order_r71_p19() -> None:
    """KAS-R-71 (p.19): each line Eva builds joins the map as a rail line of its own; the protocol
    (docs/protocol/kas.md, section 7) names them EVA1, EVA2, ... in building order, and a shipment names
    its lines by these IDs."""
    g = game()
    s = eva_state(g, tokens=4, money=4)
    first = g.apply(s, line(STRAIGHT))
    assert [ln.id for ln in first.new_lines] == ["EVA1"]
    assert g.ctx.map_of(first).line_of(Hex(1, 0)) == "EVA1"
    from rulecraft.model.kings_of_air_and_steam.actions import BuildLine

    again = attrs.evolve(first, phase=Phase.ACTION, seat=0, turn=0)
    builds = [a for a in g.legal_actions(again) if isinstance(a, BuildLine)]
    assert builds, "a second line can be built"
    second = g.apply(again, builds[0])
    assert [ln.id for ln in second.new_lines] == ["EVA1", "EVA2"]
    assert g.ctx.map_of(second).line_of(builds[0].depot) == "EVA2"


def test_isaacs_extra_action_once_a_turn_the_second_is_refused_by_r67_as_well_r32_r67_p18() -> None:
    """KAS-R-67 (p.18): 'Körönként egyszer (rögtön az akciód után)': once a turn, right after the action,
    I.S.A.A.C. spends a token for a second action.  In that second action another ExtraAction is refused
    on two counts, both listed: the game waits for his action (KAS-R-32, p.12) and the extra action was
    his already (KAS-R-67); tokens are left, so that is not the reason."""
    from rulecraft.model.kings_of_air_and_steam.actions import ExtraAction, Grant

    g = game()
    s = turn_state(g, {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": 5}, SPHINX)
    offered = g.apply(s, Grant())
    assert offered.phase is Phase.BONUS
    extra = g.apply(offered, ExtraAction())
    assert extra.phase is Phase.ACTION and extra.seat == 0 and extra.players[0].tokens == 4
    assert [r.rule for r in g.rejections(extra, ExtraAction())] == ["KAS-R-32", "KAS-R-67"]


def test_the_generator_filter_keeps_exactly_what_the_check_accepts_r20_r34_r54_r61_amb20() -> None:
    """``rules.accepted`` (the move generator's filter) judges the phase and the turn's repeat rule once
    per action type: it must keep exactly what ``check`` accepts, in order.  The Emperor card (KAS-R-61,
    p.18) gives two actions; after an airship upgrade, under KAS-AMB-20 'once' no second upgrade (KAS-R-35,
    p.12), while a Grant (KAS-R-43, p.14) is still open; a card is planned only in the planning phase
    (KAS-R-20, p.9); one depot per rail hex (KAS-R-54, p.12), so of two Build Depot candidates only the
    empty hex is kept, and an upgrade refused for the turn does not hide a later Grant."""
    from rulecraft.model.kings_of_air_and_steam.actions import BuildDepot, Grant, Plan
    from rulecraft.model.kings_of_air_and_steam.rules import accepted, check

    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-20": "once"})
    rail = g.ctx.game_map("ABC").rail_hexes()
    taken, empty = rail[0], rail[1]
    me = {"team": "Emperor", "character": "Reginald Kain", "plan": ["EMP", "S02", "S03", "S04"], "money": 20}
    s = turn_state(g, me, SPHINX, depots=[{"at": [taken.q, taken.r], "owner": 1}])
    s = g.apply(attrs.evolve(s, actions_left=2), UpgradeAirship())
    assert s.phase is Phase.ACTION and s.seat == 0 and s.taken == ("upgrade-airship",)
    candidates: list[Any] = [UpgradeRail(), Plan("S05"), BuildDepot(taken), Grant(), BuildDepot(empty), Plan("S06")]
    assert accepted(g.ctx, s, candidates) == [Grant(), BuildDepot(empty)]
    assert accepted(g.ctx, s, candidates) == [a for a in candidates if check(g.ctx, s, a) is None]
    assert rule(g, s, UpgradeRail()) == "KAS-R-35" and rule(g, s, Plan("S05")) == "KAS-R-20"
    assert rule(g, s, BuildDepot(taken)) == "KAS-R-54"
    assert accepted(g.ctx, s, []) == []
