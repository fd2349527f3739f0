"""Kings of Air and Steam components as data (KAS-P-01..11): the types, the derived map, and loading
and checking a pack.

The rulebook gives counts, a few track values and the rules, but not the
map boards, the movement decks or most track values.  A *pack* carries all
of them; the bundled pack is reconstructed entry by entry, and a real pack
loads with ``--components FILE`` (schema: ``packs/schema.json``).

A pack is YAML checked in two stages: the JSON schema fixes shapes and value
ranges; :func:`pack_from_data` then checks what the schema cannot say (the
seven boards, the KAS-R-01 layouts, overlaps, rail lines that really join
their two cities, the deck and track shapes).  A failure raises
:class:`PackError` naming the file, the entry (by index *and*
id/letter/name) and the field.

Values printed in the rulebook's examples (airship levels 1-3, rail level 4,
the $5/$6 market spaces) are *not* structural: a real pack is the authority
over our reading of an example, so they are reported as warnings by
:func:`printed_value_problems` instead of raising.  The same holds for the
qualitative team charts of KAS-P-05 (:func:`team_chart_problems`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, hex_at
from rulecraft.packs import (
    PackChecker,
    PackError,
    PackFiles,
    entry_label,
    find_entry,
    first_schema_error,
    pack_schema_of,
    validator_of,
)

if TYPE_CHECKING:
    import jsonschema

# The five goods types (p.3), in a fixed order used for every per-type count.
GOODS: tuple[str, ...] = ("chemical", "machine", "food", "textile", "luxury")
GOODS_INDEX: Mapping[str, int] = {g: i for i, g in enumerate(GOODS)}
LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G")


@attrs.frozen
class MapHex:
    """One hex of a board (KAS-P-07): at most one of factory, city, rail."""

    at: Hex
    board: str  # "A".."G" or "filler"
    partial: bool = False  # a cut hex at the play-area edge: pass through, never end (KAS-R-27)
    factory: str | None = None  # goods type produced here
    city: str | None = None  # city name
    rail: str | None = None  # rail line id
    water: bool = False


@attrs.frozen
class City:
    name: str
    at: Hex
    demand: str  # printed goods type
    slots: int = 5  # KAS-AMB-13: printed city 5, demand tile 3


@attrs.frozen
class RailLine:
    """A rail line between exactly two cities (KAS-R-37), its rail hexes in order."""

    id: str
    ends: tuple[str, str]
    hexes: tuple[Hex, ...]


@attrs.frozen
class Board:
    letter: str
    hexes: tuple[MapHex, ...]
    cities: tuple[City, ...] = ()
    lines: tuple[RailLine, ...] = ()
    provenance: str = "reconstructed"


@attrs.frozen
class Layout:
    """A play area for a board set (KAS-R-01): the boards and the fillers' hexes."""

    name: str  # e.g. "ABC", "ABCDE", "ABCFG", "ABCDEFG"
    boards: tuple[str, ...]
    fillers: tuple[MapHex, ...] = ()
    provenance: str = "reconstructed"


@attrs.frozen
class AirshipLevel:
    """A space of an airship track (KAS-P-01): cost to reach it, rating, capacity."""

    level: int
    cost: int  # 0 for the starting space
    diamonds: int
    capacity: int
    provenance: str = "reconstructed"


@attrs.frozen
class RailLevel:
    """A space of the rail track (KAS-P-02): cost to reach it; stops = level."""

    level: int
    cost: int
    vp: int = 0
    provenance: str = "reconstructed"


@attrs.frozen
class Card:
    """A movement card (KAS-R-18, KAS-P-03/04).

    ``moves`` lists the movement values the owner may choose when flying: one
    value for a standard card, (0, 1, 2, 3) for Kings Over Aces, (0, 1, 2) for
    Godfather, () for the Emperor card (no movement step).  ``special`` names
    the star effect, or None.
    """

    id: str
    letter: str
    moves: tuple[int, ...]
    diamonds: int
    special: str | None = None
    provenance: str = "reconstructed"


@attrs.frozen
class Team:
    """An advanced-game team (KAS-R-57): chart, special card, two characters."""

    name: str
    priority: int
    airship_track: tuple[AirshipLevel, ...]
    special: Card
    characters: tuple[str, str]
    provenance: str = "reconstructed"
    # KAS-AMB-46 'per-character': each character's own number, when a pack prints them (else empty).
    character_priority: tuple[tuple[str, int], ...] = ()


