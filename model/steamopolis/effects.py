"""The Steamopolis effect vocabulary: the rulebook's symbols as small frozen classes.

The symbol explanations (p.26-34) sort the symbols by colour, and so does
this module: **white** symbols receive material, **grey** symbols are
execution effects, **black** symbols are costs that gate the parts beneath
them (STM-R-22), and a **slash** offers the parts above or those below it.
An effect *program* is the tuple of parts of one effect, top to bottom as
printed.  District effects, machine activations and passives, character
set-ups and passenger rewards are all programs.

In a pack file a part is a bare symbol name (``sponsor``) or a one-key
mapping (``vp: 2``, ``pay: {gears: 2}``, ``either: [[...], [...]]``);
:func:`program_from_data` and :func:`program_to_data` translate both ways.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import attrs

# ---------------------------------------------------------------------------
# White: receive material (p.28-30); a stated maximum caps what is kept
# ---------------------------------------------------------------------------


@attrs.frozen
class GainResources:
    """Take resources from the general supply (p.29): fixed crystals and gears, ``either`` of free
    choice ("take up to 3 resources" is ``either=3``: white parts may be done partly), or
    ``any_number`` ("take any number of resources", STM-EX-24)."""

    crystals: int = 0
    gears: int = 0
    either: int = 0
    any_number: bool = False


@attrs.frozen
class GainPressureStone:
    """Take a stone from the personal supply and place it as if taken back (STM-R-20; maximum 5)."""


@attrs.frozen
class GainSponsor:
    """Take a sponsor tile, side of your choice (STM-R-57; maximum 1)."""


@attrs.frozen
class GainCharityGala:
    """Take a charity gala tile of your chosen resource (STM-R-58; maximum 1)."""


@attrs.frozen
class GainCapacityTile:
    """Take a capacity tile into the machine room (STM-R-59)."""


@attrs.frozen
class GainPinkMarker:
    """Character 7's pink bonus marker (STM-R-04, STM-P-05/08): placed as a bought bonus marker."""


# ---------------------------------------------------------------------------
# Grey: execution effects (p.30-31, STM-R-61) and the parasite symbols (p.32)
# ---------------------------------------------------------------------------


@attrs.frozen
class VotePoints:
    """Receive N vote points."""

    n: int


@attrs.frozen
class IncreasePressure:
    """Increase the pressure by N (STM-R-15): capacity boiler +1, machines +3, the stoker's +3."""

    n: int


@attrs.frozen
class IncreaseOneStone:
    """Increase the pressure of one stone by up to N (STM-R-16: the only 'up to' increase, N = 5)."""

    up_to: int = 5


@attrs.frozen
class LookAtMachine:
    """Look at the front of one face-down machine tile (hidden information only)."""


@attrs.frozen
class AdvanceBaseMarker:
    """Move the base pressure marker one space right (STM-R-17)."""


@attrs.frozen
class TurnSponsor:
    """Turn your sponsor to its other side (STM-R-57)."""


@attrs.frozen
class BuyTile:
    """Buy one face-up machine tile on any level by the normal rules (STM-R-61; no bonus markers)."""


@attrs.frozen
class TurnStones:
    """Turn N of your pressure stones arrow side up (STM-R-19: N is 1 or 3)."""

    n: int


@attrs.frozen
class StoneToEight:
    """Put the stone taken back for this district on the value-8 space (STM-R-61, STM-AMB-22)."""


@attrs.frozen
class UseAnotherDistrict:
    """Use the effect of one district not activated this turn and without your stone (STM-R-61)."""


@attrs.frozen
class PlaceParasites:
    """Place or move own parasites (STM-R-52): ``count`` None = any number; ``activate``: place or move
    and immediately activate one without taking it back (STM-R-56)."""

    count: int | None = 1
    activate: bool = False


@attrs.frozen
class ActivateParasites:
    """Activate own parasites without taking them back (STM-R-56): ``count`` None = any number."""

    count: int | None = 1


@attrs.frozen
class ShakeOff:
    """Shake opposing parasites off your machines (STM-R-55): one chosen one, or all."""

    all: bool = True


@attrs.frozen
class UseAllActivationEffects:
    """Activate every machine right to left as if channelling a value-8 stone to level 1 (STM-R-62)."""


# ---------------------------------------------------------------------------
# Black: costs that gate the parts beneath them (p.27, STM-R-22)
# ---------------------------------------------------------------------------


@attrs.frozen
class PayResources:
    """Return resources to the general supply (black, with -N)."""

    crystals: int = 0
    gears: int = 0


@attrs.frozen
class PayCrystalsPerStone:
    """Pay as many crystals as you own pressure stones on the gauge and the board (STM-R-63)."""


