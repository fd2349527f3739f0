"""Steamopolis scenario vocabulary: the ``given:`` block and the derived facts.

Only what an example needs is given; the rest comes from defaults that keep
every invariant (digest 3.14) true: resources, capacity, sponsor and gala
tiles are counted out of the general supply, each player's personal stone
supply holds the stones not on the gauge or the board, the passenger stack
holds the tiles nobody has, unnamed markets are dealt from the tiles used
nowhere else, and the tower top holds one statue per bought-out market::

    given:
      players: 2                 # 1..4 (default 2); 1 = solo (STM-R-68..73: VP default the solo start)
      board_side: "2-3"          # default from players (STM-R-01)
      phase: action              # start-of-turn | action | flight (default action)
      to_move: 0                 # whose turn (alias: seat; default the start player)
      start_player: 0            # default: the seat with the lowest character (STM-R-07)
      round: 1
      seats:                     # per seat, only what matters
        0:
          character: 13          # default: the pack's characters nobody is given, lowest first
          vp: 0
          crystals: 1
          gears: 2
          gauge: "g1A g2 g3"     # stones g<space>[A], markers #<numeral>@g<space>, base@g<space>;
                                 # or {stones: [[1, true], 2], markers: [[7, 5]], base: 0};
                                 # default the set-up gauge g1 g2 g3 (STM-R-11)
          supply: 2              # stones in the personal supply (a count, or a list of arrow flags);
                                 # default: the stones on neither the gauge nor the board, no arrow
          machine_room: {1: S1, 2: capacity, 3: M0-01}
                                 # position 1..7 -> tile: a machine id, a starting machine id
                                 # ("S1" side 0, "S1/1" side 1), "capacity" (boiler side) or
                                 # "capacity/1" (storage side); default: empty
          banners: [M0-03]
          passenger_tiles: 2     # face down beside the airship
          carrying: {banker: 8}  # phase flight only: passenger -> his fixed destination (STM-AMB-09)
          sponsor: crystal       # the side up; sponsor_used: false (sponsor2, sponsor2_used:
                                 # character 5's second one under STM-AMB-34 'two')
          gala: gear
      board:                     # stones on districts; seat "shadow" = the solo shadow (STM-R-70)
        - {seat: 0, level: 6, position: left, arrow: true}
      markets:                   # level -> tiles from the face-up one; missing higher ranks are dealt
        6: [M0-05]               # from unused tiles; [] = bought out (its statue on the tower top)
        3: {tiles: [M1-02], extra: false}
      bonus: {crystal_row: [5, 4, 3, 2], gear_row: [2]}   # default: full rows, less the markers on gauges
      passengers: {banker: 6, stoker: 4, face_up: P02, stack: [P03, P04]}
                                 # default face-up P01, the stack every tile nobody has
      parasites: [{owner: 1, host: 0, position: 2, symbol: activation}]   # host null: beside the stack (solo);
                                 # symbol: activation | passive (a bare YAML key on reads as true)
      tower_top: 0               # default: the bought-out statue markets
      end_triggered: false
      final_round: false

Phase ``flight`` starts in the flight loop as if FLY TO ALL TARGETS had just
been chosen (every own stone on the board is in S0, the next stone is to be
taken back).  Unknown keys raise :class:`ScenarioError` naming the key.

Facts (``path:`` in ``expect:``; per-seat facts are keyed by seat)::

    values.<seat>           ["1A", "2", "2"]: the solo example's VALUES line (gauge.values)
    gauge.<seat>            "base@g0 g3 g4A #5@g7": the compact gauge
    boilers.<seat>          2 built-in + every machine-room boiler: the X of MAKE STEAM (STM-R-25)
    storage.<seat>          storage spaces (STM-R-32)
    stones_owned.<seat>     stones on the gauge and the board (STM-R-63)
    supply_stones.<seat>    stones in the personal supply
    movable.<seat>          gauge spaces of the stones that can still make an increment (STM-R-15)
    room.<seat>.<pos>       the tile id at machine-room position 1..7 (null: empty)
    tiles.<seat>            machine-room tiles + banners (the tie-break, STM-R-67)
    destinations            {banker: level, stoker: level} of the tile in force (STM-R-35)
    face_up.<level>         the face-up tile of the level's (statue) market, null when bought out
    shadow                  ["L3-left", ...]: districts holding a solo shadow stone
    legal                   the kinds of the mover's legal actions, sorted
    targets.<space>         ["L1-left", ...]: SET 1 TARGET districts of the mover's stone on <space>
    channel_from            gauge spaces the mover may channel from (STM-R-28)
    channel_targets         districts the channelled stone may be placed on now (STM-R-29)
    head                    the head part of the waiting effect, in the pack's effect vocabulary
    rank                    solo: the rank of the VP (STM-R-73; "lost" on time pressure, STM-R-69); else null
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast, get_args

import attrs

from rulecraft.model.steamopolis.actions import ChannelPressure, PlaceStone, SetTarget
from rulecraft.model.steamopolis.components import BoardSide, DistrictPosition, MachineTile, Resource
from rulecraft.model.steamopolis.effects import part_to_data
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Item, Stone, movable, values
from rulecraft.model.steamopolis.rules import destination
from rulecraft.model.steamopolis.state import (
    SHADOW,
    BoardStone,
    BonusMarket,
    Market,
    Parasite,
    Passenger,
    Passengers,
    Phase,
    PlayerState,
    RoomTile,
    Solo,
    StmState,
    Supply,
    TurnState,
    stones_owned,
)
from rulecraft.scenarios.given import choice as _choice
from rulecraft.scenarios.given import flag as _bool
from rulecraft.scenarios.given import listing as _list
from rulecraft.scenarios.given import mapping as _mapping
from rulecraft.scenarios.given import no_unknown_fields as _unknown
from rulecraft.scenarios.given import whole as _int
from rulecraft.scenarios.runner import ScenarioError

if TYPE_CHECKING:
    from rulecraft.model.steamopolis.game import SteamopolisGame

_KEYS = {
    "players",
    "board_side",
    "phase",
    "to_move",
    "seat",
    "start_player",
    "round",
    "seats",
    "board",
    "markets",
    "bonus",
    "passengers",
    "parasites",
    "tower_top",
    "end_triggered",
    "final_round",
}
_SEAT_KEYS = {
    "character",
    "vp",
    "crystals",
    "gears",
    "gauge",
    "supply",
    "machine_room",
    "banners",
    "passenger_tiles",
    "carrying",
    "sponsor",
    "sponsor_used",
    "sponsor2",
    "sponsor2_used",
    "gala",
}
_PHASES = {"start-of-turn": Phase.START_OF_TURN, "action": Phase.ACTION, "flight": Phase.FLIGHT}
_POSITIONS: tuple[str, ...] = get_args(DistrictPosition)
_RESOURCES: tuple[str, ...] = get_args(Resource)
_PASSENGERS: tuple[str, ...] = get_args(Passenger)
_TOKEN = re.compile(r"^(?:g(?P<stone>\d+)(?P<arrow>A?)|#(?P<numeral>\d+)@g(?P<mspace>\d+)|base@g(?P<base>\d+))$")


# ---------------------------------------------------------------------------
# Readers of this game's own values (the plain ones are rulecraft.scenarios.given's)
# ---------------------------------------------------------------------------


def _district_name(level: int, position: str) -> str:
    return f"L{level}-{position}"


# ---------------------------------------------------------------------------
# The gauge
# ---------------------------------------------------------------------------


def gauge_from_given(value: Any, where: str, spaces: int) -> Gauge:
    """A gauge from the compact string or the mapping form (see the module docstring)."""
    items: list[Item | None] = [None] * spaces
    base = 0

    def put(space: int, item: Item, what: str) -> None:
        if not 1 <= space < spaces:
            raise ScenarioError(f"{where}: {what} on space {space}; the gauge has spaces 1..{spaces - 1}")
        if items[space] is not None:
            raise ScenarioError(f"{where}: two items on space {space} (STM-R-14: one per space)")
        items[space] = item

    if isinstance(value, str):
        for token in value.split():
            m = _TOKEN.match(token)
            if m is None:
                raise ScenarioError(f"{where}: {token!r} is not g<space>[A], #<numeral>@g<space> or base@g<space>")
            if m["stone"] is not None:
                put(int(m["stone"]), Stone(bool(m["arrow"])), token)
            elif m["numeral"] is not None:
                put(int(m["mspace"]), BonusMarker(int(m["numeral"])), token)
            else:
                base = int(m["base"])
    else:
        spec = _mapping(value, where)
        _unknown(spec, {"stones", "markers", "base"}, where)
        for i, stone in enumerate(_list(spec.get("stones", []), f"{where}.stones")):
            if isinstance(stone, list | tuple) and len(stone) == 2:
                put(_int(stone[0], f"{where}.stones[{i}]"), Stone(_bool(stone[1], f"{where}.stones[{i}]")), "a stone")
            else:
                put(_int(stone, f"{where}.stones[{i}]"), Stone(), "a stone")
        for i, marker in enumerate(_list(spec.get("markers", []), f"{where}.markers")):
            pair = _list(marker, f"{where}.markers[{i}]")
            if len(pair) != 2:
                raise ScenarioError(f"{where}.markers[{i}]: [space, numeral], got {marker!r}")
            put(_int(pair[0], f"{where}.markers[{i}]"), BonusMarker(_int(pair[1], f"{where}.markers[{i}]")), "a marker")
        base = _int(spec.get("base", 0), f"{where}.base")
    try:
        return Gauge(base, tuple(items))
    except ValueError as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def gauge_text(gauge: Gauge) -> str:
    """The compact form: ``base@g0 g3 g4A #5@g7``."""
    out = [f"base@g{gauge.base}"]
    for i, item in enumerate(gauge.spaces):
        if isinstance(item, Stone):
            out.append(f"g{i}{'A' if item.arrow else ''}")
        elif isinstance(item, BonusMarker):
            out.append(f"#{item.numeral}@g{i}")
    return " ".join(out)


