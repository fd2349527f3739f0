"""Airships components: dice, cards, Hindenburg stages, and loading a pack.

Components are data: the cards' values live in a YAML pack checked against
``packs/schema.json`` and against the counts the rulebook gives (18 airship
cards, 48 development cards, 4 stages).  The bundled pack is reconstructed
where the rulebook is silent, entry by entry.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping
from enum import Enum
from typing import Any

import attrs

from rulecraft.packs import PackError, PackFiles, pack_schema_of, validator_of
from rulecraft.yamlio import schema_message


class Colour(str, Enum):
    W = "W"
    R = "R"
    B = "B"


COLOURS: tuple[Colour, ...] = (Colour.W, Colour.R, Colour.B)

# p.1: white 1-1-2-2-3-3, red 2-3-3-4-4-5, black 4-4-6-6-8-8.
FACES: Mapping[Colour, tuple[int, ...]] = {
    Colour.W: (1, 1, 2, 2, 3, 3),
    Colour.R: (2, 3, 3, 4, 4, 5),
    Colour.B: (4, 4, 6, 6, 8, 8),
}
DICE_PER_COLOUR = 3  # AIR-R-30 / AIR-R-51: 9 shared dice, 3 of each colour


class Department(str, Enum):
    """The six departments, in the order of a company board's fields."""

    FINANCE = "finance"
    HANGAR = "hangar"
    PILOT = "pilot"
    ENGINEER = "engineer"
    ENGINE = "engine"
    MATERIAL = "material"


DEPARTMENTS: tuple[Department, ...] = tuple(Department)
DEPARTMENT_INDEX: Mapping[Department, int] = {d: i for i, d in enumerate(DEPARTMENTS)}


