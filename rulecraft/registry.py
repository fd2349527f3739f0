"""The game registry.  Games register themselves through the
``rulecraft.games`` entry point; the machinery never imports a game by name."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from rulecraft.core import Game, RulecraftError

_GAMES: dict[str, type[Game[Any, Any]]] = {}
_LOADED = False


class UnknownGame(RulecraftError):
    pass


def register(cls: type[Game[Any, Any]]) -> type[Game[Any, Any]]:
    """Class decorator: make a game known under its ``id``."""
    _GAMES[cls.id] = cls
    return cls


def _load_entry_points() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for ep in entry_points(group="rulecraft.games"):
        ep.load()


def game_ids() -> list[str]:
    _load_entry_points()
    return sorted(_GAMES)


def game_class(game_id: str) -> type[Game[Any, Any]]:
    _load_entry_points()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"unknown game {game_id!r}; registered games: {known}") from None


def make_game(
    game_id: str,
    *,
    readings: Mapping[str, str] | None = None,
    components: str | Path | None = None,
    parameters: Mapping[str, int] | None = None,
) -> Game[Any, Any]:
    """A configured game: printed rules with reading overrides, rule parameters and a pack."""
    cls = game_class(game_id)
    if parameters:
        table = getattr(cls, "parameters", None)
        if table is None or not len(table):
            raise RulecraftError(f"{game_id}: this game has no rule parameters to change")
        table.resolve(parameters)  # refuse unknown names and values out of range before configuring
        return cls.configured(readings=readings, components=components, parameters=parameters)
    return cls.configured(readings=readings, components=components)