# ---------------------------------------------------------------------------
# Building the state
# ---------------------------------------------------------------------------


def _room_tile(game: SteamopolisGame, value: Any, where: str) -> RoomTile:
    if isinstance(value, Mapping):
        _unknown(value, {"kind", "id", "side"}, where)
        kind = _choice(value.get("kind", "machine"), ("machine", "starting", "capacity"), f"{where}.kind")
        tile_id = str(value.get("id", "capacity" if kind == "capacity" else ""))
        side = _int(value.get("side", 0), f"{where}.side")
    else:
        name, _, side_text = str(value).partition("/")
        side = int(side_text) if side_text.isdigit() else 0
        if side_text and not side_text.isdigit():
            raise ScenarioError(f"{where}: {value!r}: the side after '/' is 0 or 1")
        starting = {s.id for s in game.pack.starting_machines}
        kind = "capacity" if name == "capacity" else "starting" if name in starting else "machine"
        tile_id = name
    if side not in (0, 1) or (kind == "machine" and side):
        raise ScenarioError(f"{where}: side {side}: a starting machine or capacity tile shows side 0 or 1")
    tile = RoomTile(cast(Any, kind), tile_id, side)
    try:
        game.ctx.face(tile)
    except KeyError as exc:
        raise ScenarioError(f"{where}: {exc.args[0] if exc.args else exc}") from None
    return tile


