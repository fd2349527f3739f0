"""Aeroplanes scenario vocabulary: the ``given:`` block and the derived facts.

Only what an example needs is given; the rest comes from defaults that keep the
state layer's invariants (``state.problems``) true: every airport tile not on
the map or on a card is in its owner's supply, the plane cards nobody owns
form the display (the lowest numbers, AER-SET-08) and the deck, the passenger
tiles nowhere else are in the bag, the advantage tiles nobody holds are in
the supply, and the 3-player blockers cover the "4/5" slots (AER-SET-04)::

    given:
      players: 3                 # 3..5 (default 3)
      era: 1                     # 1..3 (default 1)
      phase: action              # action | choose-home | round-die (default action)
      first_player: 0            # the holder of the first-player die (default 0)
      to_move: 0                 # whose decision (alias: seat; default the first player); choose-home: the
                                 # seat choosing now; round-die: ignored (the first player rolls, AER-R-05)
      turns_in_round: 0          # actions taken this round (default 0; round-die: every player has acted)
      subsidy_pool: 8            # £1 notes in the subsidy section (default: the pack's 8, AER-R-02)
      seats:                     # per seat, only what matters
        0:
          home: Paris            # a start city; default: the start cities nobody names, in pack order
                                 # (phase choose-home: no default, the seat has not chosen yet)
          money: 0
          vp: 0
          engine_failures: 0
          advantages: {daring-pilot: 2}   # by name (daring-pilot, engine-maintenance, increased-production,
                                 # night-flights, radio-beacons) or type number 2..6
          cards:                 # owned plane cards: a number (its printed tiles on it, empty), or
            - 6
            - {number: 10, tiles: 0, passengers: [P51, P49], excess: null}
          banked: [P02]          # passenger tiles beside the discard pile
      map:                       # destination -> its slots in printed order, from slot 0; a shorter list is
        Paris: ["1:home", "2:1"] # padded with empty slots.  "<seat>:<stage 1..3>", "<seat>:home", "blocker"
        Warsaw: ["1:3", null]    # or null.  A home tile not listed goes into the first empty slot of its city.
      waiting:                   # start city -> passenger tiles in its waiting section (padded with empty slots)
        Berlin: [P62]
      overflow: [P85]

Unknown keys raise :class:`ScenarioError` naming the key.

Facts (``path:`` in ``expect:``; per-seat facts are keyed by seat)::

    income.<seat>          the money due to the seat in the Income step of the era (AER-R-03, l.41-43)
    airports.<seat>        sorted destinations where the seat has a tile (home included)
    reach.<seat>           destinations one connection away from the seat's airports, not its own (AER-R-14/15)
    tiles.<destination>    its slots: "<seat>:<stage>", "<seat>:home", "blocker" or null
    slots.<destination>    slots in play for this number of players (AER-R-29, AER-SET-04)
    connections.<dest>     the destinations the map connects it to, in its direction (AER-R-15: one-way specials)
    legal                  the kinds of the mover's legal actions, sorted
    placeable              destinations of the mover's legal PlaceAirport actions, sorted
    claimable              passenger tiles the mover may claim now, sorted
    origin.<tile>          the start city whose waiting section holds the tile (AER-R-32, l.134)
    attempt                null, or the placement attempt in progress (AER-R-20..28):
      .destination .origin .via
      .targets             the printed target of every roll of the attempt, in order (l.91, l.94-105)
      .bonuses             the +2 of each roll (AER-R-22, l.110)
      .needs               each roll's target after its +2 (what the dice must show unaided)
      .left                the needs of the rolls not thrown yet (a thrown roll waiting for its cover is not one)
      .throw               {total, skulls} of the current throw, or null
      .shortfall           the current roll's need minus the throw (<= 0: passed), or null
      .covers              the full covers affordable, [[money, pilots], ...] (AER-R-23, R-42/43)
      .spent               money paid on this attempt so far
    profit.<seat>          passengers carried minus unused capacity (AER-R-51, scoring.profit)
    profit_rank.<seat>     the seat's place in the profit ranking of this era (AER-R-52; null: unranked)
    profit_vp.<seat>       the VP the Profit row of this era gives the seat (AER-R-52)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulecraft.model.aeroplanes.actions import ClaimPassenger, PlaceAirport
from rulecraft.model.aeroplanes.rules import attempt_rolls, cover_choices
from rulecraft.model.aeroplanes.scoring import profit, profitability
from rulecraft.model.aeroplanes.state import (
    ADVANTAGE_TYPE_IDS,
    BLOCKER,
    HOME,
    AerState,
    Airport,
    OwnedCard,
    Phase,
    PlayerState,
    Slots,
    Waiting,
)
from rulecraft.scenarios.given import listing as _list
from rulecraft.scenarios.given import mapping as _mapping
from rulecraft.scenarios.given import no_unknown_fields as _unknown
from rulecraft.scenarios.given import seat as _seat_of
from rulecraft.scenarios.given import whole as _int
from rulecraft.scenarios.runner import ScenarioError

if TYPE_CHECKING:
    from rulecraft.model.aeroplanes.game import AeroplanesGame

_KEYS = {
    "players",
    "era",
    "phase",
    "first_player",
    "to_move",
    "seat",
    "turns_in_round",
    "subsidy_pool",
    "seats",
    "map",
    "waiting",
    "overflow",
}
_SEAT_KEYS = {"home", "money", "vp", "engine_failures", "advantages", "cards", "banked"}
_CARD_KEYS = {"number", "tiles", "passengers", "excess"}
_PHASES = {"action": Phase.ACTION, "choose-home": Phase.CHOOSE_HOME, "round-die": Phase.ROUND_DIE}
_TILE = re.compile(r"^(?P<seat>\d+):(?P<stage>[123]|home)$")


# ---------------------------------------------------------------------------
# Readers of this game's own values (the plain ones are rulecraft.scenarios.given's)
# ---------------------------------------------------------------------------


def _destination(game: AeroplanesGame, name: Any, where: str) -> str:
    names = [d.name for d in game.pack.destinations]
    if name not in names:
        raise ScenarioError(f"{where}: no destination {name!r} in the pack {game.pack.source}")
    return str(name)


def _passenger(game: AeroplanesGame, tile: Any, where: str) -> str:
    if tile not in {p.id for p in game.pack.passengers}:
        raise ScenarioError(f"{where}: no passenger tile {tile!r} in the pack {game.pack.source}")
    return str(tile)


def _advantage_type(game: AeroplanesGame, key: Any, where: str) -> int:
    names = {game.pack.advantage(t).name.lower().replace(" ", "-"): t for t in ADVANTAGE_TYPE_IDS}
    if isinstance(key, str) and key in names:
        return names[key]
    if isinstance(key, int) and not isinstance(key, bool) and key in ADVANTAGE_TYPE_IDS:
        return int(key)
    raise ScenarioError(f"{where}: {key!r} is not an advantage type (one of {sorted(names)} or 2..6)")


def _airport(value: Any, players: int, where: str) -> Airport | None:
    if value is None:
        return None
    if value == "blocker":
        return Airport(BLOCKER, HOME)
    m = _TILE.match(str(value))
    if m is None:
        raise ScenarioError(f"{where}: {value!r} is not '<seat>:<stage 1..3>', '<seat>:home', 'blocker' or null")
    seat = _seat_of(m["seat"], players, where)
    return Airport(seat, HOME if m["stage"] == "home" else int(m["stage"]))


# ---------------------------------------------------------------------------
# The given state
# ---------------------------------------------------------------------------


def _cards(game: AeroplanesGame, value: Any, where: str, used: set[str]) -> tuple[OwnedCard, ...]:
    out: list[OwnedCard] = []
    for i, item in enumerate(_list(value, where)):
        here = f"{where}[{i}]"
        spec: Mapping[Any, Any] = {"number": item} if not isinstance(item, Mapping) else item
        _unknown(spec, _CARD_KEYS, here)
        number = _int(spec.get("number"), f"{here}.number")
        try:
            printed = game.pack.card(number)
        except (KeyError, IndexError):
            raise ScenarioError(f"{here}.number: no plane card {number} in the pack {game.pack.source}") from None
        tiles = _int(spec.get("tiles", printed.tile_count), f"{here}.tiles")
        passengers = []
        for j, t in enumerate(_list(spec.get("passengers", []), f"{here}.passengers")):
            tile = _passenger(game, t, f"{here}.passengers[{j}]")
            if tile in used:
                raise ScenarioError(f"{here}.passengers[{j}]: passenger tile {tile} is already elsewhere")
            used.add(tile)
            passengers.append(tile)
        excess = spec.get("excess")
        if excess is not None:
            excess = _int(excess, f"{here}.excess")
        out.append(OwnedCard(number, tiles, tuple(sorted(passengers)), excess))
    return tuple(sorted(out, key=lambda c: c.number))


def _map(game: AeroplanesGame, given: Mapping[str, Any], players: int) -> dict[str, list[Airport | None]]:
    spec = _mapping(given.get("map", {}), "given.map")
    board: dict[str, list[Airport | None]] = {}
    for d in game.pack.destinations:
        in_play = d.slots_in_play(players)
        board[d.name] = [None] * in_play + [Airport(BLOCKER, HOME)] * (d.slots - in_play)
    for name, value in spec.items():
        where = f"given.map.{name}"
        dest = _destination(game, name, where)
        listed = [_airport(v, players, f"{where}[{i}]") for i, v in enumerate(_list(value, where))]
        total = len(board[dest])
        if len(listed) > total:
            raise ScenarioError(f"{where}: {len(listed)} tiles; {dest} has {total} slots (AER-R-29)")
        board[dest] = listed + board[dest][len(listed) :]
        owners = [a.owner for a in board[dest] if a is not None and not a.blocker]
        if len(owners) != len(set(owners)):
            raise ScenarioError(f"{where}: two tiles of one player in {dest} (AER-R-29 (c))")
    return board


def _homes(game: AeroplanesGame, specs: list[Mapping[Any, Any]], phase: Phase) -> list[str | None]:
    named = {spec.get("home") for spec in specs}
    spare = iter(c for c in game.pack.start_cities if c not in named)
    homes: list[str | None] = []
    for seat, spec in enumerate(specs):
        where = f"given.seats.{seat}.home"
        if "home" in spec:
            home = spec["home"]
            if home is not None and home not in game.pack.start_cities:
                raise ScenarioError(f"{where}: {home!r} is not a start city ({', '.join(game.pack.start_cities)})")
            homes.append(home)
        elif phase is Phase.CHOOSE_HOME:
            homes.append(None)
        else:
            homes.append(next(spare, None))
    chosen = [h for h in homes if h is not None]
    if len(chosen) != len(set(chosen)):
        raise ScenarioError(f"given.seats: two home tiles in one start city ({sorted(chosen)}, AER-SET-03)")
    return homes


def state_from_given(game: AeroplanesGame, given: Mapping[str, Any]) -> AerState:
    """The state an example starts from (see the module docstring for the vocabulary)."""
    _unknown(given, _KEYS, "given")
    ctx = game.ctx
    pack = game.pack
    players = _int(given.get("players", 3), "given.players")
    if not game.min_players <= players <= game.max_players:
        raise ScenarioError(f"given.players: {players}; the game seats {game.min_players}-{game.max_players}")
    era = _int(given.get("era", 1), "given.era")
    if not 1 <= era <= 3:
        raise ScenarioError(f"given.era: {era}; the game has eras 1 to 3")
    phase_name = given.get("phase", "action")
    if phase_name not in _PHASES:
        raise ScenarioError(f"given.phase: {phase_name!r} is not one of {sorted(_PHASES)}")
    phase = _PHASES[phase_name]
    seats = _mapping(given.get("seats", {}), "given.seats")
    for key in seats:
        _seat_of(key, players, f"given.seats.{key}")
    specs = [_mapping(seats.get(s, seats.get(str(s))) or {}, f"given.seats.{s}") for s in range(players)]
    for seat, spec in enumerate(specs):
        _unknown(spec, _SEAT_KEYS, f"given.seats.{seat}")
    homes = _homes(game, specs, phase)
    board = _map(game, given, players)
    # Home tiles: where the map lists them, else the first empty slot of the home city.
    for seat, home in enumerate(homes):
        placed = [
            d for d, slots in board.items() for a in slots if a is not None and a.owner == seat and a.stage == HOME
        ]
        if home is None:
            if placed:
                raise ScenarioError(f"given.map: seat {seat} has a home tile in {placed[0]} but no home city")
            continue
        if placed and placed != [home]:
            raise ScenarioError(f"given.map: seat {seat}'s home tile must be in its home city {home}, not {placed}")
        if not placed:
            slots = board[home]
            if any(a is not None and a.owner == seat for a in slots):
                raise ScenarioError(
                    f"given.map.{home}: seat {seat} has a tile there; list its home tile as '{seat}:home'"
                )
            if None not in slots:
                raise ScenarioError(f"given.map.{home}: no empty slot for seat {seat}'s home tile")
            slots[slots.index(None)] = Airport(seat, HOME)
    used: set[str] = set()
    owned_cards: set[int] = set()
    plist: list[PlayerState] = []
    held_total = [0] * len(ADVANTAGE_TYPE_IDS)
    for seat, spec in enumerate(specs):
        where = f"given.seats.{seat}"
        cards = _cards(game, spec.get("cards", []), f"{where}.cards", used)
        for c in cards:
            if c.number in owned_cards:
                raise ScenarioError(f"{where}.cards: card {c.number} is owned by another seat too")
            owned_cards.add(c.number)
        banked = []
        for j, t in enumerate(_list(spec.get("banked", []), f"{where}.banked")):
            tile = _passenger(game, t, f"{where}.banked[{j}]")
            if tile in used:
                raise ScenarioError(f"{where}.banked[{j}]: passenger tile {tile} is already elsewhere")
            used.add(tile)
            banked.append(tile)
        advantages = [0] * len(ADVANTAGE_TYPE_IDS)
        for key, n in _mapping(spec.get("advantages", {}), f"{where}.advantages").items():
            kind = _advantage_type(game, key, f"{where}.advantages.{key}")
            advantages[kind - 2] = _int(n, f"{where}.advantages.{key}")
            held_total[kind - 2] += advantages[kind - 2]
        supply = []
        for stage in (1, 2, 3):
            on_cards = sum(c.tiles for c in cards if pack.card(c.number).tile_stage == stage)
            on_map = sum(
                1 for slots in board.values() for a in slots if a is not None and a.owner == seat and a.stage == stage
            )
            left = ctx.tiles_per_stage(stage) - on_cards - on_map
            if left < 0:
                raise ScenarioError(
                    f"{where}: {on_cards} stage-{stage} tiles on cards and {on_map} on the map;"
                    f" a player has {ctx.tiles_per_stage(stage)} (AER-R-11)"
                )
            supply.append(left)
        a0, a1, a2, a3, a4 = advantages
        plist.append(
            PlayerState(
                home=homes[seat],
                money=_int(spec.get("money", 0), f"{where}.money"),
                vp=_int(spec.get("vp", 0), f"{where}.vp"),
                supply=(supply[0], supply[1], supply[2]),
                cards=cards,
                banked=tuple(sorted(banked)),
                advantages=(a0, a1, a2, a3, a4),
                engine_failures=_int(spec.get("engine_failures", 0), f"{where}.engine_failures"),
            )
        )
    stacks = []
    for i, kind in enumerate(ADVANTAGE_TYPE_IDS):
        left = pack.advantage(kind).count - held_total[i]
        if left < 0:
            raise ScenarioError(
                f"given.seats: {held_total[i]} {pack.advantage(kind).name} tiles held;"
                f" the game has {pack.advantage(kind).count} (AER-R-40)"
            )
        stacks.append(left)
    # The waiting area and the overflow.
    waiting_spec = _mapping(given.get("waiting", {}), "given.waiting")
    sections = pack.waiting_area.section_order
    for city in waiting_spec:
        if city not in sections:
            raise ScenarioError(
                f"given.waiting.{city}: not a start city with a waiting section ({', '.join(sections)})"
            )
    waiting = []
    for city in sections:
        where = f"given.waiting.{city}"
        tiles = [_passenger(game, t, f"{where}[{i}]") for i, t in enumerate(_list(waiting_spec.get(city, []), where))]
        if len(tiles) > pack.waiting_area.slots_per_city:
            raise ScenarioError(f"{where}: {len(tiles)} tiles; a section has {pack.waiting_area.slots_per_city} slots")
        for t in tiles:
            if t in used:
                raise ScenarioError(f"{where}: passenger tile {t} is already elsewhere")
            used.add(t)
        pad: list[str | None] = [None] * (pack.waiting_area.slots_per_city - len(tiles))
        waiting.append(Waiting(city, (*tiles, *pad)))
    overflow = []
    for i, t in enumerate(_list(given.get("overflow", []), "given.overflow")):
        tile = _passenger(game, t, f"given.overflow[{i}]")
        if tile in used:
            raise ScenarioError(f"given.overflow[{i}]: passenger tile {tile} is already elsewhere")
        used.add(tile)
        overflow.append(tile)
    bag = tuple(sorted(p.id for p in pack.passengers if p.id not in used))
    free = sorted(c.number for c in pack.cards if c.number not in owned_cards)
    first = _seat_of(given.get("first_player", 0), players, "given.first_player")
    to_move = _seat_of(given.get("to_move", given.get("seat", first)), players, "given.to_move")
    turns = _int(given.get("turns_in_round", players if phase is Phase.ROUND_DIE else 0), "given.turns_in_round")
    return AerState(
        players=tuple(plist),
        era=era,
        first_player=first,
        to_move=first if phase is Phase.ROUND_DIE else to_move,
        turns_in_round=turns,
        die_roller=first if phase is Phase.ROUND_DIE else None,
        subsidy_pool=_int(given.get("subsidy_pool", pack.subsidy_pool), "given.subsidy_pool"),
        display=tuple(free[: pack.display_size]),
        deck=tuple(free[pack.display_size :]),
        map=tuple(Slots(name, tuple(slots)) for name, slots in board.items()),
        bag=bag,
        waiting=tuple(waiting),
        overflow=tuple(overflow),
        advantage_supply=(stacks[0], stacks[1], stacks[2], stacks[3], stacks[4]),
        phase=phase,
    )


# ---------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------


def _tile_text(a: Airport | None) -> str | None:
    if a is None:
        return None
    if a.blocker:
        return "blocker"
    return f"{a.owner}:{'home' if a.stage == HOME else a.stage}"


def _attempt(game: AeroplanesGame, state: AerState) -> dict[str, Any] | None:
    attempt = state.turn.attempt
    if attempt is None:
        return None
    out: dict[str, Any] = {
        "card": attempt.card,
        "destination": attempt.destination,
        "origin": attempt.origin,
        "via": attempt.via,
        "left": [target - bonus for target, bonus in attempt.rolls[0 if attempt.throw is None else 1 :]],
        "throw": None if attempt.throw is None else {"total": attempt.throw[0], "skulls": attempt.throw[1]},
        "spent": attempt.spent,
        "targets": [],
        "bonuses": [],
        "needs": [],
        "shortfall": None,
        "covers": [],
    }
    if attempt.origin is not None:
        rolls = attempt_rolls(game.ctx, state, state.to_move, attempt.origin, attempt.destination, attempt.via)
        out["targets"] = [r.target for r in rolls]
        out["bonuses"] = [r.bonus for r in rolls]
        out["needs"] = [r.need for r in rolls]
    if attempt.throw is not None and attempt.rolls and state.phase is Phase.COVER and not attempt.pending:
        _, shortfall, options = cover_choices(game.ctx, state)
        out["shortfall"] = shortfall
        out["covers"] = [[c.money, c.pilots] for c in options]
    return out


def facts(game: AeroplanesGame, state: AerState) -> dict[str, Any]:
    """Derived values for scenario expectations (see the module docstring)."""
    ctx = game.ctx
    pack = game.pack
    seats = range(len(state.players))
    graph = pack.graph()
    n = len(state.players)
    airports = {s: sorted(state.airports(s)) for s in seats}
    reach: dict[int, list[str]] = {}
    for s in seats:
        mine = set(airports[s])
        reach[s] = sorted({b for a in mine for b in graph.successors(a)} - mine)
    out: dict[str, Any] = {
        "income": {s: pack.income.amount(state.era, p.home or "") for s, p in enumerate(state.players)},
        "airports": airports,
        "reach": reach,
        "tiles": {sl.destination: [_tile_text(a) for a in sl.slots] for sl in state.map},
        "slots": {d.name: d.slots_in_play(n) for d in pack.destinations},
        "connections": {d.name: sorted(graph.successors(d.name)) for d in pack.destinations},
        "attempt": _attempt(game, state),
    }
    origin: dict[str, str] = {}
    for w in state.waiting:
        for t in w.slots:
            if t is not None:
                origin[t] = w.city
    out["origin"] = origin
    legal = game.legal_actions(state)
    out["legal"] = sorted({a.kind for a in legal})
    out["placeable"] = sorted({a.destination for a in legal if isinstance(a, PlaceAirport)})
    out["claimable"] = sorted({a.id for a in legal if isinstance(a, ClaimPassenger)})
    out["profit"] = {s: profit(ctx, p) for s, p in enumerate(state.players)}
    ranking = profitability(ctx, state, state.era)
    out["profit_rank"] = {s: ranking.rank(s) for s in seats}
    out["profit_vp"] = {s: ranking.vp(s) for s in seats}
    return out
