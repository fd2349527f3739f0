"""Steamopolis witness starts: states where an ambiguity is consulted that random games rarely reach
(rulecraft/witness.py plays both readings from them and finds the witness itself).

Each start is built with the scenario builder (the printed examples' ``given:`` vocabulary), at
times steered on by legal play from there, and must keep the invariants (the search refuses one
that does not).  Phase ``flight`` is the builder's state right after FLY TO ALL TARGETS (every own
stone on the board in S0, the next stone to be taken back); in the solo starts the shadow stones
lie where FLY puts them, on those districts (STM-R-70).

- STM-AMB-28 (p.35, the solo time pressure, STM-R-69): MAKE STEAM and FLY TO ALL TARGETS cost 1 VP at
  once; a random solo game rarely stands at exactly 1 VP when it chooses one.  The start is the solo
  game at 1 VP, in its action: the default loses on reaching 0, 'below-zero' plays on.
- STM-AMB-15 (p.22-23, a bonus marker without a usable space, STM-R-46/47): the flight takes back a
  stone from level 1 (the bonus-marker market) with the gears for the gear row's only marker, #2,
  while the base pressure marker stands on g4, so both 2-spaces (g3, g4) lie at or left of it: the
  default sells the marker to the box, 'no-buy' refuses the purchase.
- STM-AMB-18 (p.25, the tie-break count, STM-R-67): the final round of a game whose seats tie on VP;
  seat 0 owns its starting machine and a capacity tile, seat 1 one bought machine.  The default
  counts 2 tiles against 1 (seat 0 wins), 'bought' 0 against 1 (seat 1 wins).  Two starts: the
  final round's first turn, and seat 1's last turn after seat 0 let its final turn pass.
- STM-AMB-22 (p.31, 'pressure stone to 8' with the value-8 space taken, STM-R-61): the 4-player side's
  level-3 third district holds the effect; the flight takes back a stone from there while another
  own stone stands on g10 (value 8): the default lets the effect lapse, 'bump' sends the g10 stone
  to the supply.
- STM-AMB-36 (p.33, two own parasites on one symbol, STM-R-54): with 2 players seat 1 has both
  parasites it may put on one machine on the passive of seat 0's M0-06 ('take back from level 7:
  1 VP', STM-EX-30), and seat 0's flight takes back its only stone, from level 7: the passive fires
  at the forced first step, and whatever each player decides on the shared effect, the default
  hands seat 1 a second use where 'once' hands the decision back to seat 0 (three steps).  (The
  earlier start, the same parasites on the activation of a starting machine with a stone to channel
  into it, left the channel one action among 25: a 3 s search seldom chose it.)
- STM-AMB-14 (p.21, purple banners, STM-R-44; STM-EX-20): seat 0, owning an orange banner (M0-01),
  takes back from levels 5, 6 and 7, whose markets show the rank-0 purple tiles M0-03, M0-05 and
  M0-09, with the gears to buy all three as banners: the first bought scores 3 VP by default (the
  orange banner 1, the purple tile 2), 2 under 'single'.  Three chances in one flight, as buying a
  tile as a machine is offered beside each banner purchase.
- STM-AMB-26 (p.22-23, the level-1 statue, STM-R-46): the flight takes back from level 1 with the
  3 gears for the gear row's only marker, #2, while the crystal row still holds its #2: buying it
  reveals the statue under 'first-2', not by default ('both-2').
- STM-AMB-31 (p.25/35, the solo final turn, STM-R-66/70): the solo final turn, a value-3 stone on
  the gauge and shadow stones on L1-left and L2-right: the default offers those districts as
  targets (other colours do not block in the final turn), 'no-printed' does not: the readings part
  at the start itself.
- STM-AMB-33 (p.28/31, 'use another district', STM-R-61): the 4-player side's L8-right ('use
  another district') is the only way to another district's effect, and its own static discharge
  has already turned the stone's arrow, so only L3-third's 'pressure stone to 8' can part the
  readings.  The start is seat 0's flight from L8-right with g10 free; 'use another district' then
  offers 16 districts, and a random game picks L3-third seldom, so the start is the last turn of the
  final round (a game that misses ends within a few steps, and the next tries again).

The final-round starts (STM-AMB-14, 26, 33) are the last seat's last turn (STM-R-66): three
statues on the tower top trigger the end (STM-R-64), as the STM-AMB-18 start does.
- STM-AMB-38 and STM-AMB-39 (p.35, solo 'activate parasite', STM-R-72): the solo flight takes back
  a stone from level 5 right ('activate 1 parasite') with two parasites beside the stack; the
  banker's destination is level 5, whose face-up tile M0-06 shows a passive effect.  STM-AMB-38:
  the default leaves the used parasite beside the stack, 'returns' takes it back; STM-AMB-39: the
  default offers the passive effect, 'activation' does not.
- STM-AMB-04 (p.9, 'additionally increase the pressure as soon as it would become equal in two boilers',
  STM-R-15): seat 0 makes steam by 2 with stones on g2 and g4; the first move of the g2 stone lands on g3,
  g4's value 2, and 'extra' moves it on to g5: the MAKE STEAM orders and their ends part at the start.
- STM-AMB-29 (p.30, the capacity tile's sides, STM-R-59): seat 0's capacity tile lies storage side up
  with a stone on g1; random games place capacity tiles only in set-up, thousands of steps before a
  3 s search compares them.  MAKE STEAM increases by 2 by default, by 3 under 'both'.
- STM-AMB-40 (p.35, solo 'activate any number of parasites', STM-R-72): the solo game's M3-05
  ('activate any number of own parasites') on machine-room position 1, a value-2 stone to channel
  into it, and two parasites beside the stack: the default gives two uses, 'one' one.
- STM-AMB-16 (p.24/p.37, the order of the end of the turn, STM-R-49): solo turn 5's flight (p.37), P02
  face up: the banker, picked up on level 6, has just got off on level 8; whatever the player does
  with L8-left, the turn ends with the passenger rewards and 'remove tiles' both to run: the default
  runs them in order, 'free' lets the player choose.
- STM-AMB-37 (p.32, 'use all activation effects', STM-R-62): only M3-01 holds it on a machine, and
  random games seldom build it; the start is seat 0 having channelled its g6 stone into M3-01 on
  machine-room position 3, M0-02 and M0-01 on 2 and 1, in the final round's last turn (a game that
  forgoes the 'use all' ends within a few steps): once the 'use all' is used, the default goes on to
  M0-02's gear, 'again' offers M3-01's 'use all' again.

One reading no start can part, and a check says why (:func:`witness_queries`): STM-AMB-23 ('no' refuses
'use another district' on a district holding a solo shadow stone).  The switch is consulted in
``other_district_rejection`` only, after its test of S0 (the districts of your stones as the flight
started, STM-R-61); the only code that puts shadow stones on the board is ``place_shadow_stones``,
called by FLY TO ALL TARGETS alone, which puts them exactly on S0 as it records S0 (STM-R-70), and
nothing else records S0.  So every shadow stone a flight can meet lies on S0, refused under both
readings; the check runs that refusal for every district of the solo board.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulecraft.core import Game
from rulecraft.tools import tools
from rulecraft.witness import SolverHook, SolverVerdict, StartHook, consulted_in, steer


def _solo_at_one_vp(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {"players": 1, "phase": "action", "seats": {0: {"vp": 1}}}
    yield "the solo game at 1 VP choosing its action (STM-R-69)", tools(game).scenario_state(given)


def _bonus_marker_without_a_space(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 2,
        "phase": "flight",
        "seats": {0: {"gauge": "base@g4 g5 g6 g7", "gears": 3, "machine_room": {1: "S1"}}},
        "board": [{"seat": 0, "level": 1, "position": "right"}],
        "bonus": {"crystal_row": [5, 4, 3, 2], "gear_row": [2]},
    }
    yield (
        "a flight from level 1 with 3 gears for the gear row's #2 and the base marker on g4, right of both 2-spaces "
        "(STM-R-46, R-47)",
        tools(game).scenario_state(given),
    )


def _make_steam_onto_an_equal_value(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-04 (p.9): MAKE STEAM by 2 (the built-in boilers) with stones on g2 (value 1) and g4 (value 2):
    the g2 stone's first move lands on g3, the value of g4's; 'extra' moves it on to g5 for free."""
    given = {"players": 2, "phase": "action", "seats": {0: {"gauge": "g2 g4"}}}
    yield (
        "MAKE STEAM by 2 with stones on g2 and g4, the g2 stone's next space g3 showing g4's value 2 (STM-R-15, R-25)",
        tools(game).scenario_state(given),
    )


