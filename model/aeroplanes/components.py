"""Aeroplanes: Aviation Ascendant components as data, and loading a pack.

The rulebook (seeds/002, Russian; digest rules/aeroplanes-aviation-ascendant.md
section 6) gives the counts, the income and risk tables, the subsidy pool and a
fragment of the map, but not the board, the 46 plane cards, the 96 passenger
tiles or most of the VPs/Era table.  A *pack* carries all of them; the bundled
pack is reconstructed entry by entry (``packs/reconstructed.yaml``, every entry
with its provenance) and a publisher's real pack loads with :func:`load_pack`
(``--components FILE``; schema: ``packs/schema.json``).  Errors name the file,
the entry and the field; they cite the seed by line ("l.124"), since it has no
page numbers.

The map is a :class:`rulecraft.digraph.DiGraph` (:meth:`Pack.graph`; networkx's interface, without
its import time): nodes are the
destinations (region, slots, the 3-player "4/5" slots), arcs the connections
(colour, long-range flag, the rolls of a ‡ route).  An ordinary connection gives
an arc each way; a special connection (AER-R-15) gives only the arc from each
European destination to the special destination.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any, Literal, cast

import attrs

from rulecraft.core import cite
from rulecraft.digraph import DiGraph
from rulecraft.packs import PackChecker, PackError, PackFiles, check_schema, entry_label, find_entry, pack_schema_of

PACKAGE = "rulecraft.model.aeroplanes"
BUNDLED_SOURCE = "rulecraft/model/aeroplanes/packs/reconstructed.yaml"

Colour = Literal["white", "red", "black"]
Direction = Literal["both", "one-way"]
Source = Literal["printed", "partly printed", "reconstructed", "publisher"]
Face = int | Literal["skull"]

ERAS: tuple[int, ...] = (1, 2, 3)  # AER-R-01
STAGES: tuple[int, ...] = (1, 2, 3)  # l.8, l.64
CARD_COUNT = 46  # l.7
PASSENGER_COUNT = 96  # l.11
START_CITIES: tuple[str, ...] = ("London", "Amsterdam", "Berlin", "Paris", "Zurich", "Rome")  # l.24
SPECIAL_DESTINATIONS: tuple[str, ...] = ("North America", "Casablanca", "Cairo", "Middle East")  # l.79
MARKETS: tuple[str, ...] = ("Europe", "Africa", "Asia/Australasia")  # l.167
PROFIT_ROW = "Profit"  # l.169: the Profit row of the VPs/Era table
ADVANTAGE_TYPES: Mapping[int, tuple[str, int]] = {  # l.154-160: type -> (name, first era)
    2: ("Daring Pilot", 1),
    3: ("Engine Maintenance", 1),
    4: ("Increased Production", 2),
    5: ("Night Flights", 2),
    6: ("Radio Beacons", 3),
}
ADVANTAGE_TILES_PER_TYPE = 6  # l.16
THREE_PLAYER_BLOCKERS = 6  # l.25: one face-down tile on the "4/5" slot of each start city
WAITING_FIRST, WAITING_LAST = "Rome", "Berlin"  # l.177


# ---------------------------------------------------------------------------
# Component types
# ---------------------------------------------------------------------------


@attrs.frozen
class Provenance:
    """Where an entry's values come from: printed, partly printed, reconstructed or publisher."""

    source: Source
    why: str
    page: int | str | None = None  # a page, or lines of the seed ("l.85,128"): the Russian seed has no pages
    example: str | None = None  # AER-EX-nn
    ambiguity: str | None = None  # AER-AMB-nn

    @property
    def reconstructed(self) -> bool:
        return self.source == "reconstructed"

    def __str__(self) -> str:
        refs = [cite(self.page)] if self.page is not None else []
        refs += [r for r in (self.example, self.ambiguity) if r]
        where = f" ({', '.join(refs)})" if refs else ""
        return f"{self.source}{where}: {self.why}"


@attrs.frozen
class Region:
    """A region of the map; the three markets score majorities (AER-R-50), the Americas do not."""

    id: str
    colour: str | None
    market: bool
    provenance: Provenance


@attrs.frozen
class Destination:
    """A node of the map (AER-R-29): its region, slots, and the slots marked "4/5" (AER-SET-04)."""

    name: str
    region: str
    slots: int
    four_five_slots: int
    start_city: bool
    provenance: Provenance

    def slots_in_play(self, players: int) -> int:
        """AER-SET-04: with 3 players the "4/5" slots are blocked for the whole game."""
        return self.slots - (self.four_five_slots if players == 3 else 0)


@attrs.frozen
class Connection:
    """A printed connection between two destinations (AER-R-14, R-16, R-21).

    ``colour`` is None only for a ‡ route, whose ``rolls`` are the targets
    printed in the risk table (AER-R-21); ``long_range``: only a tile from an
    LR plane may use it (the LR symbol, or a ‡ route that needs LR, AER-AMB-21).
    """

    a: str
    b: str
    colour: Colour | None
    long_range: bool
    rolls: tuple[int, ...] | None
    direction: Direction
    provenance: Provenance


@attrs.frozen
class SpecialConnection:
    """AER-R-15: ``to`` is reached from every destination of ``from_region``, one way only."""

    to: str
    from_region: str
    colour: Colour | None
    long_range: bool
    rolls: tuple[int, ...] | None
    provenance: Provenance