def _machine(game: SteamopolisGame, tile_id: Any, where: str) -> MachineTile:
    try:
        return game.pack.machine(str(tile_id))
    except KeyError:
        raise ScenarioError(f"{where}: unknown machine tile {tile_id!r}") from None


def _seat_of(value: Any, players: int, where: str, *, solo: bool = False) -> int:
    if solo and value == "shadow":
        return SHADOW
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    seat = _int(value, where)
    if not 0 <= seat < players:
        raise ScenarioError(f"{where}: no seat {seat} with {players} player(s)")
    return seat


def _board(game: SteamopolisGame, given: Mapping[str, Any], players: int, side: BoardSide) -> tuple[BoardStone, ...]:
    out = []
    districts = {(d.level, d.position) for d in game.pack.side(side)}
    for i, spec in enumerate(_list(given.get("board", []), "given.board")):
        where = f"given.board[{i}]"
        spec = _mapping(spec, where)
        _unknown(spec, {"seat", "level", "position", "arrow"}, where)
        seat = _seat_of(spec.get("seat", 0), players, f"{where}.seat", solo=players == 1)
        level = _int(spec.get("level"), f"{where}.level")
        position = _choice(spec.get("position"), _POSITIONS, f"{where}.position")
        if (level, position) not in districts:
            raise ScenarioError(f"{where}: the {side}-player side has no {position} district on level {level}")
        arrow = _bool(spec.get("arrow", False), f"{where}.arrow")
        out.append(BoardStone(seat, level, cast(DistrictPosition, position), Stone(arrow)))
    return tuple(out)