@attrs.frozen
class Envy:
    """Each other player may place one parasite on your machines (STM-R-53)."""


@attrs.frozen
class ReturnStone:
    """Pressure stone -1: return one stone to your personal supply, never the last (STM-R-43)."""


# ---------------------------------------------------------------------------
# Structure
# ---------------------------------------------------------------------------


@attrs.frozen
class Either:
    """A slash (p.26): carry out the parts above OR those below it."""

    first: Program
    second: Program


Part = (
    GainResources
    | GainPressureStone
    | GainSponsor
    | GainCharityGala
    | GainCapacityTile
    | GainPinkMarker
    | VotePoints
    | IncreasePressure
    | IncreaseOneStone
    | LookAtMachine
    | AdvanceBaseMarker
    | TurnSponsor
    | BuyTile
    | TurnStones
    | StoneToEight
    | UseAnotherDistrict
    | PlaceParasites
    | ActivateParasites
    | ShakeOff
    | UseAllActivationEffects
    | PayResources
    | PayCrystalsPerStone
    | Envy
    | ReturnStone
    | Either
)
Program = tuple[Part, ...]


# ---------------------------------------------------------------------------
# Turn bookkeeping: steps the rules queue, never printed on a component
# ---------------------------------------------------------------------------


@attrs.frozen
class Handover:
    """The decision passes to ``seat`` inside the current turn: another player's parasite effect or
    envy placement (STM-R-53/54, STM-AMB-21), or back to the player whose effects continue.  Applied
    automatically; a helper's gains are stored as the decision passes on (p.33, STM-R-32)."""

    seat: int


@attrs.frozen
class EnvyParasite:
    """Envy (STM-R-53): the deciding player may place 1 parasite from their supply on ``host``'s machines."""

    host: int


@attrs.frozen
class NextSharer:
    """STM-AMB-21 'owner-chooses': the deciding player picks which of ``seats`` uses ``programs`` next
    (each seat once per occurrence: parasite effects, envy placements)."""

    seats: tuple[int, ...]
    programs: tuple[Shared, ...]


Shared = tuple[Part | EnvyParasite, ...]  # what other players share: a printed program or an envy placement
Control = Handover | EnvyParasite | NextSharer
Step = Part | Control
Queued = tuple[Step, ...]  # one waiting effect in ``turn.pending``: a program or a bookkeeping step

COSTS: tuple[type, ...] = (PayResources, PayCrystalsPerStone, Envy, ReturnStone)
Colour = Literal["white", "grey", "black", "slash"]


def colour(part: Part) -> Colour:
    """The printed colour of a symbol (STM-R-22): white gains, grey execution, black costs."""
    if isinstance(part, Either):
        return "slash"
    if isinstance(part, COSTS):
        return "black"
    if isinstance(part, GainResources | GainPressureStone | GainSponsor | GainCharityGala | GainCapacityTile):
        return "white"
    return "grey"


def gated(program: Program) -> tuple[tuple[Program, Program], ...]:
    """STM-R-22 (p.27): split a program at its black costs into (costs, parts) steps.

    The first step has no costs: the parts above the first cost need no
    payment.  Each later step's costs must be paid in full to use its parts
    *and every part below it* (a cost gates everything beneath it).
    """
    steps: list[tuple[list[Part], list[Part]]] = [([], [])]
    for part in program:
        if isinstance(part, COSTS):
            if steps[-1][1]:
                steps.append(([], []))
            steps[-1][0].append(part)
        else:
            steps[-1][1].append(part)
    return tuple((tuple(c), tuple(p)) for c, p in steps if c or p)


def walk(program: Program) -> tuple[Part, ...]:
    """Every part of a program, inside slashes too."""
    out: list[Part] = []
    for part in program:
        out.append(part)
        if isinstance(part, Either):
            out.extend(walk(part.first))
            out.extend(walk(part.second))
    return tuple(out)


# ---------------------------------------------------------------------------
# Pack-file form
# ---------------------------------------------------------------------------

# Bare symbol names (no parameters) and the class each stands for.
BARE: Mapping[str, type] = {
    "pressure-stone": GainPressureStone,
    "sponsor": GainSponsor,
    "charity-gala": GainCharityGala,
    "capacity": GainCapacityTile,
    "pink-bonus-marker": GainPinkMarker,
    "look-at-machine": LookAtMachine,
    "base-pressure-marker": AdvanceBaseMarker,
    "turn-sponsor": TurnSponsor,
    "buy-tile": BuyTile,
    "stone-to-8": StoneToEight,
    "use-another-district": UseAnotherDistrict,
    "use-all-activation-effects": UseAllActivationEffects,
    "pay-crystals-per-stone": PayCrystalsPerStone,
    "envy": Envy,
    "stone-minus-1": ReturnStone,
}
_BARE_NAME: Mapping[type, str] = {cls: name for name, cls in BARE.items()}
KEYED: tuple[str, ...] = (
    "resources",
    "pay",
    "vp",
    "pressure",
    "one-stone-up-to",
    "turn-stones",
    "place-parasites",
    "place-and-activate-parasite",
    "activate-parasites",
    "shake-off",
    "either",
)