@attrs.frozen
class Pack:
    name: str
    reconstructed: bool
    boards: tuple[Board, ...]
    layouts: tuple[Layout, ...]
    airship_track: tuple[AirshipLevel, ...]  # the base side (identical on all boards, p.4)
    rail_track: tuple[RailLevel, ...]
    deck: tuple[Card, ...]  # the 12 standard cards (identical in every deck in the base game)
    teams: tuple[Team, ...] = ()
    market_track: tuple[int, ...] = (4, 5, 6, 8)  # KAS-P-10 / KAS-AMB-09
    goods_per_type: int = 20  # KAS-P-09 ("about 20")
    tiles_per_type: int = 4  # 20 market/demand tiles (p.4)
    source: str = "<memory>"
    # Derived once (the rules ask for a card and for the deck's ids at every decision): each card by
    # id, the deck's first, and the deck's ids in order.
    _cards: dict[str, Card] = attrs.field(init=False, eq=False, repr=False, hash=False)
    deck_ids: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        cards: dict[str, Card] = {}
        for team in reversed(self.teams):  # the deck's card wins over a special card of the same id
            cards[team.special.id] = team.special
        for card in reversed(self.deck):  # and the first of two cards with the same id
            cards[card.id] = card
        object.__setattr__(self, "_cards", cards)
        object.__setattr__(self, "deck_ids", tuple(card.id for card in self.deck))

    def board(self, letter: str) -> Board:
        return find_entry(self.boards, lambda b: b.letter == letter, self.name, f"board {letter}")

    def layout(self, name: str) -> Layout:
        return find_entry(self.layouts, lambda lay: lay.name == name, self.name, f"layout {name}")

    def team(self, name: str) -> Team:
        return find_entry(self.teams, lambda team: team.name == name, self.name, f"team {name!r}")

    def card(self, card_id: str) -> Card:
        found = self._cards.get(card_id)
        if found is None:
            raise KeyError(f"pack {self.name} has no card {card_id}")
        return found