def _player(
    game: SteamopolisGame,
    seat: int,
    spec: Mapping[str, Any],
    board: tuple[BoardStone, ...],
    solo: bool,
    default_character: int,
) -> tuple[PlayerState, dict[Passenger, int]]:
    where = f"given.seats.{seat}"
    _unknown(spec, _SEAT_KEYS, where)
    layout = game.ctx.layout
    gauge = gauge_from_given(spec.get("gauge", "g1 g2 g3"), f"{where}.gauge", len(layout.values))
    owned = game.pack.airship.stones
    on_board = sum(1 for s in board if s.seat == seat)
    rest = owned - gauge.stones() - on_board
    if "supply" in spec:
        raw = spec["supply"]
        if isinstance(raw, list | tuple):
            supply = tuple(Stone(_bool(a, f"{where}.supply[{i}]")) for i, a in enumerate(raw))
        else:
            supply = (Stone(),) * _int(raw, f"{where}.supply")
    else:
        supply = (Stone(),) * max(rest, 0)
    if gauge.stones() + on_board + len(supply) != owned:
        raise ScenarioError(
            f"{where}: {gauge.stones()} stones on the gauge + {on_board} on the board + {len(supply)} in the"
            f" supply; a player owns {owned} (STM-R-08)"
        )
    room: list[RoomTile | None] = [None] * game.pack.machine_room.positions
    for key, value in _mapping(spec.get("machine_room", {}), f"{where}.machine_room").items():
        position = _int(key, f"{where}.machine_room")
        if not 1 <= position <= len(room):
            raise ScenarioError(f"{where}.machine_room.{key}: positions are 1..{len(room)}")
        room[position - 1] = _room_tile(game, value, f"{where}.machine_room.{key}")
    banners = tuple(
        _machine(game, b, f"{where}.banners[{i}]").id
        for i, b in enumerate(_list(spec.get("banners", []), f"{where}.banners"))
    )
    carrying: dict[Passenger, int] = {}
    for who, dest in _mapping(spec.get("carrying", {}), f"{where}.carrying").items():
        name = _choice(who, _PASSENGERS, f"{where}.carrying")
        carrying[cast(Passenger, name)] = _int(dest, f"{where}.carrying.{who}")
    sponsor = spec.get("sponsor")
    sponsor2 = spec.get("sponsor2")  # STM-AMB-34 'two': character 5's second sponsor
    gala = spec.get("gala")
    player = PlayerState(
        character=_int(spec.get("character", default_character), f"{where}.character"),
        gauge=gauge,
        supply=supply,
        machine_room=tuple(room),
        banners=banners,
        crystals=_int(spec.get("crystals", 0), f"{where}.crystals"),
        gears=_int(spec.get("gears", 0), f"{where}.gears"),
        vp=_int(spec.get("vp", game.params["solo_start_vp"] if solo else 0), f"{where}.vp"),
        passenger_tiles=_int(spec.get("passenger_tiles", 0), f"{where}.passenger_tiles"),
        carrying=tuple(carrying),
        sponsor=None if sponsor is None else cast(Resource, _choice(sponsor, _RESOURCES, f"{where}.sponsor")),
        sponsor_used=_bool(spec.get("sponsor_used", False), f"{where}.sponsor_used"),
        sponsor2=None if sponsor2 is None else cast(Resource, _choice(sponsor2, _RESOURCES, f"{where}.sponsor2")),
        sponsor2_used=_bool(spec.get("sponsor2_used", False), f"{where}.sponsor2_used"),
        gala=None if gala is None else cast(Resource, _choice(gala, _RESOURCES, f"{where}.gala")),
    )
    return player, carrying


