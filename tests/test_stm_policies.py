"""Steamopolis playout policies: 'purposeful' plays towards the end triggers of STM-R-64 and its
games end; both policies choose legal actions for every player count and reading."""

from __future__ import annotations

import random

import pytest

from rulecraft.core import Chance
from rulecraft.model.steamopolis.actions import FlyToAllTargets, PickUp, SetTarget, TakeBack
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.readings import REGISTER
from rulecraft.model.steamopolis.rules import destination
from rulecraft.model.steamopolis.state import Phase, StmState
from rulecraft.ruleset import Ruleset

GAME = SteamopolisGame()


def play(game: SteamopolisGame, players: int, seed: int, cap: int = 5000) -> tuple[StmState, list[object]]:
    rng = random.Random(seed)
    state = game.new_game(players)
    log: list[object] = []
    for _ in range(cap):
        action = game.random_action(state, rng, "purposeful")
        if action is None:
            break
        if not isinstance(game.to_move(state), Chance):
            assert game.check(state, action) is None, action
        state = game.apply(state, action)
        log.append(action)
    return state, log


@pytest.mark.parametrize("seed", range(4))
def test_purposeful_four_player_games_end_by_the_r64_triggers(seed: int) -> None:
    """STM-R-64: the game ends after the passenger stack is used up or the third statue stands; the
    purposeful policy reaches one of them well inside the campaign cap."""
    state, log = play(GAME, 4, seed)
    assert state.phase is Phase.OVER, f"still {state.phase} after {len(log)} steps (round {state.round})"
    stack_used_up = state.passengers.face_up is None and not state.passengers.stack
    assert stack_used_up or state.tower_top >= 3
    assert state.round < 100
    assert any(isinstance(a, PickUp) for a in log), "no passenger was ever carried"


@pytest.mark.parametrize("players", [1, 2, 3])
def test_purposeful_games_end_for_every_player_count(players: int) -> None:
    state, _log = play(GAME, players, seed=players)
    assert state.phase is Phase.OVER
    assert GAME.winners(state) is not None


@pytest.mark.parametrize(
    "readings", [{"STM-AMB-13": "any", "STM-AMB-11": "board"}, {"STM-AMB-06": "forbidden", "STM-AMB-32": "most"}]
)
def test_purposeful_stays_legal_under_other_readings(readings: dict[str, str]) -> None:
    game = SteamopolisGame(Ruleset.from_overrides(REGISTER, readings))
    state, _log = play(game, 4, seed=11, cap=1500)
    assert state.round > 3


def _pick_up_levels(state: StmState) -> set[int]:
    """Levels whose stone, taken back now, lets a passenger board: he stands there, has not flown this
    turn, and another own stone waits on his destination (STM-R-36)."""
    own = {s.level for s in GAME.ctx.own_stones(state, state.to_move)}
    out = set()
    for who in ("banker", "stoker"):
        at = state.passengers.banker if who == "banker" else state.passengers.stoker
        if at is None or who in state.turn.transported:
            continue
        dest = destination(GAME.ctx, state, who)
        if at in own and dest in own and dest != at:
            out.add(at)
    return out


def test_purposeful_flies_to_carry_a_passenger_and_takes_back_his_level_first() -> None:
    """A stone on a passenger's level and one on his destination: FLY picks him up and drops him off
    (STM-R-36/37), so the policy flies, and takes back the stone on his level before the others."""
    rng = random.Random(0)
    state = GAME.new_game(4)
    flights = first = 0
    for _ in range(4000):
        action = GAME.random_action(state, rng, "purposeful")
        if action is None:
            break
        levels = _pick_up_levels(state) if isinstance(GAME.to_move(state), int) else set()
        choosing = state.phase is Phase.ACTION and not (state.turn.pending or state.turn.storing)
        if choosing and state.turn.final_step is None and levels:  # the final turn's steps are fixed
            assert isinstance(action, FlyToAllTargets), action
            flights += 1
        if state.phase is Phase.FLIGHT and state.turn.step == "next" and levels and not state.turn.pending:
            assert isinstance(action, TakeBack) and action.level in levels, action
            first += 1
        state = GAME.apply(state, action)
    assert flights > 5 and first > 5


def test_purposeful_prefers_targets_on_the_passengers_levels() -> None:
    """Over many choices of action, SET 1 TARGET lands on a level where a passenger stands or wants to
    go far more often than uniform play does."""

    def share(policy: str, seeds: range) -> float:
        hits = total = 0
        for seed in seeds:
            rng = random.Random(seed)
            state = GAME.new_game(4)
            for _ in range(800):
                action = GAME.random_action(state, rng, policy)
                if action is None:
                    break
                if isinstance(action, SetTarget):
                    wanted = {state.passengers.banker, state.passengers.stoker}
                    wanted |= {destination(GAME.ctx, state, "banker"), destination(GAME.ctx, state, "stoker")}
                    hits += action.level in wanted
                    total += 1
                state = GAME.apply(state, action)
        return hits / total

    assert share("purposeful", range(3)) > share("uniform", range(3)) + 0.2
