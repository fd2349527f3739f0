"""Kings of Air and Steam invariants: the checks' own bodies, pinned to the rules digest (issue 22 part 3).

The checks in ``invariants/kings_of_air_and_steam.py`` are now registered by a call, so mutmut mutates
their bodies.  Each test breaks one invariant in one specific way and asserts the exact message, or
builds a state that only just keeps it (a limit met exactly) and asserts silence.  A check that raises
is reported by the registry as "the check could not run: ..." (rulecraft/invariant.py).  Digest:
/work/shared/rules/kings_of_air_and_steam.md (rule IDs; pages of the Hungarian rulebook).
"""

from __future__ import annotations

from typing import Any

import attrs
from kas_helpers import game, turn_state
from test_kas_mutation_kills import invariant_base, seat0

from rulecraft.invariants.kings_of_air_and_steam import INVARIANTS
from rulecraft.model.kings_of_air_and_steam.components import GOODS
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.state import CargoStep, KasState, Phase
from rulecraft.model.kings_of_air_and_steam.transitions import UNLIMITED_SUPPLY
from rulecraft.registry import make_game

PRINTED = game()
COULD_NOT_RUN = "the check could not run"


def msgs(g: KingsOfAirAndSteamGame, name: str, state: KasState) -> list[str]:
    return [v.message for v in INVARIANTS[name].check(g, state)]


def rail_hexes(g: KingsOfAirAndSteamGame) -> list[Hex]:
    """Every rail hex of map ABC, in hex order (depots go only on rail hexes, KAS-R-33)."""
    return sorted({h for line in g.ctx.game_map("ABC").lines for h in line.hexes})


# -- goods-conserved (KAS-R-04, KAS-AMB-12) --------------------------------------------------------------


def test_a_capped_supply_of_20_per_type_is_conserved_kas_amb_12() -> None:
    """KAS-AMB-12 'capped': 20 cubes of each type (KAS-R-04 'about 20'); a valid state keeps them all."""
    capped = game(**{"KAS-AMB-12": "capped"})
    state = invariant_base(capped)
    assert msgs(capped, "goods-conserved", state) == []
    # the same state read with the unlimited supply (the default) counts 20 where it expects the unlimited pile
    found = msgs(PRINTED, "goods-conserved", state)
    assert [m.split(":")[0] for m in found] == list(GOODS)
    assert all(m.endswith(f"= 20, expected {UNLIMITED_SUPPLY}") for m in found)


def test_factories_that_do_not_match_the_map_are_reported_kas_r_04() -> None:
    """KAS-R-04: each printed factory of the map holds its goods; a state with one factory fewer than the
    map is malformed and reported, not silently matched up short."""
    state = invariant_base(PRINTED)
    short = attrs.evolve(state, factories=state.factories[:-1])
    found = msgs(PRINTED, "goods-conserved", short)
    assert len(found) == 1 and found[0].startswith(f"{COULD_NOT_RUN}: ValueError: zip()"), found


# -- money-conserved (KAS-R-03) ----------------------------------------------------------------------------


def test_the_starting_money_parameter_is_the_base_kas_r_03() -> None:
    """KAS-R-03: every player starts with the ``starting_money`` parameter ($12 printed); with $15 the
    recount starts from $15 each."""
    rich = make_game("kas", parameters={"starting_money": 15})
    assert isinstance(rich, KingsOfAirAndSteamGame)
    state = turn_state(rich, {"money": 15}, {"money": 15})
    assert msgs(rich, "money-conserved", state) == []


def test_money_lost_shows_players_plus_bank_kas_r_03() -> None:
    """KAS-R-03: $12 each at the start; what the players hold plus what the bank took stays $24."""
    state = turn_state(PRINTED, {"money": 7}, {"money": 12})
    assert state.bank == 5
    lost = seat0(state, money=6)
    assert msgs(PRINTED, "money-conserved", lost) == ["players $18 + bank takings $5 = $23, expected $24"]


# -- depots-limited (KAS-R-02, KAS-R-33) ---------------------------------------------------------------------