def _nonneg(instance: Any, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 0:
        raise ValueError(f"{attribute.name} must be >= 0, got {value}")


@attrs.frozen
class Dice:
    """A count of dice per colour (a requirement or an entitlement)."""

    W: int = attrs.field(default=0, validator=_nonneg)
    R: int = attrs.field(default=0, validator=_nonneg)
    B: int = attrs.field(default=0, validator=_nonneg)

    @classmethod
    def from_mapping(cls, data: Mapping[str, int]) -> Dice:
        return cls(**{c.value: int(data.get(c.value, 0)) for c in COLOURS})

    def __getitem__(self, colour: Colour) -> int:
        # A dict lookup, not Enum.value: this sits on the hot path of legality.
        count: int = _GET[colour](self)
        return count

    def items(self) -> Iterator[tuple[Colour, int]]:
        yield Colour.W, self.W
        yield Colour.R, self.R
        yield Colour.B, self.B

    def plus(self, other: Dice) -> Dice:
        return Dice(self.W + other.W, self.R + other.R, self.B + other.B)

    def with_count(self, colour: Colour, count: int) -> Dice:
        return attrs.evolve(self, **{colour.value: count})

    def total(self) -> int:
        return self.W + self.R + self.B

    def to_mapping(self) -> dict[str, int]:
        return {c.value: n for c, n in self.items() if n}

    def __str__(self) -> str:
        return " ".join(f"{n}{c.value}" for c, n in self.items() if n) or "no dice"


NO_DICE = Dice()
_GET = {Colour.W: operator.attrgetter("W"), Colour.R: operator.attrgetter("R"), Colour.B: operator.attrgetter("B")}


@attrs.frozen
class FixedDie:
    """An Engineer's imaginary die (AIR-R-18): never thrown, value printed."""

    colour: Colour
    value: int


@attrs.frozen
class EngineBonus:
    """An Engine marker (AIR-R-19): ``colour`` None is the grey, any-colour one."""

    colour: Colour | None
    bonus: int


@attrs.frozen
class Exchange:
    """A Material exchange (AIR-R-20): give ``give`` dice of one colour for
    ``get`` dice of another, for one throw."""

    give: int
    give_colour: Colour
    get: int
    get_colour: Colour

    def __str__(self) -> str:
        return f"{self.give}{self.give_colour.value}->{self.get}{self.get_colour.value}"


@attrs.frozen
class DevelopmentCard:
    id: str
    group: str  # "starter" | "era1" | "era2"
    department: Department
    requirement: Dice
    target: int
    vp: int = 0
    dice: Dice = NO_DICE
    fixed: FixedDie | None = None
    engine: EngineBonus | None = None
    exchange: Exchange | None = None
    pilot_chips: int = 0
    provenance: str = "reconstructed"


@attrs.frozen
class AirshipCard:
    id: str
    tier: str  # "dark" | "medium" | "light"
    requirement: Dice
    target: int
    vp: int
    dice: Dice = NO_DICE  # only read under AIR-AMB-25=yes
    provenance: str = "reconstructed"


@attrs.frozen
class HindenburgStage:
    index: int  # 1..4
    requirement: Dice
    target: int
    vp_low: int
    vp_high: int
    provenance: str = "reconstructed"


TIERS: tuple[str, ...] = ("dark", "medium", "light")  # bottom to top (AIR-R-03)
GROUP_COUNTS: Mapping[str, int] = {"starter": 6, "era1": 18, "era2": 24}  # AIR-R-04/05


@attrs.frozen
class Pack:
    """A complete set of Airships component data."""

    name: str
    reconstructed: bool
    nations: tuple[str, ...]
    airships: tuple[AirshipCard, ...]
    developments: tuple[DevelopmentCard, ...]
    stages: tuple[HindenburgStage, ...]
    chips_per_nation: int = 6
    source: str = "<memory>"
    _dev: dict[str, DevelopmentCard] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _air: dict[str, AirshipCard] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_dev", {c.id: c for c in self.developments})
        object.__setattr__(self, "_air", {c.id: c for c in self.airships})

    def development(self, card_id: str) -> DevelopmentCard:
        return self._dev[card_id]

    def airship(self, card_id: str) -> AirshipCard:
        return self._air[card_id]

    def stage(self, index: int) -> HindenburgStage:
        return self.stages[index - 1]

    def group(self, group: str) -> tuple[str, ...]:
        return tuple(sorted(c.id for c in self.developments if c.group == group))

    def tier(self, tier: str) -> tuple[str, ...]:
        return tuple(sorted(c.id for c in self.airships if c.tier == tier))


def pack_schema() -> dict[str, Any]:
    return pack_schema_of("rulecraft.model.airships")


def _dice(data: Mapping[str, int] | None) -> Dice:
    return Dice.from_mapping(data or {})


def _provenance(entry: Mapping[str, Any]) -> str:
    prov = entry["provenance"]
    if isinstance(prov, str):
        return prov
    text = str(prov.get("source", "reconstructed"))
    if prov.get("why"):
        text += f": {prov['why']}"
    return text


def pack_from_data(data: Any, source: str = "<memory>", *, schema: bool = True) -> Pack:
    """Build a pack from parsed YAML/JSON, checked against schema and counts."""
    validator = validator_of("rulecraft.model.airships") if schema else None  # built once; None: the shipped pack
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)) if validator else []
    if errors:
        err = errors[0]
        where = _json_path(data, list(err.absolute_path))
        raise PackError(source, where, schema_message(err))
    airships = tuple(
        AirshipCard(
            id=e["id"],
            tier=e["tier"],
            requirement=_dice(e["requirement"]),
            target=e["target"],
            vp=e["vp"],
            dice=_dice(e.get("dice")),
            provenance=_provenance(e),
        )
        for e in data["airships"]
    )
    developments = tuple(_development(e) for e in data["developments"])
    stages = tuple(
        HindenburgStage(
            index=e["index"],
            requirement=_dice(e["requirement"]),
            target=e["target"],
            vp_low=e["vp_low"],
            vp_high=e["vp_high"],
            provenance=_provenance(e),
        )
        for e in data["stages"]
    )
    pack = Pack(
        name=data["name"],
        reconstructed=bool(data.get("reconstructed", False)),
        nations=tuple(data["nations"]),
        airships=airships,
        developments=developments,
        stages=stages,
        chips_per_nation=data.get("chips_per_nation", 6),
        source=source,
    )
    _check_counts(pack, source)
    return pack


def _json_path(data: Any, path: list[Any]) -> str:
    """'developments[12] (id F-07).requirement' — names the entry by its id."""
    out = ""
    node = data
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            try:
                node = node[part]
                if isinstance(node, dict) and "id" in node:
                    out += f" (id {node['id']})"
                continue
            except (IndexError, KeyError, TypeError):
                continue
        out += f".{part}" if out else str(part)
        node = node.get(part) if isinstance(node, dict) else None
    return out or "(top level)"


def _development(e: Mapping[str, Any]) -> DevelopmentCard:
    fixed = e.get("fixed")
    engine = e.get("engine")
    exchange = e.get("exchange")
    return DevelopmentCard(
        id=e["id"],
        group=e["group"],
        department=Department(e["department"]),
        requirement=_dice(e["requirement"]),
        target=e["target"],
        vp=e.get("vp", 0),
        dice=_dice(e.get("dice")),
        fixed=FixedDie(Colour(fixed["colour"]), fixed["value"]) if fixed else None,
        engine=(
            EngineBonus(None if engine["colour"] == "any" else Colour(engine["colour"]), engine["bonus"])
            if engine
            else None
        ),
        exchange=(
            Exchange(exchange["give"], Colour(exchange["give_colour"]), exchange["get"], Colour(exchange["get_colour"]))
            if exchange
            else None
        ),
        pilot_chips=e.get("pilot_chips", 0),
        provenance=_provenance(e),
    )


