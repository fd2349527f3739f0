"""Kings of Air and Steam components as data (KAS-P-01..11).

The rulebook gives counts, a few track values and the rules, but not the
map boards, the movement decks or most track values.  A *pack* carries all
of them; the bundled pack is reconstructed entry by entry, and a real pack
loads with ``--components FILE`` (schema: ``packs/schema.json``).

This module holds the data types and the derived map; loading and checking
a pack live in :mod:`rulecraft.model.kings_of_air_and_steam.packs_io`.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex

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

    def board(self, letter: str) -> Board:
        for b in self.boards:
            if b.letter == letter:
                return b
        raise KeyError(f"pack {self.name} has no board {letter}")

    def layout(self, name: str) -> Layout:
        for lay in self.layouts:
            if lay.name == name:
                return lay
        raise KeyError(f"pack {self.name} has no layout {name}")

    def team(self, name: str) -> Team:
        for team in self.teams:
            if team.name == name:
                return team
        raise KeyError(f"pack {self.name} has no team {name!r}")

    def card(self, card_id: str) -> Card:
        for card in self.deck:
            if card.id == card_id:
                return card
        for team in self.teams:
            if team.special.id == card_id:
                return team.special
        raise KeyError(f"pack {self.name} has no card {card_id}")


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
    _factory_index: dict[Hex, int] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_city_index", {c.name: i for i, c in enumerate(self.cities)})
        object.__setattr__(self, "_line_index", {ln.id: i for i, ln in enumerate(self.lines)})
        object.__setattr__(self, "_line_of_hex", {h: ln.id for ln in self.lines for h in ln.hexes})
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
        return tuple(sorted(self._line_of_hex))

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
