"""Kings of Air and Steam scenario vocabulary: the ``given:`` block and facts.

Only what an example needs is given; the rest comes from a fresh game so
that every invariant holds (goods and money are recounted, the supply and
the bank take up the difference)::

    given:
      players: 3                 # 2..7 (default 2)
      start_player: 0
      layout: ABCDE              # a layout of the pack, or
      map:                       # an inline fixture map (the digest's minimal reconstructions)
        hexes: [[0, 0], [1, 0], ...]            # full hexes; [q, r, "partial"] for partial ones
        factories: {"2,0": textile}
        cities: [{name: Warsop, at: [3, 0], demand: luxury, slots: 5}]
        lines: [{id: B, ends: [Wiesbaden, Warsop], hexes: [[2, 1]]}]
      phase: action              # start-depots | new-market | planning | flight | cargo | action | upkeep | sellout
      round: 1
      cycle: 1
      seat: 0                    # whose turn it is
      players_state:
        0: {money: 12, at: [0, 0], airship_level: 1, rail_level: 3, hold: {chemical: 1},
            plan: [S01, S02, S03, S04], slots: [executed, returned, planned, planned]}
      depots: [{at: [2, 1], owner: 1, goods: {food: 3}}]
      factories: {"2,0": 2}      # goods on a factory, by "q,r"
      cities: {Aldenville: {filled: 2}, Warsop: {demand: textile, tile: true, filled: 1}}
      market: {pushes: {machine: 1}, slots: [luxury, machine, luxury], pile: {...}, demand_pile: {textile: 1}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft.model.kings_of_air_and_steam.components import GOODS, GOODS_INDEX, City, GameMap, MapHex, RailLine
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.state import (
    CargoStep,
    Depot,
    Goods,
    KasState,
    Phase,
    SlotStatus,
)
from rulecraft.model.kings_of_air_and_steam.transitions import UNLIMITED_SUPPLY, starting_money, turn_order
from rulecraft.scenarios.runner import ScenarioError

if TYPE_CHECKING:
    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame

_KEYS = {
    "players",
    "start_player",
    "layout",
    "map",
    "phase",
    "round",
    "cycle",
    "seat",
    "players_state",
    "depots",
    "factories",
    "cities",
    "market",
}
_PLAYER_KEYS = {
    "money",
    "at",
    "airship_level",
    "rail_level",
    "hold",
    "plan",
    "slots",
    "depots_left",
    "team",
    "character",
    "tokens",
}
_PHASES = {p.value: p for p in Phase if p is not Phase.OVER}


def _hex(value: Any, where: str) -> Hex:
    if isinstance(value, str) and "," in value:
        q, r = value.split(",", 1)
        value = [q, r]
    if not isinstance(value, list | tuple) or len(value) < 2:
        raise ScenarioError(f'{where}: a hex is [q, r] or "q,r", got {value!r}')
    try:
        return Hex(int(value[0]), int(value[1]))
    except (TypeError, ValueError):
        raise ScenarioError(f"{where}: a hex is two whole numbers, got {value!r}") from None


def _goods(value: Any, where: str) -> Goods:
    counts = [0] * 5
    for kind, n in (value or {}).items():
        if kind not in GOODS_INDEX:
            raise ScenarioError(f"{where}.{kind}: not a goods type ({', '.join(GOODS)})")
        counts[GOODS_INDEX[kind]] = int(n)
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def fixture_map(spec: Mapping[str, Any], name: str = "fixture") -> GameMap:
    """An inline map: the minimal reconstructions of the printed examples."""
    hexes: dict[Hex, MapHex] = {}
    for i, item in enumerate(spec.get("hexes", [])):
        at = _hex(item, f"given.map.hexes[{i}]")
        hexes[at] = MapHex(at=at, board="fixture", partial=len(item) > 2 and item[2] == "partial")
    factories = []
    for key, kind in (spec.get("factories") or {}).items():
        at = _hex(key, f"given.map.factories.{key}")
        if kind not in GOODS_INDEX:
            raise ScenarioError(f"given.map.factories.{key}: not a goods type")
        hexes[at] = attrs.evolve(hexes.get(at, MapHex(at=at, board="fixture")), factory=kind)
        factories.append((at, kind))
    cities = []
    for i, c in enumerate(spec.get("cities", [])):
        at = _hex(c.get("at"), f"given.map.cities[{i}].at")
        if c.get("demand") not in GOODS_INDEX:
            raise ScenarioError(f"given.map.cities[{i}].demand: not a goods type")
        cities.append(City(c["name"], at, c["demand"], int(c.get("slots", 5))))
        hexes[at] = attrs.evolve(hexes.get(at, MapHex(at=at, board="fixture")), city=c["name"])
    names = {c.name for c in cities}
    lines = []
    for i, ln in enumerate(spec.get("lines", [])):
        ends = tuple(ln.get("ends", ()))
        if len(ends) != 2 or not set(ends) <= names:
            raise ScenarioError(f"given.map.lines[{i}].ends: two cities of the map, got {ends!r}")
        rail = tuple(_hex(h, f"given.map.lines[{i}].hexes") for h in ln.get("hexes", []))
        for at in rail:
            hexes[at] = attrs.evolve(hexes.get(at, MapHex(at=at, board="fixture")), rail=ln["id"])
        lines.append(RailLine(ln["id"], (ends[0], ends[1]), rail))
    return GameMap(
        name,
        hexes,
        tuple(sorted(cities, key=lambda c: c.name)),
        tuple(sorted(lines, key=lambda x: x.id)),
        tuple(sorted(factories)),
    )


def state_from_given(game: KingsOfAirAndSteamGame, given: Mapping[str, Any]) -> KasState:
    unknown = set(given) - _KEYS
    if unknown:
        raise ScenarioError(f"given: unknown field(s) {sorted(unknown)}; known: {sorted(_KEYS)}")
    players = int(given.get("players", 2))
    start = int(given.get("start_player", 0))
    if "map" in given:
        game.ctx.maps["fixture"] = fixture_map(given["map"])
        layout = "fixture"
    else:
        layout = given.get("layout") or game.layout_for(players)
    try:
        from rulecraft.model.kings_of_air_and_steam.transitions import new_game

        state = new_game(game.ctx, players, start, layout)
    except KeyError as exc:
        raise ScenarioError(f"given.layout: {exc}") from None
    game_map = game.ctx.game_map(layout)
    # Players.
    specs = given.get("players_state") or {}
    plist = list(state.players)
    for key, spec in specs.items():
        seat = int(key)
        where = f"given.players_state.{key}"
        if not 0 <= seat < players:
            raise ScenarioError(f"{where}: no seat {seat} with {players} players")
        if set(spec) - _PLAYER_KEYS:
            raise ScenarioError(f"{where}: unknown field(s) {sorted(set(spec) - _PLAYER_KEYS)}")
        p = plist[seat]
        changes: dict[str, Any] = {}
        for name in ("team", "character"):
            if name in spec:
                changes[name] = str(spec[name])
        for name in ("money", "airship_level", "rail_level", "depots_left", "tokens"):
            if name in spec:
                changes[name] = int(spec[name])
        if "at" in spec:
            changes["position"] = _hex(spec["at"], f"{where}.at")
        if "hold" in spec:
            changes["hold"] = _goods(spec["hold"], f"{where}.hold")
        if "plan" in spec:
            for card in spec["plan"]:
                try:
                    game.pack.card(card)
                except KeyError:
                    raise ScenarioError(f"{where}.plan: unknown card {card!r}") from None
            changes["plan"] = tuple(spec["plan"])
            changes["slots"] = (SlotStatus.PLANNED,) * len(spec["plan"])
        if "slots" in spec:
            changes["slots"] = tuple(SlotStatus(s) for s in spec["slots"])
        plist[seat] = attrs.evolve(p, **changes)
    # Depots.
    depots = []
    for i, d in enumerate(given.get("depots") or []):
        at = _hex(d.get("at"), f"given.depots[{i}].at")
        if game_map.line_of(at) is None:
            raise ScenarioError(f"given.depots[{i}].at: {at} is not a rail hex")
        owner = int(d.get("owner", 0))
        depots.append(Depot(at, owner, _goods(d.get("goods"), f"given.depots[{i}].goods")))
    for seat in range(players):
        placed = sum(1 for d in depots if d.owner == seat)
        if "depots_left" not in (specs.get(seat) or specs.get(str(seat)) or {}):
            plist[seat] = attrs.evolve(plist[seat], depots_left=10 - placed)
    # Factories and cities.
    factories = list(state.factories)
    for key, n in (given.get("factories") or {}).items():
        index = game_map.factory_index(_hex(key, f"given.factories.{key}"))
        if index is None:
            raise ScenarioError(f"given.factories.{key}: no factory there")
        factories[index] = int(n)
    cities = list(state.cities)
    for name, spec in (given.get("cities") or {}).items():
        try:
            index = game_map.city_index(name)
        except KeyError:
            raise ScenarioError(f"given.cities.{name}: no such city on the map") from None
        city = cities[index]
        tile = bool(spec.get("tile", city.tile))
        cities[index] = attrs.evolve(
            city,
            demand=spec.get("demand", city.demand),
            tile=tile,
            slots=3 if tile else city.slots,
            filled=int(spec.get("filled", 0)),
            closed=bool(spec.get("closed", False)),
            waiting=bool(spec.get("waiting", False)),
        )
    # Market.
    market = given.get("market") or {}
    pushes = _goods(market.get("pushes"), "given.market.pushes")
    slots = tuple(market.get("slots", ()))
    for g in slots:
        if g not in GOODS_INDEX:
            raise ScenarioError(f"given.market.slots: {g!r} is not a goods type")
    demand_pile = _goods(market.get("demand_pile"), "given.market.demand_pile")
    on_cities = [sum(1 for c in cities if c.tile and c.demand == g) for g in GOODS]
    if "pile" in market:
        pile = _goods(market["pile"], "given.market.pile")
    else:  # the rest of the 15 tiles (3 per type) are still in the draw pile
        counts = [3 - slots.count(g) - demand_pile[i] - on_cities[i] for i, g in enumerate(GOODS)]
        pile = (counts[0], counts[1], counts[2], counts[3], counts[4])
    if "pushes" not in market:  # a value is pushed once per tile drawn
        drawn = [3 - n for n in pile]
        pushes = (drawn[0], drawn[1], drawn[2], drawn[3], drawn[4])
    # The supply takes what is not elsewhere; the bank the money difference.
    total = game.pack.goods_per_type if game.ctx.r("KAS-AMB-12") == "capped" else UNLIMITED_SUPPLY
    supply = []
    for g, goods in enumerate(GOODS):
        placed_goods = sum(n for (_, kind), n in zip(game_map.factories, factories, strict=True) if kind == goods)
        placed_goods += sum(p.hold[g] for p in plist) + sum(d.goods[g] for d in depots)
        placed_goods += sum(c.filled for c in cities if c.demand == goods)
        supply.append(total - placed_goods)
    bank = sum(starting_money(p, game.ctx.p("starting_money")) for p in plist) - sum(p.money for p in plist)
    phase_name = given.get("phase", "action")
    if phase_name not in _PHASES:
        raise ScenarioError(f"given.phase: {phase_name!r} is not one of {sorted(_PHASES)}")
    phase = _PHASES[phase_name]
    state = attrs.evolve(
        state,
        players=tuple(plist),
        depots=tuple(sorted(depots, key=lambda d: d.at)),
        factories=tuple(factories),
        cities=tuple(cities),
        market_pile=pile,
        market_slots=slots,
        pushes=pushes,
        demand_pile=demand_pile,
        supply=(supply[0], supply[1], supply[2], supply[3], supply[4]),
        bank=bank,
        advanced=any(p.team is not None for p in plist),
        round=int(given.get("round", 1)),
        cycle=int(given.get("cycle", 1)),
        phase=phase,
        cargo=CargoStep() if phase is Phase.CARGO else None,
    )
    seat = int(given.get("seat", start))
    if phase in (Phase.FLIGHT, Phase.CARGO, Phase.ACTION) and all(len(p.plan) == 4 for p in state.players):
        order = turn_order(game.ctx, state)
        state = attrs.evolve(state, order=order, turn=order.index(seat), seat=seat)
        state = _derive_slots(state, specs)
    else:
        order = tuple((start + i) % players for i in range(players))
        state = attrs.evolve(state, order=order, turn=order.index(seat), seat=seat)
    return state


def _derive_slots(state: KasState, specs: Mapping[Any, Any]) -> KasState:
    """Slots not given: earlier cycles executed, this cycle executed for seats already past."""
    done = set(state.order[: state.turn])
    players = list(state.players)
    for seat, p in enumerate(players):
        spec = specs.get(seat) or specs.get(str(seat)) or {}
        if "slots" in spec:
            continue
        slots = tuple(
            SlotStatus.EXECUTED if i < state.cycle or (i == state.cycle and seat in done) else SlotStatus.PLANNED
            for i in range(1, 5)
        )
        players[seat] = attrs.evolve(p, slots=slots)
    return attrs.evolve(state, players=tuple(players))


def scenario_fixture(game: KingsOfAirAndSteamGame, given: Mapping[str, Any]) -> dict[str, Any] | None:
    """A printed example's minimal board travels beside its state (``given.map``), for ``load_fixture``."""
    return {"map": given["map"]} if "map" in given else None


