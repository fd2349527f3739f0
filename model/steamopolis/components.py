"""Steamopolis components as data (STM-P-01..13), and loading a pack.

The rulebook gives the counts, the gauge, a handful of district facts and
the printed examples, but not the Technician's Handbook: the districts'
effects, the 44 machine tiles, the characters and the passenger tiles.  A
*pack* carries all of them, written in the effect vocabulary of
:mod:`rulecraft.model.steamopolis.effects`; the bundled pack is
reconstructed entry by entry (``packs/reconstructed.yaml``, every entry with
its provenance) and a publisher's real pack loads with :func:`load_pack`
(schema: ``packs/schema.json``).  Errors name the file, the entry and the
field.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

import attrs

from rulecraft.model.steamopolis.effects import (
    Envy,
    GainResources,
    IncreasePressure,
    PayResources,
    PlaceParasites,
    Program,
    ReturnStone,
    VotePoints,
    program_from_data,
    walk,
)
from rulecraft.model.steamopolis.gauge import GaugeLayout
from rulecraft.packs import PackChecker, PackFiles, check_schema, entry_label, find_entry, pack_schema_of
from rulecraft.packs import PackError as PackError  # re-exported: callers catch the game's own name

PACKAGE = "rulecraft.model.steamopolis"
BUNDLED_SOURCE = "rulecraft/model/steamopolis/packs/reconstructed.yaml"

Resource = Literal["crystal", "gear"]
BannerColour = Literal["purple", "orange", "blue"]
BoardSide = Literal["2-3", "4"]
DistrictPosition = Literal["left", "right", "third"]

LEVELS: tuple[int, ...] = tuple(range(1, 9))
RANK_COUNTS: Mapping[int, int] = {0: 10, 1: 11, 2: 12, 3: 11}  # p.2: 44 machine tiles
THIRD_DISTRICT_LEVELS: tuple[int, ...] = (1, 2, 3, 8)  # STM-R-01, 4-player side
EXTRA_MARKET_LEVELS: tuple[int, ...] = (2, 3, 4)  # STM-R-01/R-03, 4-player side
BONUS_NUMERALS: tuple[int, ...] = (5, 4, 3, 2)  # STM-R-04: left to right, #2 on the statue


# ---------------------------------------------------------------------------
# Machines (STM-P-02, P-04, P-06)
# ---------------------------------------------------------------------------


@attrs.frozen
class Boiler:
    """A boiler with its activation effect.  ``piped``: the first boiler is connected to the pipe
    from the gauge, a second one to the first; an unpiped boiler never activates (STM-R-30) but
    still counts for MAKE STEAM (STM-R-25)."""

    effect: Program
    piped: bool = True


@attrs.frozen
class Trigger:
    """What fires a passive effect (STM-R-60): taking back a stone (from ``level``, None = any),
    a transported passenger (STM-R-50), or buying a tile."""

    kind: Literal["take-back", "passenger", "buy"]
    level: int | None = None


@attrs.frozen
class Passive:
    trigger: Trigger
    effect: Program
    end_of_turn: bool = False  # the end-of-turn symbol: used only at the end of the turn (p.27)


@attrs.frozen
class MachineFace:
    """What a machine-room tile shows: boilers top to bottom, a passive, storage spaces."""

    boilers: tuple[Boiler, ...] = ()
    passive: Passive | None = None
    storage: int = 0

    def boiler_count(self) -> int:
        """STM-R-25: every boiler counts for MAKE STEAM, piped or not."""
        return len(self.boilers)

    def activated(self) -> tuple[Boiler, ...]:
        """STM-R-30: the boilers a channelled stone activates: piped ones, in a row from the top."""
        out: list[Boiler] = []
        for boiler in self.boilers:
            if not boiler.piped:
                break
            out.append(boiler)
        return tuple(out)


@attrs.frozen
class MachineTile:
    """One of the 44 machine tiles: machine front, banner back (STM-P-02)."""

    id: str
    rank: int
    face: MachineFace
    banner: BannerColour
    banners: int = 1  # STM-AMB-14: a purple tile shows 2 banners
    costs: PayResources = attrs.field(factory=PayResources)  # costs printed on the tile itself (STM-R-40)
    provenance: str = "reconstructed"


@attrs.frozen
class StartingMachine:
    id: str
    sides: tuple[MachineFace, MachineFace]
    provenance: str = "reconstructed"


@attrs.frozen
class CapacityTile:
    """STM-R-59 / STM-P-06: the two sides of every capacity tile (boiler side, storage side)."""

    sides: tuple[MachineFace, MachineFace]
    count: int = 20
    provenance: str = "reconstructed"

    @functools.cached_property
    def both(self) -> MachineFace:
        """STM-AMB-29 'both' (p.30): boiler and storage on one side, whichever side is up: the boilers of the
        side showing more of them (the first on a tie), the first passive effect, the larger storage."""
        first, second = self.sides
        boilers = first.boilers if len(first.boilers) >= len(second.boilers) else second.boilers
        return MachineFace(boilers, first.passive or second.passive, max(first.storage, second.storage))


# ---------------------------------------------------------------------------
# Board (STM-P-01, P-03, P-08, P-12)
# ---------------------------------------------------------------------------


@attrs.frozen
class District:
    side: BoardSide
    level: int
    position: DistrictPosition
    effect: Program
    static_discharge: bool = False  # STM-R-19: using the effect turns the stone's arrow away
    end_of_turn: bool = False  # the effect waits for the end of the turn (STM-R-38, R-49)
    provenance: str = "reconstructed"

    @property
    def key(self) -> str:
        return f"{self.side}:L{self.level}-{self.position}"


@attrs.frozen
class MarketSlot:
    """The symbols printed beside one market slot (STM-P-03, STM-R-40): row 1 for a machine
    (VP, machine removal, envy), row 2 for a banner (stone -1, envy), row 3 always (resources)."""

    rank: int
    machine_vp: int
    remove_machine: bool
    machine_envy: bool
    banner_stone: bool
    banner_envy: bool
    resources: PayResources
    provenance: str = "reconstructed"

    def machine_program(self) -> Program:
        """Row 3 then row 1, as a program (costs gate the VP)."""
        parts: list[Any] = [self.resources]
        parts += [Envy()] if self.machine_envy else []
        parts += [VotePoints(self.machine_vp)] if self.machine_vp else []
        return tuple(parts)

    def banner_program(self) -> Program:
        parts: list[Any] = [self.resources]
        parts += [ReturnStone()] if self.banner_stone else []
        parts += [Envy()] if self.banner_envy else []
        return tuple(parts)


@attrs.frozen
class BonusSlot:
    """STM-P-08: what a bonus row shows when this numeral is its foremost marker (STM-AMB-13)."""

    numeral: int
    cost: int
    vp: int


@attrs.frozen
class BonusRow:
    resource: Resource
    slots: tuple[BonusSlot, ...]
    provenance: str = "reconstructed"


@attrs.frozen
class Destination:
    destination: int
    alternate: int


@attrs.frozen
class PassengerTile:
    """STM-P-09: banker (levels 5-8) and stoker (1-4) destinations with alternates, and rewards."""

    id: str
    banker: Destination
    stoker: Destination
    banker_reward: Program = (VotePoints(1),)
    stoker_reward: Program = (IncreasePressure(3),)
    provenance: str = "reconstructed"


@attrs.frozen
class Character:
    """STM-P-05: a character tile's number and its set-up effect, carried out top to bottom."""

    number: int
    setup: Program
    provenance: str = "reconstructed"