def _capacity_tile_storage_side_up(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-29 (p.30): a capacity tile with its storage side up and a stone on g1: MAKE STEAM increases by
    the 2 built-in boilers by default, by 3 under 'both' (the tile's boiler counts on either side)."""
    given = {"players": 2, "phase": "action", "seats": {0: {"gauge": "g1", "machine_room": {1: "capacity/1"}}}}
    yield (
        "a capacity tile storage side up in position 1 and a stone on g1, MAKE STEAM to choose (STM-R-25, R-59)",
        tools(game).scenario_state(given),
    )


def _stone_on_the_crystal_rows_space(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-42 (p.22): a stone on the 5-space (g7) that could move up when the crystal row's #5 is
    bought; 'optional' lets it stay (the marker goes to the box), 'compulsory' makes it make room."""
    given = {
        "players": 2,
        "phase": "flight",
        "seats": {0: {"gauge": "g7", "crystals": 1}},
        "board": [{"seat": 0, "level": 1, "position": "right"}],
        "bonus": {"crystal_row": [5, 4, 3, 2], "gear_row": [5, 4, 3, 2]},
    }
    yield (
        "a flight from level 1 with 1 crystal for the crystal row's #5 and a stone on its space, g7, with g8 free "
        "(STM-R-46, R-47)",
        tools(game).scenario_state(given),
    )


def _final_round_tied_on_vp(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 2,
        "phase": "start-of-turn",
        "start_player": 0,
        "to_move": 0,
        "markets": {2: [], 6: [], 8: []},  # three statues on the tower top: the end is triggered (STM-R-64)
        "end_triggered": True,
        "final_round": True,
        "seats": {
            0: {"vp": 10, "machine_room": {1: "S1", 2: "capacity"}},
            1: {"vp": 10, "machine_room": {1: "M0-01"}},
        },
    }
    state = tools(game).scenario_state(given)
    label = (
        "the final round, the seats tied on VP; seat 0 with its starting machine and a capacity tile, seat 1 with a "
        "bought machine (STM-R-66, R-67)"
    )
    yield label, state
    passed = steer(game, state, _let_the_turn_pass, until=lambda s: s.to_move == 1, max_steps=20)
    if passed is not None:
        yield f"{label}, at seat 1's last turn after seat 0 let its final turn pass", passed


def _let_the_turn_pass(state: Any, options: Sequence[Any]) -> Any:
    """Every final-turn step skipped, the turn ended (STM-R-66, STM-AMB-17 'optional')."""
    for kind in ("SkipStep", "EndTurn", "MoveArrowStones"):
        for action in options:
            if type(action).__name__ == kind:
                return action
    return options[0]


def _stone_to_eight_with_eight_taken(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 4,
        "phase": "flight",
        "seats": {0: {"gauge": "g1 g2 g10"}},
        "board": [{"seat": 0, "level": 3, "position": "third"}],
    }
    yield (
        "a 4-player flight taking back from level 3's third district ('pressure stone to 8') with a stone on g10, the "
        "value-8 space (STM-R-61)",
        tools(game).scenario_state(given),
    )


def _two_parasites_on_one_symbol(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    on_m0_06 = {"owner": 1, "host": 0, "position": 1, "symbol": "passive"}
    given = {
        "players": 2,
        "phase": "flight",
        "seats": {0: {"gauge": "g1 g2", "machine_room": {1: "M0-06"}}},
        "board": [{"seat": 0, "level": 7, "position": "left"}],
        "parasites": [on_m0_06, on_m0_06],
    }
    yield (
        "2 players: both of seat 1's parasites on the passive of seat 0's M0-06 ('take back from level 7: 1 VP'), "
        "seat 0's flight taking back its only stone, from level 7 (STM-R-53, R-54, R-60)",
        tools(game).scenario_state(given),
    )


def _character_5_at_the_sponsor_district(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-34 (p.29, p.31): character 5, owning a sponsor, takes back a stone from the sponsor district
    (L7-right); 'one' lets the second sponsor lapse, 'two' keeps it."""
    given = {
        "players": 2,
        "phase": "flight",
        "to_move": 0,
        "seats": {0: {"character": 5, "gauge": "g1 g2", "sponsor": "crystal"}, 1: {"character": 7}},
        "board": [{"seat": 0, "level": 7, "position": "right"}],
    }
    yield (
        "character 5 with a sponsor, seat 0's flight taking back its stone from the sponsor district L7-right "
        "(STM-R-57)",
        tools(game).scenario_state(given),
    )


def _rank_1_tile_after_the_emptied_rank_0_slot(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-25 (p.18-20): a rank-1 tile face up on level 5 (its rank-0 slot emptied), the buyer with the
    2 crystals of its own slot but not the 2 gears of the emptied one: 'per-slot' sells it, 'cumulative'
    does not."""
    given = {
        "players": 2,
        "phase": "flight",
        "seats": {0: {"gauge": "g1", "crystals": 2, "machine_room": {1: "M0-02"}}},
        "board": [{"seat": 0, "level": 5, "position": "left"}],
        "markets": {5: ["M1-04"]},
    }
    yield (
        "a flight from level 5, whose market shows the rank-1 M1-04, with 2 crystals and no gear (STM-R-40, R-41)",
        tools(game).scenario_state(given),
    )


def _solo_banker_dropped_off(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-16 (p.37, solo turn 5): P02 face up (banker 6, alternate 8), the banker on level 6, own stones on
    L6-left and L8-left; the flight takes back L6 (picks up the banker, lets the district lapse), then L8,
    where the banker gets off."""
    given = {
        "players": 1,
        "phase": "flight",
        "board": [{"seat": 0, "level": 6, "position": "left"}, {"seat": 0, "level": 8, "position": "left"}],
        "passengers": {"face_up": "P02", "banker": 6},
    }
    state = tools(game).scenario_state(given)
    for step in (
        {"kind": "take-back", "level": 6, "position": "left"},
        {"kind": "pick-up", "passenger": "banker"},
        {"kind": "let-lapse"},
        {"kind": "take-back", "level": 8, "position": "left"},
    ):
        state = game.apply(state, game.action_from_json(step))
    yield (
        "solo turn 5's flight (p.37): the banker picked up on level 6 has got off on level 8, L8-left's effect next "
        "(STM-R-37, R-49, R-71)",
        state,
    )


def _use_all_in_the_machine_holding_it(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-37 (p.32): seat 0 has channelled its g6 stone (value 4) into M3-01 ('use all activation
    effects') on position 3, with M0-02 (1 gear) and M0-01 (1 crystal) on 2 and 1.  The player may forgo
    the 'use all' (p.26-27), and a game that does never asks again: the turn is the last of the final
    round (STM-R-66), so such a game ends within a few steps and the next tries again."""
    seat = {"gauge": "g6", "machine_room": {1: "M0-01", 2: "M0-02", 3: "M3-01"}}
    given = _LAST_TURN | {"phase": "action", "markets": _BOUGHT_OUT, "seats": {0: seat}}  # 3 statues (STM-R-64)
    state = tools(game).scenario_state(given)
    channelled = game.apply(state, game.action_from_json({"kind": "channel-pressure", "space": 6}))
    yield (
        "2 players, the final round's last turn: seat 0 has channelled g6 into M3-01 ('use all activation "
        "effects'), M0-02 and M0-01 on positions 2 and 1 (STM-R-29, R-62)",
        channelled,
    )


def _activate_any_number_of_two_parasites(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """STM-AMB-35 (p.32-33): seat 0 has channelled its value-2 stone (g4) into M3-05 ('activate any number of own
    parasites') with two of its parasites on seat 1's M0-01 ('Receive 1 crystal'): 'each-once' activates
    them together, each once; 'repeat' one at a time, the same again."""
    on_m0_01 = {"owner": 0, "host": 1, "position": 1, "symbol": "activation"}
    given = {
        "players": 2,
        "phase": "action",
        "seats": {0: {"gauge": "g1 g4", "machine_room": {1: "M3-05"}}, 1: {"machine_room": {1: "M0-01"}}},
        "parasites": [on_m0_01, on_m0_01],
    }
    state = tools(game).scenario_state(given)
    channelled = game.apply(state, game.action_from_json({"kind": "channel-pressure", "space": 4}))
    yield (
        "2 players: seat 0 has channelled g4 into M3-05 ('activate any number of own parasites'), both its "
        "placed parasites on seat 1's M0-01 (STM-R-29, R-56)",
        channelled,
    )


# The last seat's last turn (STM-R-66): seat 1 started the final round, three statues stand on the tower top
# (STM-R-64), so a game from here ends within a few steps.
_LAST_TURN: dict[str, Any] = {
    "players": 2,
    "start_player": 1,
    "to_move": 0,
    "end_triggered": True,
    "final_round": True,
}
_BOUGHT_OUT: dict[int, list[str]] = {2: [], 6: [], 8: []}


def _purple_banners_for_sale(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    statues: dict[int, list[str]] = {2: [], 3: [], 4: []}  # three bought-out markets: the end is triggered (STM-R-64)
    given = _LAST_TURN | {
        "phase": "flight",
        "markets": statues | {5: ["M0-03"], 6: ["M0-05"], 7: ["M0-09"]},
        "seats": {
            0: {
                "gauge": "g4",
                "gears": 6,
                "banners": ["M0-01"],
                "machine_room": {1: "capacity/1", 2: "capacity/1", 3: "capacity/1"},
            }
        },
        "board": [{"seat": 0, "level": lv, "position": "left"} for lv in (5, 6, 7)],
    }
    yield (
        "the last turn's flight from levels 5, 6 and 7, each market showing a rank-0 purple tile, with the gears for "
        "all three as banners and an orange banner owned (STM-R-43, R-44)",
        tools(game).scenario_state(given),
    )


def _first_two_of_the_bonus_markers(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = _LAST_TURN | {
        "phase": "flight",
        "markets": _BOUGHT_OUT,
        "seats": {0: {"gauge": "g1 g2", "gears": 3}},
        "board": [{"seat": 0, "level": 1, "position": "right"}],
        "bonus": {"crystal_row": [5, 4, 3, 2], "gear_row": [2]},
    }
    yield (
        "the last turn's flight from level 1 with 3 gears for the gear row's only marker, #2, the crystal row's #2 "
        "still there (STM-R-46, R-47)",
        tools(game).scenario_state(given),
    )


def _solo_final_turn_beside_shadow_stones(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 1,
        "phase": "action",
        "end_triggered": True,
        "final_round": True,
        "markets": _BOUGHT_OUT,
        "seats": {0: {"gauge": "g5"}},
        "board": [
            {"seat": "shadow", "level": 1, "position": "left"},
            {"seat": "shadow", "level": 2, "position": "right"},
        ],
    }
    yield (
        "the solo final turn, a value-3 stone on g5 and shadow stones on L1-left and L2-right (STM-R-26, R-66, R-70)",
        tools(game).scenario_state(given),
    )


def _another_district_with_stone_to_eight(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    others = [(1, "left"), (1, "right"), (2, "left"), (2, "right")]
    given = _LAST_TURN | {
        "players": 4,
        "start_player": 1,
        "phase": "flight",
        "markets": _BOUGHT_OUT,
        "seats": {0: {"gauge": ""}},
        "board": [{"seat": 0, "level": lv, "position": pos} for lv, pos in [*others, (8, "right")]],
    }
    state = tools(game).scenario_state(given)
    steps: list[dict[str, Any]] = []
    for lv, pos in others:  # in S0: 'use another district' refuses them (STM-R-61)
        steps += [{"kind": "take-back", "level": lv, "position": pos}, {"kind": "let-lapse"}]
    steps += [{"kind": "take-back", "level": 8, "position": "right"}, {"kind": "use-district"}]
    for step in steps:
        state = game.apply(state, game.action_from_json(step))
    yield (
        "the 4-player side's last turn: all five stones flown, the four on levels 1-2 taken back (their effects let "
        "lapse), then the one on L8-right, its 'use another district' begun; L3-third holds 'pressure stone to 8' and "
        "g10 is free (STM-R-61)",
        state,
    )


_TWO_BESIDE_THE_STACK = [{"owner": 0, "host": None}, {"owner": 0, "host": None}]


def _solo_activate_parasite(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 1,
        "phase": "flight",
        "seats": {0: {"gauge": "g1 g2"}},
        "board": [{"seat": 0, "level": 5, "position": "right"}, {"seat": "shadow", "level": 5, "position": "right"}],
        "parasites": _TWO_BESIDE_THE_STACK,
        "markets": {5: ["M0-06"]},
    }
    yield (
        "a solo flight taking back from level 5 right ('activate 1 parasite'), two parasites beside the stack, the "
        "banker's level 5 showing M0-06 with a passive effect (STM-R-72)",
        tools(game).scenario_state(given),
    )


def _solo_activate_any_number(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 1,
        "phase": "action",
        "seats": {0: {"gauge": "g3", "machine_room": {1: "M3-05"}}},
        "parasites": _TWO_BESIDE_THE_STACK,
        "markets": {5: ["M0-06"]},
    }
    yield (
        "the solo game with M3-05 ('activate any number of parasites') on position 1, a value-2 stone to channel into "
        "it, two parasites beside the stack (STM-R-72)",
        tools(game).scenario_state(given),
    )


# -- STM-AMB-23: a check ---------------------------------------------------------------------------------------

_OUTSIDE_PLAY = {"scenario.py", "readings.py", "catalogue.py"}  # the given-state builder and the register


def _model_functions(package: str) -> list[tuple[str, ast.Module]]:
    """(file name, tree) of the model's modules that play (the scenario builder makes given states)."""
    spec_file = __import__(package, fromlist=["__file__"]).__file__
    assert spec_file is not None
    return [
        (path.name, ast.parse(path.read_text("utf-8")))
        for path in sorted(Path(spec_file).parent.rglob("*.py"))
        if path.name not in _OUTSIDE_PLAY
    ]


def _enclosing(trees: list[tuple[str, ast.Module]], hit: Any) -> set[str | None]:
    """The names of the functions holding a node for which ``hit(node)`` is true."""
    found: set[str | None] = set()

    def visit(node: ast.AST, inside: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside = node.name
        if hit(node):
            found.add(inside)
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    for _, tree in trees:
        visit(tree, None)
    return found


def _builds_shadow_stone(node: ast.AST) -> bool:
    """A stone put on the board that may be a shadow stone: every ``BoardStone(...)`` but those of the
    player to move (``BoardStone(state.to_move, ...)``), so an unknown seat counts (conservative)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "BoardStone"):
        return False
    seat = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "seat"), None)
    return not (isinstance(seat, ast.Attribute) and seat.attr == "to_move")


def _calls(name: str) -> Any:
    def hit(node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name

    return hit


def _records_s0(node: ast.AST) -> bool:
    return isinstance(node, ast.keyword) and node.arg == "flight_start"


def _flight_to_use_another_district(game: Game[Any, Any], other: tuple[int, str], there: tuple[int, str]) -> Any:
    """A solo flight as FLY leaves it (own stones and shadow stones on S0 = ``other`` and ``there``),
    the stone on ``other`` taken back and its effect let lapse, then the stone on ``there`` ('use
    another district') taken back and its effect begun: the choice of a district is next."""
    stones = [{"seat": seat, "level": lv, "position": pos} for lv, pos in (other, there) for seat in (0, "shadow")]
    state = tools(game).scenario_state(
        {"players": 1, "phase": "flight", "seats": {0: {"gauge": "g1"}}, "board": stones}
    )
    for step in (
        {"kind": "take-back", "level": other[0], "position": other[1]},
        {"kind": "let-lapse"},
        {"kind": "take-back", "level": there[0], "position": there[1]},
        {"kind": "use-district"},
    ):
        state = game.apply(state, game.action_from_json(step))
    return state


def shadow_district_check(default_game: Game[Any, Any], other_game: Game[Any, Any], seconds: float) -> SolverVerdict:
    """STM-AMB-23: can 'use another district' meet a shadow stone outside S0?"""
    from rulecraft.model.steamopolis.effects import UseAnotherDistrict, walk

    start = time.monotonic()
    where = consulted_in(default_game, "STM-AMB-23")
    if where != {"other_district_rejection"}:
        return SolverVerdict(
            "unknown",
            f"STM-AMB-23 is consulted in {sorted(map(str, where))}: the check covers other_district_rejection",
        )
    trees = _model_functions("rulecraft.model.steamopolis")
    makers = _enclosing(trees, _builds_shadow_stone)
    callers = _enclosing(trees, _calls("place_shadow_stones"))
    s0 = _enclosing(trees, _records_s0)
    if makers != {"place_shadow_stones"} or callers != {"fly"} or s0 != {"fly"}:
        return SolverVerdict(
            "unknown",
            f"shadow stones are built in {sorted(map(str, makers))}, placed from {sorted(map(str, callers))} and S0 "
            f"recorded in {sorted(map(str, s0))}: the check covers place_shadow_stones called by fly alone",
        )
    solo = tools(default_game).scenario_state({"players": 1})
    districts = [(d.level, d.position) for d in default_game.ctx.districts(solo)]  # type: ignore[attr-defined]
    users = [
        (d.level, d.position)
        for d in default_game.ctx.districts(solo)  # type: ignore[attr-defined]
        if any(isinstance(part, UseAnotherDistrict) for part in walk(d.effect))
    ]
    cases = 0
    for there in users:
        for other in districts:
            if other == there:
                continue
            cases += 1
            a = _flight_to_use_another_district(default_game, other, there)
            b = _flight_to_use_another_district(other_game, other, there)
            mine = {str(default_game.action_to_json(x)) for x in default_game.legal_actions(a)}
            yours = {str(other_game.action_to_json(x)) for x in other_game.legal_actions(b)}
            if mine != yours:
                return SolverVerdict(
                    "sat",
                    f"a shadow stone on L{other[0]}-{other[1]} (in S0) after 'use another district' on "
                    f"L{there[0]}-{there[1]}: the readings offer different districts",
                    time.monotonic() - start,
                    {"shadow": list(other), "district": list(there)},
                )
    return SolverVerdict(
        "unsat",
        "STM-AMB-23 is consulted only in other_district_rejection (STM-R-61), after its test of S0; shadow stones are "
        "put on the board only by place_shadow_stones, called only by fly (STM-R-70), which puts them on the "
        "districts of your stones as it records them as S0, and nothing else records S0, so every shadow stone a "
        f"flight meets lies on S0; and on the solo board, for each of its {len(users)} 'use another district' "
        f"district(s) and each of the {len(districts) - 1} others holding a shadow stone in S0 ({cases} cases), "
        "both readings offer the same districts",
        time.monotonic() - start,
    )


def witness_queries(game: Game[Any, Any]) -> Mapping[str, SolverHook]:
    """The Steamopolis checks, by ambiguity (the record's ``witness_queries``)."""
    return {"STM-AMB-23": shadow_district_check}


def witness_starts(game: Game[Any, Any]) -> Mapping[str, StartHook]:
    """The Steamopolis witness-start hooks, by ambiguity (the record's ``witness_starts``)."""
    return {
        "STM-AMB-28": _solo_at_one_vp,
        "STM-AMB-15": _bonus_marker_without_a_space,
        "STM-AMB-18": _final_round_tied_on_vp,
        "STM-AMB-22": _stone_to_eight_with_eight_taken,
        "STM-AMB-36": _two_parasites_on_one_symbol,
        "STM-AMB-38": _solo_activate_parasite,
        "STM-AMB-39": _solo_activate_parasite,
        "STM-AMB-40": _solo_activate_any_number,
        "STM-AMB-14": _purple_banners_for_sale,
        "STM-AMB-26": _first_two_of_the_bonus_markers,
        "STM-AMB-31": _solo_final_turn_beside_shadow_stones,
        "STM-AMB-33": _another_district_with_stone_to_eight,
        "STM-AMB-25": _rank_1_tile_after_the_emptied_rank_0_slot,
        "STM-AMB-34": _character_5_at_the_sponsor_district,
        "STM-AMB-35": _activate_any_number_of_two_parasites,
        "STM-AMB-37": _use_all_in_the_machine_holding_it,
        "STM-AMB-16": _solo_banker_dropped_off,
        "STM-AMB-42": _stone_on_the_crystal_rows_space,
        "STM-AMB-04": _make_steam_onto_an_equal_value,
        "STM-AMB-29": _capacity_tile_storage_side_up,
    }
