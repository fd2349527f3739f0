"""The game registry.  Games register themselves through the
``rulecraft.games`` entry point; the machinery never imports a game by name."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path

from rulecraft.core import AnyGame, Game, RulecraftError
from rulecraft.record import BadRecord, GameRecord

_RECORDS: dict[str, GameRecord] = {}
_LOADED = False


class UnknownGame(RulecraftError):
    pass


class BadRegistration(BadRecord):
    pass


def register(cls: type[AnyGame]) -> type[AnyGame]:
    """Class decorator: make a game known under its ``id`` by its class alone (no queries or
    invariants but the class's own); a game's entry point should export a :class:`GameRecord`."""
    _RECORDS[cls.id] = GameRecord.of_class(cls)
    return cls


def add_record(record: GameRecord) -> GameRecord:
    """Make a game known by its record (what an entry point of group ``rulecraft.games`` exports)."""
    _RECORDS[record.id] = record
    return record


def _load_entry_points() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for ep in entry_points(group="rulecraft.games"):
        exported = ep.load()
        if isinstance(exported, GameRecord):
            _RECORDS.setdefault(exported.id, exported)
        elif isinstance(exported, type) and issubclass(exported, Game):
            _RECORDS.setdefault(exported.id, GameRecord.of_class(exported))
        else:
            raise BadRegistration(
                f"entry point {ep.name} = {ep.value} (group rulecraft.games): exports"
                f" {type(exported).__name__}, not a GameRecord or a Game class"
            )


def game_ids() -> list[str]:
    _load_entry_points()
    return sorted(_RECORDS)


def record(game_id: str) -> GameRecord:
    """The record of a registered game: names without importing it, factories for its parts."""
    _load_entry_points()
    try:
        return _RECORDS[game_id]
    except KeyError:
        known = ", ".join(sorted(_RECORDS)) or "none"
        raise UnknownGame(f"unknown game {game_id!r}; registered games: {known}") from None


def record_of(game: AnyGame) -> GameRecord | None:
    """The record a configured game was made from (None: a game no one registered, e.g. a test's)."""
    _load_entry_points()
    found = _RECORDS.get(game.id)
    return found if found is not None and isinstance(game, found.game()) else None


def game_class(game_id: str) -> type[AnyGame]:
    return record(game_id).game()


def make_game(
    game_id: str,
    *,
    readings: Mapping[str, str] | None = None,
    components: str | Path | None = None,
    parameters: Mapping[str, int] | None = None,
) -> AnyGame:
    """A configured game: printed rules with reading overrides, rule parameters and a pack."""
    cls = game_class(game_id)
    if parameters:
        table = cls.parameters
        if not len(table):
            raise RulecraftError(f"{game_id}: this game has no rule parameters to change")
        table.resolve(parameters)  # refuse unknown names and values out of range before configuring
        return cls.configured(readings=readings, components=components, parameters=parameters)
    return cls.configured(readings=readings, components=components)
