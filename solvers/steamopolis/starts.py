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
  parasites it may put on one machine on the activation of seat 0's starting machine, and seat 0
  has a value-2 stone that channels into it: the default gives seat 1 two uses, 'once' one.
- STM-AMB-38 and STM-AMB-39 (p.35, solo 'activate parasite', STM-R-72): the solo flight takes back
  a stone from level 5 right ('activate 1 parasite') with two parasites beside the stack; the
  banker's destination is level 5, whose face-up tile M0-06 shows a passive effect.  STM-AMB-38:
  the default leaves the used parasite beside the stack, 'returns' takes it back; STM-AMB-39: the
  default offers the passive effect, 'activation' does not.
- STM-AMB-40 (p.35, solo 'activate any number of parasites', STM-R-72): the solo game's M3-05
  ('activate any number of own parasites') on machine-room position 1, a value-2 stone to channel
  into it, and two parasites beside the stack: the default gives two uses, 'one' one.

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
    on_s1 = {"owner": 1, "host": 0, "position": 1, "symbol": "activation"}
    given = {
        "players": 2,
        "phase": "action",
        "seats": {0: {"gauge": "g1 g2 g3", "machine_room": {1: "S1"}}},
        "parasites": [on_s1, on_s1],
    }
    yield (
        "2 players: both of seat 1's parasites on the activation of seat 0's starting machine, a value-2 stone to "
        "channel into it (STM-R-53, R-54)",
        tools(game).scenario_state(given),
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
    }
