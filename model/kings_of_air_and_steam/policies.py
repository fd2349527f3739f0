"""Random playout policies for Kings of Air and Steam: how a random game chooses among the legal actions.

Drawn uniformly, a seat almost never delivers: a flight lands on a factory by chance, the hold is
seldom emptied onto an own depot, and the Ship Goods action is one among dozens of Build Depot and
Course Correction moves, so the shipping rules (KAS-R-36..41: stops by rail level, tolls to depot
owners, demand tiles) are almost never reached.  The policies here:

* 'uniform' (``Game.random_action``'s default): every legal action equally likely;
* :func:`purposeful`: still random, but it plays towards what a player does (a "heavy playout"):
  it places its starting depot near a factory whose goods a city of that line wants; it flies
  towards a factory with goods a city demands while the hold has room, and towards an own depot
  (one whose line leads to a city wanting what it carries) with goods aboard; after a flight it
  loads and unloads (KAS-R-29/31) before ending the step; as its action it ships whenever it can
  (deliveries that pay first, KAS-R-39), or steps one hex onto a factory or its depot (KAS-R-42),
  builds a depot (near factories; on a line nobody opened, beside the opponents' lines, so that
  shipments cross each other's lines and pay tolls, KAS-R-38; sometimes on a line only opponents
  opened), upgrades the rail (more stops, KAS-R-37) or the airship, or takes the grant; it pays
  the upkeep rather than throwing goods away (KAS-R-45) and sells out (KAS-R-51).
  Plans (KAS-R-19), demand-tile choices and the advanced game's character moves stay uniform.

Every preference is a probability, and a share of every decision is drawn uniformly from all the
legal actions, so every kind of legal action keeps a chance.  The odds are a player's, not tuned to
a test.  A policy chooses for the seat to move, among ``legal_actions`` only; ``Game.random_action``
deals with chance (by its exact odds) and game over.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulecraft.model.kings_of_air_and_steam.actions import (
    BuildDepot,
    CourseCorrection,
    EndCargo,
    EndSellout,
    ExtraAction,
    Fly,
    Grant,
    KasAction,
    Load,
    PayUpkeep,
    PlaceStartDepot,
    Sell,
    ShipGoods,
    Steal,
    Swap,
    Unload,
    UpgradeAirship,
    UpgradeRail,
)
from rulecraft.model.kings_of_air_and_steam.components import GOODS, GameMap
from rulecraft.model.kings_of_air_and_steam.context import Context
from rulecraft.model.kings_of_air_and_steam.hexgrid import DIRECTIONS, Hex
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase, PlayerState
from rulecraft.record import PlayoutPolicy

if TYPE_CHECKING:
    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame

# policy(game, state, rng) -> the action the seat to move chooses
Policy = Callable[["KingsOfAirAndSteamGame", KasState, random.Random], KasAction]

# The odds of the purposeful player.
WHIM = 0.1  # any legal action, uniformly: every kind of move keeps a chance
AIM = 0.8  # a flight or a course correction towards the nearest target, not a random one
CARGO = 0.9  # unload / load when possible, rather than end the step
SHIP = 0.9  # ship when a shipment is legal
SHIP_TO_DEPOT = 0.3  # with no delivery to a city: move goods depot to depot
STEP_ONTO = 0.6  # a course correction that lands on a factory or an own depot to load or unload
PAY = 0.85  # pay the storage fee rather than return goods
SELL = 0.9  # sell a good in the sellout rather than stop
BONUS = 0.6  # take a team or character step offered beside the action
NEAR = 2  # a depot this close to a factory is a depot the airship can feed
# Which action, when nothing is to be shipped: weights of build, rail, airship, grant.
BUILD, RAIL, AIRSHIP, GRANT = 0.45, 0.2, 0.15, 0.2
RAIL_WANTED = 3  # rail upgrades beyond this level only by whim (they cost more than they ship)


def purposeful(game: KingsOfAirAndSteamGame, state: KasState, rng: random.Random) -> KasAction:
    """A random player who plays towards loading, delivering and shipping goods (see the module text)."""
    legal = game.legal_actions(state)
    if len(legal) == 1 or rng.random() < WHIM:
        return rng.choice(legal)
    phase = state.phase
    if phase is Phase.FLIGHT:
        return _fly(game.ctx, state, legal, rng)
    if phase is Phase.CARGO:
        return _cargo(legal, rng)
    if phase is Phase.ACTION:
        return _action(game.ctx, state, legal, rng)
    if phase is Phase.BONUS:
        return _bonus(legal, rng)
    if phase is Phase.UPKEEP:
        pay = [a for a in legal if isinstance(a, PayUpkeep)]
        return pay[0] if pay and rng.random() < PAY else rng.choice(legal)
    if phase is Phase.SELLOUT:
        sells = [a for a in legal if isinstance(a, Sell)]
        if sells and rng.random() < SELL:
            return rng.choice(sells)
        done = [a for a in legal if isinstance(a, EndSellout)]
        return done[0] if done else rng.choice(legal)
    if phase is Phase.START_DEPOTS:
        return _start_depot(game.ctx, state, legal, rng)
    return rng.choice(legal)  # planning (KAS-R-19) and Flora Kingston's tile: a random player's


# -- what the board offers -----------------------------------------------------------------------


class _Board:
    """What a map says once, for every decision on it: each line's end cities, each city's
    lines, the rail hexes near each factory type."""

    def __init__(self, game_map: GameMap) -> None:
        self.ends = {line.id: line.ends for line in game_map.lines}
        self.city_lines: dict[str, list[str]] = {}
        for line in game_map.lines:
            for city in line.ends:
                self.city_lines.setdefault(city, []).append(line.id)
        # For each rail hex: (a goods type made near it, a city at an end of its line).
        self.feeds: dict[Hex, tuple[tuple[str, str], ...]] = {}
        for at in game_map.rail_hexes():
            kinds = {kind for f, kind in game_map.factories if at.distance(f) <= NEAR}
            line_id = game_map.line_of(at)
            ends = self.ends[line_id] if line_id is not None else ()
            self.feeds[at] = tuple((kind, city) for kind in sorted(kinds) for city in ends)

    def feeds_wanted(self, at: Hex, wanted: dict[str, set[str]]) -> bool:
        """Whether a depot here is near a factory whose goods a city of its line wants now."""
        return any(city in wanted.get(kind, ()) for kind, city in self.feeds.get(at, ()))


_BOARDS: weakref.WeakKeyDictionary[GameMap, _Board] = weakref.WeakKeyDictionary()  # gone with their maps


def _board(game_map: GameMap) -> _Board:
    found = _BOARDS.get(game_map)
    if found is None:
        found = _BOARDS[game_map] = _Board(game_map)
    return found


def _wanted(state: KasState, game_map: GameMap) -> dict[str, set[str]]:
    """The cities that take a good now (KAS-R-36, KAS-R-41), by goods type."""
    out: dict[str, set[str]] = {}
    for city, now in zip(game_map.cities, state.cities, strict=True):
        if now.demand is not None and not now.closed and not now.waiting and now.filled < now.slots:
            out.setdefault(now.demand, set()).add(city.name)
    return out


def _reach(board: _Board, line: str, rail_level: int) -> set[str]:
    """The cities a shipment from a depot on ``line`` may reach with the stops it has (roughly
    KAS-R-37: the line's ends, then one more line per stop, whether or not it is open)."""
    cities = set(board.ends[line])
    frontier = set(cities)
    for _ in range(max(0, rail_level - 1)):
        step = {c for city in frontier for ln in board.city_lines[city] for c in board.ends[ln]}
        frontier = step - cities
        cities |= step
    return cities


def _useful_depots(ctx: Context, state: KasState, player: PlayerState, seat: int) -> list[Hex]:
    """Own depots from which something in the hold could reach a city that wants it."""
    game_map = ctx.map_of(state)
    board = _board(game_map)
    wanted = _wanted(state, game_map)
    targets: set[str] = set()
    for goods, n in zip(GOODS, player.hold, strict=True):
        if n:
            targets |= wanted.get(goods, set())
    out: list[Hex] = []
    for depot in state.depots:
        if depot.owner == seat:
            line = game_map.line_of(depot.at)
            if line is not None and targets & _reach(board, line, player.rail_level):
                out.append(depot.at)
    return out


def _targets(ctx: Context, state: KasState) -> list[Hex]:
    """Where the airship of the seat to move wants to be: a factory with goods a city wants while
    the hold has room, an own depot to unload at while it carries goods."""
    seat = state.seat
    player = state.players[seat]
    held = sum(player.hold)
    room = held < ctx.capacity(player)
    depots: list[Hex] = []
    if held:
        depots = _useful_depots(ctx, state, player, seat) or [d.at for d in state.depots if d.owner == seat]
        if not room:
            return depots
    game_map = ctx.map_of(state)
    wanted = _wanted(state, game_map)
    stocked = [(at, kind) for (at, kind), n in zip(game_map.factories, state.factories, strict=True) if n]
    factories = [at for at, kind in stocked if kind in wanted] or [at for at, _ in stocked]
    return depots + factories


def _nearest(start: Hex, places: Sequence[Hex]) -> Hex:
    return min(places, key=start.distance)


# -- a turn ----------------------------------------------------------------------------------------


def _fly(ctx: Context, state: KasState, legal: Sequence[KasAction], rng: random.Random) -> KasAction:
    """KAS-R-26: towards the nearest target (a random one sometimes), landing as close as the card allows."""
    position = state.players[state.seat].position
    targets = _targets(ctx, state)
    if position is None or not targets or rng.random() >= AIM:
        return rng.choice(legal)
    goal = _nearest(position, targets) if rng.random() < AIM else rng.choice(targets)
    best: list[KasAction] = []
    closest = 1 << 30
    for action in legal:
        if not isinstance(action, Fly):
            continue
        q, r = position.q, position.r
        for d in action.path:
            dq, dr = DIRECTIONS[d]
            q, r = q + dq, r + dr
        dq, dr = q - goal.q, r - goal.r
        distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if distance < closest:
            closest, best = distance, [action]
        elif distance == closest:
            best.append(action)
    return rng.choice(best) if best else rng.choice(legal)


def _cargo(legal: Sequence[KasAction], rng: random.Random) -> KasAction:
    """KAS-R-29..31: unload onto the own depot here, load from the factory here; seldom stop early."""
    unloads: list[KasAction] = []
    loads: list[KasAction] = []
    swaps: list[KasAction] = []
    end: KasAction | None = None
    for action in legal:
        if isinstance(action, Unload):
            unloads.append(action)
        elif isinstance(action, Load) and action.source == "factory":
            loads.append(action)
        elif isinstance(action, Swap) and action.source == "factory":
            swaps.append(action)
        elif isinstance(action, EndCargo):
            end = action
    if (unloads or loads) and rng.random() < CARGO:
        return rng.choice(unloads or loads)  # unload first: the hold then has room (KAS-R-31 advice)
    if swaps and rng.random() < 0.3:  # a full hold: trade a good for what this factory makes (KAS-R-30)
        return rng.choice(swaps)
    return end if end is not None else rng.choice(legal)


def _action(ctx: Context, state: KasState, legal: Sequence[KasAction], rng: random.Random) -> KasAction:
    """KAS-R-32: ship when possible, else step onto a target, build, upgrade or take the grant."""
    deliveries: list[ShipGoods] = []
    transfers: list[ShipGoods] = []
    builds: list[BuildDepot] = []
    steps: list[CourseCorrection] = []
    rail: list[KasAction] = []
    airship: list[KasAction] = []
    grant: list[KasAction] = []
    for action in legal:
        if isinstance(action, BuildDepot):
            builds.append(action)
        elif isinstance(action, ShipGoods):
            (deliveries if action.to_city is not None else transfers).append(action)
        elif isinstance(action, CourseCorrection):
            steps.append(action)
        elif isinstance(action, UpgradeRail):
            rail.append(action)
        elif isinstance(action, UpgradeAirship):
            airship.append(action)
        elif isinstance(action, Grant):
            grant.append(action)
    if deliveries and rng.random() < SHIP:
        return _delivery(ctx, state, deliveries, rng)
    if transfers and rng.random() < SHIP_TO_DEPOT:
        return rng.choice(transfers)
    if steps:
        step = _step_onto(ctx, state, steps)
        if step is not None and rng.random() < STEP_ONTO:
            return step
    player = state.players[state.seat]
    if player.rail_level >= RAIL_WANTED:
        rail = []
    kinds = [
        (kind, weight) for kind, weight in ((builds, BUILD), (rail, RAIL), (airship, AIRSHIP), (grant, GRANT)) if kind
    ]
    if not kinds:
        return rng.choice(legal)
    kind = rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]
    if kind is builds:
        return _build(ctx, state, builds, rng)
    return rng.choice(kind)