def _markets(game: SteamopolisGame, given: Mapping[str, Any], side: BoardSide, used: set[str]) -> tuple[Market, ...]:
    """The given markets, their higher ranks dealt from unused tiles; the other levels dealt likewise."""
    specs: dict[tuple[int, bool], list[str] | None] = {}
    statues: dict[tuple[int, bool], bool] = {}
    for key, value in _mapping(given.get("markets", {}), "given.markets").items():
        where = f"given.markets.{key}"
        level = _int(key, where)
        extra = False
        if isinstance(value, Mapping):
            _unknown(value, {"tiles", "statue", "extra"}, where)
            extra = _bool(value.get("extra", False), f"{where}.extra")
            tiles = _list(value.get("tiles", []), f"{where}.tiles")
            if "statue" in value:
                statues[(level, extra)] = _bool(value["statue"], f"{where}.statue")
        else:
            tiles = _list(value, where)
        if not 2 <= level <= 8 or (extra and (side != "4" or level not in (2, 3, 4))):
            raise ScenarioError(f"{where}: no {'extra ' if extra else ''}machine market on level {level}")
        ids = [_machine(game, t, f"{where}[{i}]").id for i, t in enumerate(tiles)]
        ranks = [game.pack.machine(t).rank for t in ids]
        top = 0 if extra else 3
        if (ranks and ranks != list(range(ranks[0], ranks[0] + len(ranks)))) or (ranks and ranks[-1] > top):
            raise ScenarioError(f"{where}: ranks {ranks}: a market holds ascending ranks up to {top} (STM-R-03)")
        for t in ids:
            if t in used:
                raise ScenarioError(f"{where}: machine tile {t} is already elsewhere")
            used.add(t)
        specs[(level, extra)] = ids
    slots = [(level, False) for level in range(2, 9)]
    if side == "4":
        slots += [(level, True) for level in (2, 3, 4)]
    free = {r: [m.id for m in game.pack.rank(r) if m.id not in used] for r in range(4)}
    out = []
    for level, extra in slots:
        ids_or_none = specs.get((level, extra))
        if ids_or_none is None:
            wanted = [0] if extra else [0, 1, 2, 3]
            if any(not free[r] for r in wanted):
                continue  # not enough unused tiles left: this level gets no market
            ids = [free[r].pop(0) for r in wanted]
        else:
            ids = list(ids_or_none)
            if ids and not extra:
                for r in range(game.pack.machine(ids[-1]).rank + 1, 4):
                    if not free[r]:
                        raise ScenarioError(f"given.markets.{level}: no unused rank-{r} tile left to deal")
                    ids.append(free[r].pop(0))
        statue = statues.get((level, extra), bool(ids) and not extra)
        out.append(Market(level, tuple(ids), statue=statue, extra=extra))
    return tuple(out)


