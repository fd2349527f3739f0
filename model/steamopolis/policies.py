"""Random playout policies for Steamopolis: how a random game chooses among the legal actions.

A "random game" depends on the grain of its decisions.  The model splits a turn into small decisions
(every SET 1 TARGET district is its own action, every purchase position its own), so drawing each
decision uniformly is a random walk in which a player seldom carries a passenger: both end triggers
of STM-R-64 (the passenger stack used up, three statue markets bought out) then take hundreds of
rounds, where a played game takes a few dozen.  The policies here are the standard alternatives:

* 'uniform' (``Game.random_action``'s default): every legal action equally likely;
* :func:`purposeful`: still random, but it plays towards what a player does (a "heavy playout"):
  it flies when a flight carries a passenger; otherwise it sets a target that completes a pick-up
  and drop-off pair, or (half the time) one on a passenger's level or destination; it flies with
  three stones out, makes steam (70%) to reach higher levels, or else draws the kind of action
  first and then one of its moves.  In a flight it takes back the stone that lets a passenger
  board first, and picks up, buys or uses the district when it can.  The odds keep it a random
  player rather than a fixed strategy; they are not tuned for speed.

A policy chooses for the seat to move, among ``legal_actions`` only; ``Game.random_action`` deals
with chance (by its exact odds) and game over.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from rulecraft.model.steamopolis.actions import (
    BuyBanner,
    BuyBonusMarker,
    BuyMachine,
    ChannelPressure,
    FlyToAllTargets,
    MakeSteam,
    PickUp,
    SetTarget,
    StmAction,
    TakeBack,
    UseDistrict,
)
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.rules import SOLO_RANKS, carried_destination, decider, destination, standing
from rulecraft.model.steamopolis.state import ACTION, FLIGHT, Passenger, StmState
from rulecraft.planner import Planner
from rulecraft.record import PlayoutPolicy

if TYPE_CHECKING:
    from rulecraft.model.steamopolis.game import SteamopolisGame

# policy(game, state, rng) -> the action the seat to move chooses
Policy = Callable[["SteamopolisGame", StmState, random.Random], StmAction]
PURCHASES = (BuyMachine, BuyBanner, BuyBonusMarker)
PASSENGERS: tuple[Passenger, ...] = ("banker", "stoker")
A = TypeVar("A")


def purposeful(game: SteamopolisGame, state: StmState, rng: random.Random) -> StmAction:
    """A random player who plays towards the passengers and the markets (see the module text)."""
    legal = game.legal_actions(state)
    turn = state.turn
    if turn.storing or turn.pending:
        return rng.choice(legal)
    if state.phase is ACTION:
        return _action(game.ctx, state, legal, rng)
    if state.phase is FLIGHT:
        return _flight(game.ctx, state, legal, rng)
    return rng.choice(legal)


def _action(ctx: Context, state: StmState, legal: Sequence[StmAction], rng: random.Random) -> StmAction:
    steam: list[StmAction] = []
    targets: list[SetTarget] = []
    channels: list[StmAction] = []
    flights: list[StmAction] = []
    for action in legal:  # one pass: a choice of action lists a few dozen moves
        if isinstance(action, SetTarget):
            targets.append(action)
        elif isinstance(action, MakeSteam):
            steam.append(action)
        elif isinstance(action, ChannelPressure):
            channels.append(action)
        elif isinstance(action, FlyToAllTargets):
            flights.append(action)
    own = {s.level for s in ctx.own_stones(state, decider(state))}
    trips = _trips(ctx, state)
    if flights and any(at in own and dest in own for at, dest in trips):
        return flights[0]  # a flight now picks a passenger up and drops him off (STM-R-36/37)
    if targets:
        carried = {carried_destination(ctx, state, who) for who, _ in state.turn.boarded}
        scores = {level: _target_score(own, trips, carried, level) for level in {a.level for a in targets}}
        best = max(scores.values())
        if best >= 2 or (best and rng.random() < 0.5):
            return rng.choice([a for a in targets if scores[a.level] == best])
    if flights and len(own) >= 3:
        return flights[0]  # three targets out: collect their effects before setting more
    if steam and rng.random() < 0.7:
        return rng.choice(steam)  # more pressure reaches the passengers' levels (5-8 for the banker)
    # Otherwise the kind of action first, then one of its moves.
    kinds = [kind for kind in (steam, [*targets, *channels], flights) if kind]
    return rng.choice(rng.choice(kinds)) if kinds else rng.choice(legal)


def _trips(ctx: Context, state: StmState, skip: Sequence[Passenger] = ()) -> list[tuple[int, int]]:
    """(the level a passenger stands on, his destination), for each passenger not aboard (STM-R-35)
    and not in ``skip``."""
    return [
        (at, destination(ctx, state, who))
        for who in PASSENGERS
        if who not in skip and (at := standing(state, who)) is not None
    ]


def _target_score(own: set[int], trips: list[tuple[int, int]], carried: set[int], level: int) -> int:
    """2: a stone there completes a pick-up and drop-off pair (STM-R-36/37); 1: it starts one, or
    reaches a carried passenger's destination; 0: neither, or a stone of the player is there already."""
    if level in own:
        return 0
    if any((level == dest and at in own) or (level == at and dest in own) for at, dest in trips):
        return 2
    return int(level in carried or any(level in trip for trip in trips))