def _depot_state(hexes: list[Hex], owner: int = 0) -> KasState:
    state = invariant_base(PRINTED)
    template = state.depots[0]
    depots = tuple(attrs.evolve(template, at=h, owner=owner, goods=(0, 0, 0, 0, 0)) for h in hexes)
    supply = tuple(n + d for n, d in zip(state.supply, template.goods, strict=True))
    return attrs.evolve(state, depots=depots, supply=supply)


def test_two_depots_on_one_hex_kas_r_33() -> None:
    """KAS-R-33: one depot per rail hex."""
    h = rail_hexes(PRINTED)[0]
    state = seat0(_depot_state([h, h]), depots_left=8)
    assert msgs(PRINTED, "depots-limited", state) == [f"two depots at {h}"]


def test_a_depot_of_the_seat_after_the_last_kas_r_02() -> None:
    """KAS-R-02: depots belong to the players; with 2 players seat 2 is nobody."""
    h = rail_hexes(PRINTED)[0]
    state = _depot_state([h], owner=2)
    assert f"a depot at {h} belongs to no seat (2)" in msgs(PRINTED, "depots-limited", state)


def test_all_ten_depots_placed_and_none_left_kas_r_02() -> None:
    """KAS-R-02 (p.4): 10 depot tokens each; all 10 on the map with none left is allowed."""
    state = seat0(_depot_state(rail_hexes(PRINTED)[:10]), depots_left=0)
    assert msgs(PRINTED, "depots-limited", state) == []


def test_depots_are_kept_in_hex_order() -> None:
    """The state keeps depots sorted by hex (a canonical form, so equal positions compare equal)."""
    a, b = rail_hexes(PRINTED)[:2]
    state = seat0(_depot_state([b, a]), depots_left=8)
    assert msgs(PRINTED, "depots-limited", state) == ["depots are not kept in hex order"]


# -- hold-within-capacity (KAS-R-29, KAS-R-34) ---------------------------------------------------------------


def test_three_goods_in_a_hold_of_two_kas_r_34() -> None:
    """KAS-R-34: the airship at level 1 carries 2 goods (KAS-EX-11: diamond 1 / capacity 2)."""
    state = invariant_base(PRINTED)
    over = attrs.evolve(seat0(state, hold=(1, 0, 1, 1, 0)), supply=(state.supply[0] - 1, *state.supply[1:]))
    assert msgs(PRINTED, "hold-within-capacity", over) == ["seat 0 holds 3 goods with capacity 2 (+0, KAS-AMB-44)"]


# -- gambler-tokens (KAS-R-78, KAS-AMB-38) ---------------------------------------------------------------------


def _gambler(g: KingsOfAirAndSteamGame, seat: int = 0, tokens: int = 5, spent_tokens: tuple[str, ...] = ()) -> KasState:
    """Sebastian King (KAS-R-78) at ``seat`` of a 2-player advanced game, with these tokens."""
    king = {"team": "Kings Over Aces", "character": "Sebastian King", "tokens": tokens}
    plain = {"team": "Sphinx", "character": "Victor Blane"}
    state = turn_state(g, king if seat == 0 else plain, king if seat == 1 else plain)
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], spent_tokens=spent_tokens)
    return attrs.evolve(state, players=tuple(players))


SPENT = game(**{"KAS-AMB-38": "spent"})


def test_used_up_tokens_only_under_spent_kas_amb_38() -> None:
    """KAS-AMB-38: under 'reuse' (default) the turned tokens go back, so none is ever used up; under
    'spent' Sebastian King's token used up is kept."""
    state = _gambler(PRINTED, tokens=4, spent_tokens=("chemical",))
    assert msgs(PRINTED, "gambler-tokens", state) == ["seat 0 (Sebastian King) has used-up gambler tokens ['chemical']"]
    assert msgs(SPENT, "gambler-tokens", _gambler(SPENT, tokens=4, spent_tokens=("chemical",))) == []