def _check_counts(pack: Pack, source: str) -> None:
    """The counts the rulebook does give (p.1-2, p.5)."""
    ids = [c.id for c in pack.developments] + [c.id for c in pack.airships]
    seen: set[str] = set()
    for card_id in ids:
        if card_id in seen:
            raise PackError(source, f"id {card_id}", "duplicate card id")
        seen.add(card_id)
    if len(pack.airships) != 18:
        raise PackError(source, "airships", f"expected 18 airship cards (p.1), found {len(pack.airships)}")
    for tier in TIERS:
        n = sum(1 for c in pack.airships if c.tier == tier)
        if n != 6:
            raise PackError(source, "airships", f"expected 6 {tier} airship cards (p.2), found {n}")
    if len(pack.developments) != 48:
        raise PackError(source, "developments", f"expected 48 development cards (p.1), found {len(pack.developments)}")
    for group, want in GROUP_COUNTS.items():
        n = sum(1 for c in pack.developments if c.group == group)
        if n != want:
            raise PackError(source, "developments", f"expected {want} {group} cards (p.2), found {n}")
    if sorted(s.index for s in pack.stages) != [1, 2, 3, 4]:
        raise PackError(source, "stages", "expected the 4 Hindenburg stages 1..4 (p.5)")
    if len(pack.nations) != 4:
        raise PackError(source, "nations", f"expected 4 nations (p.1), found {len(pack.nations)}")
    for i, card in enumerate(pack.developments):
        _check_card(card, source, f"developments[{i}] (id {card.id})")
    for i, stage in enumerate(pack.stages):
        if stage.vp_high <= stage.vp_low:
            # p.5, [EN] "Two different victory point values are given for each construction phase.
            # The higher value counts if the Hindenburg is completed".
            raise PackError(
                source,
                f"stages[{i}].vp_high",
                f"the high value ({stage.vp_high}) must be above the low one ({stage.vp_low}): each stage has two"
                " different VP values, the higher if the Hindenburg is completed (AIR-R-48, p.5)",
            )


def _check_card(card: DevelopmentCard, source: str, where: str) -> None:
    dept = card.department
    extra = card.dice.total()
    effects = {
        "fixed": card.fixed is not None,
        "engine": card.engine is not None,
        "exchange": card.exchange is not None,
        "pilot_chips": card.pilot_chips > 0,
    }
    own = {
        Department.ENGINEER: "fixed",
        Department.ENGINE: "engine",
        Department.MATERIAL: "exchange",
        Department.PILOT: "pilot_chips",
    }.get(dept)
    for effect, present in effects.items():
        if present and effect != own:
            raise PackError(source, f"{where}.{effect}", f"a {dept.value} card cannot carry {effect} (p.6)")
    if card.group == "starter":
        return  # AIR-AMB-31: starters are only known to give 1 white die
    if dept is Department.ENGINEER and card.fixed is None:
        raise PackError(source, f"{where}.fixed", "an Engineer card gives a fixed die (AIR-R-18)")
    if dept is Department.ENGINE and card.engine is None:
        raise PackError(source, f"{where}.engine", "an Engine card gives a bonus (AIR-R-19)")
    if dept is Department.MATERIAL and card.exchange is None:
        raise PackError(source, f"{where}.exchange", "a Material card gives an exchange (AIR-R-20)")
    if dept is Department.FINANCE and not 1 <= extra <= 3:
        raise PackError(source, f"{where}.dice", "a Finance card gives 1 to 3 dice (AIR-R-15)")
    # AIR-R-16: a Hangar card gives 1 or 2 extra dice (a Pilot card too, AIR-R-17).
    if dept in (Department.HANGAR, Department.PILOT) and not 1 <= extra <= 2:
        raise PackError(source, f"{where}.dice", f"a {dept.value} card gives 1 or 2 dice (p.6)")
    if dept is Department.PILOT and not 1 <= card.pilot_chips <= 3:
        raise PackError(source, f"{where}.pilot_chips", "a Pilot card gives 1 to 3 chips (AIR-R-17)")


PACK_FILES = PackFiles("rulecraft.model.airships", pack_from_data)
load_pack = PACK_FILES.load
bundled_pack = PACK_FILES.bundled
