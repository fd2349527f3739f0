"""Steamopolis's generation shortcuts held to the paths they shortcut (issue 18: a fast path must be
tested to agree with the plain one), over every state of seeded random games: each player count, the
solo game, and the readings a shortcut reads (STM-AMB-20 'total' counts every parasite on a machine)."""

from __future__ import annotations

import random

import pytest

from rulecraft.core import Chance, GameOver
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.rules import (
    _placements,
    accepted_placements,
    legal_actions,
    legal_actions_by_check,
    placement_rejection,
)
from rulecraft.model.steamopolis.state import Phase, StmState
from rulecraft.registry import make_game


def random_states(game: SteamopolisGame, players: int, seed: int, steps: int) -> list[StmState]:
    """Every state of one seeded uniform random game, up to ``steps`` of them."""
    rng = random.Random(seed)
    state = game.new_game(players)
    states = [state]
    for _ in range(steps):
        action = game.random_action(state, rng)
        if action is None:
            break
        state = game.transition(state, action)
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("players", "seed", "readings"),
    [(4, 1, {}), (3, 2, {}), (2, 3, {}), (1, 4, {}), (4, 5, {"STM-AMB-20": "total"}), (2, 6, {"STM-AMB-20": "total"})],
)
def test_r52_r53_accepted_placements_are_the_checked_candidates(
    players: int, seed: int, readings: dict[str, str]
) -> None:
    """STM-R-52 (p.33, place or move) and R-53 (p.33, envy): at every state, for every envy host and none,
    the direct list equals the candidates :func:`placement_rejection` accepts, order included."""
    game = make_game("stm", readings=readings)
    assert isinstance(game, SteamopolisGame)
    ctx = game.ctx
    seen = moved = 0
    for state in random_states(game, players, seed, 1500):
        for envy_host in (None, *range(len(state.players))):
            expected = [a for a in _placements(ctx, state) if placement_rejection(ctx, state, a, envy_host) is None]
            assert accepted_placements(ctx, state, envy_host) == expected
            seen += len(expected)
            moved += sum(1 for a in expected if a.moved is not None)
    assert seen > 0  # the comparison met placements, not only empty lists
    if players > 1:
        assert moved > 0  # and moves of placed parasites (STM-R-52)


@pytest.mark.parametrize(
    ("players", "seed", "readings"),
    [(4, 7, {}), (2, 8, {}), (1, 9, {}), (3, 10, {"STM-AMB-19": "next-step", "STM-AMB-16": "free"})],
)
def test_listed_decisions_equal_the_checked_candidates(players: int, seed: int, readings: dict[str, str]) -> None:
    """The decisions listed without a candidate check hold to ``legal_actions_by_check`` (the plain
    reference: every candidate through ``check``), order included, at every state of seeded random games
    that meets one of the less frequent ones: the store step (STM-R-32, p.14), a channelled stone (STM-R-29,
    p.13), an effect part waiting (STM-R-21/22, p.29) and a flight step (STM-R-36..38, p.16-18)."""
    game = make_game("stm", readings=readings)
    assert isinstance(game, SteamopolisGame)
    ctx = game.ctx
    met: set[str] = set()
    for state in random_states(game, players, seed, 1500):
        if isinstance(game.to_move(state), Chance | GameOver):
            continue
        turn = state.turn
        if turn.storing:
            kind = "store"
        elif turn.pending:
            kind = "part"
        elif state.phase in (Phase.CHANNEL, Phase.FLIGHT):
            kind = state.phase.value
        else:
            continue
        met.add(kind)
        assert legal_actions(ctx, state) == legal_actions_by_check(ctx, state), kind
    assert "part" in met  # the comparison met the shortcut paths, not only the others
    if players > 1:
        assert Phase.FLIGHT.value in met
