"""Kings of Air and Steam refusals: one row per refusal site, its rule ID and its words pinned.

Issue 22.  A refusal is the product's user-facing text: which rule says no (judged from the rulebook
digest /work/shared/rules/kings-of-air-and-steam.md, rule and page in the row's id) and the plain words
why.  Each row is a small constructed state and one illegal action; ``check`` must give exactly that
rule and those words, ``rejections`` every rule that forbids the action (check's first), ``is_legal``
False, and ``apply`` must raise the same rejection.  Numbers and names in the words agree with the
rulebook: 10 depots a player (KAS-R-02, KAS-R-54), $4 / $7 a depot (KAS-R-33), $3 for airship level 2
(KAS-EX-11), a bet of $1..$3 (KAS-R-78), 2 goods of one other type (KAS-R-66).

The per-condition judges (``condition_rejections``) say which rules an implementation may cite when
several forbid one action; their rows also pin what each condition says on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest
from kas_helpers import PLAN, SPHINX, game
from kas_helpers import turn_state as turn

from rulecraft.core import IllegalAction
from rulecraft.model.kings_of_air_and_steam import rules
from rulecraft.model.kings_of_air_and_steam.actions import (
    BuildDepot,
    BuildLine,
    ChooseDemandTile,
    Convert,
    CourseCorrection,
    DrawDemandPair,
    DrawDemandTile,
    DrawMarketTile,
    ExtraAction,
    ExtraFlight,
    Fly,
    Gamble,
    Grant,
    Load,
    Pass,
    PlaceStartDepot,
    Plan,
    RemoveMarketTile,
    ReturnGood,
    ShipGoods,
    Steal,
    Swap,
    Unload,
    UpgradeAirship,
    UpgradeRail,
)
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase, SlotStatus
from rulecraft.tools import tools

EMPEROR = {"team": "Emperor", "character": "Reginald Kain"}
B2 = Hex(3, -2)  # the one rail hex of line B2 (Bown Town - Aldenville) on the 2-player map ABC
Pair = tuple[str, str]


@attrs.frozen
class Bogus:
    """Not an action of this game (another game's move, a typo in a log)."""


def seat0(s: KasState, **changes: Any) -> KasState:
    return attrs.evolve(s, players=(attrs.evolve(s.players[0], **changes), *s.players[1:]))


def partial_rail_map() -> dict[str, Any]:
    """Cities West (0,0) and East (3,0); line E joins them over (1,0) and the partial edge hex (2,0)."""
    return {
        "hexes": [[0, -1], [1, -1], [0, 0], [1, 0], [2, 0, "partial"], [3, 0]],
        "cities": [
            {"name": "West", "at": [0, 0], "demand": "food"},
            {"name": "East", "at": [3, 0], "demand": "luxury"},
        ],
        "lines": [{"id": "E", "ends": ["West", "East"], "hexes": [[1, 0], [2, 0]]}],
    }


def chain_map() -> dict[str, Any]:
    """City C0 (0,0) and Farcity (2,0, food); line L0 joins them through the rail hex (1,0)."""
    cities = [{"name": "C0", "at": [0, 0], "demand": "luxury"}, {"name": "Farcity", "at": [2, 0], "demand": "food"}]
    lines = [{"id": "L0", "ends": ["C0", "Farcity"], "hexes": [[1, 0]]}]
    return {"hexes": [[q, r] for q in range(3) for r in (0, 1)], "cities": cities, "lines": lines}


def eva_map() -> dict[str, Any]:
    """Cities West (0,0) and East (3,0) with free full hexes (1,0), (2,0) between them."""
    return {
        "hexes": [[0, -1], [1, -1], [2, -1], [0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1]],
        "cities": [
            {"name": "West", "at": [0, 0], "demand": "food"},
            {"name": "East", "at": [3, 0], "demand": "luxury"},
        ],
        "lines": [],
    }


def eva(g: KingsOfAirAndSteamGame, **me: Any) -> KasState:
    spec = {"team": "Sphinx", "character": "Eva Blane", "tokens": 5, "money": 5, **me}
    return turn(g, spec, {**EMPEROR, "at": [1, -1]}, map=eva_map())


WEST_EAST = BuildLine(("West", "East"), (Hex(1, 0), Hex(2, 0)), Hex(1, 0))


# -- the states, one builder per situation ----------------------------------------------------------------------


def plain_action(g: KingsOfAirAndSteamGame) -> KasState:
    return turn(g, {})


def game_over(g: KingsOfAirAndSteamGame) -> KasState:
    return attrs.evolve(turn(g, {}), phase=Phase.OVER)


def sky_castle(character: str) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    return lambda g: turn(g, {"team": "Sky Castle", "character": character}, SPHINX)


def planning_two_planned(g: KingsOfAirAndSteamGame) -> KasState:
    s = tools(g).scenario_state({"players": 2, "phase": "planning", "seat": 0})
    return seat0(s, plan=("S01", "S02"), slots=(SlotStatus.PLANNED, SlotStatus.PLANNED))


def flora_fill(g: KingsOfAirAndSteamGame, pile: dict[str, int]) -> KasState:
    """An opponent (seat 0) fills Bown Town (food, 4 of 5) with Flora Kingston in seat 1 (KAS-R-74)."""
    flora = {"team": "Rose & Thorn", "character": "Flora Kingston", "plan": ["S12", "S11", "S10", "S09"], "at": [3, 3]}
    s = tools(g).scenario_state(
        {
            "players": 2,
            "seat": 0,
            "phase": "action",
            "depots": [{"at": [B2.q, B2.r], "owner": 0, "goods": {"food": 5}}],
            "cities": {"Bown Town": {"filled": 4}},
            "market": {"slots": ["food", "machine", "textile"], "demand_pile": pile},
            "players_state": {0: {**SPHINX, "plan": PLAN, "at": [0, -1]}, 1: flora},
        }
    )
    return g.apply(s, ShipGoods(B2, "food", 1, to_city="Bown Town"))


def flora_choosing(g: KingsOfAirAndSteamGame) -> KasState:
    s = flora_fill(g, {"luxury": 1, "chemical": 1, "food": 1})
    return g.apply(s, DrawDemandPair("chemical", "luxury"))


def flora_pair(g: KingsOfAirAndSteamGame) -> KasState:
    return flora_fill(g, {"luxury": 1, "chemical": 1})


def demand_draw(g: KingsOfAirAndSteamGame) -> KasState:
    """Seat 0 fills Bown Town without Flora in play: one tile is drawn (KAS-R-40); 2 textile in the pile."""
    s = tools(g).scenario_state(
        {
            "players": 2,
            "seat": 0,
            "phase": "action",
            "depots": [{"at": [B2.q, B2.r], "owner": 0, "goods": {"food": 5}}],
            "cities": {"Bown Town": {"filled": 4}},
            "market": {"slots": ["food", "machine", "textile"], "demand_pile": {"textile": 2}},
            "players_state": {0: {"plan": PLAN, "at": [0, -1]}, 1: {"plan": PLAN, "at": [3, 3]}},
        }
    )
    return g.apply(s, ShipGoods(B2, "food", 1, to_city="Bown Town"))


def start_depot_on_partial(g: KingsOfAirAndSteamGame) -> KasState:
    return tools(g).scenario_state({"players": 2, "phase": "start-depots", "seat": 1, "map": partial_rail_map()})


def action_on_partial_map(g: KingsOfAirAndSteamGame) -> KasState:
    return turn(g, {"at": [1, -1]}, {"at": [1, -1]}, map=partial_rail_map())


def flight(plan: list[str], **me: Any) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    other = SPHINX if "team" in me else {}  # an advanced game: every seat a team (KAS-R-08)
    return lambda g: turn(g, {"at": [0, 0], "plan": plan, **me}, other, phase="flight")


def cargo(hold: dict[str, int], at: list[int], **given: Any) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    return lambda g: turn(g, {"at": at, "hold": hold}, phase="cargo", **given)


def own_depot_cargo(g: KingsOfAirAndSteamGame, hold: dict[str, int], goods: dict[str, int]) -> KasState:
    depot = [{"at": [B2.q, B2.r], "owner": 0, "goods": goods}]
    return turn(g, {"at": [B2.q, B2.r], "hold": hold}, phase="cargo", depots=depot)


def swapped_food_away(g: KingsOfAirAndSteamGame) -> KasState:
    """Hold food + chemical (capacity 2) at the own depot (food 1, textile 1): the food is swapped for the
    textile (KAS-R-30), so the hold is full again and food was discarded in this step."""
    s = own_depot_cargo(g, {"food": 1, "chemical": 1}, {"food": 1, "textile": 1})
    return g.apply(s, Swap("food", "textile", "depot"))


def swapped_then_unloaded(g: KingsOfAirAndSteamGame) -> KasState:
    """As above, then the chemical is unloaded onto the own depot (KAS-R-31): one place is free."""
    return g.apply(swapped_food_away(g), Unload("chemical"))


def loaded_food(g: KingsOfAirAndSteamGame) -> KasState:
    """Hold chemical (capacity 2) at the own depot (food 2, textile 1); food loaded into the last place."""
    s = own_depot_cargo(g, {"chemical": 1}, {"food": 2, "textile": 1})
    return g.apply(s, Load("food", "depot"))


def depot_turn(**me: Any) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    return lambda g: turn(g, me)


def opponent_depot_on(at: Hex, **me: Any) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    return lambda g: turn(g, me, depots=[{"at": [at.q, at.r], "owner": 1}])


def bonus(kind: str | None, me: dict[str, Any], **given: Any) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    """Seat 0 between its movement step and its action (or after it, I.S.A.A.C.), offered ``kind``."""
    return lambda g: attrs.evolve(turn(g, me, EMPEROR, **given), phase=Phase.BONUS, bonus=kind)


SHIP_GIVEN: dict[str, Any] = {"map": chain_map(), "depots": [{"at": [1, 0], "owner": 0, "goods": {"food": 2}}]}
SPHINX_CARD = {**SPHINX, "plan": ["SPH", "S02", "S03", "S04"], "at": [0, 1]}
ISAAC = {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": 5}
GODFATHER = {"team": "Godfather", "character": "Thaddeus Birch", "plan": ["GOD", "S02", "S03", "S04"], "at": [3, -2]}


def godfather(hold: dict[str, int], **victim: Any) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    """The Godfather (seat 0, capacity 3 at level 1, KAS-R-84) on B2 after the card's movement step;
    seat 1 there too with a food in its hold, and seat 1's depot on B2 with 2 food."""

    def build(g: KingsOfAirAndSteamGame) -> KasState:
        s = turn(
            g,
            {**GODFATHER, "hold": hold},
            {**SPHINX, "at": [3, -2], "hold": {"food": 1}, **victim},
            depots=[{"at": [B2.q, B2.r], "owner": 1, "goods": {"food": 2}}],
        )
        return attrs.evolve(s, phase=Phase.BONUS, bonus="steal")

    return build


def upkeep(g: KingsOfAirAndSteamGame) -> KasState:
    return tools(g).scenario_state(
        {"players": 2, "phase": "upkeep", "seat": 0, "players_state": {0: {"hold": {"food": 1}}}}
    )


def aurelia(hold: dict[str, int], **me: Any) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    """Aurelia Bayley (DaVinci, standard chart: capacity 2 at level 1, KAS-R-64) in her action."""
    spec = {"team": "DaVinci", "character": "Aurelia Bayley", "tokens": 5, "hold": hold, **me}
    return lambda g: turn(g, spec, SPHINX, depots=[{"at": [B2.q, B2.r], "owner": 1, "goods": {"food": 1}}])


def aurelia_short_supply(g: KingsOfAirAndSteamGame) -> KasState:
    s = aurelia({"food": 2})(g)
    return attrs.evolve(s, supply=(s.supply[0], 1, *s.supply[2:]))


def gamble(g: KingsOfAirAndSteamGame) -> KasState:
    """Sebastian King (5 tokens, $5) delivers 2 food to Bown Town (food) with a $2 bet (KAS-R-78)."""
    s = turn(
        g,
        {"team": "Kings Over Aces", "character": "Sebastian King", "money": 5, "tokens": 5},
        SPHINX,
        depots=[{"at": [B2.q, B2.r], "owner": 0, "goods": {"food": 3}}],
        market={"slots": ["food", "machine", "textile"], "demand_pile": {"machine": 1}},
    )
    return g.apply(s, ShipGoods(B2, "food", 2, to_city="Bown Town", bet=2))


def two_actions(g: KingsOfAirAndSteamGame) -> KasState:
    """The Emperor card (KAS-R-61): two actions; the first, an airship upgrade, is taken."""
    s = turn(g, {**EMPEROR, "plan": ["EMP", "S02", "S03", "S04"], "money": 20}, SPHINX)
    return g.apply(attrs.evolve(s, actions_left=2), UpgradeAirship())


def emperor_granted(g: KingsOfAirAndSteamGame) -> KasState:
    s = turn(g, {**EMPEROR, "plan": ["EMP", "S02", "S03", "S04"], "money": 20}, SPHINX)
    return g.apply(attrs.evolve(s, actions_left=2), Grant())


def isaac_extra(g: KingsOfAirAndSteamGame) -> KasState:
    """I.S.A.A.C. took a Grant, then his extra action (KAS-R-67)."""
    s = turn(g, ISAAC, SPHINX)
    return g.apply(g.apply(s, Grant()), ExtraAction())


def market(phase: str, pile: dict[str, int]) -> Callable[[KingsOfAirAndSteamGame], KasState]:
    return lambda g: tools(g).scenario_state({"players": 2, "phase": phase, "seat": 0, "market": {"pile": pile}})


def removing_tiles(g: KingsOfAirAndSteamGame) -> KasState:
    """The Uncertainty variant's set-up (KAS-R-06): tiles leave the pile unseen; no luxury is left."""
    s = market("new-market", {"chemical": 3, "machine": 3, "food": 3, "textile": 3})(g)
    return attrs.evolve(s, phase=Phase.REMOVE_TILES)


# -- the rows -------------------------------------------------------------------------------------------------


@attrs.frozen
class Row:
    """``refusal``: check's rule and words; ``also``: the other rules ``rejections`` lists, in order;
    ``conditions``: what ``condition_rejections`` says, condition by condition (None: not a judge site)."""

    build: Callable[[KingsOfAirAndSteamGame], KasState]
    action: Any
    refusal: Pair
    also: tuple[Pair, ...] = ()
    readings: tuple[Pair, ...] = ()
    conditions: tuple[Pair | None, ...] | None = None


def row(ident: str, *args: Any, **kwargs: Any) -> Any:
    return pytest.param(Row(*args, **kwargs), id=ident)


NO_DEPOTS = ("KAS-R-33", "all 10 depots are on the board")
ROWS = [
    # -- the phase (KAS-R-24 p.10: a turn's steps; KAS-R-20 p.9; KAS-R-52 p.16) --
    row(
        "KAS-R-24-not-a-kas-action-p10",
        plain_action,
        Bogus(),
        ("KAS-R-24", "Bogus() is not a Kings of Air and Steam action"),
    ),
    row(
        "KAS-R-20-plan-locked-p9",
        plain_action,
        Plan("S12"),
        ("KAS-R-20", "the plan is locked: no card is planned or exchanged outside the planning phase"),
    ),
    row("KAS-R-52-game-over-p16", game_over, Grant(), ("KAS-R-52", "the game is over")),
    # -- Eli Diamond, Eva Blane (KAS-R-83 p.20, KAS-R-71 p.19, KAS-AMB-34) --
    row(
        "KAS-R-83-only-eli-diamond-p20",
        sky_castle("Clint Castle"),
        ExtraFlight("S11"),
        ("KAS-R-83", "only Eli Diamond flies an extra card as his action"),
    ),
    row(
        "KAS-R-71-only-eva-blane-p19",
        lambda g: eva(g, character="Victor Blane", money=2),
        WEST_EAST,
        ("KAS-R-71", "only Eva Blane builds new rail lines"),
        conditions=(None,),
    ),
    row(
        "KAS-R-71-only-eva-blane-and-KAS-R-55-money-p19",
        lambda g: eva(g, character="Victor Blane", money=1),
        WEST_EAST,
        ("KAS-R-71", "only Eva Blane builds new rail lines"),
        also=(("KAS-R-55", "the tiles cost $2; you have $1"),),
        conditions=(("KAS-R-55", "the tiles cost $2; you have $1"),),
    ),
    row(
        "KAS-R-71-no-depot-token-for-the-free-depot-p19",
        lambda g: eva(g, depots_left=0),
        WEST_EAST,
        ("KAS-R-71", "the free depot needs a depot token, and all 10 are on the board"),
    ),
    row(
        "KAS-R-71-one-tile-per-hex-p19",
        eva,
        BuildLine(("West", "East"), (Hex(1, 0), Hex(1, 0)), Hex(1, 0)),
        ("KAS-R-71", "a hex takes one track tile"),
    ),
    row(
        "KAS-R-71-no-track-on-water-strict-p19-amb34",
        lambda g: turn(g, {"team": "Sphinx", "character": "Eva Blane", "tokens": 5, "money": 5}, EMPEROR),
        BuildLine(("Bown Town", "Warsop"), (Hex(3, -1),), Hex(3, -1)),
        ("KAS-R-71", "track tiles never go on water: (3,-1) (KAS-AMB-34 'strict')"),
        readings=(("KAS-AMB-34", "strict"),),
    ),
    # -- demand tiles (KAS-R-74 p.19, KAS-R-40 p.14) --
    row(
        "KAS-R-74-chosen-tile-not-in-the-pile-p19",
        flora_choosing,
        ChooseDemandTile("machine"),
        ("KAS-R-74", "no machine tile is in the demand pile"),
    ),
    row(
        "KAS-R-74-one-of-the-two-drawn-p19",
        flora_choosing,
        ChooseDemandTile("food"),
        ("KAS-R-74", "the tiles drawn are chemical and luxury"),
    ),
    row(
        "KAS-R-74-pair-not-in-the-pile-p19",
        flora_pair,
        DrawDemandPair("luxury", "luxury"),
        ("KAS-R-74", "the demand pile does not hold the tiles luxury and luxury"),
    ),
    row(
        "KAS-R-40-demand-tile-not-in-the-pile-p14",
        demand_draw,
        DrawDemandTile("luxury"),
        ("KAS-R-40", "no luxury tile is in the demand pile"),
    ),
    row(
        "KAS-R-15-market-tile-not-in-the-pile-p8",
        market("new-market", {"chemical": 3, "machine": 3, "food": 3, "textile": 3}),
        DrawMarketTile("luxury"),
        ("KAS-R-15", "no luxury tile is left in the market draw pile"),
    ),
    row(
        "KAS-R-06-removed-tile-not-in-the-pile-p6",
        removing_tiles,
        RemoveMarketTile("luxury"),
        ("KAS-R-06", "no luxury tile is left to remove"),
    ),
    # -- set-up and planning (KAS-R-07 p.6 with KAS-AMB-23, KAS-R-19 p.9) --
    row(
        "KAS-R-07-start-depot-on-a-partial-hex-p6-amb23",
        start_depot_on_partial,
        PlaceStartDepot(Hex(2, 0)),
        ("KAS-R-07", "(2,0) is a partial edge hex: no depot there (KAS-AMB-23 'full-hexes')"),
        readings=(("KAS-AMB-23", "full-hexes"),),
    ),
    row(
        "KAS-R-19-already-planned-for-slot-2-p9",
        planning_two_planned,
        Plan("S02"),
        ("KAS-R-19", "S02 is already planned for slot 2"),
    ),
    # -- flight and cargo (KAS-R-26 p.11, KAS-R-29..31 p.11, KAS-AMB-21, KAS-AMB-44) --
    # KAS-R-61 (p.18): the Emperor card "skips the whole movement step (no flight, no loading/unloading)".
    row(
        "KAS-R-61-emperor-card-has-no-movement-step-p18",
        flight(["EMP", "S02", "S03", "S04"], **EMPEROR),
        Fly(()),
        ("KAS-R-61", "EMP has no movement step: the Emperor card skips the whole movement step"),
    ),
    row(
        "KAS-R-26-sharp-turn-p11",
        flight(["S04", "S01", "S02", "S03"]),
        Fly((0, 2)),
        ("KAS-R-26", "step 2 turns 120° (a sharp turn)"),
    ),
    row(
        "KAS-R-30-discarded-type-not-loaded-back-p11",
        swapped_then_unloaded,
        Load("food", "depot"),
        ("KAS-R-30", "food was discarded in this step and cannot be loaded again"),
        conditions=(None, None, ("KAS-R-30", "food was discarded in this step and cannot be loaded again")),
    ),
    row(
        "KAS-R-29-full-hold-and-KAS-R-30-discarded-type-p11",
        swapped_food_away,
        Load("food", "depot"),
        ("KAS-R-29", "the hold is full (2 of 2); swap a good of another type instead"),
        also=(("KAS-R-30", "food was discarded in this step and cannot be loaded again"),),
        conditions=(
            None,
            ("KAS-R-29", "the hold is full (2 of 2)"),
            ("KAS-R-30", "food was discarded in this step and cannot be loaded again"),
        ),
    ),
    row(
        "KAS-R-30-same-type-swap-p11",
        cargo({"chemical": 2}, [2, 0]),
        Swap("chemical", "chemical", "factory"),
        ("KAS-R-30", "a good is discarded only to load a good of a different type"),
    ),
    row(
        "KAS-R-29-over-capacity-swap-p11-amb44",
        cargo({"food": 3}, [2, 0]),
        Swap("food", "chemical", "factory"),
        ("KAS-R-29", "the hold holds 3 of 2: one discard still leaves no room"),
        readings=(("KAS-AMB-44", "ignore-capacity"),),
    ),
    row(
        "KAS-R-30-loaded-type-not-discarded-p11-amb21",
        loaded_food,
        Swap("food", "textile", "depot"),
        ("KAS-R-30", "a type loaded in this step cannot be discarded in it, and back (KAS-AMB-21)"),
    ),
    # -- Build Depot (KAS-R-33 p.12, KAS-R-54 p.12, KAS-R-55, KAS-AMB-23) --
    row(
        "KAS-R-33-no-depot-token-p12",
        depot_turn(depots_left=0, money=20),
        BuildDepot(B2),
        NO_DEPOTS,
        conditions=(NO_DEPOTS, None),
    ),
    row(
        "KAS-R-33-no-depot-token-and-KAS-R-55-money-p12",
        depot_turn(depots_left=0, money=3),
        BuildDepot(B2),
        NO_DEPOTS,
        also=(("KAS-R-55", "the depot costs $4; you have $3"),),
        conditions=(NO_DEPOTS, ("KAS-R-55", "the depot costs $4; you have $3")),
    ),
    row(
        "KAS-R-55-last-depot-token-4-dollars-p12",
        depot_turn(depots_left=1, money=3),
        BuildDepot(B2),
        ("KAS-R-55", "the depot costs $4; you have $3"),
        conditions=(None, ("KAS-R-55", "the depot costs $4; you have $3")),
    ),
    row(
        "KAS-R-55-second-depot-on-a-line-7-dollars-p12",
        opponent_depot_on(Hex(5, -3), money=6),
        BuildDepot(Hex(5, -2)),
        ("KAS-R-55", "the depot costs $7; you have $6"),
        conditions=(None, ("KAS-R-55", "the depot costs $7; you have $6")),
    ),
    row(
        "KAS-R-33-not-a-rail-hex-p12",
        depot_turn(),
        BuildDepot(Hex(2, 0)),
        ("KAS-R-33", "(2,0) is not a rail hex"),
    ),
    row(
        "KAS-R-54-one-depot-per-rail-hex-p12",
        opponent_depot_on(B2),
        BuildDepot(B2),
        ("KAS-R-54", "(3,-2) already holds a depot: one per rail hex"),
    ),
    row(
        "KAS-R-33-partial-edge-hex-p12-amb23",
        action_on_partial_map,
        BuildDepot(Hex(2, 0)),
        ("KAS-R-33", "(2,0) is a partial edge hex: no depot there (KAS-AMB-23 'full-hexes')"),
        readings=(("KAS-AMB-23", "full-hexes"),),
    ),
    # -- upgrades (KAS-R-34 p.12 with KAS-EX-11: level 2 costs $3; KAS-AMB-20) --
    row(
        "KAS-R-55-airship-level-2-costs-3-dollars-p12",
        depot_turn(money=2),
        UpgradeAirship(),
        ("KAS-R-55", "level 2 costs $3; you have $2"),
    ),
    row(
        "KAS-R-35-one-upgrade-per-turn-amb20",
        two_actions,
        UpgradeRail(),
        ("KAS-R-35", "at most one upgrade per turn (KAS-AMB-20 'once')"),
        readings=(("KAS-AMB-20", "once"),),
    ),
    # -- shipping in the bonus step (KAS-R-32 p.12, KAS-R-69 p.19, KAS-AMB-33) --
    row(
        "KAS-R-32-shipping-needs-the-sphinx-card-p12-p19",
        bonus("extra-action", ISAAC, **SHIP_GIVEN),
        ShipGoods(Hex(1, 0), "food", 1, to_city="Farcity"),
        ("KAS-R-32", "shipping now needs the Sphinx card's free shipment"),
        conditions=(None,),
    ),
    row(
        "KAS-R-32-shipping-needs-the-sphinx-card-and-KAS-R-36-goods-p12-p13",
        bonus("extra-action", ISAAC, **SHIP_GIVEN),
        ShipGoods(Hex(1, 0), "food", 3, to_city="Farcity"),
        ("KAS-R-32", "shipping now needs the Sphinx card's free shipment"),
        also=(("KAS-R-36", "the depot at (1,0) holds 2 food; it cannot ship 3"),),
        conditions=(("KAS-R-36", "the depot at (1,0) holds 2 food; it cannot ship 3"),),
    ),
    row(
        "KAS-R-69-sphinx-card-ships-one-good-p19-amb33",
        bonus("ship-one", SPHINX_CARD, **SHIP_GIVEN),
        ShipGoods(Hex(1, 0), "food", 2, to_city="Farcity"),
        ("KAS-R-69", "the Sphinx card ships one good (KAS-AMB-33); 2 requested"),
        conditions=(None,),
    ),
    row(
        "KAS-R-69-sphinx-card-ships-one-good-and-KAS-R-36-goods-p19",
        bonus("ship-one", SPHINX_CARD, **SHIP_GIVEN),
        ShipGoods(Hex(1, 0), "food", 3, to_city="Farcity"),
        ("KAS-R-69", "the Sphinx card ships one good (KAS-AMB-33); 3 requested"),
        also=(("KAS-R-36", "the depot at (1,0) holds 2 food; it cannot ship 3"),),
        conditions=(("KAS-R-36", "the depot at (1,0) holds 2 food; it cannot ship 3"),),
    ),
    # -- Course Correction (KAS-R-42 p.14) --
    row(
        "KAS-R-42-no-course-correction-into-a-city-p14",
        depot_turn(at=[1, -2]),
        CourseCorrection(0),
        ("KAS-R-42", "course correction may not enter the city Bown Town"),
    ),
    row(
        "KAS-R-42-one-of-six-directions-p14",
        depot_turn(),
        CourseCorrection(7),
        ("KAS-R-42", "a course correction is a direction 0..5 (0=E .. 5=SE); got 7"),
    ),
    # -- Upkeep (KAS-R-45 p.15) --
    row("KAS-R-45-not-a-goods-type-p15", upkeep, ReturnGood("gold"), ("KAS-R-45", "'gold' is not a goods type")),
    row("KAS-R-45-none-in-the-hold-p15", upkeep, ReturnGood("luxury"), ("KAS-R-45", "no luxury in the hold")),
    # -- Aurelia Bayley (KAS-R-66 p.18, KAS-AMB-44, KAS-AMB-12) --
    row(
        "KAS-R-66-only-aurelia-bayley-p18",
        aurelia({"food": 1}, character="Victor Blane", team="Sphinx"),
        Convert("food", "machine"),
        ("KAS-R-66", "only Aurelia Bayley converts goods"),
        conditions=(None,),
    ),
    row(
        "KAS-R-66-no-converter-token-p18",
        aurelia({"food": 1}, tokens=0),
        Convert("food", "machine"),
        ("KAS-R-66", "no converter token is left"),
    ),
    row(
        "KAS-R-66-two-goods-of-one-other-type-p18",
        aurelia({"food": 1}),
        Convert("food", "food"),
        ("KAS-R-66", "1 good becomes 2 goods of one other type"),
    ),
    row(
        "KAS-R-66-none-in-the-hold-p18",
        aurelia({"food": 1}),
        Convert("luxury", "food"),
        ("KAS-R-66", "no luxury in the hold"),
    ),
    row(
        "KAS-R-66-none-in-an-own-depot-p18",
        aurelia({}),
        Convert("food", "machine", B2),
        ("KAS-R-66", "no food in a depot of yours at (3,-2)"),
    ),
    row(
        "KAS-R-29-no-room-for-the-second-good-p18-amb44",
        aurelia({"food": 2}),
        Convert("food", "machine"),
        ("KAS-R-29", "the hold has no room for the second good (KAS-AMB-44)"),
        conditions=(None,),
    ),
    row(
        "KAS-R-29-no-room-and-KAS-R-66-supply-short-amb44-amb12",
        aurelia_short_supply,
        Convert("food", "machine"),
        ("KAS-R-29", "the hold has no room for the second good (KAS-AMB-44)"),
        also=(("KAS-R-66", "the supply has fewer than 2 machine (KAS-AMB-12)"),),
        readings=(("KAS-AMB-12", "capped"),),
        conditions=(("KAS-R-66", "the supply has fewer than 2 machine (KAS-AMB-12)"),),
    ),
    # -- the Godfather card (KAS-R-85 p.20, KAS-R-29/30 p.11, KAS-AMB-42, KAS-AMB-44) --
    row(
        "KAS-R-85-stealing-needs-the-godfather-card-p20",
        bonus("ship-one", SPHINX_CARD),
        Steal(1, "food"),
        ("KAS-R-85", "stealing needs the Godfather card, after its movement step"),
    ),
    row(
        "KAS-R-85-hold-only-amb42",
        godfather({}),
        Steal(1, "food", B2),
        ("KAS-R-85", "the Godfather card steals only from an opponent's hold (KAS-AMB-42 'hold-only')"),
        readings=(("KAS-AMB-42", "hold-only"),),
    ),
    row(
        "KAS-R-29-godfather-hold-over-capacity-p20-amb44",
        godfather({"machine": 4}),
        Steal(1, "food", discard="machine"),
        ("KAS-R-29", "the hold is over capacity: one discard still leaves no room for the good"),
        readings=(("KAS-AMB-44", "ignore-capacity"),),
    ),
    row(
        "KAS-R-85-full-hold-discards-first-p20",
        godfather({"machine": 3}),
        Steal(1, "food"),
        ("KAS-R-85", "with a full hold, discard 1 good first"),
    ),
    row(
        "KAS-R-30-room-in-the-hold-nothing-discarded-p11-p20",
        godfather({"machine": 1}),
        Steal(1, "food", discard="machine"),
        ("KAS-R-30", "the hold has room: nothing is discarded"),
    ),
    # -- Sebastian King's tokens (KAS-R-78 p.19, KAS-AMB-38) --
    row(
        "KAS-R-78-tokens-reused-amb38",
        gamble,
        Gamble(True, ("food", "textile")),
        ("KAS-R-78", "the tokens are reused: which ones turned up is not kept (KAS-AMB-38)"),
    ),
    row(
        "KAS-R-78-one-token-per-dollar-in-goods-order-amb38",
        gamble,
        Gamble(True, ("food",)),
        (
            "KAS-R-78",
            "a $2 bet turns up 2 of the tokens left (chemical, machine, food, textile, luxury), in goods order",
        ),
        readings=(("KAS-AMB-38", "spent"),),
    ),
    row(
        "KAS-R-78-a-food-token-wins-amb38",
        gamble,
        Gamble(False, ("chemical", "food")),
        ("KAS-R-78", "the bet wins exactly when a turned token shows the shipment's goods"),
        readings=(("KAS-AMB-38", "spent"),),
    ),
    # -- I.S.A.A.C., the Emperor card, passing (KAS-R-67 p.18, KAS-R-61 p.18, KAS-R-32 p.12) --
    row(
        "KAS-R-67-extra-action-is-isaacs-p18",
        bonus("steal", {**GODFATHER, "at": [0, -1]}),
        ExtraAction(),
        ("KAS-R-67", "an extra action is I.S.A.A.C.'s, right after his action"),
    ),
    row(
        "KAS-R-67-no-perpetual-motion-token-p18",
        bonus("extra-action", {**ISAAC, "tokens": 0}),
        ExtraAction(),
        ("KAS-R-67", "no perpetual-motion token is left"),
    ),
    row(
        "KAS-R-67-extra-action-differs-amb45",
        isaac_extra,
        Grant(),
        ("KAS-R-67", "the extra action must differ from the first, a grant (KAS-AMB-45)"),
        readings=(("KAS-AMB-45", "different"),),
    ),
    row(
        "KAS-R-61-emperor-card-actions-differ-amb32",
        emperor_granted,
        Grant(),
        ("KAS-R-61", "the Emperor card's two actions must differ: a grant again (KAS-AMB-32)"),
        readings=(("KAS-AMB-32", "distinct"),),
    ),
    row(
        "KAS-R-32-exactly-one-action-no-pass-p12-amb19",
        plain_action,
        Pass(),
        ("KAS-R-32", "the player must choose and carry out one action; there is no pass (KAS-AMB-19)"),
    ),
    # KAS-R-57 (p.17) is the teams rule, the bonus step's phase rule here; nothing is on offer to decline:
    # KAS-R-32 (p.12, one action, no pass) may be the better citation: reported on issue 22.
    row("KAS-R-57-nothing-to-decline-p17", bonus(None, SPHINX), Pass(), ("KAS-R-57", "there is nothing to decline")),
]


def judged(row: Row) -> tuple[KingsOfAirAndSteamGame, KasState]:
    g = game(**dict(row.readings))
    return g, row.build(g)


@pytest.mark.parametrize("row", ROWS)
def test_the_refusal_names_its_rule_and_says_why(row: Row) -> None:
    """check: exactly the rule and words; rejections: check's first, then every other rule that forbids
    the action; is_legal False; apply raises the same rejection."""
    g, s = judged(row)
    rejection = g.check(s, row.action)
    assert rejection is not None, "the action is refused"
    assert (rejection.rule, rejection.reason) == row.refusal
    assert rejection.page == g.catalogue[row.refusal[0]].page, "the page is the rulebook's for that rule"
    listed = g.rejections(s, row.action)
    assert listed[0] == rejection
    assert [(r.rule, r.reason) for r in listed] == [row.refusal, *row.also]
    assert not g.is_legal(s, row.action)
    with pytest.raises(IllegalAction) as raised:
        g.apply(s, row.action)
    assert raised.value.rejection == rejection


CONDITION_ROWS = [p for p in ROWS if p.values[0].conditions is not None]


@pytest.mark.parametrize("row", CONDITION_ROWS)
def test_each_condition_judged_apart_speaks_for_itself(row: Row) -> None:
    """condition_rejections: the conditions that can fail together (a cost beside a need), each judged on
    its own, with the same words the check uses for that rule where it has them."""
    g, s = judged(row)
    said = rules.condition_rejections(g.ctx, s, row.action)
    assert [None if r is None else (r.rule, r.reason) for r in said] == list(row.conditions or ())
