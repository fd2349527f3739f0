"""Rule parameters: the numbers a rule states (costs, limits, counts), named and bounded.

A variant or an erratum changes them by name (``extra_go_cost: 2``); the model
asks its context for the value, never a literal.  Each parameter cites the
rule that states it and the range a variant may choose from, so a value out
of range is refused with the parameter, the range and the rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from rulecraft.core import RulecraftError


class ParameterError(RulecraftError):
    """A parameter that does not exist, or a value it cannot take."""


@attrs.frozen
class Parameter:
    name: str
    rule: str  # the rule that states the number
    default: int  # the printed value
    low: int
    high: int
    text: str

    def __attrs_post_init__(self) -> None:
        if not self.low <= self.default <= self.high:
            raise ValueError(f"{self.name}: the printed value {self.default} is outside {self.low}..{self.high}")


@attrs.frozen
class ParameterTable:
    game: str
    parameters: tuple[Parameter, ...] = ()

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self.parameters)

    def __len__(self) -> int:
        return len(self.parameters)

    def __getitem__(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.parameters) or "none"
        raise ParameterError(f"{name!r} is not a parameter of {self.game}; known: {known}")

    def defaults(self) -> dict[str, int]:
        return {p.name: p.default for p in self.parameters}

    def changed(self, values: Mapping[str, int]) -> dict[str, int]:
        """The values that differ from the printed ones (what a variant changed)."""
        return {name: v for name, v in values.items() if v != self[name].default}

    def resolve(self, overrides: Mapping[str, Any] | None, where: str = "parameters") -> dict[str, int]:
        """The printed values with ``overrides`` on top, each checked; errors name ``where.name``."""
        values = self.defaults()
        for name, value in (overrides or {}).items():
            try:
                p = self[name]
            except ParameterError as exc:
                raise ParameterError(f"{where}.{name}: {exc}") from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise ParameterError(f"{where}.{name}: a whole number is needed, got {value!r}")
            if not p.low <= value <= p.high:
                raise ParameterError(
                    f"{where}.{name}: {value} is out of range {p.low}..{p.high} "
                    f"({p.rule}: {p.text}; printed {p.default})"
                )
            values[name] = value
        return values