def test_a_later_seats_used_up_tokens_are_checked_kas_amb_38() -> None:
    """Seat 0 has none used up; seat 1 (Sebastian King, under 'reuse') does: reported."""
    state = _gambler(PRINTED, seat=1, tokens=4, spent_tokens=("food",))
    assert msgs(PRINTED, "gambler-tokens", state) == ["seat 1 (Sebastian King) has used-up gambler tokens ['food']"]


def test_used_up_tokens_in_goods_order_kas_r_78() -> None:
    """KAS-R-78/KAS-AMB-38: one token per goods type, kept in goods order (chemical before food)."""
    state = _gambler(SPENT, tokens=3, spent_tokens=("food", "chemical"))
    assert msgs(SPENT, "gambler-tokens", state) == [
        "seat 0: used-up tokens ['food', 'chemical'] are not distinct goods in goods order"
    ]


def test_five_tokens_in_all_kas_r_78() -> None:
    """KAS-R-78: five gambler tokens: 3 left + 2 used up is all five; 4 left + 2 used up is one too many."""
    assert msgs(SPENT, "gambler-tokens", _gambler(SPENT, tokens=3, spent_tokens=("chemical", "food"))) == []
    assert msgs(SPENT, "gambler-tokens", _gambler(SPENT, tokens=4, spent_tokens=("chemical", "food"))) == [
        "seat 0: 4 tokens left + 2 used up > 5"
    ]


# -- tracks-in-range (KAS-R-35, KAS-AMB-07) ---------------------------------------------------------------------


def test_a_rail_level_off_the_track_names_the_reading_kas_amb_07() -> None:
    """KAS-R-35: the rail track has 6 levels, from level 1 under KAS-AMB-07 'level-1' (default)."""
    state = seat0(invariant_base(PRINTED), rail_level=7)
    assert msgs(PRINTED, "tracks-in-range", state) == ["seat 0: rail level 7 (KAS-AMB-07 'level-1')"]


# -- market-tiles-accounted (KAS-R-05, KAS-R-15) ------------------------------------------------------------------


def test_a_tile_miscount_shows_every_place_kas_r_05() -> None:
    """KAS-R-05: 3 market tiles of each type; one food tile more on the future-market slots."""
    state = invariant_base(PRINTED)
    g = GOODS.index("food")
    pile, slots, demand = state.market_pile[g], state.market_slots.count("food"), state.demand_pile[g]
    cities = sum(1 for c in state.cities if c.tile and c.demand == "food")
    extra = attrs.evolve(state, market_slots=(*state.market_slots, "food"))
    counted = pile + slots + 1 + demand + cities + state.removed_tiles[g]
    assert msgs(PRINTED, "market-tiles-accounted", extra) == [
        f"food: pile {pile} + slots {slots + 1} + demand pile {demand} + on cities {cities} (+ removed) = {counted},"
        " expected 3",
        "4 tiles on the 3 future-market slots",
    ]


# -- cities-consistent (KAS-R-36, KAS-R-40) -----------------------------------------------------------------------


def _city(state: KasState, name: str, **changes: Any) -> KasState:
    i = PRINTED.ctx.map_of(state).city_index(name)
    return attrs.evolve(
        state, cities=tuple(attrs.evolve(c, **changes) if j == i else c for j, c in enumerate(state.cities))
    )


def test_a_closed_and_a_waiting_city_holding_goods_kas_r_40() -> None:
    """KAS-R-40/41: a closed city accepts nothing, and a city waiting for its demand tile holds nothing."""
    state = invariant_base(PRINTED)
    assert msgs(PRINTED, "cities-consistent", _city(state, "Bown Town", closed=True)) == [
        "Bown Town is closed yet holds 2 goods"
    ]
    assert msgs(PRINTED, "cities-consistent", _city(state, "Bown Town", waiting=True)) == [
        "Bown Town is waiting yet holds 2 goods"
    ]


def test_cities_that_do_not_match_the_map_are_reported_kas_r_36() -> None:
    """KAS-R-36: one city state per printed city; a state with one fewer is malformed and reported."""
    state = invariant_base(PRINTED)
    found = msgs(PRINTED, "cities-consistent", attrs.evolve(state, cities=state.cities[:-1]))
    assert len(found) == 1 and found[0].startswith(f"{COULD_NOT_RUN}: ValueError: zip()"), found