def _delivery(ctx: Context, state: KasState, deliveries: list[ShipGoods], rng: random.Random) -> ShipGoods:
    """The shipments that pay most, after tolls (KAS-R-38/39), more likely; any delivery may be drawn."""
    prices = ctx.prices(state)
    weights = []
    for ship in deliveries:
        income = ship.count * prices[GOODS.index(ship.goods)]
        toll = ship.count * len(ship.payees or ())
        weights.append(max(1, income - toll - ship.bet))
    return rng.choices(deliveries, weights=weights)[0]


def _step_onto(ctx: Context, state: KasState, steps: list[CourseCorrection]) -> CourseCorrection | None:
    """KAS-R-42: a step onto a factory with goods (room in the hold) or an own depot (goods aboard)."""
    player = state.players[state.seat]
    position = player.position
    if position is None:
        return None
    targets = set(_targets(ctx, state))
    for step in steps:
        if position.step(step.direction) in targets:
            return step
    return None


def _build(ctx: Context, state: KasState, builds: list[BuildDepot], rng: random.Random) -> BuildDepot:
    """KAS-R-33: near a factory whose goods a city of the line wants; on a line nobody opened yet (the
    cheaper depot, and a network beside the opponents': shipments that cross from one to the other
    pay tolls, KAS-R-38); sometimes on a line only opponents opened; or anywhere."""
    game_map = ctx.map_of(state)
    board = _board(game_map)
    roll = rng.random()
    if roll < 0.4:  # a depot the airship can fill, whose goods a city of its line takes
        wanted = _wanted(state, game_map)
        feeders = [b for b in builds if board.feeds_wanted(b.at, wanted)]
        if feeders:
            return rng.choice(feeders)
    elif roll < 0.85:
        mine = {game_map.line_of(d.at) for d in state.depots if d.owner == state.seat}
        theirs = {game_map.line_of(d.at) for d in state.depots if d.owner != state.seat}
        if roll < 0.7:  # a line nobody has opened: $4, not $7 (KAS-R-33)
            chosen = [b for b in builds if (line := game_map.line_of(b.at)) not in mine and line not in theirs]
        else:  # a line only opponents opened: my shipments along it then stop here, toll-free
            chosen = [b for b in builds if (line := game_map.line_of(b.at)) in theirs and line not in mine]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(builds)


