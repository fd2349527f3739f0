"""Kings of Air and Steam witness starts: states where an ambiguity is consulted that random games
rarely reach (rulecraft/witness.py plays both readings from them and finds the witness itself).

Every start is built with the scenario builder (the printed examples' ``given:`` vocabulary) on the
bundled map ABC, then put in the step the rule belongs to; each must keep the invariants (the
search refuses one that does not).  The advanced game's team cards give a bonus step beside the
action (``Phase.BONUS``): random games reach one only when the seat with that team plans the card,
flies it and then has goods, a depot and an opponent where the card needs them.

- KAS-AMB-42 (p.20, the Godfather steal, KAS-R-85): an opponent's depot with goods on the
  Godfather's hex; the default steals from a depot or a hold, 'hold-only' from a hold only.
- KAS-AMB-33 (p.19, the Sphinx card, KAS-R-69): a depot of 3 food beside a city that takes food; the
  default ships one good, 'b' one shipment of any size.
- KAS-AMB-37 (p.19, Bishop Kingston's returned good, KAS-R-75): 3 food for a city with 2 free slots;
  the default needs room for the whole shipment, 'placed' for the goods placed only.
- KAS-AMB-26 (p.20, character powers in the Sellout, KAS-R-86 with KAS-R-51): Thaddeus Birch sells
  food from a depot on line B1 to Bown Town over line B2, which holds an opponent's depot; the
  default keeps his no-toll power there, 'none' makes him pay the toll.
  A second start has Sebastian King sell food beside Bown Town: under 'all' (a sale is a one-good
  delivery) he may bet on it (KAS-R-78).  Both Sellouts go by priority (KAS-R-10, KAS-AMB-30).
- KAS-AMB-41 (p.19-20, Eli Diamond's extra flight, KAS-R-83 with KAS-R-25): his slot-1 card went back
  to the deck over his diamond rating; the default lets him fly it again, 'unreturned' does not.
- KAS-AMB-15 (p.13, route shape, KAS-R-37): map ABC's six lines form one ring, so at rail level 6 (the
  track's top, p.16) food on line A1 can go all the way round to its owner's other depot on A1; the
  default uses each line once and has no such route, 'revisit' lets the ring end on A1 again.
- KAS-AMB-29 (p.6 step D, KAS-R-07): the last of 3 players to place finds both lines of a small board
  (two lines, like the printed examples' fixture boards) holding another player's depot; the default
  lets him place on any empty rail hex, 'strict' places his airship alone (`start-airship`).  The
  pack's layouts never leave a player without a line (ABC has 6 lines for at most 3 players, ABCDE and
  ABCFG 10 for at most 5, ABCDEFG 14 for at most 7), hence the start's own board.
- KAS-AMB-43 (p.20, Ezekiel Crane's theft, KAS-R-87): Ezekiel about to fly one hex with two opponents'
  airships beside him; the default robs a victim his flight ends on, 'no-end' does not.
- KAS-AMB-04 (p.11, 18, KAS-R-26 with R-65): the DaVinci card (straight 7) from (0, 0), where map ABC
  leaves at most 5 straight hexes in any direction: 'a' stays put, 'b' loses the turn, 'c' flies the 5.
- KAS-AMB-10 (p.14, 16, KAS-R-40 with R-49): round 1, the demand pile empty, Bown Town one food from full
  and a depot of food beside it: the filled city waits ('a'), closes ('b') or demands food again ('c').
- KAS-AMB-32 (p.18, KAS-R-61): the Emperor card's two actions (airship level 3: its 2 diamonds need
  rating 2); 'distinct' refuses the second action of a kind.
- KAS-AMB-35 (p.19, KAS-R-73): the Rose & Thorn card's first flight from (0, 0); 'up-to' adds the
  flights shorter than 2.
- KAS-AMB-38 (p.19, KAS-R-78): Sebastian King beside Bown Town with food to deliver and a bet to place;
  'spent' uses the turned tokens up.
- KAS-AMB-44 (p.18, KAS-R-66 with R-29): Aurelia Bayley with a full hold; 'ignore-capacity' lets it
  convert a good into two.
- KAS-AMB-39 (p.19, KAS-R-79): Corey McQueen with 1 food in a depot beside Bown Town and a textile only in
  another depot of his; 'any-depot' lets the textile ride along as the swindled good.
- KAS-AMB-30 (p.5, 16-17, KAS-R-51): a base-game Sellout, seat 1 first: its food may go over line A1, paying
  $1 to seat 0, who has $0 and food whose ring route to Bown Town owes $5; the $1 pays that toll by
  priority, not under 'simultaneous' (tolls received are paid out after all sales).

Two readings no start can part on the game's pack, and an exhaustive check over its layouts says why
(:func:`witness_queries`): KAS-AMB-23 ('full-hexes' refuses a depot on a partial edge rail hex: the
layouts have none, and Eva Blane's new lines never take a partial hex, KAS-R-71) and KAS-AMB-22
('one-source' parts only a loading step at a hex with a factory and an own depot: depots stand on
rail hexes only, no layout has a factory on one, and new lines never take a factory hex).  A third
check reads the pack's decks: KAS-AMB-43 'repeat' robs a victim again only when one flight of Ezekiel
Crane enters a hex twice, which takes 7 steps with 60° bends; his cards fly at most 5.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from rulecraft.core import Game
from rulecraft.search import Start
from rulecraft.tools import tools
from rulecraft.witness import SolverHook, SolverVerdict, StartHook, consulted_in

LAYOUT = "ABC"
PLAN = ["S01", "S02", "S03", "S04"]  # plain cards of the pack: letters A, A, B, B
PLAIN = {"team": "Sphinx", "character": "Victor Blane"}


def _beside_bown_town(game: Game[Any, Any]) -> tuple[int, int]:
    """The rail hex of line B2 (it ends at Bown Town, which takes food)."""
    at = game.ctx.game_map(LAYOUT).line("B2").hexes[0]  # type: ignore[attr-defined]
    return at.q, at.r


def _bonus(game: Game[Any, Any], given: Mapping[str, Any], bonus: str) -> Any:
    from rulecraft.model.kings_of_air_and_steam.state import Phase

    return attrs.evolve(tools(game).scenario_state(given), phase=Phase.BONUS, bonus=bonus)


def _godfather_by_a_depot(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    q, r = _beside_bown_town(game)
    given = {
        "players": 3,
        "layout": LAYOUT,
        "phase": "action",
        "seat": 1,
        "market": {"slots": ["food", "food", "food"]},
        "depots": [{"at": [q, r], "owner": 0, "goods": {"food": 1, "textile": 1}}],
        "players_state": {
            0: {**PLAIN, "plan": ["S05", "S06", "S07", "S08"], "at": [0, -1]},
            1: {"team": "Godfather", "character": "Thaddeus Birch", "plan": ["GOD", *PLAN[1:]], "at": [q, r]},
            2: {"team": "Emperor", "character": "Reginald Kain", "plan": ["S09", "S10", "S11", "S12"], "at": [0, -1]},
        },
    }
    yield "the Godfather's steal on the hex of an opponent's depot (KAS-R-85)", _bonus(game, given, "steal")


def _sphinx_by_a_depot(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    q, r = _beside_bown_town(game)
    given = {
        "players": 2,
        "layout": LAYOUT,
        "phase": "action",
        "seat": 0,
        "market": {"slots": ["food", "machine", "textile"], "demand_pile": {"machine": 1}},
        "depots": [{"at": [q, r], "owner": 0, "goods": {"food": 3}}],
        "players_state": {
            0: {**PLAIN, "plan": ["SPH", *PLAN[1:]], "at": [0, -1], "money": 5},
            1: {"team": "Emperor", "character": "Reginald Kain", "plan": PLAN, "at": [0, -1]},
        },
    }
    yield "the Sphinx card's free shipment beside a depot of 3 food (KAS-R-69)", _bonus(game, given, "ship-one")


def _bishop_with_two_free_slots(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    q, r = _beside_bown_town(game)
    given = {
        "players": 2,
        "layout": LAYOUT,
        "phase": "action",
        "seat": 0,
        "market": {"slots": ["food", "machine", "textile"], "demand_pile": {"machine": 1}},
        "depots": [{"at": [q, r], "owner": 0, "goods": {"food": 3, "textile": 1}}],
        "cities": {"Bown Town": {"filled": 3}},
        "players_state": {
            0: {"team": "Rose & Thorn", "character": "Bishop Kingston", "plan": PLAN, "at": [0, -1], "money": 5},
            1: {**PLAIN, "plan": PLAN, "at": [0, -1]},
        },
    }
    yield (
        "Bishop Kingston's action with 3 food for a city with 2 free slots (KAS-R-75)",
        tools(game).scenario_state(given),
    )


EVERY_TILE = dict.fromkeys(("chemical", "machine", "food", "textile", "luxury"), 3)  # all 15 tiles drawn


def _in_sellout_order(game: Game[Any, Any], given: Mapping[str, Any]) -> Any:
    """The advanced game's Sellout goes by ascending priority number (KAS-R-10, KAS-AMB-30): the seats
    before the given one (seat 0) have sold already."""
    from rulecraft.model.kings_of_air_and_steam.transitions import by_priority

    state = tools(game).scenario_state(given)
    order = by_priority(game.ctx, state)  # type: ignore[attr-defined]
    return attrs.evolve(state, order=order, turn=order.index(state.seat))


def _sellout_powers(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    yield from _birch_selling_over_a_tolled_line(game)
    yield from _sebastian_selling_with_a_bet(game)


def _birch_selling_over_a_tolled_line(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 2,
        "layout": LAYOUT,
        "phase": "sellout",
        "round": 6,
        "seat": 0,
        "players_state": {
            0: {"team": "Godfather", "character": "Thaddeus Birch", "at": [0, -1], "money": 0, "rail_level": 3},
            1: {**PLAIN, "at": [0, -1]},
        },
        "depots": [{"at": [5, -2], "owner": 0, "goods": {"food": 1}}, {"at": [3, -2], "owner": 1}],
        "market": {"pile": {}, "demand_pile": EVERY_TILE},
    }
    yield "Thaddeus Birch's Sellout of food over an opponent's line (KAS-R-51, R-86)", _in_sellout_order(game, given)


def _sebastian_selling_with_a_bet(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Sebastian King (priority 5, before the Godfather's 7) sells food from his depot by Bown Town; under
    'all' a sale is a one-good delivery, so he may bet on it (KAS-R-78)."""
    q, r = _beside_bown_town(game)
    given = {
        "players": 2,
        "layout": LAYOUT,
        "phase": "sellout",
        "round": 6,
        "seat": 0,
        "players_state": {
            0: {"team": "Kings Over Aces", "character": "Sebastian King", "at": [0, -1], "tokens": 5},
            1: {"team": "Godfather", "character": "Thaddeus Birch", "at": [0, -1]},
        },
        "depots": [{"at": [q, r], "owner": 0, "goods": {"food": 1}}],
        "market": {"pile": {}, "demand_pile": EVERY_TILE},
    }
    yield "Sebastian King's Sellout of food beside Bown Town (KAS-R-51, R-78)", _in_sellout_order(game, given)