def _default_rows(players: list[PlayerState]) -> dict[str, tuple[int, ...]]:
    """Rows that lost their foremost markers to the gauges (STM-R-46, AMB-13): a numeral stays in as
    many rows as the markers of it and every higher one still left allow (2 of each numeral)."""
    on_gauges = Counter(
        item.numeral for p in players for item in p.gauge.spaces if isinstance(item, BonusMarker) and not item.pink
    )
    rows_with: dict[int, int] = {}
    most = 2
    for numeral in (2, 3, 4, 5):  # a row holding a numeral holds every lower one
        most = min(most, max(2 - on_gauges[numeral], 0))
        rows_with[numeral] = most
    return {
        "crystal_row": tuple(n for n in (5, 4, 3, 2) if rows_with[n] >= 1),
        "gear_row": tuple(n for n in (5, 4, 3, 2) if rows_with[n] >= 2),
    }


def _bonus(given: Mapping[str, Any], players: list[PlayerState]) -> BonusMarket:
    spec = _mapping(given.get("bonus", {}), "given.bonus")
    _unknown(spec, {"crystal_row", "gear_row", "statue"}, "given.bonus")
    rows = _default_rows(players)
    for name in ("crystal_row", "gear_row"):
        if name not in spec:
            continue
        row = tuple(_int(n, f"given.bonus.{name}") for n in _list(spec[name], f"given.bonus.{name}"))
        if row != (5, 4, 3, 2)[4 - len(row) :]:
            raise ScenarioError(f"given.bonus.{name}: {list(row)}: a row loses its foremost marker first (STM-AMB-13)")
        rows[name] = row
    both_twos_gone = 2 not in rows["crystal_row"] and 2 not in rows["gear_row"]
    statue = _bool(spec.get("statue", not both_twos_gone), "given.bonus.statue")
    return BonusMarket(crystal_row=rows["crystal_row"], gear_row=rows["gear_row"], statue=statue)


def _passengers(game: SteamopolisGame, given: Mapping[str, Any], beside: int, carried: set[str]) -> Passengers:
    spec = _mapping(given.get("passengers", {}), "given.passengers")
    _unknown(spec, {"banker", "stoker", "face_up", "stack"}, "given.passengers")
    known = [t.id for t in game.pack.passengers]

    def tile(value: Any, where: str) -> str:
        if value not in known:
            raise ScenarioError(f"{where}: unknown passenger tile {value!r}")
        return str(value)

    face_up = tile(spec["face_up"], "given.passengers.face_up") if spec.get("face_up") is not None else None
    if "face_up" not in spec:
        face_up = known[0]
    if "stack" in spec:
        listed = _list(spec["stack"], "given.passengers.stack")
        stack = tuple(tile(t, f"given.passengers.stack[{i}]") for i, t in enumerate(listed))
    else:
        rest = [t for t in known if t != face_up]
        stack = tuple(rest[: max(len(rest) - beside, 0)])
    stands: dict[str, int | None] = {}
    for who, default in (("banker", 6), ("stoker", 4)):
        stands[who] = None if who in carried else _int(spec.get(who, default), f"given.passengers.{who}")
        if who in carried and spec.get(who) is not None:
            raise ScenarioError(f"given.passengers.{who}: the {who} is carried, he stands on no level")
    return Passengers(banker=stands["banker"], stoker=stands["stoker"], stack=stack, face_up=face_up)


def _parasites(given: Mapping[str, Any], players: int) -> tuple[Parasite, ...]:
    out = []
    for i, spec in enumerate(_list(given.get("parasites", []), "given.parasites")):
        where = f"given.parasites[{i}]"
        spec = _mapping(spec, where)
        if True in spec:
            raise ScenarioError(f"{where}: a bare 'on' key reads as true in YAML: write \"on\" or 'symbol'")
        _unknown(spec, {"owner", "host", "position", "on", "symbol"}, where)
        owner = _seat_of(spec.get("owner"), players, f"{where}.owner")
        host = None if spec.get("host") is None else _seat_of(spec["host"], players, f"{where}.host")
        position = None if spec.get("position") is None else _int(spec["position"], f"{where}.position")
        symbol = spec.get("symbol", spec.get("on", "activation"))
        on = _choice(symbol, ("activation", "passive"), f"{where}.symbol")
        out.append(Parasite(owner, host, position, cast(Any, on)))
    return tuple(out)