def _bonus(legal: Sequence[KasAction], rng: random.Random) -> KasAction:
    """The Sphinx card's free shipment (KAS-R-69), the Godfather's theft (KAS-R-85), I.S.A.A.C.'s
    extra action (KAS-R-67): taken more often than not."""
    taken = [a for a in legal if isinstance(a, ShipGoods | Steal | ExtraAction)]
    if taken and rng.random() < BONUS:
        deliveries = [a for a in taken if isinstance(a, ShipGoods) and a.to_city is not None]
        return rng.choice(deliveries or taken)
    return rng.choice(legal)


def _start_depot(ctx: Context, state: KasState, legal: Sequence[KasAction], rng: random.Random) -> KasAction:
    """KAS-R-07: a starting depot near a factory whose goods a city at an end of its line wants."""
    game_map = ctx.map_of(state)
    board = _board(game_map)
    wanted = _wanted(state, game_map)
    good = [a for a in legal if isinstance(a, PlaceStartDepot) and board.feeds_wanted(a.at, wanted)]
    return rng.choice(good) if good and rng.random() < 0.7 else rng.choice(legal)


# The record names this mapping (games/kings_of_air_and_steam.py): the game's playout policies are a tool's.
PLAYOUT: dict[str, PlayoutPolicy] = {
    "uniform": PlayoutPolicy(
        "every legal action equally likely (goods are seldom delivered: shipping and tolls almost never happen)"
    ),
    "purposeful": PlayoutPolicy(
        "random, but towards delivering goods: flies to factories with wanted goods and to its depots,"
        " loads and unloads, ships whenever it can (paying deliveries first), builds depots near factories or on"
        " opponents' lines, upgrades sometimes",
        purposeful,
    ),
}