def _eli_with_a_returned_card(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 2,
        "layout": LAYOUT,
        "phase": "action",
        "seat": 0,
        "cycle": 2,
        "market": {"slots": ["food", "food", "food"]},
        "players_state": {
            0: {
                "team": "Sky Castle",
                "character": "Eli Diamond",
                "plan": ["S11", "S01", "S03", "S04"],
                "slots": ["returned", "planned", "planned", "planned"],
                "at": [0, -1],
            },
            1: {**PLAIN, "plan": PLAN, "slots": ["executed", "executed", "planned", "planned"], "at": [0, -1]},
        },
    }
    yield (
        "Eli Diamond's action after his slot-1 card went back over his rating (KAS-R-25, R-83)",
        tools(game).scenario_state(given),
    )


RING = ("A1", "A2", "C1", "C2", "B1", "B2")  # map ABC: Bown Town, Wiesbaden, New Belfort, Irdyo, Warsop, Aldenville
CLOSED = "New Belfort"  # between A2 and C1: its demand tile fulfilled and face down (KAS-R-41)


def _food_round_the_ring(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Seat 0 at rail level 6 with food on line A1 and a second depot at A1's far end; seat 1 has a
    depot on each of the other five lines of the ring (KAS-R-37: every line used needs a depot)."""
    game_map = game.ctx.game_map(LAYOUT)  # type: ignore[attr-defined]
    a1 = game_map.line("A1").hexes
    others = [game_map.line(line).hexes[0] for line in RING[1:]]
    given = {
        "players": 2,
        "layout": LAYOUT,
        "phase": "action",
        "seat": 0,
        "market": {"slots": ["food", "food", "food"]},
        "cities": {CLOSED: {"demand": "textile", "tile": True, "closed": True}},
        "depots": [
            {"at": [a1[0].q, a1[0].r], "owner": 0, "goods": {"food": 1}},
            {"at": [a1[-1].q, a1[-1].r], "owner": 0},
            *({"at": [at.q, at.r], "owner": 1} for at in others),
        ],
        "players_state": {
            0: {"plan": PLAN, "at": [0, -1], "rail_level": 6},  # the base game: no team, no character
            1: {"plan": ["S05", "S06", "S07", "S08"], "at": [0, -1]},
        },
    }
    yield (
        "food on line A1 at rail level 6, a depot on every line of map ABC's ring (KAS-R-37)",
        tools(game).scenario_state(given),
    )


# KAS-AMB-29: a board of two lines (the printed examples' fixture boards are as small), three cities.
TWO_LINES: dict[str, Any] = {
    "hexes": [[q, 0] for q in range(9)] + [[q, 1] for q in range(9)],
    "factories": {"2,1": "food"},
    "cities": [
        {"name": "Alpha", "at": [0, 0], "demand": "food"},
        {"name": "Beta", "at": [4, 0], "demand": "machine"},
        {"name": "Gamma", "at": [8, 0], "demand": "textile"},
    ],
    "lines": [
        {"id": "L1", "ends": ["Alpha", "Beta"], "hexes": [[1, 0], [2, 0], [3, 0]]},
        {"id": "L2", "ends": ["Beta", "Gamma"], "hexes": [[5, 0], [6, 0], [7, 0]]},
    ],
}


def _no_line_left_for_the_last_depot(game: Game[Any, Any]) -> Iterator[Start]:
    """A new 3-player game on the two-line board: in reverse turn order seat 2 takes line L1 and
    seat 1 line L2 (KAS-R-07), so seat 0, the start player, places last with no line of his own."""
    from rulecraft.model.kings_of_air_and_steam.actions import PlaceStartDepot
    from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
    from rulecraft.model.kings_of_air_and_steam.transitions import new_game

    fixture = {"map": TWO_LINES}
    game.load_fixture(fixture)
    state = new_game(game.ctx, 3, 0, "fixture")  # type: ignore[attr-defined]
    for at in (Hex(1, 0), Hex(5, 0)):
        state = game.apply(state, PlaceStartDepot(at))
    yield Start(
        "the start player's depot with both lines of a two-line board taken (KAS-R-07)", state=state, fixture=fixture
    )


def _ezekiel_beside_two_airships(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Ezekiel Crane to fly card S02 (1 hex) from (0, 0), the airships of seats 1 and 2 on two of the
    hexes beside him (KAS-R-87)."""
    given = {
        "players": 3,
        "layout": LAYOUT,
        "phase": "flight",
        "seat": 0,
        "market": {"slots": ["food", "machine", "textile"]},
        "players_state": {
            0: {"team": "Godfather", "character": "Ezekiel Crane", "plan": ["S02", "S03", "S04", "S05"], "at": [0, 0]},
            1: {**PLAIN, "plan": ["S06", "S07", "S08", "S09"], "at": [1, 0]},
            2: {"team": "Emperor", "character": "Reginald Kain", "plan": ["S10", "S11", "S12", "S01"], "at": [0, 1]},
        },
    }
    yield "Ezekiel Crane's one-hex flight beside two opponents' airships (KAS-R-87)", tools(game).scenario_state(given)


# KAS-AMB-04, 10, 32, 35, 38 and 44: a team card, a character or an empty demand pile where its rule bites.
OPPONENT = {**PLAIN, "plan": ["S05", "S06", "S07", "S08"], "at": [0, -1]}  # seat 1, cards C to D


def _given(seat0: Mapping[str, Any], phase: str, **more: Any) -> dict[str, Any]:
    """Two players on map ABC, seat 0 to move in ``phase``, seat 1 the plain opponent."""
    return {
        "players": 2,
        "layout": LAYOUT,
        "phase": phase,
        "seat": 0,
        "market": {"slots": ["food", "machine", "textile"]},
        **more,
        "players_state": {0: dict(seat0), 1: OPPONENT},
    }


def _davinci_with_no_straight_seven(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """The DaVinci card (7 hexes, no turn, KAS-R-64) from (0, 0): in every direction map ABC ends, or a
    city or partial hex would be the end, within 7 hexes (KAS-R-27), so no legal flight exists."""
    seat0 = {"team": "DaVinci", "character": "I.S.A.A.C.", "plan": ["DAV", "S02", "S03", "S04"], "at": [0, 0]}
    yield (
        "the DaVinci card's straight 7 with no legal flight (KAS-R-26, R-64)",
        tools(game).scenario_state(_given(seat0, "flight")),
    )


def _city_filling_with_no_demand_tile(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Round 1, the demand pile still empty (tiles enter it at Production, KAS-R-49): Bown Town (food) holds
    4 of its 5 goods and seat 0's depot beside it on line B2 holds 2 food (KAS-R-40)."""
    q, r = _beside_bown_town(game)
    seat0 = {"plan": PLAN, "at": [0, 0]}  # the base game: no team, no character
    given = _given(
        seat0,
        "action",
        cities={"Bown Town": {"filled": 4}},
        depots=[{"at": [q, r], "owner": 0, "goods": {"food": 2}}],
    )
    given["players_state"][1] = {"plan": ["S05", "S06", "S07", "S08"], "at": [0, -1]}
    yield "Bown Town one food from full, the demand pile empty (KAS-R-40, R-49)", tools(game).scenario_state(given)


def _emperor_with_two_actions(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """The Emperor card (KAS-R-61): no movement step, two full actions.  Its 2 diamonds need rating 2
    (airship level 3, KAS-R-25), which random games seldom reach before playing it."""
    seat0 = {
        "team": "Emperor",
        "character": "Reginald Kain",
        "plan": ["EMP", "S02", "S03", "S04"],
        "at": [0, 0],
        "airship_level": 3,
    }
    state = tools(game).scenario_state(_given(seat0, "action"))
    yield "the Emperor card's two actions (KAS-R-61)", attrs.evolve(state, actions_left=2)


def _rose_and_thorn_flights(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """The Rose & Thorn card (KAS-R-73): two movement steps of 2 hexes, from (0, 0) in open sky."""
    seat0 = {"team": "Rose & Thorn", "character": "Bishop Kingston", "plan": ["ROS", "S02", "S03", "S04"], "at": [0, 0]}
    state = tools(game).scenario_state(_given(seat0, "flight"))
    yield "the Rose & Thorn card's first 2-hex flight (KAS-R-73)", attrs.evolve(state, flights_left=2)


def _sebastian_beside_a_city(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Sebastian King (KAS-R-78) with 2 food in a depot on line B2, Bown Town taking food: he may bet $1-3
    on his 5 tokens with the delivery."""
    q, r = _beside_bown_town(game)
    seat0 = {"team": "Kings Over Aces", "character": "Sebastian King", "plan": PLAN, "at": [0, 0], "tokens": 5}
    given = _given(seat0, "action", depots=[{"at": [q, r], "owner": 0, "goods": {"food": 2}}])
    yield "Sebastian King's delivery with a bet (KAS-R-78)", tools(game).scenario_state(given)


def _aurelia_with_a_full_hold(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Aurelia Bayley (KAS-R-66) with 2 food in a hold of capacity 2 (airship level 1) and 5 tokens."""
    seat0 = {
        "team": "DaVinci",
        "character": "Aurelia Bayley",
        "plan": PLAN,
        "at": [0, 0],
        "hold": {"food": 2},
        "tokens": 5,
    }
    yield (
        "Aurelia Bayley's conversion in a full hold (KAS-R-66, R-29)",
        tools(game).scenario_state(_given(seat0, "action")),
    )


def _corey_with_a_textile_elsewhere(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Corey McQueen (KAS-R-79, 5 swindler tokens) with 1 food in a depot on line B2 beside Bown Town (food)
    and 1 textile only in his depot on line A2."""
    q, r = _beside_bown_town(game)
    a2 = game.ctx.game_map(LAYOUT).line("A2").hexes[0]  # type: ignore[attr-defined]
    seat0 = {"team": "Kings Over Aces", "character": "Corey McQueen", "plan": PLAN, "at": [0, 0], "tokens": 5}
    depots = [
        {"at": [q, r], "owner": 0, "goods": {"food": 1}},
        {"at": [a2.q, a2.r], "owner": 0, "goods": {"textile": 1}},
    ]
    yield (
        "Corey McQueen's delivery with the off-type good in another depot (KAS-R-79)",
        tools(game).scenario_state(_given(seat0, "action", depots=depots)),
    )


def _sellout_toll_from_an_earlier_seller(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """A base-game Sellout (KAS-R-51), seat 1 to sell first.  Seat 0 ($0, rail level 6) has food on line A1;
    seat 1 has a depot on each other line of the ring and food on A2, which may go to Bown Town over A1
    (a $1 toll to seat 0's depot there, KAS-R-38)."""
    from rulecraft.model.kings_of_air_and_steam.state import Phase

    game_map = game.ctx.game_map(LAYOUT)  # type: ignore[attr-defined]
    a1 = game_map.line("A1").hexes[0]
    others = [game_map.line(line).hexes[0] for line in RING[1:]]
    given = {
        "players": 2,
        "layout": LAYOUT,
        "phase": "sellout",
        "round": 6,
        "seat": 1,
        "players_state": {
            0: {"at": [0, -1], "money": 0, "rail_level": 6},  # the base game: no team, no character
            1: {"at": [0, -1], "money": 0, "rail_level": 2},
        },
        "depots": [
            {"at": [a1.q, a1.r], "owner": 0, "goods": {"food": 1}},
            {"at": [others[0].q, others[0].r], "owner": 1, "goods": {"food": 1}},
            *({"at": [at.q, at.r], "owner": 1} for at in others[1:]),
        ],
        "market": {"pile": {}, "demand_pile": EVERY_TILE},
    }
    state = tools(game).scenario_state(given)
    assert state.phase is Phase.SELLOUT
    yield (
        "a Sellout where seat 1's toll to seat 0 could pay seat 0's $5 toll (KAS-R-51, R-38)",
        attrs.evolve(state, order=(1, 0), turn=0),
    )


def witness_starts(game: Game[Any, Any]) -> Mapping[str, StartHook]:
    """The Kings of Air and Steam witness-start hooks, by ambiguity (the record's ``witness_starts``)."""
    return {
        "KAS-AMB-42": _godfather_by_a_depot,
        "KAS-AMB-33": _sphinx_by_a_depot,
        "KAS-AMB-37": _bishop_with_two_free_slots,
        "KAS-AMB-26": _sellout_powers,
        "KAS-AMB-41": _eli_with_a_returned_card,
        "KAS-AMB-15": _food_round_the_ring,
        "KAS-AMB-29": _no_line_left_for_the_last_depot,
        "KAS-AMB-43": _ezekiel_beside_two_airships,
        "KAS-AMB-04": _davinci_with_no_straight_seven,
        "KAS-AMB-10": _city_filling_with_no_demand_tile,
        "KAS-AMB-32": _emperor_with_two_actions,
        "KAS-AMB-35": _rose_and_thorn_flights,
        "KAS-AMB-38": _sebastian_beside_a_city,
        "KAS-AMB-44": _aurelia_with_a_full_hold,
        "KAS-AMB-39": _corey_with_a_textile_elsewhere,
        "KAS-AMB-30": _sellout_toll_from_an_earlier_seller,
    }


# -- exhaustive checks over the pack's layouts ---------------------------------------------------------------


def _layout_maps(game: Game[Any, Any]) -> list[Any]:
    ctx = game.ctx  # type: ignore[attr-defined]
    return [ctx.game_map(layout.name) for layout in ctx.pack.layouts]


def partial_rail_check(default_game: Game[Any, Any], other_game: Game[Any, Any], seconds: float) -> SolverVerdict:
    """KAS-AMB-23: is there a rail hex a depot could stand on that is a partial edge hex?"""
    where = consulted_in(default_game, "KAS-AMB-23")
    if where != {"partial_refused"}:
        return SolverVerdict(
            "unknown", f"KAS-AMB-23 is consulted in {sorted(map(str, where))}: the check covers partial_refused"
        )
    maps = _layout_maps(default_game)
    rail = [(m.layout, at) for m in maps for at, mh in m.hexes.items() if mh.rail is not None]
    partial = [(layout, at) for layout, at in rail if _hex(maps, layout, at).partial]
    if partial:
        layout, at = partial[0]
        return SolverVerdict("sat", f"layout {layout}: rail hex {at} is a partial edge hex", 0.0, {"layout": layout})
    return SolverVerdict(
        "unsat",
        f"exhaustive over the pack: KAS-AMB-23 is consulted only in partial_refused (KAS-R-07 start depots, KAS-R-33 "
        f"Build Depot; both refuse a hex that is not rail first); none of the {len(rail)} rail hexes of its "
        f"{len(maps)} layouts is a partial edge hex, and a new line never takes a partial hex (KAS-R-71)",
    )


def one_source_check(default_game: Game[Any, Any], other_game: Game[Any, Any], seconds: float) -> SolverVerdict:
    """KAS-AMB-22: is there a hex with a factory where an own depot could stand?"""
    where = consulted_in(default_game, "KAS-AMB-22")
    if where != {"source_problem"}:
        return SolverVerdict(
            "unknown", f"KAS-AMB-22 is consulted in {sorted(map(str, where))}: the check covers source_problem"
        )
    maps = _layout_maps(default_game)
    both = [(m.layout, at) for m in maps for at, mh in m.hexes.items() if mh.rail is not None and mh.factory]
    factories = sum(len(m.factories) for m in maps)
    if both:
        layout, at = both[0]
        return SolverVerdict("sat", f"layout {layout}: factory hex {at} is a rail hex", 0.0, {"layout": layout})
    return SolverVerdict(
        "unsat",
        "exhaustive over the pack: KAS-AMB-22 is consulted only in source_problem, which parts the readings only "
        "for a loading step that takes from a factory and an own depot on one hex (KAS-R-29); depots stand on rail "
        f"hexes only (KAS-R-07, R-33, R-71), none of the {factories} factory hexes of the pack's {len(maps)} layouts "
        "is a rail hex, and a new line never takes a factory hex (KAS-R-71)",
    )


def _hex(maps: list[Any], layout: str, at: Any) -> Any:
    return next(m for m in maps if m.layout == layout).hexes[at]


EZEKIEL = "Ezekiel Crane"


def ezekiel_repeat_check(
    default_game: Game[Any, Any], other_game: Game[Any, Any], seconds: float
) -> SolverVerdict | None:
    """KAS-AMB-43 'repeat': can one flight of Ezekiel Crane enter a hex twice?  Only then does robbing
    "on each pass" take more than robbing each victim once (``robbed_by``).  Every card his team's deck
    holds (the 12 standard cards and the team's own, KAS-R-02, R-08) is flown, at every length up to its
    longest (shorter flights: KAS-AMB-04 'c', KAS-AMB-35 'up-to'), under the game's turn readings on an
    open board with no city, where every path a real board allows is allowed too.  Other readings than
    'repeat' are not this check's question (None)."""
    from rulecraft.model.kings_of_air_and_steam.flight import legal_flights
    from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, path_hexes
    from rulecraft.model.kings_of_air_and_steam.rules import flight_rules
    from rulecraft.model.kings_of_air_and_steam.scenario import fixture_map

    if other_game.ctx.r("KAS-AMB-43") != "repeat":  # type: ignore[attr-defined]
        return None
    where = consulted_in(default_game, "KAS-AMB-43")
    if where != {"robbed_by"}:
        return SolverVerdict(
            "unknown", f"KAS-AMB-43 is consulted in {sorted(map(str, where))}: the check covers robbed_by"
        )
    ctx = default_game.ctx  # type: ignore[attr-defined]
    teams = [t for t in ctx.pack.teams if EZEKIEL in t.characters]
    if not teams:
        return SolverVerdict("unsat", f"no team of the pack has {EZEKIEL}: nobody robs (KAS-R-87)")
    cards = {c.id: c for c in ctx.pack.deck} | {t.special.id: t.special for t in teams}
    longest = max((max(c.moves, default=0) for c in cards.values()), default=0)
    radius = longest + 1
    board = fixture_map(
        {
            "hexes": [
                [q, r] for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius
            ]
        }
    )
    centre = Hex(0, 0)
    turns = flight_rules(ctx)  # no sharp turns: KAS-R-82 lifts the ban for Clint Castle only
    for card in sorted(cards.values(), key=lambda c: c.id):
        rules = attrs.evolve(turns, straight_only=True) if card.special == "straight" else turns
        for length in range(1, max(card.moves, default=0) + 1):
            for path in legal_flights(board, centre, length, rules):
                entered = path_hexes(centre, path)
                if len(set(entered)) < len(entered):
                    return SolverVerdict(
                        "sat",
                        f"card {card.id} flies {length} hexes along {list(path)}, entering a hex twice",
                        0.0,
                        {"card": card.id, "length": length, "path": list(path)},
                    )
    names = ", ".join(sorted(cards))
    return SolverVerdict(
        "unsat",
        f"exhaustive over the pack's decks: KAS-AMB-43 is consulted only in robbed_by, where 'repeat' robs a "
        f"victim more than once only if one flight enters the victim's hex twice (KAS-R-87); {EZEKIEL}'s cards "
        f"({names}) fly at most {longest} hexes, and no flight of up to that many under the turn rules "
        "(KAS-R-26, KAS-AMB-01, 02; no sharp turn, KAS-R-82 is Clint Castle's) enters a hex twice",
    )


def witness_queries(game: Game[Any, Any]) -> Mapping[str, SolverHook]:
    """The Kings of Air and Steam exhaustive checks, by ambiguity (the record's ``witness_queries``)."""
    return {"KAS-AMB-23": partial_rail_check, "KAS-AMB-22": one_source_check, "KAS-AMB-43": ezekiel_repeat_check}