@attrs.frozen
class GameMap:
    """The assembled play area of one layout: every hex, city, line and factory.

    Factories and cities are kept in a fixed order (sorted by position and
    name) so that states can hold their dynamic parts as plain tuples.
    """

    layout: str
    hexes: Mapping[Hex, MapHex] = attrs.field(eq=False, hash=False)
    cities: tuple[City, ...]
    lines: tuple[RailLine, ...]
    factories: tuple[tuple[Hex, str], ...]
    _city_index: dict[str, int] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _line_index: dict[str, int] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _line_of_hex: dict[Hex, str] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _rail_hexes: tuple[Hex, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _rail_hex_lines: tuple[tuple[Hex, str], ...] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _factory_index: dict[Hex, int] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_city_index", {c.name: i for i, c in enumerate(self.cities)})
        object.__setattr__(self, "_line_index", {ln.id: i for i, ln in enumerate(self.lines)})
        object.__setattr__(self, "_line_of_hex", {h: ln.id for ln in self.lines for h in ln.hexes})
        # sorted once: move generation asks for every empty rail hex at each depot decision
        object.__setattr__(self, "_rail_hexes", tuple(sorted(self._line_of_hex)))
        object.__setattr__(self, "_rail_hex_lines", tuple((h, self._line_of_hex[h]) for h in self._rail_hexes))
        object.__setattr__(self, "_factory_index", {h: i for i, (h, _) in enumerate(self.factories)})

    @classmethod
    def from_pack(cls, pack: Pack, layout_name: str) -> GameMap:
        layout = pack.layout(layout_name)
        hexes: dict[Hex, MapHex] = {}
        cities: list[City] = []
        lines: list[RailLine] = []
        for letter in layout.boards:
            board = pack.board(letter)
            for mh in board.hexes:
                hexes[mh.at] = mh
            cities.extend(board.cities)
            lines.extend(board.lines)
        for mh in layout.fillers:
            hexes.setdefault(mh.at, mh)
        factories = tuple(sorted((h.at, h.factory) for h in hexes.values() if h.factory is not None))
        return cls(
            layout_name,
            hexes,
            tuple(sorted(cities, key=lambda c: c.name)),
            tuple(sorted(lines, key=lambda ln: ln.id)),
            factories,
        )

    def city(self, name: str) -> City:
        return self.cities[self._city_index[name]]

    def city_index(self, name: str) -> int:
        return self._city_index[name]

    def line(self, line_id: str) -> RailLine:
        return self.lines[self._line_index[line_id]]

    def line_index(self, line_id: str) -> int:
        return self._line_index[line_id]

    def line_of(self, at: Hex) -> str | None:
        """The rail line a rail hex belongs to (None: not a rail hex)."""
        return self._line_of_hex.get(at)

    def factory_index(self, at: Hex) -> int | None:
        return self._factory_index.get(at)

    def rail_hexes(self) -> tuple[Hex, ...]:
        return self._rail_hexes

    def rail_hex_lines(self) -> tuple[tuple[Hex, str], ...]:
        """Each rail hex (in :meth:`rail_hexes` order) with its line."""
        return self._rail_hex_lines

    def can_end_on(self, at: Hex) -> bool:
        """KAS-R-27: a flight may end on any full hex that is not a city."""
        mh = self.hexes.get(at)
        return mh is not None and not mh.partial and mh.city is None

    def can_pass(self, at: Hex) -> bool:
        """KAS-R-27: any hex of the play area may be flown through."""
        return at in self.hexes


BOARD_SETS: Mapping[int, tuple[str, ...]] = {
    # KAS-R-01 (p.6): players -> the layouts that fit; the first is the default (KAS-AMB-47).
    2: ("ABC",),
    3: ("ABCDE", "ABCFG", "ABC"),
    4: ("ABCDE", "ABCFG"),
    5: ("ABCDE", "ABCFG"),
    6: ("ABCDEFG",),
    7: ("ABCDEFG",),
}


# --- loading and checking a pack ------------------------------------------------------------------

PACKAGE = "rulecraft.model.kings_of_air_and_steam"
BUNDLED_SOURCE = "rulecraft/model/kings_of_air_and_steam/packs/reconstructed.yaml"

# KAS-R-01 (p.6): the layouts every pack must offer, their boards and filler counts.
REQUIRED_LAYOUTS: Mapping[str, tuple[tuple[str, ...], int]] = {
    "ABC": (("A", "B", "C"), 3),
    "ABCDE": (("A", "B", "C", "D", "E"), 5),
    "ABCFG": (("A", "B", "C", "F", "G"), 5),
    "ABCDEFG": (LETTERS, 6),
}
DECK_SIZE = 12  # 13 cards per deck, the 13th is the special card (p.5)
TRACK_LEVELS = 6  # level 6 = fully upgraded (p.12, p.16)
RAIL_VP: tuple[int, ...] = (0, 0, 0, 5, 15, 30)  # p.16: 5/15/30 VP for rail levels 4/5/6
MARKET_START, MARKET_MAX = 4, 8  # KAS-P-10: cubes start on $4; $8 is the rightmost space

# KAS-P-04 / KAS-R-61..85: each team's special card (effect name, the movement values it offers).
TEAM_SPECIALS: Mapping[str, tuple[str, tuple[int, ...]]] = {
    "Emperor": ("two-actions", ()),
    "DaVinci": ("straight", (7,)),
    "Sphinx": ("ship-one", (2,)),
    "Rose & Thorn": ("double-two", (2,)),
    "Kings Over Aces": ("choose-distance", (0, 1, 2, 3)),
    "Sky Castle": ("turning-six", (6,)),
    "Godfather": ("choose-distance-steal", (0, 1, 2)),
}
# Section 3.10 of the digest: the two characters on each team's card.
TEAM_CHARACTERS: Mapping[str, frozenset[str]] = {
    "Emperor": frozenset({"Harvey Golding", "Reginald Kain"}),
    "DaVinci": frozenset({"Aurelia Bayley", "I.S.A.A.C."}),
    "Sphinx": frozenset({"Victor Blane", "Eva Blane"}),
    "Rose & Thorn": frozenset({"Flora Kingston", "Bishop Kingston"}),
    "Kings Over Aces": frozenset({"Sebastian King", "Corey McQueen"}),
    "Sky Castle": frozenset({"Eli Diamond", "Clint Castle"}),
    "Godfather": frozenset({"Thaddeus Birch", "Ezekiel Crane"}),
}
STANDARD_TEAMS = ("Emperor", "DaVinci", "Kings Over Aces")  # "standard" charts (KAS-P-05)


def pack_schema() -> dict[str, Any]:
    return pack_schema_of(PACKAGE)


def _validator() -> jsonschema.protocols.Validator:
    return validator_of(PACKAGE)


# ---------------------------------------------------------------------------
# Naming entries in error messages
# ---------------------------------------------------------------------------


def _hex_name(node: Mapping[str, Any]) -> str | None:
    if isinstance(node.get("q"), int) and isinstance(node.get("r"), int):
        return f"{node['q']},{node['r']}"
    return None


# ' (B2)', ' (Bown Town)', ' (1,-2)': how an entry is named after its index.
_label = entry_label("id", "letter", "name", last=_hex_name)


def _at(index: int, entry: Mapping[str, Any]) -> str:
    return f"[{index}]{_label(entry)}"


def _owner_name(owner: str) -> str:
    return f"board {owner}" if owner in LETTERS else owner


def _hex(pair: Sequence[int]) -> Hex:
    return hex_at(int(pair[0]), int(pair[1]))


def _provenance(entry: Mapping[str, Any]) -> str:
    prov = entry["provenance"]
    if isinstance(prov, str):
        return prov
    text = str(prov["source"])
    refs = [f"p.{prov['page']}"] if "page" in prov else []
    refs += [str(prov["example"])] if "example" in prov else []
    if refs:
        text += f" ({', '.join(refs)})"
    return f"{text}: {prov['why']}"


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------


def pack_from_data(data: Any, source: str = "<memory>", *, schema: bool = True) -> Pack:
    """Build a pack from parsed YAML/JSON; raises PackError naming file, entry and field."""
    # oneOf (provenance, a team's chart): the closest branch, a right-typed one before a type/const mismatch.
    error = first_schema_error(_validator(), data, _label, weak=("type", "const")) if schema else None
    if error is not None:
        raise PackError(source, *error)
    checker = _Checker(data, source)
    checker.check()
    base = _airship_track(data["airship_track"])
    teams = tuple(
        Team(
            name=t["name"],
            priority=t["priority"],
            airship_track=base if t["airship_track"] == "base" else _airship_track(t["airship_track"]),
            special=_card(t["special"]),
            characters=(t["characters"][0], t["characters"][1]),
            provenance=_provenance(t),
            character_priority=tuple((c, t["character_priority"][c]) for c in t.get("character_priority", {})),
        )
        for t in data.get("teams", [])
    )
    return Pack(
        name=data["name"],
        reconstructed=bool(data.get("reconstructed", False)),
        boards=tuple(_board(b) for b in data["boards"]),
        layouts=tuple(_layout(lay) for lay in data["layouts"]),
        airship_track=base,
        rail_track=tuple(
            RailLevel(level=e["level"], cost=e["cost"], vp=e["vp"], provenance=_provenance(e))
            for e in data["rail_track"]
        ),
        deck=tuple(_card(c) for c in data["deck"]),
        teams=teams,
        market_track=tuple(data.get("market_track", (4, 5, 6, 8))),
        goods_per_type=data.get("goods_per_type", 20),
        tiles_per_type=data.get("tiles_per_type", 4),
        source=source,
    )


def _airship_track(levels: Sequence[Mapping[str, Any]]) -> tuple[AirshipLevel, ...]:
    return tuple(
        AirshipLevel(
            level=e["level"], cost=e["cost"], diamonds=e["diamonds"], capacity=e["capacity"], provenance=_provenance(e)
        )
        for e in levels
    )


def _card(c: Mapping[str, Any]) -> Card:
    return Card(
        id=c["id"],
        letter=c["letter"],
        moves=tuple(c["moves"]),
        diamonds=c["diamonds"],
        special=c["special"],
        provenance=_provenance(c),
    )


def _board(b: Mapping[str, Any]) -> Board:
    letter = b["letter"]
    return Board(
        letter=letter,
        hexes=tuple(
            MapHex(
                at=hex_at(h["q"], h["r"]),
                board=letter,
                partial=h.get("partial", False),
                factory=h.get("factory"),
                city=h.get("city"),
                rail=h.get("rail"),
                water=h.get("water", False),
            )
            for h in b["hexes"]
        ),
        cities=tuple(
            City(name=c["name"], at=hex_at(c["q"], c["r"]), demand=c["demand"], slots=c.get("slots", 5))
            for c in b.get("cities", [])
        ),
        lines=tuple(
            RailLine(id=ln["id"], ends=(ln["ends"][0], ln["ends"][1]), hexes=tuple(_hex(p) for p in ln["hexes"]))
            for ln in b.get("lines", [])
        ),
        provenance=_provenance(b),
    )


def _layout(lay: Mapping[str, Any]) -> Layout:
    return Layout(
        name=lay["name"],
        boards=tuple(lay["boards"]),
        fillers=tuple(
            MapHex(
                at=hex_at(h["q"], h["r"]), board="filler", partial=h.get("partial", False), water=h.get("water", False)
            )
            for piece in lay["fillers"]
            for h in piece["hexes"]
        ),
        provenance=_provenance(lay),
    )


# ---------------------------------------------------------------------------
# Structural checks (beyond the schema); they raise
# ---------------------------------------------------------------------------


class _Checker(PackChecker):
    """Checks a schema-valid pack's data; every failure names entry and field."""

    def check(self) -> None:
        self.check_boards()
        self.check_layouts()
        self.check_deck()
        self.check_market()
        self.check_airship_track(self.data["airship_track"], "airship_track")
        self.check_rail_track()
        self.check_teams()

    # -- boards ------------------------------------------------------------

    def check_boards(self) -> None:
        boards = self.data["boards"]
        seen: dict[str, int] = {}
        for i, b in enumerate(boards):
            if b["letter"] in seen:
                raise self.fail(
                    f"boards{_at(i, b)}.letter", f"board {b['letter']} appears twice (also boards[{seen[b['letter']]}])"
                )
            seen[b["letter"]] = i
        missing = [x for x in LETTERS if x not in seen]
        if missing or len(boards) != len(LETTERS):
            raise self.fail("boards", f"expected the 7 map boards A-G (p.3); missing {', '.join(missing) or 'none'}")
        # Cities and line ids are global: lines on D-G may end at cities of A-C.
        self.city_board: dict[str, str] = {}
        self.city_at: dict[str, Hex] = {}
        line_ids: set[str] = set()
        for i, b in enumerate(boards):
            for j, c in enumerate(b.get("cities", [])):
                if c["name"] in self.city_board:
                    raise self.fail(f"boards{_at(i, b)}.cities{_at(j, c)}.name", f"city {c['name']} appears twice")
                self.city_board[c["name"]] = b["letter"]
                self.city_at[c["name"]] = hex_at(c["q"], c["r"])
            for j, ln in enumerate(b.get("lines", [])):
                if ln["id"] in line_ids:
                    raise self.fail(f"boards{_at(i, b)}.lines{_at(j, ln)}.id", f"rail line {ln['id']} appears twice")
                line_ids.add(ln["id"])
        for i, b in enumerate(boards):
            self.check_board(f"boards{_at(i, b)}", b)

    def check_board(self, where: str, b: Mapping[str, Any]) -> None:
        letter = b["letter"]
        cells: dict[Hex, Mapping[str, Any]] = {}
        for k, h in enumerate(b["hexes"]):
            at = hex_at(h["q"], h["r"])
            hw = f"{where}.hexes{_at(k, h)}"
            if at in cells:
                raise self.fail(hw, f"hex {at} appears twice on board {letter}")
            cells[at] = h
            contents = [f for f in ("factory", "city", "rail") if f in h]
            if len(contents) > 1:
                raise self.fail(
                    f"{hw}.{contents[1]}",
                    f"a hex holds at most one of factory, city, rail (KAS-P-07); it also has {contents[0]}",
                )
            if contents and h.get("partial", False):
                raise self.fail(f"{hw}.partial", f"a {contents[0]} hex must be a full hex, not a partial edge hex")
        cities = {c["name"]: c for c in b.get("cities", [])}
        lines = {ln["id"]: ln for ln in b.get("lines", [])}
        for k, h in enumerate(b["hexes"]):
            hw = f"{where}.hexes{_at(k, h)}"
            if "city" in h and h["city"] not in cities:
                raise self.fail(f"{hw}.city", f"no city named {h['city']} among board {letter}'s cities")
            if "rail" in h:
                ln = lines.get(h["rail"])
                if ln is None:
                    raise self.fail(f"{hw}.rail", f"no rail line {h['rail']} among board {letter}'s lines")
                if [h["q"], h["r"]] not in [list(p) for p in ln["hexes"]]:
                    raise self.fail(f"{hw}.rail", f"rail line {h['rail']} does not list this hex")
        for j, c in enumerate(b.get("cities", [])):
            at = hex_at(c["q"], c["r"])
            cw = f"{where}.cities{_at(j, c)}"
            if at not in cells:
                raise self.fail(f"{cw}.q", f"{at} is not a hex of board {letter}")
            if cells[at].get("city") != c["name"]:
                raise self.fail(f"{cw}.q", f"the hex {at} is not labelled city: {c['name']}")
        for j, ln in enumerate(b.get("lines", [])):
            self.check_line(f"{where}.lines{_at(j, ln)}", letter, ln, cells)

    def check_line(
        self, where: str, letter: str, ln: Mapping[str, Any], cells: Mapping[Hex, Mapping[str, Any]]
    ) -> None:
        """KAS-R-37: a line joins exactly two cities through a chain of its own rail hexes."""
        a, b = ln["ends"]
        for e, name in enumerate((a, b)):
            if name not in self.city_board:
                raise self.fail(f"{where}.ends[{e}]", f"unknown city {name}")
        if a == b:
            raise self.fail(f"{where}.ends", f"a rail line joins two different cities, not {a} to itself")
        path = [_hex(p) for p in ln["hexes"]]
        for m, at in enumerate(path):
            hw = f"{where}.hexes[{m}]"
            if at not in cells:
                raise self.fail(hw, f"{at} is not a hex of board {letter}")
            if cells[at].get("rail") != ln["id"]:
                raise self.fail(hw, f"the hex {at} is not labelled rail: {ln['id']}")
            if at in path[:m]:
                raise self.fail(hw, f"{at} is listed twice")
            if m and path[m - 1].distance(at) != 1:
                raise self.fail(hw, f"{at} is not adjacent to the previous hex {path[m - 1]}: the line has a gap")
        if self.city_at[a].distance(path[0]) != 1:
            raise self.fail(f"{where}.hexes[0]", f"the first hex {path[0]} is not adjacent to the first city {a}")
        if self.city_at[b].distance(path[-1]) != 1:
            raise self.fail(
                f"{where}.hexes[{len(path) - 1}]", f"the last hex {path[-1]} is not adjacent to the second city {b}"
            )

    # -- layouts -----------------------------------------------------------

    def check_layouts(self) -> None:
        layouts = self.data["layouts"]
        by_name: dict[str, int] = {}
        for i, lay in enumerate(layouts):
            if lay["name"] in by_name:
                raise self.fail(f"layouts{_at(i, lay)}.name", f"layout {lay['name']} appears twice")
            by_name[lay["name"]] = i
        for name, (letters, fillers) in REQUIRED_LAYOUTS.items():
            if name not in by_name:
                raise self.fail("layouts", f"layout {name} is missing (KAS-R-01, p.6)")
            i = by_name[name]
            lay = layouts[i]
            if sorted(lay["boards"]) != list(letters):
                raise self.fail(
                    f"layouts{_at(i, lay)}.boards", f"layout {name} uses boards {', '.join(letters)} (KAS-R-01)"
                )
            if len(lay["fillers"]) != fillers:
                raise self.fail(
                    f"layouts{_at(i, lay)}.fillers",
                    f"layout {name} uses {fillers} fillers (KAS-R-01), found {len(lay['fillers'])}",
                )
        shapes = {
            (len(p["hexes"]), sum(bool(h.get("partial")) for h in p["hexes"]))
            for lay in layouts
            for p in lay["fillers"]
        }
        boards = {b["letter"]: b for b in self.data["boards"]}
        for i, lay in enumerate(layouts):
            self.check_layout(f"layouts{_at(i, lay)}", lay, boards, len(shapes) > 1)

    def check_layout(self, where: str, lay: Mapping[str, Any], boards: Mapping[str, Any], mixed: bool) -> None:
        owner: dict[Hex, str] = {}
        for letter in lay["boards"]:
            for h in boards[letter]["hexes"]:
                at = hex_at(h["q"], h["r"])
                if at in owner:
                    raise self.fail(f"{where}.boards", f"boards {owner[at]} and {letter} overlap at {at}")
                owner[at] = letter
        for f, piece in enumerate(lay["fillers"]):
            if mixed:
                # p.3: the six fillers are identical, so every piece has the same hexes.
                raise self.fail(f"{where}.fillers[{f}].hexes", "fillers are identical (p.3): pieces differ in size")
            for k, h in enumerate(piece["hexes"]):
                at = hex_at(h["q"], h["r"])
                if at in owner:
                    raise self.fail(f"{where}.fillers[{f}].hexes{_at(k, h)}", f"{at} overlaps {_owner_name(owner[at])}")
                owner[at] = f"filler {f}"  # board owners are bare letters
        present = set(lay["boards"])
        for letter in lay["boards"]:
            for j, ln in enumerate(boards[letter].get("lines", [])):
                for e, city in enumerate(ln["ends"]):
                    if self.city_board[city] not in present:
                        bi = next(i for i, b in enumerate(self.data["boards"]) if b["letter"] == letter)
                        raise self.fail(
                            f"boards{_at(bi, boards[letter])}.lines{_at(j, ln)}.ends[{e}]",
                            f"city {city} is on board {self.city_board[city]}, which layout {lay['name']} "
                            f"(with board {letter}) does not have",
                        )

    # -- cards and tracks ----------------------------------------------------

    def check_deck(self) -> None:
        deck = self.data["deck"]
        if len(deck) != DECK_SIZE:
            raise self.fail("deck", f"a deck has {DECK_SIZE} standard cards (p.5), found {len(deck)}")
        ids: set[str] = set()
        for i, c in enumerate(deck):
            if c["id"] in ids:
                raise self.fail(f"deck{_at(i, c)}.id", f"card id {c['id']} appears twice")
            ids.add(c["id"])
            if len(c["moves"]) != 1:
                raise self.fail(f"deck{_at(i, c)}.moves", "a standard card has exactly one movement value")
        # KAS-R-18: every deck contains a card with movement 0 (letters A-G and costs 0-2: the schema).
        if not any(0 in c["moves"] for c in deck):
            raise self.fail("deck", "every deck has a card with movement 0 (p.11)")
        self.card_ids = ids

    def check_market(self) -> None:
        track = self.data.get("market_track", [4, 5, 6, 8])
        if track[0] != MARKET_START:
            raise self.fail("market_track[0]", f"goods values start at ${MARKET_START} (KAS-P-10), not ${track[0]}")
        for i in range(1, len(track)):
            if track[i] < track[i - 1]:
                raise self.fail(f"market_track[{i}]", f"${track[i]} is below the previous space ${track[i - 1]}")
        if track[-1] != MARKET_MAX:
            raise self.fail(f"market_track[{len(track) - 1}]", f"the rightmost space is ${MARKET_MAX} (KAS-P-10)")

    def check_airship_track(self, levels: Sequence[Mapping[str, Any]], where: str) -> None:
        """KAS-P-01: six levels; each upgrade 'increases capacity and/or diamond rating' (p.12)."""
        if len(levels) != TRACK_LEVELS:
            raise self.fail(where, f"an airship track has {TRACK_LEVELS} levels (p.12), found {len(levels)}")
        for i, e in enumerate(levels):
            lw = f"{where}[{i}]"
            if e["level"] != i + 1:
                raise self.fail(f"{lw}.level", f"levels are numbered 1..{TRACK_LEVELS} in order, expected {i + 1}")
            if i == 0:
                if e["cost"] != 0:
                    raise self.fail(f"{lw}.cost", "level 1 is the starting space: cost 0")
                continue
            prev = levels[i - 1]
            if e["cost"] <= 0:
                raise self.fail(f"{lw}.cost", "an upgrade costs money (positive cost)")
            for field in ("diamonds", "capacity"):
                if e[field] < prev[field]:
                    raise self.fail(f"{lw}.{field}", f"{field} may not decrease ({prev[field]} -> {e[field]})")
            if e["diamonds"] == prev["diamonds"] and e["capacity"] == prev["capacity"]:
                raise self.fail(
                    lw, "an upgrade raises capacity and/or diamond rating (p.12); this level raises neither"
                )

    def check_rail_track(self) -> None:
        levels = self.data["rail_track"]
        if len(levels) != TRACK_LEVELS:
            raise self.fail("rail_track", f"the rail track has {TRACK_LEVELS} levels (KAS-P-02), found {len(levels)}")
        for i, e in enumerate(levels):
            lw = f"rail_track[{i}]"
            if e["level"] != i + 1:
                raise self.fail(f"{lw}.level", f"levels are numbered 1..{TRACK_LEVELS} in order, expected {i + 1}")
            if (e["cost"] == 0) != (i == 0):
                raise self.fail(f"{lw}.cost", "level 1 costs 0 (starting space), every upgrade a positive amount")
            if e["vp"] != RAIL_VP[i]:
                raise self.fail(f"{lw}.vp", f"rail level {i + 1} scores {RAIL_VP[i]} VP (p.16)")

    def check_teams(self) -> None:
        if "teams" not in self.data:
            return  # a base-game-only pack
        teams = self.data["teams"]
        if len(teams) != len(TEAM_SPECIALS):
            raise self.fail("teams", f"the advanced game has {len(TEAM_SPECIALS)} teams (p.17), found {len(teams)}")
        names: set[str] = set()
        priorities: dict[int, str] = {}
        numbers: dict[int, str] = {}  # KAS-AMB-46: the characters' own numbers, when given
        special_ids = set(self.card_ids)
        for i, t in enumerate(teams):
            tw = f"teams{_at(i, t)}"
            if t["name"] in names:
                raise self.fail(f"{tw}.name", f"team {t['name']} appears twice")
            names.add(t["name"])
            if t["priority"] in priorities:
                raise self.fail(
                    f"{tw}.priority", f"priority {t['priority']} is also {priorities[t['priority']]}'s (KAS-P-06)"
                )
            priorities[t["priority"]] = t["name"]
            if t["airship_track"] != "base":
                self.check_airship_track(t["airship_track"], f"{tw}.airship_track")
            # KAS-P-04: each team's special card; e.g. KAS-R-81, the Sky Castle card flies 6 (normal turn rules).
            special, moves = TEAM_SPECIALS[t["name"]]
            card = t["special"]
            if card["id"] in special_ids:
                raise self.fail(f"{tw}.special.id", f"card id {card['id']} is already used")
            special_ids.add(card["id"])
            if card["special"] != special:
                raise self.fail(f"{tw}.special.special", f"{t['name']}'s special card is {special} (KAS-P-04)")
            if tuple(card["moves"]) != moves:
                raise self.fail(
                    f"{tw}.special.moves", f"{t['name']}'s special card offers movement {list(moves)} (KAS-P-04)"
                )
            if set(t["characters"]) != TEAM_CHARACTERS[t["name"]]:
                raise self.fail(
                    f"{tw}.characters",
                    f"{t['name']}'s characters are {' and '.join(sorted(TEAM_CHARACTERS[t['name']]))}",
                )
            self.check_character_priority(t, tw, numbers)

    def check_character_priority(self, team: Any, where: str, numbers: dict[int, str]) -> None:
        """KAS-AMB-46 'per-character': a team's two characters, each with a number no other character has."""
        if "character_priority" not in team:
            return
        given = team["character_priority"]
        if set(given) != set(team["characters"]):
            raise self.fail(
                f"{where}.character_priority",
                f"names {sorted(given)}, not {team['name']}'s characters {team['characters']}",
            )
        for character, number in given.items():
            if number in numbers:
                raise self.fail(
                    f"{where}.character_priority",
                    f"{character}'s number {number} is also {numbers[number]}'s (KAS-AMB-46)",
                )
            numbers[number] = character


# ---------------------------------------------------------------------------
# Soft checks: printed example values and the qualitative team charts (warnings)
# ---------------------------------------------------------------------------


def printed_value_problems(pack: Pack) -> list[str]:
    """Where the pack disagrees with values the rulebook's examples print (warnings, not errors)."""
    out: list[str] = []
    air = {lv.level: lv for lv in pack.airship_track}
    printed_air = (
        (1, "diamonds", 1, "KAS-EX-11"),
        (1, "capacity", 2, "KAS-EX-11"),
        (2, "cost", 3, "KAS-EX-11"),
        (2, "diamonds", 1, "KAS-EX-11"),
        (2, "capacity", 3, "KAS-EX-11"),
        (3, "diamonds", 2, "KAS-EX-05 read as KAS-AMB-06 (a)"),
    )
    for level, field, value, ref in printed_air:
        got = getattr(air[level], field) if level in air else None
        if got != value:
            out.append(
                f"{pack.source}: airship_track level {level} {field} is {got}, the rulebook shows {value} ({ref})"
            )
    rail = {lv.level: lv for lv in pack.rail_track}
    if 4 not in rail or rail[4].cost != 4:
        got = rail[4].cost if 4 in rail else None
        out.append(f"{pack.source}: rail_track level 4 cost is {got}, the rulebook shows 4 (KAS-EX-12)")
    for i, value in ((1, 5), (2, 6)):
        got = pack.market_track[i] if len(pack.market_track) > i else None
        if got != value:
            out.append(f"{pack.source}: market_track[{i}] is {got}, the rulebook shows ${value} (KAS-EX-01)")
    return out


def team_chart_problems(pack: Pack) -> list[str]:
    """KAS-P-05's qualitative charts as soft checks, level by level (warnings, not errors)."""
    teams = {t.name: t.airship_track for t in pack.teams}
    if not teams:
        return []
    base = pack.airship_track
    out: list[str] = []

    def want(ok: bool, text: str) -> None:
        if not ok:
            out.append(f"{pack.source}: {text} (KAS-P-05)")

    for i, lv in enumerate(base):
        level = lv.level
        d = {n: tr[i].diamonds for n, tr in teams.items() if i < len(tr)}
        c = {n: tr[i].capacity for n, tr in teams.items() if i < len(tr)}
        # KAS-R-60, KAS-R-64, KAS-R-76: the Emperor, DaVinci and Kings Over Aces charts are the standard one.
        for name in STANDARD_TEAMS:
            if name in d:
                want(
                    d[name] == lv.diamonds and c[name] == lv.capacity, f"{name} level {level} is not the standard chart"
                )
        # KAS-R-72: Rose & Thorn has the worst diamond rating and the best capacity.
        if "Rose & Thorn" in d:
            want(d["Rose & Thorn"] == min(d.values()), f"Rose & Thorn level {level}: not the worst diamond rating")
            want(c["Rose & Thorn"] == max(c.values()), f"Rose & Thorn level {level}: not the best capacity")
        # KAS-R-80: Sky Castle has the best diamond rating and the worst capacity.
        if "Sky Castle" in d:
            want(d["Sky Castle"] == max(d.values()), f"Sky Castle level {level}: not the best diamond rating")
            want(c["Sky Castle"] == min(c.values()), f"Sky Castle level {level}: not the worst capacity")
        # KAS-R-68: the Sphinx's rating rises more slowly (never above the standard); standard capacity.
        if "Sphinx" in d:
            want(d["Sphinx"] <= lv.diamonds, f"Sphinx level {level}: diamonds above the standard")
            want(c["Sphinx"] == lv.capacity, f"Sphinx level {level}: capacity is not the standard")
        # KAS-R-84: the Godfather has the standard diamond rating and an increased capacity.
        if "Godfather" in d:
            want(d["Godfather"] == lv.diamonds, f"Godfather level {level}: diamonds are not the standard")
            want(c["Godfather"] >= lv.capacity, f"Godfather level {level}: capacity below the standard")
    return out


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


PACK_FILES = PackFiles(PACKAGE, pack_from_data)
load_pack = PACK_FILES.load
bundled_pack_data = PACK_FILES.bundled_data
bundled_pack = PACK_FILES.bundled


__all__ = [
    "GOODS",
    "REQUIRED_LAYOUTS",
    "TEAM_CHARACTERS",
    "TEAM_SPECIALS",
    "PackError",
    "bundled_pack",
    "bundled_pack_data",
    "load_pack",
    "pack_from_data",
    "pack_schema",
    "printed_value_problems",
    "team_chart_problems",
]
