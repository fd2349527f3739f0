"""The planned playout (rulecraft.planner): a beam search that reaches the ends a random player never
does, the solo game of Steamopolis first (STM-R-69: every MAKE STEAM and FLY costs a VP)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulecraft.core import GameOver
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.policies import progress, purposeful
from rulecraft.model.steamopolis.rules import SOLO_RANKS
from rulecraft.model.steamopolis.state import StmState
from rulecraft.planner import Planner
from rulecraft.registry import make_game
from rulecraft.tools import tools

THRESHOLDS = {threshold for threshold, _ in SOLO_RANKS if threshold}


def _planned_end(seed: int, players: int = 1) -> tuple[StmState, int]:
    """Play the 'planned' policy through Game.apply (so every move is checked) to the end."""
    game = make_game("stm")
    policy = tools(game).policy("purposeful")
    rng = random.Random(seed)
    state: StmState = game.new_game(players)
    steps = 0
    while not isinstance(game.to_move(state), GameOver):
        state = game.apply(state, policy(game, state, rng))
        steps += 1
        assert steps < 2000, "a planned solo game runs a few hundred steps"
    return state, steps


def test_random_and_purposeful_players_lose_every_solo_game_the_planner_does_not() -> None:
    """Why the planner exists: time pressure (STM-R-69) beats a random player in the solo game."""
    game = SteamopolisGame()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(1)
        while not isinstance(game.to_move(state), GameOver):
            mover = game.to_move(state)
            chance = not isinstance(mover, int)
            action = game.random_action(state, rng) if chance else purposeful(game, state, rng)
            assert action is not None
            state = game.apply(state, action)
        assert game.solo_rank(state) == "lost"
    ranks = [game.solo_rank(_planned_end(seed)[0]) for seed in range(4)]
    assert sum(rank != "lost" for rank in ranks) >= 3, ranks


def test_a_plan_is_the_same_for_the_same_seed_and_legal_move_by_move() -> None:
    game = make_game("stm")
    planner = tools(game).policy("purposeful")
    assert isinstance(planner, Planner)
    root = game.new_game(1)
    first = planner.plan(game, root, random.Random(7))
    again = planner.plan(game, root, random.Random(7))
    assert first == again and first
    state = root
    for before, action in first:
        assert before == state
        state = game.apply(state, action)  # apply checks every move: an illegal one raises
    assert isinstance(game.to_move(state), GameOver)


def test_half_the_plans_end_on_a_rank_threshold_met_exactly() -> None:
    """STM-R-73 (p.36): ranks are reached at 7, 14, 21... VP; a plan that ends on one exactly is where
    '>' written for '>=' shows, so the planner looks for such endings."""
    on_threshold = 0
    for seed in range(8):
        state, _ = _planned_end(seed)
        on_threshold += state.players[0].vp in THRESHOLDS
    assert on_threshold >= 2


def test_with_more_players_the_policy_does_not_plan_and_chance_goes_by_its_odds() -> None:
    game = make_game("stm")
    planner = tools(game).policy("purposeful")
    state = game.new_game(3)
    while not isinstance(game.to_move(state), int):  # the set-up deals (chance) first
        state = game.apply(state, planner(game, state, random.Random(1)))
    assert isinstance(game, SteamopolisGame)
    assert planner(game, state, random.Random(3)) == purposeful(game, state, random.Random(3))


def test_one_games_plan_never_steers_another_game() -> None:
    """Plans are kept per game (its generator): another game at the same state plans with its own
    seed, as if the first had never been played."""
    game = make_game("stm")
    planner = tools(game).policy("purposeful")
    assert isinstance(planner, Planner)
    root = game.new_game(1)
    planner(game, root, random.Random(1))
    fresh = planner.plan(game, root, random.Random(2))[0][1]
    assert planner(game, root, random.Random(2)) == fresh


def test_a_planner_refuses_a_width_of_zero_naming_the_field() -> None:
    with pytest.raises(ValueError, match="width"):
        Planner(value=lambda g, s: 0.0, width=0)


def test_a_plan_that_reaches_no_end_hands_the_game_to_the_fallback_policy() -> None:
    """A horizon too short to see an end: the game is not planned again at every step (each plan costs
    the whole horizon), it goes on with ``otherwise``."""
    game = make_game("stm")
    calls: list[int] = []

    def fallback(g: Any, state: Any, rng: random.Random) -> Any:
        calls.append(1)
        return purposeful(g, state, rng)

    short = Planner(value=progress, horizon=5, otherwise=fallback)
    rng = random.Random(4)
    state = game.new_game(1)
    path, ends = short.planned(game, state, rng)
    assert len(path) == 5 and not ends
    state = game.new_game(1)
    rng = random.Random(4)
    for _ in range(80):  # the set-up deals (chance, by its odds), then the player's decisions
        state = game.apply(state, short(game, state, rng))
    assert calls  # past the first (unfinished) plan's steps, the fallback chose


class _Scripted(Planner):
    """A planner whose plan is given: the path a beam search found, loop included."""

    def planned(self, game: Any, root: Any, rng: random.Random) -> tuple[list[tuple[Any, Any]], bool]:
        return [(0, "take back"), (1, "place again"), (0, "leave"), (2, "end")], True


def test_a_plan_that_comes_back_to_a_state_leaves_it_as_the_plan_does() -> None:
    """A planned path may pass a state twice (a move and its undoing). Replayed state by state, the
    state's last action is the one that leads on to the plan's end; its first would loop forever."""
    planner = _Scripted(value=lambda g, s: 0.0)
    rng = random.Random(0)
    nothing: Any = None  # the scripted plan asks the game nothing
    assert [planner(nothing, state, rng) for state in (0, 1, 2)] == ["leave", "place again", "end"]


def test_a_solo_game_whose_plan_takes_a_parasite_back_and_places_it_again_ends() -> None:
    """STM-R-72 (p.33): a parasite taken back in 'remove tiles' for a removed machine's 'place your
    parasites' goes beside the stack again, the state as before. The plan for this seed passes such a
    loop; the game it plays must still reach its end (it once ran 48,000 steps round the loop)."""
    game = make_game("stm")
    rng = random.Random(3)
    state = game.new_game(1, **game.random_options(rng, 1))
    for _ in range(2000):
        action = game.random_action(state, rng, policy="purposeful")
        if action is None:
            break
        state = game.apply(state, action)
    assert isinstance(game.to_move(state), GameOver)