def state_from_given(game: SteamopolisGame, given: Mapping[str, Any]) -> StmState:
    """The state an example starts from (see the module docstring for the vocabulary)."""
    _unknown(given, _KEYS, "given")
    players = _int(given.get("players", 2), "given.players")
    if not game.min_players <= players <= game.max_players:
        raise ScenarioError(f"given.players: {players}; the model plays {game.min_players}-{game.max_players}")
    solo = players == 1
    side_default: BoardSide = "4" if players >= 4 else "2-3"  # 5 players (STM-AMB-24 '1-5'): the '4-5' side
    side = cast(BoardSide, _choice(given.get("board_side", side_default), ("2-3", "4"), "given.board_side"))
    board = _board(game, given, players, side)
    seats = _mapping(given.get("seats", {}), "given.seats")
    for key in seats:
        _seat_of(key, players, f"given.seats.{key}")
    specs = [_mapping(seats.get(seat, seats.get(str(seat))) or {}, f"given.seats.{seat}") for seat in range(players)]
    # Characters not given: the pack's numbers nobody has, lowest first (STM-R-07).
    named = {spec.get("character") for spec in specs}
    spare = iter(c.number for c in game.pack.characters if c.number not in named)
    plist: list[PlayerState] = []
    carrying: dict[Passenger, int] = {}
    for seat, spec in enumerate(specs):
        default_character = 0 if "character" in spec else next(spare, 0)
        player, carried = _player(game, seat, spec, board, solo, default_character)
        plist.append(player)
        for who, dest in carried.items():
            if who in carrying:
                raise ScenarioError(f"given.seats.{seat}.carrying: the {who} is carried by another seat too")
            carrying[who] = dest
    # Tiles: machine rooms and banners first, then the markets take what is left.
    used: set[str] = set()
    for seat, p in enumerate(plist):
        for t in (*(x.id for x in p.machine_room if x is not None and x.kind == "machine"), *p.banners):
            if t in used:
                raise ScenarioError(f"given.seats.{seat}: machine tile {t} is already elsewhere")
            used.add(t)
    markets = _markets(game, given, side, used)
    bonus = _bonus(given, plist)
    beside = sum(p.passenger_tiles for p in plist)
    passengers = _passengers(game, given, beside, set(carrying))
    parasites = _parasites(given, players)
    placed = [sum(1 for x in parasites if x.owner == seat) for seat in range(players)]
    plist = [attrs.evolve(p, parasites_home=game.pack.airship.parasite_spaces - placed[i]) for i, p in enumerate(plist)]
    # The general supply holds what the players do not (STM-R-21).
    supplies = game.pack.supplies
    capacity = sum(1 for p in plist for t in p.machine_room if t is not None and t.kind == "capacity")
    supply = Supply(
        crystals=supplies.crystals - sum(p.crystals for p in plist),
        gears=supplies.gears - sum(p.gears for p in plist),
        capacity_tiles=supplies.capacity_tiles - capacity,
        sponsors=len(supplies.sponsors) - sum((p.sponsor is not None) + (p.sponsor2 is not None) for p in plist),
        galas=(
            supplies.galas.count("crystal") - sum(1 for p in plist if p.gala == "crystal"),
            supplies.galas.count("gear") - sum(1 for p in plist if p.gala == "gear"),
        ),
    )
    bought_out = sum(1 for m in markets if not m.extra and not m.tiles) + int(not bonus.statue)
    lowest = min(range(players), key=lambda seat: plist[seat].character)  # STM-R-07: the lowest number starts
    start = _seat_of(given.get("start_player", lowest), players, "given.start_player")
    to_move = _seat_of(given.get("to_move", given.get("seat", start)), players, "given.to_move")
    phase = _PHASES[_choice(given.get("phase", "action"), _PHASES, "given.phase")]
    turn = TurnState()
    if carrying and phase is not Phase.FLIGHT:
        raise ScenarioError("given.seats: passengers are carried only during a flight (phase flight)")
    if carrying and set(carrying) != set(plist[to_move].carrying):
        raise ScenarioError("given.seats: only the player to move carries passengers, in his own flight")
    if phase is Phase.FLIGHT:
        start_districts = tuple((s.level, s.position) for s in board if s.seat == to_move)
        if not start_districts:
            raise ScenarioError("given.phase: flight needs a stone of the player to move on the board")
        turn = TurnState(flight_start=start_districts, step="next", boarded=tuple(carrying.items()))
    return StmState(
        players=tuple(plist),
        board_side=side,
        markets=markets,
        bonus=bonus,
        passengers=passengers,
        board=board,
        parasites=parasites,
        supply=supply,
        tower_top=_int(given.get("tower_top", bought_out), "given.tower_top"),
        start_player=start,
        to_move=to_move,
        phase=phase,
        round=_int(given.get("round", 1), "given.round"),
        end_triggered=_bool(given.get("end_triggered", False), "given.end_triggered"),
        final_round=_bool(given.get("final_round", False), "given.final_round"),
        turn=turn,
        solo=Solo(parasites_beside_stack=sum(1 for x in parasites if x.host is None)) if solo else None,
    )