# ---------------------------------------------------------------------------
# Airship, supplies (STM-P-07, P-10, P-11, P-13)
# ---------------------------------------------------------------------------


@attrs.frozen
class MachineRoom:
    """STM-P-11 / STM-AMB-02: positions 1..n; a stone of value v enters position v - entry_offset."""

    positions: int = 7
    entry_offset: int = 1

    def entry(self, value: int) -> int | None:
        """The position a channelled stone of pressure value ``value`` enters; None: it cannot channel."""
        position = value - self.entry_offset
        return position if 1 <= position <= self.positions else None


@attrs.frozen
class Airship:
    """STM-P-13: the built-in parts of every player board, and the player's pieces (STM-R-08)."""

    storage: int = 3
    boilers: int = 2
    passenger_spaces: int = 2
    parasite_spaces: int = 3
    stones: int = 5
    score_track: int = 50


@attrs.frozen
class Supplies:
    """Component counts the rulebook gives (p.2-3), and the sponsor and gala discounts."""

    crystals: int = 15
    gears: int = 15
    capacity_tiles: int = 20
    statues: int = 8
    sponsors: tuple[tuple[Resource, Resource], ...] = (("crystal", "gear"),) * 5
    sponsor_discount: int = 1
    galas: tuple[Resource, ...] = ("crystal",) * 4 + ("gear",) * 4
    gala_discount: int = 2
    colours: int = 4  # player colours with their pieces (p.2-3: 4); 5 plays STM-AMB-24 '1-5'


