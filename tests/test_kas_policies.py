"""Kings of Air and Steam playout policies: 'purposeful' chooses only legal actions (base and advanced
games, every player count), its games end, and it loads, unloads and ships goods (KAS-R-29..39) far
more often than uniform play on the same seeds."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest

from rulecraft.cli import main
from rulecraft.core import Chance
from rulecraft.model.kings_of_air_and_steam.actions import KasAction, ShipGoods, Unload
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.policies import purposeful
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase
from rulecraft.tools import tools

GAME = KingsOfAirAndSteamGame()


def play(
    players: int, seed: int, policy: str = "purposeful", options: dict[str, Any] | None = None
) -> tuple[KasState, list[tuple[KasState, KasAction]]]:
    """A whole game under ``policy`` (capped at the game's campaign_steps), each seat's choice checked
    against ``legal_actions``; the log pairs each action with the state it was chosen in."""
    rng = random.Random(seed)
    state = GAME.new_game(players, **(options or {}))
    log: list[tuple[KasState, KasAction]] = []
    for _ in range(GAME.campaign_steps):
        action = GAME.random_action(state, rng, policy)
        if action is None:
            break
        if not isinstance(GAME.to_move(state), Chance):
            assert action in GAME.legal_actions(state), (state.phase, action)
        log.append((state, action))
        state = GAME.apply(state, action)
    return state, log


def test_purposeful_is_offered_and_bound() -> None:
    assert set(tools(GAME).policies()) == {"uniform", "purposeful"}
    assert tools(GAME).policy("purposeful") is tools(GAME).policy("purposeful")


@pytest.mark.parametrize("players", range(2, 8))
def test_purposeful_games_end_for_every_player_count(players: int) -> None:
    """KAS-R-13/50: five rounds, the sellout, then the game is over, within the campaign cap."""
    state, log = play(players, seed=players)
    assert state.phase is Phase.OVER, f"still {state.phase} after {len(log)} steps"
    assert len(log) < GAME.campaign_steps
    assert GAME.winners(state)


@pytest.mark.parametrize("players", range(2, 8))
def test_purposeful_stays_legal_in_advanced_games(players: int) -> None:
    """Teams and characters (KAS-R-57..87), other board sets and the Uncertainty variant, drawn as the
    random campaigns draw them; teams are always in play here."""
    rng = random.Random(100 + players)
    options = GAME.random_options(rng, players)
    teams = rng.sample(list(GAME.pack.teams), players)
    options["teams"] = tuple((t.name, rng.choice(t.characters)) for t in teams)
    state, _log = play(players, seed=200 + players, options=options)
    assert state.phase is Phase.OVER


def test_purposeful_chooses_legal_actions_in_states_uniform_play_reaches() -> None:
    """States the policy would not steer into itself: every seat decision of uniform games, base and
    advanced, asked of the policy under several draws."""
    checked = 0
    for seed in range(3):
        options: dict[str, Any] = {}
        if seed:
            rng = random.Random(seed)
            options = {"teams": tuple((t.name, rng.choice(t.characters)) for t in rng.sample(GAME.pack.teams, 4))}
        _state, log = play(4, seed=seed, policy="uniform", options=options)
        for state, _action in log[::3]:
            if isinstance(GAME.to_move(state), Chance):
                continue
            legal = GAME.legal_actions(state)
            for draw in range(3):
                assert purposeful(GAME, state, random.Random(draw)) in legal
            checked += 1
    assert checked > 200


def _deliveries(policy: str, seeds: range) -> tuple[int, int, int]:
    """Ship and Unload actions over the seeded games, and the games where a shipment paid a toll to
    another player (KAS-R-38: money moves between players)."""
    ships = unloads = tolled = 0
    for seed in seeds:
        _state, log = play(2 + seed % 4, seed, policy)
        toll = False
        for (before, action), (after, _next) in itertools.pairwise(log):
            if isinstance(action, ShipGoods):
                ships += 1
                toll = toll or any(
                    after.players[s].money > before.players[s].money
                    for s in range(before.player_count)
                    if s != before.seat
                )
            unloads += isinstance(action, Unload)
        tolled += toll
    return ships, unloads, tolled


def test_purposeful_ships_and_unloads_far_more_than_uniform() -> None:
    """The shipping rules (KAS-R-36..39) are reached: goods go into depots and out to cities, and
    tolls are paid, where uniform play on the same seeds almost never ships."""
    seeds = range(8)
    ships, unloads, tolled = _deliveries("purposeful", seeds)
    uniform_ships, uniform_unloads, _ = _deliveries("uniform", seeds)
    assert ships >= 3 * len(seeds) and unloads >= 5 * len(seeds)
    assert ships >= 10 * max(1, uniform_ships)
    assert unloads >= 5 * max(1, uniform_unloads)
    assert tolled >= 2


def test_play_kas_with_the_purposeful_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "kas", "--policy", "purposeful", "--seed", "3"])
    out, _err = capsys.readouterr()
    assert code == 0 and "Game over" in out
    assert re.search(r"seat \d ships \d+ \w+ from", out), "no shipment in the game"