# ---------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------


def facts(game: SteamopolisGame, state: StmState) -> dict[str, Any]:
    """Derived values for scenario expectations (see the module docstring)."""
    ctx = game.ctx
    layout = ctx.layout
    seats = range(len(state.players))
    out: dict[str, Any] = {
        "values": {s: list(values(p.gauge, layout)) for s, p in enumerate(state.players)},
        "gauge": {s: gauge_text(p.gauge) for s, p in enumerate(state.players)},
        "boilers": {s: ctx.boilers(p) for s, p in enumerate(state.players)},
        "storage": {s: ctx.storage(p) for s, p in enumerate(state.players)},
        "stones_owned": {s: stones_owned(state, s) for s in seats},
        "supply_stones": {s: len(p.supply) for s, p in enumerate(state.players)},
        "movable": {s: list(movable(p.gauge)) for s, p in enumerate(state.players)},
        "room": {
            s: {i + 1: (t.id if t is not None else None) for i, t in enumerate(p.machine_room)}
            for s, p in enumerate(state.players)
        },
        "tiles": {s: game.tiles(state, s) for s in seats},
        "face_up": {m.level: (m.tiles[0] if m.tiles else None) for m in state.markets if not m.extra},
        "shadow": sorted(_district_name(s.level, s.position) for s in state.board if s.seat == SHADOW),
        "head": part_to_data(state.turn.pending[0][0]) if state.turn.pending and state.turn.pending[0] else None,
    }
    out["destinations"] = {who: destination(ctx, state, who) for who in ("banker", "stoker")}
    out["rank"] = game.solo_rank(state) if state.solo is not None else None
    legal = game.legal_actions(state)
    out["legal"] = sorted({a.kind for a in legal})
    targets: dict[int, list[str]] = {}
    for a in legal:
        if isinstance(a, SetTarget):
            targets.setdefault(a.space, []).append(_district_name(a.level, a.position))
    out["targets"] = {space: sorted(names) for space, names in sorted(targets.items())}
    out["channel_from"] = sorted({a.space for a in legal if isinstance(a, ChannelPressure)})
    out["channel_targets"] = sorted(_district_name(a.level, a.position) for a in legal if isinstance(a, PlaceStone))
    return out
