"""Rulesets: the printed rules plus one named reading per registered ambiguity.

The model asks its ruleset (``ruleset.reading("AIR-AMB-09")``), never a
global.  A ruleset starts from the register's defaults and can be overridden
per run (``--reading AIR-AMB-09=C``) or per scenario (``readings:``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import attrs

from rulecraft.core import RulecraftError


class UnknownReading(RulecraftError):
    """A reading was asked for that the register does not have."""


@attrs.frozen
class Reading:
    """One way of reading an ambiguous passage."""

    key: str
    text: str


@attrs.frozen
class Ambiguity:
    """A registered ambiguity or gap: the question, its readings, the default."""

    id: str
    page: str
    question: str
    readings: tuple[Reading, ...]
    default: str
    why: str
    # False where every reading leads to the same play in this model (for
    # example a translation slip): the switch exists, but cannot matter.
    affects_play: bool = True
    # The readings of other ambiguities under which this question arises at all
    # (AIR-AMB-14 is asked only under AIR-AMB-13 'reveal'); a witness search plays under them.
    context: Mapping[str, str] = attrs.field(factory=dict, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        keys = [r.key for r in self.readings]
        if self.default not in keys:
            raise ValueError(f"{self.id}: default {self.default!r} is not one of {keys}")
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.id}: duplicate reading keys {keys}")

    @classmethod
    def of(
        cls,
        amb_id: str,
        page: str,
        question: str,
        readings: Sequence[tuple[str, str]],
        default: str,
        why: str,
        *,
        affects_play: bool = True,
        context: Mapping[str, str] | None = None,
    ) -> Ambiguity:
        """An ambiguity as a register lists it: readings as (key, text) pairs."""
        choices = tuple(Reading(key, text) for key, text in readings)
        return cls(amb_id, page, question, choices, default, why, affects_play, dict(context or {}))

    def choices(self) -> tuple[str, ...]:
        """The reading keys, in register order."""
        return tuple(r.key for r in self.readings)

    keys = choices  # the older name, kept for callers

    def text_of(self, key: str) -> str:
        for r in self.readings:
            if r.key == key:
                return r.text
        raise UnknownReading(f"{self.id} has no reading {key!r}; choose one of {self.choices()}")


@attrs.frozen
class AmbiguityRegister:
    game: str
    ambiguities: tuple[Ambiguity, ...]

    def __iter__(self) -> Iterator[Ambiguity]:
        return iter(self.ambiguities)

    def __len__(self) -> int:
        return len(self.ambiguities)

    def __getitem__(self, amb_id: str) -> Ambiguity:
        for amb in self.ambiguities:
            if amb.id == amb_id:
                return amb
        raise UnknownReading(f"{amb_id} is not a registered ambiguity of {self.game}")

    def defaults(self) -> dict[str, str]:
        return {a.id: a.default for a in self.ambiguities}


def parse_reading_overrides(items: Iterable[str]) -> dict[str, str]:
    """Parse ``["AIR-AMB-09=C", ...]`` (the CLI form) into a mapping."""
    out: dict[str, str] = {}
    for item in items:
        amb_id, sep, key = item.partition("=")
        if not sep or not amb_id.strip() or not key.strip():
            raise UnknownReading(f"--reading {item!r}: expected ID=READING, e.g. AIR-AMB-09=C")
        out[amb_id.strip()] = key.strip()
    return out


@attrs.frozen
class Ruleset:
    """The printed rules of one game under one choice of readings."""

    game: str
    readings: tuple[tuple[str, str], ...]
    name: str = "printed"

    @classmethod
    def printed(cls, register: AmbiguityRegister) -> Ruleset:
        return cls(register.game, tuple(sorted(register.defaults().items())))

    @classmethod
    def from_overrides(cls, register: AmbiguityRegister, overrides: Mapping[str, str] | None = None) -> Ruleset:
        return cls.printed(register).with_readings(register, overrides or {})

    def with_readings(self, register: AmbiguityRegister, overrides: Mapping[str, str]) -> Ruleset:
        chosen = dict(self.readings)
        for amb_id, key in overrides.items():
            amb = register[amb_id]
            if key not in amb.choices():
                raise UnknownReading(f"{amb_id} has no reading {key!r}; choose one of {', '.join(amb.choices())}")
            chosen[amb_id] = key
        name = self.name
        changed = {k: v for k, v in chosen.items() if register[k].default != v}
        if changed:
            name = "printed+" + ",".join(f"{k}={v}" for k, v in sorted(changed.items()))
        return Ruleset(self.game, tuple(sorted(chosen.items())), name)

    def reading(self, amb_id: str) -> str:
        for key, value in self.readings:
            if key == amb_id:
                return value
        raise UnknownReading(f"{amb_id} is not a registered ambiguity of {self.game}")

    def non_defaults(self, register: AmbiguityRegister) -> dict[str, str]:
        return {k: v for k, v in self.readings if register[k].default != v}