# -- diamonds-within-rating (KAS-R-25, KAS-R-83) -------------------------------------------------------------------


def test_a_plan_and_its_slots_of_different_lengths_are_reported_kas_r_25() -> None:
    """KAS-R-25: each planned card has its slot; a plan of 4 with 3 slots is malformed and reported."""
    state = invariant_base(PRINTED)
    broken = seat0(state, slots=state.players[0].slots[:3])
    found = msgs(PRINTED, "diamonds-within-rating", broken)
    assert len(found) == 1 and found[0].startswith(f"{COULD_NOT_RUN}: ValueError: zip()"), found


def test_eli_diamonds_extra_cards_count_their_diamonds_kas_r_83() -> None:
    """KAS-R-83: Eli Diamond's extra cards are played face up and their diamonds count against his rating
    (KAS-R-25)."""
    eli = turn_state(
        PRINTED, {"team": "Sky Castle", "character": "Eli Diamond"}, {"team": "Sphinx", "character": "Victor Blane"}
    )
    rating = PRINTED.pack.team("Sky Castle").airship_track[0].diamonds
    heavy = sorted(PRINTED.pack.deck, key=lambda c: -c.diamonds)
    extra: list[str] = []
    while sum(PRINTED.pack.card(c).diamonds for c in extra) <= rating:
        extra.append(heavy[len(extra)].id)
    spent = sum(PRINTED.pack.card(c).diamonds for c in extra)
    state = seat0(eli, extra_cards=tuple(extra))
    assert msgs(PRINTED, "diamonds-within-rating", state) == [
        f"seat 0 has {spent} diamonds in play with a rating of {rating}"
    ]


# -- phase-bookkeeping (KAS-R-13, KAS-R-14, KAS-R-21) ---------------------------------------------------------------


def test_cycle_5_is_past_the_four_cards_kas_r_14() -> None:
    """KAS-R-14: four cycles a round, one per planned card."""
    assert "cycle 5" in msgs(PRINTED, "phase-bookkeeping", attrs.evolve(invariant_base(PRINTED), cycle=5))


def test_a_plan_of_four_with_a_card_twice_and_every_seat_checked_kas_r_13() -> None:
    """KAS-R-13: a plan is 4 different cards; both seats' broken plans are reported."""
    state = invariant_base(PRINTED)
    twice = ("S01", "S01", "S03", "S04")
    p0 = attrs.evolve(state.players[0], plan=twice)
    p1 = attrs.evolve(state.players[1], plan=twice)
    assert msgs(PRINTED, "phase-bookkeeping", attrs.evolve(state, players=(p0, p1))) == [
        "seat 0 plays a plan of 4 cards",
        "seat 1 plays a plan of 4 cards",
    ]


def test_a_load_step_open_or_missing_kas_r_28() -> None:
    """KAS-R-28..31: the load/unload step exists exactly in the cargo phase."""
    state = invariant_base(PRINTED)
    assert msgs(PRINTED, "phase-bookkeeping", attrs.evolve(state, cargo=CargoStep())) == [
        "a load/unload step is open in phase action"
    ]
    assert msgs(PRINTED, "phase-bookkeeping", attrs.evolve(state, phase=Phase.CARGO)) == [
        "a load/unload step is missing in phase cargo"
    ]


def test_under_uncertainty_four_tiles_a_type_kas_r_06() -> None:
    """KAS-R-06 (Uncertainty): all 20 tiles, 4 a type, with 5 removed unseen; one removed of each type
    keeps the count, and a food tile more is reported against 4."""
    state = invariant_base(PRINTED)
    unsure = attrs.evolve(state, uncertainty=True, removed_tiles=(1, 1, 1, 1, 1))
    assert msgs(PRINTED, "market-tiles-accounted", unsure) == []
    g = GOODS.index("food")
    pile, slots, demand = state.market_pile[g], state.market_slots.count("food"), state.demand_pile[g]
    cities = sum(1 for c in state.cities if c.tile and c.demand == "food")
    more = attrs.evolve(unsure, market_pile=tuple(n + (1 if i == g else 0) for i, n in enumerate(state.market_pile)))
    assert msgs(PRINTED, "market-tiles-accounted", more) == [
        f"food: pile {pile + 1} + slots {slots} + demand pile {demand} + on cities {cities} (+ removed)"
        f" = {pile + 1 + slots + demand + cities + 1}, expected 4"
    ]