@attrs.frozen
class Pack:
    name: str
    reconstructed: bool
    gauge: GaugeLayout
    machine_room: MachineRoom
    airship: Airship
    supplies: Supplies
    districts: tuple[District, ...]
    market_slots: tuple[MarketSlot, ...]
    extra_market_slots: tuple[MarketSlot, ...]
    bonus_rows: tuple[BonusRow, ...]
    pink_numeral: int
    machines: tuple[MachineTile, ...]
    starting_machines: tuple[StartingMachine, ...]
    capacity: CapacityTile
    characters: tuple[Character, ...]
    passengers: tuple[PassengerTile, ...]
    board_destinations: PassengerTile
    source: str = "<memory>"
    # STM-AMB-03 'separate': whether the pack prints gauge.numerals of its own (else ``gauge`` carries
    # the values' numerals, and the reading is refused with this pack).
    numerals_given: bool = True

    @functools.cached_property
    def value_gauge(self) -> GaugeLayout:
        """STM-AMB-03 'value' (p.22-23): the gauge whose bonus numerals are the spaces' pressure values
        2-5, whatever numerals the pack gives (those are played under 'separate')."""
        return GaugeLayout(self.gauge.values, value_numerals(self.gauge.values), self.gauge.base_max_value)

    # Lookups by key, built once per pack: the rules ask for them at every step.
    @functools.cached_property
    def _districts_by_key(self) -> dict[tuple[str, int, str], District]:
        return {(d.side, d.level, d.position): d for d in self.districts}

    @functools.cached_property
    def _sides(self) -> dict[str, tuple[District, ...]]:
        return {side: tuple(d for d in self.districts if d.side == side) for side in ("2-3", "4")}

    @functools.cached_property
    def _machines_by_id(self) -> dict[str, MachineTile]:
        return {m.id: m for m in self.machines}

    def district(self, side: BoardSide, level: int, position: DistrictPosition) -> District:
        found = self._districts_by_key.get((side, level, position))
        if found is None:
            raise KeyError(f"pack {self.name} has no district {side}:L{level}-{position}")
        return found

    def side(self, side: BoardSide) -> tuple[District, ...]:
        return self._sides.get(side, ())

    def machine(self, tile_id: str) -> MachineTile:
        found = self._machines_by_id.get(tile_id)
        if found is None:
            raise KeyError(f"pack {self.name} has no machine tile {tile_id}")
        return found

    def rank(self, rank: int) -> tuple[MachineTile, ...]:
        return tuple(m for m in self.machines if m.rank == rank)

    def character(self, number: int) -> Character:
        return find_entry(self.characters, lambda c: c.number == number, self.name, f"character {number}")

    def passenger(self, tile_id: str) -> PassengerTile:
        return find_entry(self.passengers, lambda p: p.id == tile_id, self.name, f"passenger tile {tile_id}")


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