CONTROL_KEYED: tuple[str, ...] = ("handover", "envy-parasite", "next-sharer")


def _count(value: Any) -> int | None:
    return None if value == "any" else int(value)


def part_from_data(data: Any) -> Part:
    """One part from its pack-file form (the schema has checked the shape)."""
    if isinstance(data, str):
        part: Part = BARE[data]()
        return part
    ((key, value),) = data.items()
    if key == "resources":
        if value == "any":
            return GainResources(any_number=True)
        return GainResources(value.get("crystals", 0), value.get("gears", 0), value.get("either", 0))
    if key == "pay":
        return PayResources(value.get("crystals", 0), value.get("gears", 0))
    simple: Mapping[str, Any] = {
        "vp": lambda: VotePoints(value),
        "pressure": lambda: IncreasePressure(value),
        "one-stone-up-to": lambda: IncreaseOneStone(value),
        "turn-stones": lambda: TurnStones(value),
        "place-parasites": lambda: PlaceParasites(_count(value)),
        "place-and-activate-parasite": lambda: PlaceParasites(1, activate=True),
        "activate-parasites": lambda: ActivateParasites(_count(value)),
        "shake-off": lambda: ShakeOff(value == "all"),
        "either": lambda: Either(program_from_data(value[0]), program_from_data(value[1])),
    }
    made: Part = simple[key]()
    return made


def program_from_data(data: Sequence[Any]) -> Program:
    return tuple(part_from_data(p) for p in data)


def step_from_data(data: Any) -> Step:
    """A printed part or a bookkeeping step (the state file's form of ``turn.pending``)."""
    if isinstance(data, dict) and len(data) == 1:
        ((key, value),) = data.items()
        if key == "handover":
            return Handover(int(value))
        if key == "envy-parasite":
            return EnvyParasite(int(value))
        if key == "next-sharer":
            programs = tuple(tuple(_shared_from_data(x) for x in p) for p in value["programs"])
            return NextSharer(tuple(int(x) for x in value["seats"]), programs)
    return part_from_data(data)


def _shared_from_data(data: Any) -> Part | EnvyParasite:
    step = step_from_data(data)
    if isinstance(step, Handover | NextSharer):
        raise ValueError(f"a shared program holds printed parts and envy placements, not {data!r}")
    return step


def queued_from_data(data: Sequence[Any]) -> Queued:
    return tuple(step_from_data(p) for p in data)


def _counts(**values: int) -> dict[str, int]:
    return {k: v for k, v in values.items() if v}


def part_to_data(part: Step) -> Any:
    """The pack-file form of one part (inverse of :func:`part_from_data`; bookkeeping steps of
    ``turn.pending`` too, inverse of :func:`step_from_data`)."""
    if type(part) in _BARE_NAME:
        return _BARE_NAME[type(part)]
    match part:
        case GainResources(any_number=True):
            return {"resources": "any"}
        case GainResources(crystals=c, gears=g, either=e):
            return {"resources": _counts(crystals=c, gears=g, either=e)}
        case PayResources(crystals=c, gears=g):
            return {"pay": _counts(crystals=c, gears=g)}
        case VotePoints(n=n):
            return {"vp": n}
        case IncreasePressure(n=n):
            return {"pressure": n}
        case IncreaseOneStone(up_to=n):
            return {"one-stone-up-to": n}
        case TurnStones(n=n):
            return {"turn-stones": n}
        case PlaceParasites(activate=True):
            return {"place-and-activate-parasite": 1}
        case PlaceParasites(count=n):
            return {"place-parasites": "any" if n is None else n}
        case ActivateParasites(count=n):
            return {"activate-parasites": "any" if n is None else n}
        case ShakeOff(all=every):
            return {"shake-off": "all" if every else "one"}
        case Either(first=a, second=b):
            return {"either": [program_to_data(a), program_to_data(b)]}
        case Handover(seat=seat):
            return {"handover": seat}
        case EnvyParasite(host=host):
            return {"envy-parasite": host}
        case NextSharer(seats=seats, programs=programs):
            return {"next-sharer": {"seats": list(seats), "programs": [program_to_data(p) for p in programs]}}
    raise TypeError(f"not a Steamopolis effect part: {part!r}")


def program_to_data(program: Sequence[Step]) -> list[Any]:
    return [part_to_data(p) for p in program]