# -- teams-dealt (KAS-R-08, KAS-R-09) --------------------------------------------------------------------


def advanced_state() -> KasState:
    """A 3-player advanced game as the set-up deals it: three different teams, one character of each card."""
    teams = (("Sphinx", "Victor Blane"), ("DaVinci", "I.S.A.A.C."), ("Rose & Thorn", "Bishop Kingston"))
    state = PRINTED.new_game(3, teams=teams)
    assert msgs(PRINTED, "teams-dealt", state) == []
    return state


def with_teams(state: KasState, *pairs: tuple[str | None, str | None]) -> KasState:
    players = tuple(
        attrs.evolve(p, team=team, character=character)
        for p, (team, character) in zip(state.players, pairs, strict=True)
    )
    return attrs.evolve(state, players=players)


def test_the_base_game_deals_no_team_kas_r_08() -> None:
    """KAS-R-08 is the advanced game's: a base game with no team anywhere is silent."""
    state = PRINTED.new_game(3)
    assert [p.team for p in state.players] == [None, None, None]
    assert msgs(PRINTED, "teams-dealt", state) == []


def test_one_team_board_per_player_kas_r_08() -> None:
    """p.17: the player boards are dealt one to each player, so no team is played by two seats."""
    state = with_teams(advanced_state(), ("Sphinx", "Victor Blane"), ("Sphinx", "Eva Blane"), ("DaVinci", "I.S.A.A.C."))
    assert msgs(PRINTED, "teams-dealt", state) == ["team(s) ['Sphinx'] dealt to more than one seat"]


def test_every_player_of_an_advanced_game_has_a_team_kas_r_08() -> None:
    state = with_teams(advanced_state(), ("Sphinx", "Victor Blane"), (None, None), ("DaVinci", "I.S.A.A.C."))
    assert msgs(PRINTED, "teams-dealt", state) == ["seats [1] have no team in an advanced game"]


def test_a_character_from_the_teams_own_card_kas_r_09() -> None:
    """p.17: each player chooses one of the two characters of their team's card (Sphinx: Victor or Eva
    Blane; Flora Kingston is Rose & Thorn's)."""
    state = with_teams(
        advanced_state(), ("Sphinx", "Flora Kingston"), ("DaVinci", "I.S.A.A.C."), ("Emperor", "Reginald Kain")
    )
    assert msgs(PRINTED, "teams-dealt", state) == [
        "seat 0 plays 'Flora Kingston', not a character of Sphinx (Victor Blane or Eva Blane)"
    ]


def test_a_team_the_pack_lacks_kas_r_08() -> None:
    state = with_teams(advanced_state(), ("Atlantis", "Victor Blane"), ("DaVinci", "I.S.A.A.C."), ("Emperor", None))
    assert msgs(PRINTED, "teams-dealt", state) == [
        "seat 0's team 'Atlantis' is not in the pack",
        "seat 2 plays None, not a character of Emperor (Harvey Golding or Reginald Kain)",
    ]


def test_a_seat_without_a_team_does_not_hide_the_next_seats_character_kas_r_09() -> None:
    """Every seat is checked: seat 0 without a team and seat 1 with a character of another card are both
    reported (Sphinx's card shows Victor and Eva Blane, p.17)."""
    state = with_teams(advanced_state(), (None, None), ("Sphinx", "Harvey Golding"), ("DaVinci", "I.S.A.A.C."))
    assert msgs(PRINTED, "teams-dealt", state) == [
        "seats [0] have no team in an advanced game",
        "seat 1 plays 'Harvey Golding', not a character of Sphinx (Victor Blane or Eva Blane)",
    ]