def value_numerals(values: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """STM-AMB-03 'value': a space's bonus numeral is its pressure value, where that is a numeral 2-5."""
    return tuple(v if v in BONUS_NUMERALS else None for v in values)


def pack_schema() -> dict[str, Any]:
    return pack_schema_of(PACKAGE)


def _district_name(node: Mapping[str, Any]) -> str | None:
    if {"side", "level", "position"} <= node.keys():
        return f"{node['side']}:L{node['level']}-{node['position']}"
    return None


# ' (M0-03)', ' (2-3:L1-left)', ' (7)': how an entry is named after its index.
_label = entry_label("id", "number", "resource", "rank", first=_district_name)


def _schema_check(data: Any, source: str) -> None:
    check_schema(PACKAGE, data, source, _label)


def _provenance(entry: Mapping[str, Any]) -> str:
    prov = entry["provenance"]
    text = str(prov["source"])
    refs = [f"p.{prov['page']}"] if "page" in prov else []
    refs += [str(prov["example"])] if "example" in prov else []
    if refs:
        text += f" ({', '.join(refs)})"
    return f"{text}: {prov['why']}"


def _pay(data: Mapping[str, int] | None) -> PayResources:
    data = data or {}
    return PayResources(data.get("crystals", 0), data.get("gears", 0))


def _face(data: Mapping[str, Any]) -> MachineFace:
    passive = data.get("passive")
    return MachineFace(
        boilers=tuple(Boiler(program_from_data(b["effect"]), b.get("piped", True)) for b in data.get("boilers", [])),
        passive=(
            Passive(
                Trigger(passive["trigger"]["kind"], passive["trigger"].get("level")),
                program_from_data(passive["effect"]),
                passive.get("end_of_turn", False),
            )
            if passive
            else None
        ),
        storage=data.get("storage", 0),
    )


def _slot(data: Mapping[str, Any]) -> MarketSlot:
    machine, banner = data["machine"], data["banner"]
    return MarketSlot(
        rank=data["rank"],
        machine_vp=machine.get("vp", 0),
        remove_machine=machine.get("remove_machine", False),
        machine_envy=machine.get("envy", False),
        banner_stone=banner.get("stone", False),
        banner_envy=banner.get("envy", False),
        resources=_pay(data["resources"]),
        provenance=_provenance(data),
    )


def _passenger(data: Mapping[str, Any]) -> PassengerTile:
    return PassengerTile(
        id=data["id"],
        banker=Destination(data["banker"]["destination"], data["banker"]["alternate"]),
        stoker=Destination(data["stoker"]["destination"], data["stoker"]["alternate"]),
        banker_reward=program_from_data(data["banker"]["reward"]),
        stoker_reward=program_from_data(data["stoker"]["reward"]),
        provenance=_provenance(data),
    )


def pack_from_data(data: Any, source: str = "<memory>", *, schema: bool = True) -> Pack:
    """Build a pack from parsed YAML/JSON; raises PackError naming file, entry and field."""
    if schema:  # False only for the shipped pack (rulecraft.packs.PackFiles)
        _schema_check(data, source)
    _Checker(data, source).check()
    g = data["gauge"]
    s = data["supplies"]
    values: tuple[int | None, ...] = (None, *g["values"])
    numerals = (None, *g["numerals"]) if "numerals" in g else value_numerals(values)
    return Pack(
        name=data["name"],
        reconstructed=bool(data.get("reconstructed", False)),
        gauge=GaugeLayout(values, numerals, g["base_max_value"]),
        machine_room=MachineRoom(data["machine_room"]["positions"], data["machine_room"]["entry_offset"]),
        airship=Airship(**{k: v for k, v in data["airship"].items() if k != "provenance"}),
        supplies=Supplies(
            crystals=s["crystals"],
            gears=s["gears"],
            capacity_tiles=s["capacity_tiles"],
            statues=s["statues"],
            sponsors=tuple((t[0], t[1]) for t in s["sponsors"]),
            sponsor_discount=s["sponsor_discount"],
            galas=tuple(s["galas"]),
            gala_discount=s["gala_discount"],
            colours=s.get("colours", 4),
        ),
        districts=tuple(
            District(
                side=d["side"],
                level=d["level"],
                position=d["position"],
                effect=program_from_data(d["effect"]),
                static_discharge=d.get("static_discharge", False),
                end_of_turn=d.get("end_of_turn", False),
                provenance=_provenance(d),
            )
            for d in data["districts"]
        ),
        market_slots=tuple(_slot(m) for m in data["market_slots"]),
        extra_market_slots=tuple(_slot(m) for m in data["extra_market_slots"]),
        bonus_rows=tuple(
            BonusRow(
                r["resource"], tuple(BonusSlot(x["numeral"], x["cost"], x["vp"]) for x in r["slots"]), _provenance(r)
            )
            for r in data["bonus_rows"]
        ),
        pink_numeral=data["pink_marker"]["numeral"],
        machines=tuple(
            MachineTile(
                id=m["id"],
                rank=m["rank"],
                face=_face(m),
                banner=m["banner"],
                banners=m.get("banners", 2 if m["banner"] == "purple" else 1),
                costs=_pay(m.get("costs")),
                provenance=_provenance(m),
            )
            for m in data["machines"]
        ),
        starting_machines=tuple(
            StartingMachine(m["id"], (_face(m["sides"][0]), _face(m["sides"][1])), _provenance(m))
            for m in data["starting_machines"]
        ),
        capacity=CapacityTile(
            (_face(data["capacity"]["sides"][0]), _face(data["capacity"]["sides"][1])),
            data["capacity"]["count"],
            _provenance(data["capacity"]),
        ),
        characters=tuple(
            Character(c["number"], program_from_data(c["setup"]), _provenance(c)) for c in data["characters"]
        ),
        passengers=tuple(_passenger(p) for p in data["passengers"]),
        board_destinations=_passenger(data["board_destinations"]),
        source=source,
        numerals_given="numerals" in g,
    )


class _Checker(PackChecker):
    """The rulebook's counts and facts that a schema cannot say, each error naming entry and field."""

    def check(self) -> None:
        self.check_gauge()
        self.check_districts()
        self.check_markets()
        self.check_bonus_rows()
        self.check_machines()
        self.check_starting_machines()
        self.check_characters()
        self.check_passengers()

    def check_gauge(self) -> None:
        g = self.data["gauge"]
        if "numerals" in g and len(g["numerals"]) != len(g["values"]):
            raise self.fail("gauge.numerals", f"{len(g['numerals'])} numerals for {len(g['values'])} spaces")
        if g["values"] != sorted(g["values"]):
            raise self.fail("gauge.values", "pressure values rise from left to right (STM-R-14)")
        if g["base_max_value"] not in g["values"]:
            raise self.fail("gauge.base_max_value", f"no space has the value {g['base_max_value']} (STM-R-17)")
        if 8 not in g["values"]:
            raise self.fail("gauge.values", "'stone to 8' needs a space with pressure value 8 (STM-R-61)")

    def check_districts(self) -> None:
        seen: set[tuple[str, int, str]] = set()
        for i, d in enumerate(self.data["districts"]):
            where = f"districts[{i}]{_label(d)}"
            key = (d["side"], d["level"], d["position"])
            if key in seen:
                raise self.fail(where, "the same district is given twice")
            seen.add(key)
            if d["position"] == "third" and (d["side"] != "4" or d["level"] not in THIRD_DISTRICT_LEVELS):
                raise self.fail(
                    f"{where}.position",
                    "a third district exists only on levels 1, 2, 3 and 8 of the 4-player side (STM-R-01)",
                )
        for side, count in (("2-3", 16), ("4", 20)):
            n = sum(1 for d in self.data["districts"] if d["side"] == side)
            if n != count:
                raise self.fail("districts", f"the {side}-player side has {count} districts (STM-R-01), found {n}")
        for side in ("2-3", "4"):
            for level in LEVELS:
                for position in ("left", "right"):
                    if (side, level, position) not in seen:
                        raise self.fail(
                            "districts", f"side {side} has no {position} district on level {level} (STM-R-01)"
                        )

    def check_markets(self) -> None:
        ranks = [m["rank"] for m in self.data["market_slots"]]
        if ranks != [0, 1, 2, 3]:
            raise self.fail("market_slots", f"one slot per rank 0-3 in ascending order (STM-R-03), found {ranks}")
        if [m["rank"] for m in self.data["extra_market_slots"]] != [0]:
            raise self.fail("extra_market_slots", "the 4-player extra markets hold one rank-0 tile (STM-R-03)")

    def check_bonus_rows(self) -> None:
        rows = self.data["bonus_rows"]
        if sorted(r["resource"] for r in rows) != ["crystal", "gear"]:
            raise self.fail("bonus_rows", "a crystal row and a gear row (STM-R-04, STM-EX-23)")
        for i, row in enumerate(rows):
            numerals = [s["numeral"] for s in row["slots"]]
            if numerals != list(BONUS_NUMERALS):
                raise self.fail(
                    f"bonus_rows[{i}]{_label(row)}.slots",
                    f"numerals 5, 4, 3, 2 from left to right (STM-R-04), found {numerals}",
                )

    def check_machines(self) -> None:
        machines = self.data["machines"]
        seen: set[str] = set()
        for i, m in enumerate(machines):
            where = f"machines[{i}]{_label(m)}"
            if m["id"] in seen:
                raise self.fail(f"{where}.id", "duplicate machine tile id")
            seen.add(m["id"])
            banners = m.get("banners", 2 if m["banner"] == "purple" else 1)
            if banners != (2 if m["banner"] == "purple" else 1):
                raise self.fail(f"{where}.banners", "purple tiles show 2 banners, the others 1 (p.21)")
            self.check_face(where, m)
        counts = Counter(m["rank"] for m in machines)
        for rank, want in RANK_COUNTS.items():
            if counts[rank] != want:
                raise self.fail("machines", f"expected {want} rank-{rank} tiles (p.2), found {counts[rank]}")

    def check_face(self, where: str, face: Mapping[str, Any]) -> None:
        boilers = face.get("boilers", [])
        if not boilers and not face.get("passive") and not face.get("storage", 0):
            raise self.fail(where, "a machine shows a boiler, a passive effect or storage (p.26)")
        passive = face.get("passive")
        if passive and passive["trigger"]["kind"] != "take-back" and "level" in passive["trigger"]:
            raise self.fail(f"{where}.passive.trigger.level", "only a take-back trigger names a level")

    def check_starting_machines(self) -> None:
        if len(self.data["starting_machines"]) != 5:
            raise self.fail(
                "starting_machines", f"5 starting machine tiles (p.2), found {len(self.data['starting_machines'])}"
            )
        for i, m in enumerate(self.data["starting_machines"]):
            for j, side in enumerate(m["sides"]):
                self.check_face(f"starting_machines[{i}]{_label(m)}.sides[{j}]", side)

    def check_characters(self) -> None:
        numbers = [c["number"] for c in self.data["characters"]]
        if len(numbers) != 8 or len(set(numbers)) != 8:
            raise self.fail("characters", f"8 character tiles with distinct numbers (p.2), found {numbers}")
        for named in (5, 7, 11, 13, 15):
            if named not in numbers:
                raise self.fail("characters", f"the rulebook names character {named} (p.6, p.22, p.36)")

    def check_passengers(self) -> None:
        tiles = self.data["passengers"]
        if len(tiles) != 16:
            raise self.fail("passengers", f"16 passenger tiles (p.2), found {len(tiles)}")
        for i, p in enumerate([*tiles, self.data["board_destinations"]]):
            where = f"passengers[{i}]{_label(p)}" if i < len(tiles) else "board_destinations"
            for who, low, high in (("banker", 5, 8), ("stoker", 1, 4)):
                dest = p[who]
                for field in ("destination", "alternate"):
                    if not low <= dest[field] <= high:
                        raise self.fail(
                            f"{where}.{who}.{field}", f"the {who} travels on levels {low}-{high} (STM-R-35)"
                        )
                if dest["destination"] == dest["alternate"]:
                    raise self.fail(f"{where}.{who}.alternate", "the alternate differs from the destination (p.16)")


def printed_value_problems(pack: Pack) -> list[str]:
    """Where the pack disagrees with facts the rulebook prints (warnings, not errors; digest section 6)."""
    out: list[str] = []

    def want(ok: bool, text: str) -> None:
        if not ok:
            out.append(f"{pack.source}: {text}")

    def parts(side: BoardSide, level: int, position: DistrictPosition) -> tuple[Any, ...]:
        return walk(pack.district(side, level, position).effect)

    want(
        pack.gauge.numerals == pack.value_gauge.numerals,
        "gauge.numerals differ from the pressure values 2-5: played only under STM-AMB-03 'separate' (p.22-23)",
    )
    want(PlaceParasites(2) in parts("2-3", 1, "left"), "L1-left places 2 parasites (solo turn 5, p.36 ff.)")
    want(GainResources(either=3) in parts("2-3", 3, "right"), "L3-right takes up to 3 resources (STM-EX-11, p.18)")
    want(pack.district("2-3", 6, "left").static_discharge, "L6-left bears the static discharge (solo turn 5)")
    want(pack.district("2-3", 8, "left").end_of_turn, "L8-left's effect waits for the end of the turn (solo turn 5)")
    slots = {s.rank: s for s in pack.market_slots}
    printed = {
        0: (PayResources(0, 2), 1),
        1: (PayResources(2, 0), 2),
        2: (PayResources(3, 0), 3),
        3: (PayResources(4, 1), 5),
    }
    for rank, (pay, vp) in printed.items():
        slot = slots.get(rank)
        want(
            slot is not None and slot.resources == pay and slot.machine_vp == vp,
            f"market slot rank {rank}: {pay} and {vp} VP (STM-EX-12..19, p.19-20)",
        )
    rows = {r.resource: r for r in pack.bonus_rows}
    want(rows["crystal"].slots[0].cost == 1, "the crystal row's #5 costs 1 crystal (STM-EX-23, p.23)")
    gear_two = rows["gear"].slots[-1]
    want((gear_two.cost, gear_two.vp) == (3, 5), "a gear #2 costs 3 gears and gives 5 VP (STM-EX-23, p.23)")
    given = pack.passengers[0]
    want(
        (given.banker, given.stoker) == (Destination(5, 6), Destination(1, 4)),
        "the first passenger tile is the pictured one (banker 5/6, stoker 1/4; STM-EX-08, p.16)",
    )
    return out


PACK_FILES = PackFiles(PACKAGE, pack_from_data)
load_pack = PACK_FILES.load
bundled_pack_data = PACK_FILES.bundled_data
bundled_pack = PACK_FILES.bundled
