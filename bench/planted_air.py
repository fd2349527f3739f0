"""Planted rule deviations for Airships (``air``): the reference model with exactly one rule changed,
the way a real implementation gets it wrong (the conformance benchmark, bench/planted.py).

Each deviation patches the model modules of this process through the patch function it is given
(``builtins.setattr`` or pytest's ``monkeypatch.setattr``), where the model looks the name up at call
time: the effects in ``transitions.py`` call one another through the module's globals, and
``game.py`` binds ``new_game`` at import, so the start-player deviation patches the game module's
name.  The model's memos (``game.colour_distribution``, the bundled pack) hold nothing a deviation
changes.

Observations are made on states built with ``scenario_state`` (the printed examples' vocabulary)
or on fresh set-ups whose chance steps take their first outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
from planted_base import Deviation, Patch

from rulecraft.model.airships import game as air_game
from rulecraft.model.airships import transitions
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.rules import Context
from rulecraft.model.airships.state import AirState, Phase
from rulecraft.registry import make_game
from rulecraft.tools import tools

CACHES_TO_CLEAR: tuple[Callable[[], None], ...] = ()


# ---------------------------------------------------------------------------
# Small helpers for the observations
# ---------------------------------------------------------------------------


def _game() -> AirshipsGame:
    game = make_game("air")
    assert isinstance(game, AirshipsGame)
    return game


def _given(game: AirshipsGame, **given: Any) -> AirState:
    state = tools(game).scenario_state({"players": 2, **given})
    assert isinstance(state, AirState)
    return state


def _step(game: AirshipsGame, state: AirState, action: Mapping[str, Any]) -> AirState:
    after = game.apply(state, game.action_from_json(action))
    assert isinstance(after, AirState)
    return after


def _steps(game: AirshipsGame, state: AirState, actions: Sequence[Mapping[str, Any]]) -> AirState:
    for action in actions:
        state = _step(game, state, action)
    return state


def _legal(game: AirshipsGame, state: AirState) -> list[dict[str, Any]]:
    return [game.action_to_json(a) for a in game.legal_actions(state)]


def _chips(state: AirState) -> dict[str, list[int]]:
    return {"boards": [b.chips for b in state.boards], "supplies": list(state.supplies)}


def _where(state: AirState) -> dict[str, Any]:
    return {"phase": state.phase.value, "seat": state.seat, "ended": state.ended}


# Both companies hold a starter: 2 white dice each (AIR-R-08).
_STARTERS = {0: {"cards": ["S-FIN"]}, 1: {"cards": ["S-HAN"]}}
# L1 (light, on top of stack 4): 2 white dice for 6, so a throw of 3 + 3 wins it and 1 + 1 fails.
_STACKS = [["D1", "M1", "L2"], ["D2", "M2", "L3"], ["D3", "M3", "L4"], ["D4", "M4", "L1"]]
_WIN_L1 = ({"kind": "attempt", "target": "airship:4", "throw": {"W": 2}}, {"kind": "throw", "W": [3, 3]})


# ---------------------------------------------------------------------------
# AIR-R-47: the end when every airship field holds at most 1 card
# ---------------------------------------------------------------------------


def _plant_end_fields_empty(patch: Patch) -> None:
    def end_condition(ctx: Context, state: AirState) -> str | None:
        # "The airship cards are used up" read as empty fields: < 1 where the rule says <= 1.
        small = [len(s) < 1 for s in state.stacks]
        if all(small) if ctx.r("AIR-AMB-21") == "every" else any(small):
            return "a"
        if ctx.r("AIR-AMB-19") == "all-four":
            if all(owner is not None for owner in state.stages):
                return "b"
        elif state.stages[3] is not None:
            return "b"
        return None

    patch(transitions, "end_condition", end_condition)


def _observe_end_fields() -> Any:
    """Stacks of 1, 1, 1 and 2 cards: winning the last light card leaves one card on every field."""
    game = _game()
    state = _given(game, boards=_STARTERS, stacks=[["D1"], ["D2"], ["D3"], ["D4", "L1"]])
    return _where(_steps(game, state, _WIN_L1))


# ---------------------------------------------------------------------------
# AIR-R-48 / AIR-R-49: the final scoring and the tie-break
# ---------------------------------------------------------------------------


def _plant_stages_low(patch: Patch) -> None:
    def score_parts(self: AirshipsGame, state: AirState) -> dict[int, dict[str, int]]:
        out: dict[int, dict[str, int]] = {}
        for seat, board in enumerate(state.boards):
            developments = sum(self.pack.development(c).vp for c in board.departments if c is not None)
            airships = sum(self.pack.airship(c).vp for c in board.airships)
            # Each stage scores its printed low value; the high one for a finished Hindenburg is forgotten.
            stages = sum(self.pack.stage(i).vp_low for i, owner in enumerate(state.stages, start=1) if owner == seat)
            total = developments + airships + stages
            out[seat] = {"developments": developments, "airships": airships, "stages": stages, "total": total}
        return out

    patch(AirshipsGame, "score_parts", score_parts)


def _observe_stages() -> Any:
    """All four stages built: seat 0 owns stages 1 and 2, seat 1 stages 3 and 4."""
    game = _game()
    state = _given(
        game, boards=_STARTERS, stacks=[[], ["D2"], ["D3"], ["D4"]], hindenburg=True, stages={1: 0, 2: 0, 3: 1, 4: 1}
    )
    return {"scores": list(game.scores(state).values()), "winners": list(game.winners(state))}


def _plant_tiebreak_cards_only(patch: Patch) -> None:
    def airships_built(self: AirshipsGame, state: AirState, seat: int) -> int:
        return len(state.boards[seat].airships)  # the Hindenburg stages are not counted as airships

    patch(AirshipsGame, "airships_built", airships_built)


def _observe_tiebreak() -> Any:
    """7 VP each: seat 0 with M2 and L2 (2 airships), seat 1 with L1, L3 and stage 1 (3 airships built)."""
    game = _game()
    state = _given(
        game,
        boards={0: {"cards": ["S-FIN"], "airships": ["M2", "L2"]}, 1: {"cards": ["S-HAN"], "airships": ["L1", "L3"]}},
        stacks=[["D1"], ["D2"], ["D3"], []],
        hindenburg=True,
        stages={1: 1},
    )
    return {"scores": list(game.scores(state).values()), "winners": list(game.winners(state))}


# ---------------------------------------------------------------------------
# AIR-R-41 / AIR-R-50: the failure chip comes from the nation's 6 chips
# ---------------------------------------------------------------------------


def _plant_failure_chip_unlimited(patch: Patch) -> None:
    def failure_chip(ctx: Context, state: AirState) -> AirState:
        # The chip is given whether or not the supply has one.
        return transitions._move_chips(ctx, state, state.seat, +ctx.p("failure_chips"))

    patch(transitions, "_failure_chip", failure_chip)


def _observe_failure_chip() -> Any:
    """Seat 0 has all 6 of its chips on the board and fails L1 with 1 + 1 (no chip spent)."""
    game = _game()
    state = _given(game, boards={0: {"cards": ["S-FIN"], "chips": 6, "supply": 0}, 1: _STARTERS[1]}, stacks=_STACKS)
    state = _steps(game, state, [_WIN_L1[0], {"kind": "throw", "W": [1, 1]}])
    if state.phase is Phase.BONUS:
        state = _step(game, state, {"kind": "resolve", "chip": False})
    return {**_chips(state), **_where(state)}


# ---------------------------------------------------------------------------
# Set-up: the start player's chips, the surplus starters
# ---------------------------------------------------------------------------


def _plant_start_chips_seat_0(patch: Patch) -> None:
    original = transitions.new_game  # what game.py binds as new_game

    def new_game(ctx: Context, players: int, first_seat: int, nations: tuple[str, ...]) -> AirState:
        # The start player's 3 chips go to seat 0 whoever starts.
        state = original(ctx, players, 0, nations)
        return attrs.evolve(state, seat=first_seat, start_seat=first_seat)

    patch(air_game, "new_game", new_game)


def _observe_start_chips() -> Any:
    state = _game().new_game(3, first_seat=2)
    return {"start_seat": state.start_seat, **_chips(state)}


def _plant_starters_surplus(patch: Patch) -> None:
    def deal_starter(ctx: Context, state: AirState, card: str) -> AirState:
        seat = sum(1 for b in state.boards if any(b.departments))
        board = transitions._with_card(state.boards[seat], ctx, card)
        boards = transitions._replace(state.boards, seat, board)
        undealt = tuple(c for c in state.starters_undealt if c != card)
        state = attrs.evolve(state, boards=boards, starters_undealt=undealt)
        if seat + 1 < state.players:
            return state
        # With fewer than 4 players the absent companies' starters are taken for surplus components
        # and leave the game; only the 2 a 4-player game leaves over are placed.
        surplus = 4 - state.players
        state = attrs.evolve(state, removed=state.removed + undealt[:surplus])
        for rest in undealt[surplus:]:
            state = transitions.place(ctx, state, rest)
        state = attrs.evolve(state, starters_undealt=(), phase=Phase.FILL_DISPLAY)
        return transitions._after_setup_draw(ctx, state)

    patch(transitions, "_deal_starter", deal_starter)


def _observe_starters() -> Any:
    """A 2-player set-up, every chance step taking its first outcome: what lies in the display."""
    game = _game()
    state = game.new_game(2)
    while state.phase in (Phase.DEAL_AIRSHIPS, Phase.DEAL_STARTERS, Phase.FILL_DISPLAY):
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert isinstance(state, AirState)
    shown = sorted(c for row in state.display for c in row if c is not None)
    return {"display": shown, "removed": sorted(state.removed), "era1_left": len(state.deck_era1)}


# ---------------------------------------------------------------------------
# AIR-R-42: an additional go for 3 chips
# ---------------------------------------------------------------------------


def _plant_extra_go_needs_more(patch: Patch) -> None:
    def after_step_two(ctx: Context, state: AirState) -> AirState:
        reason = state.ended or transitions.end_condition(ctx, state)
        if reason is not None:
            state = attrs.evolve(state, ended=reason)
            if ctx.r("AIR-AMB-20") == "immediate":
                return attrs.evolve(state, phase=Phase.OVER, attempt=None)
        # "Can pay 3 chips" written as more than 3: a company with exactly 3 gets no additional go.
        if state.boards[state.seat].chips > ctx.p("extra_go_cost"):
            return attrs.evolve(state, phase=Phase.EXTRA_GO, attempt=None)
        return transitions._next_seat(state)

    patch(transitions, "_after_step_two", after_step_two)


def _observe_extra_go() -> Any:
    """Seat 0 (3 chips, the start player) wins L1: may it pay its 3 chips for another go?"""
    game = _game()
    state = _given(game, boards=_STARTERS, stacks=_STACKS)
    after = _steps(game, state, _WIN_L1)
    return {**_where(after), "chips": after.boards[0].chips, "legal": _legal(game, after)}


# ---------------------------------------------------------------------------

DEVIATIONS: Sequence[Deviation] = (
    Deviation(
        game="air",
        name="end-fields-empty",
        rules=("AIR-R-47",),
        category="end-game",
        what="the game ends when every airship field is empty instead of holding at most 1 card",
        plant=_plant_end_fields_empty,
        observe=_observe_end_fields,
    ),
    Deviation(
        game="air",
        name="stages-low",
        rules=("AIR-R-48",),
        category="scoring",
        what="Hindenburg stages always score their low value, even when all four are built",
        plant=_plant_stages_low,
        observe=_observe_stages,
    ),
    Deviation(
        game="air",
        name="tiebreak-cards-only",
        rules=("AIR-R-49",),
        category="scoring",
        what="the VP tie-break counts airship cards only; owned Hindenburg stages are not counted as airships",
        plant=_plant_tiebreak_cards_only,
        observe=_observe_tiebreak,
    ),
    Deviation(
        game="air",
        name="failure-chip-unlimited",
        rules=("AIR-R-41", "AIR-R-50"),
        category="resource-cap",
        what="a failed attempt earns a chip even when the nation's supply is empty (a 7th chip)",
        plant=_plant_failure_chip_unlimited,
        observe=_observe_failure_chip,
    ),
    Deviation(
        game="air",
        name="start-chips-seat-0",
        rules=("AIR-R-09",),
        category="rare-setup",
        what="seat 0 takes the start player's 3 chips whoever starts; the start player takes 4",
        plant=_plant_start_chips_seat_0,
        observe=_observe_start_chips,
    ),
    Deviation(
        game="air",
        name="starters-surplus",
        rules=("AIR-R-05", "AIR-R-01"),
        category="player-count",
        what="with fewer than 4 players the absent companies' starters leave the game instead of lying face up",
        plant=_plant_starters_surplus,
        observe=_observe_starters,
    ),
    Deviation(
        game="air",
        name="extra-go-needs-four",
        rules=("AIR-R-42",),
        category="ordinary",
        what="an additional go is offered only with more than 3 chips, so exactly 3 chips cannot pay for it",
        plant=_plant_extra_go_needs_more,
        observe=_observe_extra_go,
    ),
)