def facts(game: KingsOfAirAndSteamGame, state: KasState) -> dict[str, Any]:
    """Derived values for scenario expectations (``path: price.luxury`` etc.)."""
    ctx = game.ctx
    game_map = ctx.map_of(state)
    out: dict[str, Any] = {
        "price": dict(zip(GOODS, ctx.prices(state), strict=True)),
        "score": game.scores(state),
        "rating": {s: ctx.rating(p) for s, p in enumerate(state.players)},
        "capacity": {s: ctx.capacity(p) for s, p in enumerate(state.players)},
        "order": list(state.order),
        "market_pile_size": sum(state.market_pile),
        "demand_pile_size": sum(state.demand_pile),
        "hold": {s: {g: n for g, n in zip(GOODS, p.hold, strict=True) if n} for s, p in enumerate(state.players)},
        "depot_goods": {
            f"{d.at.q},{d.at.r}": {g: n for g, n in zip(GOODS, d.goods, strict=True) if n} for d in state.depots
        },
        "city": {
            c.name: {"demand": s.demand, "filled": s.filled, "slots": s.slots, "closed": s.closed, "waiting": s.waiting}
            for c, s in zip(game_map.cities, state.cities, strict=True)
        },
        "factory_goods": {f"{h.q},{h.r}": n for (h, _), n in zip(game_map.factories, state.factories, strict=True)},
        "position": {
            s: (None if p.position is None else f"{p.position.q},{p.position.r}") for s, p in enumerate(state.players)
        },
    }
    if state.phase is Phase.FLIGHT:
        from rulecraft.model.kings_of_air_and_steam.actions import Fly
        from rulecraft.model.kings_of_air_and_steam.hexgrid import path_hexes

        start = state.players[state.seat].position
        assert start is not None
        out["flight_ends"] = sorted(
            f"{e.q},{e.r}"
            for a in game.legal_actions(state)
            if isinstance(a, Fly)
            for e in [path_hexes(start, a.path)[-1] if a.path else start]
        )
    return out