@attrs.frozen
class PlaneCard:
    """One of the 46 plane cards (AER-R-12): the fields of l.67-74."""

    number: int
    name: str | None
    price: int
    long_range: bool
    tile_count: int
    tile_stage: int
    vp: int
    capacity: int
    era: int  # the colour its number is printed in (l.29; AER-AMB-08: no rule attached)
    provenance: Provenance


@attrs.frozen
class PassengerTile:
    """One of the 96 passenger tiles (AER-R-33); its region is its destination's (l.140)."""

    id: str
    destination: str
    capacity: int
    vp: int
    not_in_era_1: bool  # the "¤" mark (l.23, AER-AMB-31)
    provenance: Provenance


@attrs.frozen
class AdvantageType:
    """An advantage type 2..6 (AER-R-39..47): its tile count and the era it is available from."""

    type: int
    name: str
    count: int
    first_era: int
    provenance: Provenance


@attrs.frozen
class VpRow:
    """A row of the VPs/Era table: per era, the VPs by place (2 places for a market, 3 for Profit)."""

    row: str
    vp: tuple[tuple[int, ...], ...]
    provenance: Provenance

    def for_era(self, era: int) -> tuple[int, ...]:
        return self.vp[era - 1]


@attrs.frozen
class RiskRow:
    """A printed row of the risk table: the colours of the legs and the targets of the rolls."""

    legs: tuple[Colour, ...]
    rolls: tuple[int, ...]


@attrs.frozen
class Risk:
    """New-connection risk (AER-R-20..28) as data: targets, the opponent modifier, Daring Pilot, engine failure."""

    red: int
    black: int
    white_second_leg: int
    opponent_modifier: int
    daring_pilot_bonus: int
    engine_failure_limit: int
    table: tuple[RiskRow, ...]
    provenance: Provenance

    def target(self, colour: Colour, *, second_leg: bool = False) -> int | None:
        """The target of one leg's roll: None for a white leg, except a hop's second leg (l.90-91)."""
        if colour == "white":
            return self.white_second_leg if second_leg else None
        return self.red if colour == "red" else self.black

    def printed_row(self, legs: Sequence[Colour]) -> RiskRow | None:
        for row in self.table:
            if row.legs == tuple(legs):
                return row
        return None


@attrs.frozen
class IncomeModifier:
    """l.41: the era-1 income modifier printed next to a start city."""

    city: str
    modifier: int
    provenance: Provenance


@attrs.frozen
class Income:
    """AER-R-03: the income per era, and the era-1 modifier printed next to each start city."""

    by_era: tuple[int, int, int]
    modifiers: tuple[IncomeModifier, ...]
    provenance: Provenance

    def modifier(self, city: str) -> int:
        """The era-1 modifier printed next to a start city (0 where none is given)."""
        return next((m.modifier for m in self.modifiers if m.city == city), 0)

    def amount(self, era: int, home: str) -> int:
        # AER-R-03: era 1 adds the home city's modifier; eras 2 and 3 pay the bare amount.
        return self.by_era[era - 1] + (self.modifier(home) if era == 1 else 0)


@attrs.frozen
class AirportTiles:
    """Per player: 9/9/9 by stage and a home tile (l.66, l.9); the box says 130 (l.8): AER-AMB-02."""

    tiles_per_stage: tuple[int, int, int]
    home_tiles_per_player: int
    box_total: int
    provenance: Provenance

    def per_stage(self, stage: int) -> int:
        return self.tiles_per_stage[stage - 1]

    @property
    def per_player(self) -> int:
        return sum(self.tiles_per_stage)

    def rules_total(self, colour_sets: int = 5) -> int:
        """What the rules text implies for the box: 5 x 27 = 135 (against the 130 printed, AER-AMB-02)."""
        return colour_sets * self.per_player


@attrs.frozen
class WaitingArea:
    """AER-SET-01, AER-R-57/58: spaces per start city, the refill order and the overflow cap."""

    slots_per_city: int
    section_order: tuple[str, ...]
    overflow_capacity: int
    provenance: Provenance


@attrs.frozen
class AmericasBonus:
    """AER-R-31: money and VP to each of the first players to place in each America."""

    destinations: tuple[str, ...]
    money: int
    vp: int
    first_players: int
    provenance: Provenance


@attrs.frozen
class Supplies:
    """Counts from the component list (l.7-21) and the dice faces (AER-AMB-05, digest section 1)."""

    engine_failure_tiles: int
    excess_passenger_tiles: int
    first_player_die_faces: tuple[int, ...]
    risk_dice: int
    risk_die_faces: tuple[Face, ...]
    vp_tokens: int
    player_aids: int
    money_denominations: int
    provenance: Provenance


class _Index(dict[Any, Any]):
    """A pack's entries by key (the first of each key), looked up with ``__getitem__``; a missing key is
    the KeyError "pack NAME has no WHAT KEY" (``what`` formats the key), as ``find_entry`` words it."""

    def __init__(self, pack: str, what: str, entries: Iterable[tuple[Any, Any]]) -> None:
        super().__init__(entries)
        self.pack = pack
        self.what = what

    def __missing__(self, key: Any) -> Any:
        raise KeyError(f"pack {self.pack} has no {self.what.format(key)}")


class _Markets(dict[str, str | None]):
    """``Pack.market_of``'s answers by destination name, each worked out on first asking (its region's
    id when the region is a market, else None; an unknown name raises as ``pack.destination`` does)."""

    def __init__(self, pack: Pack) -> None:
        super().__init__()
        self.pack = pack

    def __missing__(self, destination: str) -> str | None:
        region = self.pack.region(self.pack.destination(destination).region)
        found = self[destination] = region.id if region.market else None
        return found


