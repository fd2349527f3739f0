"""The readers every game's scenario builder uses on a ``given:`` block, written once.

A game's ``state_from_given`` keeps its own vocabulary (depots, rail levels, pressure stones); these
read the plain values inside it and name the field they read when the value is wrong, so a bad
scenario file is one :class:`~rulecraft.scenarios.runner.ScenarioError` line: ``given.seats.1.vp: a
whole number, got 'ten'``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rulecraft.scenarios.runner import ScenarioError

__all__ = ["choice", "flag", "listing", "mapping", "no_unknown_fields", "seat", "whole"]


def whole(value: Any, where: str) -> int:
    """A whole number (a YAML ``true`` is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{where}: a whole number, got {value!r}")
    return value


def flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where}: true or false, got {value!r}")
    return value


def mapping(value: Any, where: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where}: a mapping, got {value!r}")
    return value


def listing(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise ScenarioError(f"{where}: a list, got {value!r}")
    return list(value)


def no_unknown_fields(spec: Mapping[Any, Any], known: set[str], where: str) -> None:
    """Refuse a field the builder does not read (a typo must not be dropped without a word)."""
    extra = set(map(str, spec)) - known
    if extra:
        raise ScenarioError(f"{where}: unknown field(s) {sorted(extra)}; known: {sorted(known)}")


def choice(value: Any, options: Iterable[str], where: str) -> str:
    options = tuple(options)
    if value not in options:
        raise ScenarioError(f"{where}: {value!r} is not one of {list(options)}")
    return str(value)


def seat(value: Any, players: int, where: str) -> int:
    """A seat number of a game of ``players`` (a YAML key ``"2"`` reads as seat 2)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ScenarioError(f"{where}: a seat 0..{players - 1}, got {value!r}") from None
    if isinstance(value, bool) or not 0 <= number < players:
        raise ScenarioError(f"{where}: a seat 0..{players - 1}, got {value!r}")
    return number
