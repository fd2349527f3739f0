"""Airships actions: one small frozen class per kind of move.

Targets are strings: ``development:<card id>``, ``airship:<stack 1-4>``
(its top card), ``stage:<1-4>``.  Chance actions carry the drawn card or
the thrown faces, so a log replays exactly.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from rulecraft.model.airships.components import NO_DICE, Dice


@attrs.frozen
class DealAirship:
    """Chance: the next airship card dealt onto its stack (AIR-R-03)."""

    kind: ClassVar[str] = "deal-airship"
    card: str


@attrs.frozen
class DealStarter:
    """Chance: the starter dealt to the next seat (AIR-R-05)."""

    kind: ClassVar[str] = "deal-starter"
    card: str


@attrs.frozen
class Reveal:
    """Chance: the deck's next item; ``card`` None is the era tile (AIR-R-23, AIR-R-25)."""

    kind: ClassVar[str] = "reveal"
    card: str | None


@attrs.frozen
class Throw:
    """Chance: the faces thrown per colour, each sorted high to low (AIR-R-32)."""

    kind: ClassVar[str] = "throw"
    W: tuple[int, ...] = ()
    R: tuple[int, ...] = ()
    B: tuple[int, ...] = ()


@attrs.frozen
class AttemptTarget:
    """Step 2: declare a target, the Material exchanges and the dice to throw."""

    kind: ClassVar[str] = "attempt"
    target: str
    throw: Dice = NO_DICE
    exchanges: int = 0
    give_fixed: bool = False  # the fixed die is one of the dice given up (AIR-AMB-08)


@attrs.frozen
class NoAttempt:
    """Step 2 skipped: no legal target (AIR-AMB-23), or a pass where allowed."""

    kind: ClassVar[str] = "no-attempt"


@attrs.frozen
class Resolve:
    """After a short throw: spend a chip (AIR-R-37); under AIR-AMB-12
    'optional' also whether to use the engine and the wooden airship."""

    kind: ClassVar[str] = "resolve"
    chip: bool = False
    engine: bool = True
    wooden_airship: bool = True


@attrs.frozen
class ExtraGo:
    """Pay 3 chips for another complete go (AIR-R-42)."""

    kind: ClassVar[str] = "extra-go"


@attrs.frozen
class EndGo:
    """End the go; play passes clockwise (AIR-R-10)."""

    kind: ClassVar[str] = "end-go"


AirAction = DealAirship | DealStarter | Reveal | Throw | AttemptTarget | NoAttempt | Resolve | ExtraGo | EndGo
ACTION_TYPES: tuple[type[AirAction], ...] = (
    DealAirship,
    DealStarter,
    Reveal,
    Throw,
    AttemptTarget,
    NoAttempt,
    Resolve,
    ExtraGo,
    EndGo,
)
