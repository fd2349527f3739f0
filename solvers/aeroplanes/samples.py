"""Seeded random reachable Aeroplanes states for the solver/oracle comparisons (``oracle_check`` and the tests).

A state is reached from :func:`setup.new_game` by legal actions only: chance steps draw an outcome with
its exact odds (``setup.chance_outcomes``), the players pick among ``rules.legal_actions`` with a bias
towards buying planes, placing airports and claiming passengers (a uniformly random player mostly takes
subsidies, which leaves the map empty).  The walk stops at a decision of a player in phase ACTION (the
start of a turn), so every query can be asked there.
"""

from __future__ import annotations

import random

from rulecraft.model.aeroplanes.actions import (
    AerAction,
    BuyPlane,
    ClaimPassenger,
    CoverShortfall,
    Decline,
    PlaceAirport,
    StopPlacing,
    TakeSubsidy,
)
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import legal_actions
from rulecraft.model.aeroplanes.setup import chance_outcomes, new_game
from rulecraft.model.aeroplanes.state import AerState, Phase
from rulecraft.model.aeroplanes.transitions import transition

WEIGHTS: dict[type[AerAction], float] = {
    BuyPlane: 3.0,
    PlaceAirport: 6.0,
    ClaimPassenger: 4.0,
    TakeSubsidy: 1.0,
    StopPlacing: 1.5,
    CoverShortfall: 4.0,
    Decline: 1.0,
}


def _pick(rng: random.Random, actions: list[AerAction]) -> AerAction:
    weights = [WEIGHTS.get(type(a), 1.0) for a in actions]
    return rng.choices(actions, weights=weights, k=1)[0]


def _chance(ctx: Context, state: AerState, rng: random.Random) -> AerState:
    outcomes = chance_outcomes(ctx, state)
    outcomes = sorted(outcomes, key=lambda o: repr(o[0]))
    actions = [a for a, _ in outcomes]
    weights = [float(p) for _, p in outcomes]
    return transition(ctx, state, rng.choices(actions, weights=weights, k=1)[0])


def random_state(ctx: Context, rng: random.Random, players: int | None = None, steps: int | None = None) -> AerState:
    """A state reached by ``steps`` player decisions (default 10..60) from a new game of ``players`` (2..5),
    stopped at the next decision in phase ACTION."""
    n = players if players is not None else rng.randint(ctx.pack.min_players, ctx.pack.max_players)
    budget = steps if steps is not None else rng.randint(10, 60)
    state = new_game(ctx, n)
    decisions = 0
    while True:
        if state.phase is Phase.OVER:
            return state
        outcomes = chance_outcomes(ctx, state)
        if outcomes:
            state = _chance(ctx, state, rng)
            continue
        if decisions >= budget and state.phase is Phase.ACTION:
            return state
        actions = sorted(legal_actions(ctx, state), key=repr)  # a fixed order: the seed alone decides
        if not actions:  # pragma: no cover - the subsidy action is always legal (AER-AMB-46)
            return state
        state = transition(ctx, state, _pick(rng, actions))
        decisions += 1