def _flight(ctx: Context, state: StmState, legal: Sequence[StmAction], rng: random.Random) -> StmAction:
    if state.turn.step == "next":
        return _take_back(ctx, state, [a for a in legal if isinstance(a, TakeBack)], rng) or rng.choice(legal)
    for preferred in (PickUp, PURCHASES, UseDistrict):
        chosen = [a for a in legal if isinstance(a, preferred)]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(legal)


def _take_back(ctx: Context, state: StmState, take_backs: list[TakeBack], rng: random.Random) -> TakeBack | None:
    """The stone on a passenger's level first (he boards while his destination still holds a stone),
    then the others."""
    own = {s.level for s in ctx.own_stones(state, decider(state))}
    trips = _trips(ctx, state, skip=state.turn.transported)  # STM-R-36: once per turn
    pick_ups = {at for at, dest in trips if dest in own and dest != at}
    first = [a for a in take_backs if a.level in pick_ups]
    return _choice(first or take_backs, rng)


def _choice(options: Sequence[A], rng: random.Random) -> A | None:
    return rng.choice(options) if options else None


def progress(game: Any, state: StmState) -> float:
    """How far the players have come, for the planner: VP first, then what buys VP later (resources,
    passenger tiles, passengers aboard, built machines, banners); a solo game lost on time pressure
    (STM-R-69) is the worst there is."""
    if state.solo is not None and game.solo_lost(state):
        return float("-inf")
    return float(
        sum(
            10 * p.vp
            + 2 * (p.gears + p.crystals)
            + 3 * p.passenger_tiles
            + 4 * len(p.carrying)
            + 3 * sum(1 for t in p.machine_room if t is not None)
            + 3 * len(p.banners)
            for p in state.players
        )
    )


def boundary(game: Any, state: StmState) -> float | None:
    """0 at a boundary of the outcome: in the solo game the VP above the rank's threshold (STM-R-73: a
    rank met exactly), else the leader's lead in VP (a tie, settled by STM-R-67's tie-breaks)."""
    if state.solo is not None:
        if game.solo_lost(state):
            return None
        vp = state.players[0].vp
        return float(vp - max(t for t, _ in SOLO_RANKS if vp >= t))
    top = sorted((p.vp for p in state.players), reverse=True)
    return float(top[0] - top[1])


def solo(game: Any, state: StmState) -> bool:
    return state.solo is not None


# The registered 'purposeful' policy plans the solo game (a random player, purposeful or not, always
# loses it to time pressure, STM-R-69) and plays :func:`purposeful` with more players, where the beam
# would play a cooperative game thousands of steps long.
# The record names this mapping (games/steamopolis.py): the game's playout policies are a tool's.
PLAYOUT: dict[str, PlayoutPolicy] = {
    "uniform": PlayoutPolicy(
        "every legal action equally likely (games run to hundreds of rounds: STM-R-64 seldom triggers)"
    ),
    "purposeful": PlayoutPolicy(
        "random, but towards the passengers and the markets: targets on their levels, flights that"
        " carry one, pick-ups and purchases first (games end in about 30 rounds); in the solo game a beam search"
        " over the reference's states plans the game to its end (the VP back from time pressure, STM-R-69/73),"
        " mostly ending on a rank's threshold met exactly",
        Planner(value=progress, margin=boundary, when=solo, otherwise=purposeful, horizon=1000),
    ),
}