@attrs.frozen
class Pack:
    name: str
    reconstructed: bool
    min_players: int
    max_players: int
    regions: tuple[Region, ...]
    destinations: tuple[Destination, ...]
    connections: tuple[Connection, ...]
    special_connections: tuple[SpecialConnection, ...]
    waiting_area: WaitingArea
    income: Income
    subsidy_pool: int
    display_size: int
    era_end_discards: int
    airport_tiles: AirportTiles
    cards: tuple[PlaneCard, ...]
    passengers: tuple[PassengerTile, ...]
    advantages: tuple[AdvantageType, ...]
    vp_per_era: tuple[VpRow, ...]
    risk: Risk
    americas_bonus: AmericasBonus
    supplies: Supplies
    source: str = "<memory>"
    # Lookups by name and number, built once: the rules ask for cards and tiles at every decision (a few
    # thousand times a random game).  Each is an index's own ``__getitem__`` (no Python call on the way):
    # ``pack.card(12)``; an unknown key raises the KeyError "pack NAME has no ..." that ``find_entry`` does.
    destination: Callable[[str], Destination] = attrs.field(init=False, repr=False, eq=False, hash=False)
    card: Callable[[int], PlaneCard] = attrs.field(init=False, repr=False, eq=False, hash=False)
    passenger: Callable[[str], PassengerTile] = attrs.field(init=False, repr=False, eq=False, hash=False)
    # the first of that type, as find_entry gives
    advantage: Callable[[int], AdvantageType] = attrs.field(init=False, repr=False, eq=False, hash=False)
    # The market a destination's airports count for (AER-R-50), None outside the markets: asked of every
    # destination for every market at each era's scoring, so worked out once per destination (by
    # _Markets.__missing__) and then its index's own ``__getitem__``: ``pack.market_of("Kenya")``.
    market_of: Callable[[str], str | None] = attrs.field(init=False, repr=False, eq=False, hash=False)
    # The names of the destinations and the IDs of the passenger tiles, for the rules' membership tests
    # (a set built per check was a few percent of the test suite's move checks; issue 18).
    destination_names: frozenset[str] = attrs.field(init=False, repr=False, eq=False, hash=False)
    passenger_ids: frozenset[str] = attrs.field(init=False, repr=False, eq=False, hash=False)
    # The map, built on first use and frozen (shared by every reader; ``graph()`` gives a fresh copy).
    _map: DiGraph | None = attrs.field(init=False, default=None, repr=False, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        by_name = _Index(self.name, "destination {!r}", ((d.name, d) for d in reversed(self.destinations)))
        object.__setattr__(self, "destination", by_name.__getitem__)
        by_number = _Index(self.name, "plane card {}", ((c.number, c) for c in reversed(self.cards)))
        object.__setattr__(self, "card", by_number.__getitem__)
        by_tile = _Index(self.name, "passenger tile {!r}", ((p.id, p) for p in reversed(self.passengers)))
        object.__setattr__(self, "passenger", by_tile.__getitem__)
        by_type = _Index(self.name, "advantage type {}", ((a.type, a) for a in reversed(self.advantages)))
        object.__setattr__(self, "advantage", by_type.__getitem__)
        object.__setattr__(self, "market_of", _Markets(self).__getitem__)
        object.__setattr__(self, "destination_names", frozenset(d.name for d in self.destinations))
        object.__setattr__(self, "passenger_ids", frozenset(p.id for p in self.passengers))

    # -- the map -----------------------------------------------------------------------------
    def graph(self) -> DiGraph:
        """The map as a fresh DiGraph (nodes: destinations; arcs: usable directions of connections)."""
        return _build_graph(self.regions, self.destinations, self.connections, self.special_connections)

    def map_graph(self) -> DiGraph:
        """The map as one frozen DiGraph, built once per pack: for readers (a route's legs are looked
        up at every new placement, and rebuilding the map each time was a tenth of a random game)."""
        shared = self._map
        if shared is None:
            shared = self.graph().freeze()
            object.__setattr__(self, "_map", shared)
        return shared

    def region(self, region_id: str) -> Region:
        return find_entry(self.regions, lambda r: r.id == region_id, self.name, f"region {region_id!r}")

    def in_region(self, region_id: str) -> tuple[str, ...]:
        return tuple(d.name for d in self.destinations if d.region == region_id)

    @property
    def start_cities(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.destinations if d.start_city)

    @property
    def markets(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.regions if r.market)

    # -- cards, tiles, tables ----------------------------------------------------------------
    def passenger_region(self, tile_id: str) -> str:
        """l.140: the background colour of a passenger tile is its destination's region."""
        return self.destination(self.passenger(tile_id).destination).region

    def vp_row(self, row: str) -> VpRow:
        return find_entry(self.vp_per_era, lambda r: r.row == row, self.name, f"VPs/Era row {row!r}")

    def majority_vp(self, market: str, era: int) -> tuple[int, ...]:
        """AER-R-50: (first, second) for a market in an era."""
        return self.vp_row(market).for_era(era)

    def profit_vp(self, era: int) -> tuple[int, ...]:
        """AER-R-52: (first, second, third) for profitability in an era."""
        return self.vp_row(PROFIT_ROW).for_era(era)

    def provenances(self) -> tuple[tuple[str, Provenance], ...]:
        """Every entry's provenance, named as in error messages."""
        out: list[tuple[str, Provenance]] = []
        out += [(f"regions ({r.id})", r.provenance) for r in self.regions]
        out += [(f"destinations ({d.name})", d.provenance) for d in self.destinations]
        out += [(f"connections ({c.a}-{c.b})", c.provenance) for c in self.connections]
        out += [(f"special_connections ({s.to})", s.provenance) for s in self.special_connections]
        out += [(f"cards ({c.number})", c.provenance) for c in self.cards]
        out += [(f"passengers ({p.id})", p.provenance) for p in self.passengers]
        out += [(f"advantages ({a.type})", a.provenance) for a in self.advantages]
        out += [(f"vp_per_era ({r.row})", r.provenance) for r in self.vp_per_era]
        out += [(f"income_modifiers ({m.city})", m.provenance) for m in self.income.modifiers]
        out += [
            ("waiting_area", self.waiting_area.provenance),
            ("income", self.income.provenance),
            ("airport_tiles", self.airport_tiles.provenance),
            ("risk", self.risk.provenance),
            ("americas_bonus", self.americas_bonus.provenance),
            ("supplies", self.supplies.provenance),
        ]
        return tuple(out)


def _build_graph(
    regions: Sequence[Region],
    destinations: Sequence[Destination],
    connections: Sequence[Connection],
    specials: Sequence[SpecialConnection],
) -> DiGraph:
    markets = {r.id for r in regions if r.market}
    special_to = {s.to for s in specials}
    g = DiGraph()
    for d in destinations:
        g.add_node(
            d.name,
            region=d.region,
            market=d.region in markets,
            slots=d.slots,
            four_five_slots=d.four_five_slots,
            start_city=d.start_city,
            special=d.name in special_to,
        )
    for c in connections:
        attrs_ = {
            "colour": c.colour,
            "long_range": c.long_range,
            "rolls": c.rolls,
            "directed": c.direction == "one-way",
            "special": False,
        }
        g.add_edge(c.a, c.b, **attrs_)
        if c.direction == "both":
            g.add_edge(c.b, c.a, **attrs_)
    for s in specials:
        for d in destinations:
            if d.region == s.from_region and d.name != s.to:
                g.add_edge(
                    d.name,
                    s.to,
                    colour=s.colour,
                    long_range=s.long_range,
                    rolls=s.rolls,
                    directed=True,
                    special=True,
                )
    return g


def unreachable(graph: DiGraph, starts: Sequence[str]) -> list[tuple[str, str]]:
    """(start, destination) pairs with no directed path: a pack whose map leaves them is not playable."""
    return _unreachable_in({n: tuple(graph.successors(n)) for n in graph.nodes}, starts)


def _unreachable_in(successors: Mapping[str, Sequence[str]], starts: Sequence[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for start in starts:
        reached, frontier = {start}, [start]
        while frontier:
            for n in successors.get(frontier.pop(), ()):
                if n not in reached:
                    reached.add(n)
                    frontier.append(n)
        out += [(start, n) for n in successors if n not in reached]
    return out


def _successors(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """The map's directed connections of checked pack data, by destination in the data's order (the same
    edges as :func:`map_graph`, without building the graph: loading a pack checks them on every command)."""
    destinations = _destinations(data)
    out: dict[str, list[str]] = {d.name: [] for d in destinations}
    for c in _connections(data):  # a name no destination has becomes a node, as in the graph
        out.setdefault(c.a, []).append(c.b)
        out.setdefault(c.b, [])
        if c.direction == "both":
            out[c.b].append(c.a)
    for sp in _specials(data):
        for d in destinations:
            if d.region == sp.from_region and d.name != sp.to:
                out[d.name].append(sp.to)
                out.setdefault(sp.to, [])
    return out


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


def pack_schema() -> dict[str, Any]:
    return pack_schema_of(PACKAGE)


def _route_name(node: Mapping[str, Any]) -> str | None:
    between = node.get("between")
    if isinstance(between, list) and len(between) == 2 and all(isinstance(x, str) for x in between):
        return f"{between[0]}-{between[1]}"
    return None


# ' (Paris)', ' (7)', ' (P05)', ' (Vienna-Warsaw)': how an entry is named after its index.
_label = entry_label("name", "id", "number", "type", "city", "to", "row", first=_route_name)


def _schema_check(data: Any, source: str) -> None:
    check_schema(PACKAGE, data, source, _label)


def _provenance(entry: Mapping[str, Any]) -> Provenance:
    p = entry["provenance"]
    return Provenance(
        source=p["source"],
        why=p["why"],
        page=p.get("page"),
        example=p.get("example"),
        ambiguity=p.get("ambiguity"),
    )


def _rolls(entry: Mapping[str, Any]) -> tuple[int, ...] | None:
    rolls = entry.get("rolls")
    return tuple(rolls) if rolls is not None else None


def _regions(data: Mapping[str, Any]) -> tuple[Region, ...]:
    return tuple(Region(r["id"], r.get("colour"), r["market"], _provenance(r)) for r in data["regions"])


def _destinations(data: Mapping[str, Any]) -> tuple[Destination, ...]:
    return tuple(
        Destination(
            name=d["name"],
            region=d["region"],
            slots=d["slots"],
            four_five_slots=d.get("four_five_slots", 0),
            start_city=d.get("start_city", False),
            provenance=_provenance(d),
        )
        for d in data["destinations"]
    )


def _connections(data: Mapping[str, Any]) -> tuple[Connection, ...]:
    return tuple(
        Connection(
            a=c["between"][0],
            b=c["between"][1],
            colour=c["colour"],
            long_range=c.get("long_range", False),
            rolls=_rolls(c),
            direction=c.get("direction", "both"),
            provenance=_provenance(c),
        )
        for c in data["connections"]
    )


def _specials(data: Mapping[str, Any]) -> tuple[SpecialConnection, ...]:
    return tuple(
        SpecialConnection(
            to=s["to"],
            from_region=s["from_region"],
            colour=s["colour"],
            long_range=s.get("long_range", False),
            rolls=_rolls(s),
            provenance=_provenance(s),
        )
        for s in data["special_connections"]
    )


def map_graph(data: Mapping[str, Any]) -> DiGraph:
    """The map of already-checked pack data (strategies use it to keep generated maps playable)."""
    return _build_graph(_regions(data), _destinations(data), _connections(data), _specials(data))


def pack_from_data(data: Any, source: str = "<memory>", *, schema: bool = True) -> Pack:
    """Build a pack from parsed YAML/JSON; raises PackError naming file, entry and field."""
    if schema:  # False only for the shipped pack (rulecraft.packs.PackFiles)
        _schema_check(data, source)
    _Checker(data, source).check()
    inc = data["income"]
    tiles = data["airport_tiles"]
    wait = data["waiting_area"]
    bonus = data["americas_bonus"]
    s = data["supplies"]
    r = data["risk"]
    return Pack(
        name=data["name"],
        reconstructed=bool(data.get("reconstructed", False)),
        min_players=data["players"]["min"],
        max_players=data["players"]["max"],
        regions=_regions(data),
        destinations=_destinations(data),
        connections=_connections(data),
        special_connections=_specials(data),
        waiting_area=WaitingArea(
            wait["slots_per_city"], tuple(wait["section_order"]), wait["overflow_capacity"], _provenance(wait)
        ),
        income=Income(
            by_era=(inc["by_era"][0], inc["by_era"][1], inc["by_era"][2]),
            modifiers=tuple(IncomeModifier(m["city"], m["modifier"], _provenance(m)) for m in data["income_modifiers"]),
            provenance=_provenance(inc),
        ),
        subsidy_pool=data["subsidy"]["pool"],
        display_size=data["display"]["size"],
        era_end_discards=data["display"]["era_end_discards"],
        airport_tiles=AirportTiles(
            tiles_per_stage=cast(tuple[int, int, int], tuple(tiles["tiles_per_stage"])),
            home_tiles_per_player=tiles["home_tiles_per_player"],
            box_total=tiles["box_total"],
            provenance=_provenance(tiles),
        ),
        cards=tuple(
            PlaneCard(
                number=c["number"],
                name=c.get("name"),
                price=c["price"],
                long_range=c["long_range"],
                tile_count=c["tiles"]["count"],
                tile_stage=c["tiles"]["stage"],
                vp=c["vp"],
                capacity=c["capacity"],
                era=c["era"],
                provenance=_provenance(c),
            )
            for c in sorted(data["cards"], key=lambda c: int(c["number"]))
        ),
        passengers=tuple(
            PassengerTile(
                id=p["id"],
                destination=p["destination"],
                capacity=p["capacity"],
                vp=p["vp"],
                not_in_era_1=p.get("not_in_era_1", False),
                provenance=_provenance(p),
            )
            for p in data["passengers"]
        ),
        advantages=tuple(
            AdvantageType(a["type"], a["name"], a["count"], a["first_era"], _provenance(a))
            for a in sorted(data["advantages"], key=lambda a: int(a["type"]))
        ),
        vp_per_era=tuple(
            VpRow(row["row"], tuple(tuple(v) for v in row["vp"]), _provenance(row)) for row in data["vp_per_era"]
        ),
        risk=Risk(
            red=r["targets"]["red"],
            black=r["targets"]["black"],
            white_second_leg=r["targets"]["white_second_leg"],
            opponent_modifier=r["opponent_modifier"],
            daring_pilot_bonus=r["daring_pilot_bonus"],
            engine_failure_limit=r["engine_failure_limit"],
            table=tuple(RiskRow(tuple(row["legs"]), tuple(row["rolls"])) for row in r["table"]),
            provenance=_provenance(r),
        ),
        americas_bonus=AmericasBonus(
            tuple(bonus["destinations"]), bonus["money"], bonus["vp"], bonus["first_players"], _provenance(bonus)
        ),
        supplies=Supplies(
            engine_failure_tiles=s["engine_failure_tiles"],
            excess_passenger_tiles=s["excess_passenger_tiles"],
            first_player_die_faces=tuple(s["first_player_die_faces"]),
            risk_dice=s["risk_dice"],
            risk_die_faces=tuple(s["risk_die_faces"]),
            vp_tokens=s["vp_tokens"],
            player_aids=s["player_aids"],
            money_denominations=s["money_denominations"],
            provenance=_provenance(s),
        ),
        source=source,
    )


class _Checker(PackChecker):
    """The rulebook's counts and facts that a schema cannot say, each error naming entry and field."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        super().__init__(data, source)
        self.names: set[str] = set()
        self.regions: dict[str, Mapping[str, Any]] = {}

    def check(self) -> None:
        self.check_players()
        self.check_regions()
        self.check_destinations()
        self.check_connections()
        self.check_specials()
        self.check_map()
        self.check_waiting_area()
        self.check_income()
        self.check_cards()
        self.check_passengers()
        self.check_advantages()
        self.check_vp_table()
        self.check_risk()
        self.check_americas()
        self.check_supplies()

    # -- map -----------------------------------------------------------------------------------
    def check_players(self) -> None:
        p = self.data["players"]
        if p["min"] > p["max"]:
            raise self.fail("players.min", f"more than the maximum ({p['min']} > {p['max']})")
        if p["max"] > 5:
            raise self.fail("players.max", "5 colour sets (5 home airport tiles, l.9)")

    def check_regions(self) -> None:
        for i, r in enumerate(self.data["regions"]):
            if r["id"] in self.regions:
                raise self.fail(f"regions[{i}]{_label(r)}.id", "the same region is given twice")
            self.regions[r["id"]] = r
        markets = [r["id"] for r in self.data["regions"] if r["market"]]
        if sorted(markets) != sorted(MARKETS):
            raise self.fail("regions", f"the markets are Europe, Africa and Asia/Australasia (l.167), found {markets}")

    def check_destinations(self) -> None:
        for i, d in enumerate(self.data["destinations"]):
            where = f"destinations[{i}]{_label(d)}"
            if d["name"] in self.names:
                raise self.fail(f"{where}.name", "the same destination is given twice")
            self.names.add(d["name"])
            if d["region"] not in self.regions:
                raise self.fail(f"{where}.region", f"unknown region {d['region']!r}")
            start = d.get("start_city", False)
            four_five = d.get("four_five_slots", 0)
            if start and d["name"] not in START_CITIES:
                raise self.fail(f"{where}.start_city", f"the start cities are {', '.join(START_CITIES)} (l.24)")
            if start and four_five != 1:
                raise self.fail(f"{where}.four_five_slots", 'every start city has one "4/5" slot (l.25)')
            if not start and four_five:
                raise self.fail(f"{where}.four_five_slots", 'only the start cities have "4/5" slots (l.25)')
            if start and d["slots"] < four_five + 1:
                raise self.fail(f"{where}.slots", 'a start city needs a slot for a home tile besides its "4/5" slot')
        starts = [d["name"] for d in self.data["destinations"] if d.get("start_city", False)]
        for city in START_CITIES:
            if city not in starts:
                raise self.fail("destinations", f"no start city {city} (l.24)")
        for city in starts:
            if self._destination(city)["region"] != "Europe":
                raise self.fail("destinations", f"the start city {city} is in Europe (l.24, l.79)")

    def _destination(self, name: str) -> Mapping[str, Any]:
        return next(d for d in self.data["destinations"] if d["name"] == name)

    def _known(self, where: str, name: str) -> None:
        if name not in self.names:
            raise self.fail(where, f"unknown destination {name!r}")

    def check_connections(self) -> None:
        arcs: set[tuple[str, str]] = set()
        for i, c in enumerate(self.data["connections"]):
            where = f"connections[{i}]{_label(c)}"
            a, b = c["between"]
            self._known(f"{where}.between[0]", a)
            self._known(f"{where}.between[1]", b)
            if a == b:
                raise self.fail(f"{where}.between", "a connection joins two different destinations")
            if c["colour"] is None and "rolls" not in c:
                raise self.fail(f"{where}.colour", "only a ‡ route (with rolls) has no colour (l.103-108)")
            new = [(a, b)] if c.get("direction", "both") == "one-way" else [(a, b), (b, a)]
            for arc in new:
                if arc in arcs:
                    raise self.fail(f"{where}.between", f"a second connection {arc[0]} -> {arc[1]}")
                arcs.add(arc)

    def check_specials(self) -> None:
        specials = [s["to"] for s in self.data["special_connections"]]
        for i, s in enumerate(self.data["special_connections"]):
            where = f"special_connections[{i}]{_label(s)}"
            self._known(f"{where}.to", s["to"])
            if s["from_region"] not in self.regions:
                raise self.fail(f"{where}.from_region", f"unknown region {s['from_region']!r}")
            if self._destination(s["to"])["region"] == s["from_region"]:
                raise self.fail(f"{where}.to", f"a special destination lies outside {s['from_region']} (l.79)")
            if s["colour"] is None and "rolls" not in s:
                raise self.fail(f"{where}.colour", "only a ‡ route (with rolls) has no colour (l.103-108)")
            if specials.count(s["to"]) > 1:
                raise self.fail(f"{where}.to", "the same special destination is given twice")
            for j, c in enumerate(self.data["connections"]):
                others = [e for e in c["between"] if e != s["to"]]
                if s["to"] in c["between"] and self._destination(others[0])["region"] == s["from_region"]:
                    raise self.fail(
                        f"connections[{j}]{_label(c)}",
                        f"{s['to']} is joined to {s['from_region']} only by its one-way special connection (l.79)",
                    )
        if sorted(specials) != sorted(SPECIAL_DESTINATIONS):
            raise self.fail(
                "special_connections", f"the special destinations are {', '.join(SPECIAL_DESTINATIONS)} (l.79)"
            )

    def check_map(self) -> None:
        starts = [d["name"] for d in self.data["destinations"] if d.get("start_city", False)]
        missing = _unreachable_in(_successors(self.data), starts)
        if missing:
            start, dest = missing[0]
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise self.fail("connections", f"{dest} cannot be reached from the start city {start}{more}")

    def check_waiting_area(self) -> None:
        order = self.data["waiting_area"]["section_order"]
        if sorted(order) != sorted(START_CITIES):
            raise self.fail("waiting_area.section_order", "one section per start city (l.134)")
        if order[0] != WAITING_FIRST or order[-1] != WAITING_LAST:
            raise self.fail("waiting_area.section_order", "the refill starts at Rome and ends at Berlin (l.177)")

    def check_income(self) -> None:
        seen: set[str] = set()
        for i, m in enumerate(self.data["income_modifiers"]):
            where = f"income_modifiers[{i}]{_label(m)}"
            if m["city"] not in START_CITIES:
                raise self.fail(f"{where}.city", f"{m['city']!r} is not a start city (l.41: next to a home airport)")
            if m["city"] in seen:
                raise self.fail(f"{where}.city", "the same start city is given twice")
            seen.add(m["city"])
        for city in START_CITIES:
            if city not in seen:
                raise self.fail("income_modifiers", f"no era-1 modifier for {city} (l.41; 0 if none is printed)")

    # -- cards and tiles -------------------------------------------------------------------------
    def check_cards(self) -> None:
        cards = self.data["cards"]
        seen: set[int] = set()
        for i, c in enumerate(cards):
            if c["number"] in seen:
                raise self.fail(f"cards[{i}]{_label(c)}.number", "duplicate card number")
            seen.add(c["number"])
        if len(cards) != CARD_COUNT:
            raise self.fail(
                "cards", f"{CARD_COUNT} plane cards, numbered 1 to {CARD_COUNT} (l.7, l.29), found {len(cards)}"
            )
        if self.data["display"]["size"] > CARD_COUNT:
            raise self.fail("display.size", "the display is dealt from the 46 cards")
        if self._needs_lr() and not any(c["long_range"] for c in cards):
            raise self.fail("cards", "the map has long-range connections, so some plane must be an LR plane (l.81)")

    def _needs_lr(self) -> bool:
        conns = [*self.data["connections"], *self.data["special_connections"]]
        return any(c.get("long_range", False) for c in conns)

    def check_passengers(self) -> None:
        tiles = self.data["passengers"]
        seen: set[str] = set()
        biggest = max(c["capacity"] for c in self.data["cards"])
        for i, p in enumerate(tiles):
            where = f"passengers[{i}]{_label(p)}"
            if p["id"] in seen:
                raise self.fail(f"{where}.id", "duplicate passenger tile id")
            seen.add(p["id"])
            self._known(f"{where}.destination", p["destination"])
            region = self._destination(p["destination"])["region"]
            if "region" in p and p["region"] != region:
                raise self.fail(f"{where}.region", f"the background is the destination's region, {region} (l.140)")
            if p["capacity"] > biggest:
                raise self.fail(f"{where}.capacity", f"no plane card can carry it (largest capacity {biggest}, l.148)")
        if len(tiles) != PASSENGER_COUNT:
            raise self.fail("passengers", f"{PASSENGER_COUNT} passenger tiles (l.11), found {len(tiles)}")
        waiting = self.data["waiting_area"]["slots_per_city"] * len(START_CITIES)
        open_era_1 = sum(1 for p in tiles if not p.get("not_in_era_1", False))
        if open_era_1 < waiting:
            raise self.fail(
                "passengers",
                f"set-up fills {waiting} waiting spaces with tiles without ¤ (l.23), only {open_era_1} have none",
            )

    def check_advantages(self) -> None:
        seen: set[int] = set()
        for i, a in enumerate(self.data["advantages"]):
            where = f"advantages[{i}]{_label(a)}"
            if a["type"] in seen:
                raise self.fail(f"{where}.type", "the same advantage type is given twice")
            seen.add(a["type"])
            name, first = ADVANTAGE_TYPES[a["type"]]
            if a["count"] != ADVANTAGE_TILES_PER_TYPE:
                raise self.fail(f"{where}.count", f"{ADVANTAGE_TILES_PER_TYPE} tiles of each type (l.16)")
            if a["first_era"] != first:
                raise self.fail(f"{where}.first_era", f"{name} is available from era {first} (l.156-160)")
        if seen != set(ADVANTAGE_TYPES):
            raise self.fail("advantages", "5 types numbered 2 to 6 (l.16, l.154)")

    def check_vp_table(self) -> None:
        rows: set[str] = set()
        for i, r in enumerate(self.data["vp_per_era"]):
            where = f"vp_per_era[{i}]{_label(r)}"
            if r["row"] in rows:
                raise self.fail(f"{where}.row", "the same row is given twice")
            rows.add(r["row"])
            if r["row"] == PROFIT_ROW:
                places = 3
            elif r["row"] in self.regions and self.regions[r["row"]]["market"]:
                places = 2
            else:
                raise self.fail(f"{where}.row", f"a row is a market or {PROFIT_ROW} (l.167, l.169), not {r['row']!r}")
            for era, vp in enumerate(r["vp"], start=1):
                if len(vp) != places:
                    raise self.fail(f"{where}.vp[{era - 1}]", f"{places} places score in the {r['row']} row")
                if any(x < y for x, y in pairwise(vp)):
                    raise self.fail(f"{where}.vp[{era - 1}]", "a better place never scores less (l.167, l.169)")
                if places == 2 and vp[0] == vp[1]:
                    raise self.fail(f"{where}.vp[{era - 1}]", "first place scores more than second (l.167)")
        for want in (*MARKETS, PROFIT_ROW):
            if want not in rows:
                raise self.fail("vp_per_era", f"no {want} row (l.167, l.169)")

    def check_risk(self) -> None:
        risk = self.data["risk"]
        t = risk["targets"]
        by_colour = {"white": None, "red": t["red"], "black": t["black"]}
        for i, row in enumerate(risk["table"]):
            legs = row["legs"]
            want = [by_colour[legs[0]]]
            if len(legs) == 2:
                want.append(t["white_second_leg"] if legs[1] == "white" else by_colour[legs[1]])
            rolls = [x for x in want if x is not None]
            if row["rolls"] != rolls:
                raise self.fail(
                    f"risk.table[{i}].rolls",
                    f"the row {' + '.join(legs)} says {row['rolls']}, the targets give {rolls} (AER-R-21, AER-R-25)",
                )

    def check_americas(self) -> None:
        for i, name in enumerate(self.data["americas_bonus"]["destinations"]):
            self._known(f"americas_bonus.destinations[{i}]", name)

    def check_supplies(self) -> None:
        s = self.data["supplies"]
        faces = s["risk_die_faces"]
        if "skull" not in faces:
            raise self.fail("supplies.risk_die_faces", "a risk die shows a skull (l.89)")


def printed_value_problems(pack: Pack) -> list[str]:
    """Where the pack disagrees with values the rulebook prints (warnings, not errors; digest section 6.1)."""
    out: list[str] = []

    def want(ok: bool, text: str) -> None:
        if not ok:
            out.append(f"{pack.source}: {text}")

    names = {d.name for d in pack.destinations}
    g = pack.graph()

    def arc(a: str, b: str) -> Mapping[str, Any] | None:
        return cast(Mapping[str, Any], g.edges[a, b]) if g.has_edge(a, b) else None

    def slots(name: str, n: int) -> None:
        want(name in names and pack.destination(name).slots == n, f"{name} has {n} slots (l.124)")

    slots("Paris", 3)
    slots("Warsaw", 2)
    for city, mod, line in (("Paris", -1, "l.41"), ("Berlin", 2, "l.41")):
        want(pack.income.modifier(city) == mod, f"the era-1 modifier of {city} is {mod:+d} ({line})")
    want(pack.income.by_era == (12, 22, 32), "income 12 / 22 / 32 (l.41-43)")
    rows = {r.row for r in pack.vp_per_era}
    want(PROFIT_ROW in rows and pack.profit_vp(1) == (5, 3, 1), "era-1 profit 5/3/1 (l.170)")
    for a, b, colour, line in (
        ("Vienna", "Warsaw", "white", "l.86"),
        ("Persia", "India", "red", "l.87"),
        ("Persia", "Burma", "black", "l.87"),
        ("Ethiopia", "Kenya", "red", "l.119"),
        ("Kenya", "East Africa", "red", "l.119"),
    ):
        e = arc(a, b)
        want(e is not None and e["colour"] == colour and arc(b, a) is not None, f"{a}-{b} is {colour} ({line})")
    e = arc("Ethiopia", "India")
    want(e is not None and e["long_range"], "Ethiopia-India bears the LR symbol (l.81)")
    for a, b, rolls, line in (
        ("Java", "Australia", (12, 12), "l.103"),
        ("Dakar", "South America", (14, 14), "l.104"),
        ("Paris", "North America", (14, 14, 14), "l.105"),
    ):
        e = arc(a, b)
        want(e is not None and e["rolls"] == rolls, f"{a} -> {b} is a ‡ route of {list(rolls)} ({line})")
    e = arc("Java", "Australia")
    want(e is not None and not e["long_range"], "Java-Australia needs no LR plane (l.107)")
    for a, b in (("Paris", "Cairo"), ("Stockholm", "Middle East")):
        want(arc(a, b) is not None and arc(b, a) is None, f"{a} -> {b} is allowed, {b} -> {a} is not (l.79)")
    hop = arc("Frankfurt", "Paris") is not None and arc("Paris", "Madrid") is not None
    want(hop and arc("Frankfurt", "Madrid") is None, "Frankfurt -> Madrid is a hop over Paris (l.83)")
    return out


PACK_FILES = PackFiles(PACKAGE, pack_from_data)
load_pack = PACK_FILES.load
bundled_pack_data = PACK_FILES.bundled_data
bundled_pack = PACK_FILES.bundled


__all__ = [
    "ADVANTAGE_TYPES",
    "BUNDLED_SOURCE",
    "CARD_COUNT",
    "MARKETS",
    "PASSENGER_COUNT",
    "PROFIT_ROW",
    "SPECIAL_DESTINATIONS",
    "START_CITIES",
    "AdvantageType",
    "AirportTiles",
    "AmericasBonus",
    "Connection",
    "Destination",
    "Income",
    "IncomeModifier",
    "Pack",
    "PackError",
    "PassengerTile",
    "PlaneCard",
    "Provenance",
    "Region",
    "Risk",
    "RiskRow",
    "SpecialConnection",
    "Supplies",
    "VpRow",
    "WaitingArea",
    "bundled_pack",
    "bundled_pack_data",
    "load_pack",
    "map_graph",
    "pack_from_data",
    "pack_schema",
    "printed_value_problems",
    "unreachable",
]
