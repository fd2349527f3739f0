"""The game registry.  Games register themselves through the
``rulecraft.games`` entry point; the machinery never imports a game by name."""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Mapping, Sequence
from contextlib import suppress
from functools import reduce
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any, NamedTuple

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


# importlib.metadata's own pattern of an entry point's value: module[:attribute.path][ [extras]]
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
_METADATA = (".dist-info", ".egg-info")


class _EntryPoint(NamedTuple):
    """An entry point read from a distribution's entry_points.txt, loaded as importlib.metadata's are."""

    name: str
    value: str
    group: str

    def load(self) -> Any:
        match = _VALUE.match(self.value)
        assert match is not None  # _read_entry_points keeps none that does not match
        module = importlib.import_module(match.group("module"))
        return reduce(getattr, filter(None, (match.group("attr") or "").split(".")), module)


def entry_points(group: str) -> Sequence[Any]:
    """``importlib.metadata.entry_points(group=group)``: read here from the distributions' own
    entry_points.txt where the import path is plain folders (importlib.metadata took 0.02 s to import,
    a fifth of `rulecraft --help`), else by importlib.metadata itself.  tests/test_startup_imports.py
    checks the two find the same."""
    found = _read_entry_points(group)
    if found is None:
        from importlib.metadata import entry_points as metadata_entry_points

        return list(metadata_entry_points(group=group))
    return found


def _read_entry_points(group: str) -> list[_EntryPoint] | None:
    """What importlib.metadata finds (its MetadataPathFinder over sys.path, the first distribution of
    each normalised name, its entry_points.txt read as its Sectioned reader reads it), or None where
    anything is not the plain case this reads: another finder of distributions, a zip or egg on the
    path, a metadata folder named in other letters, a line or value importlib.metadata reads otherwise."""
    if any(getattr(f, "find_distributions", None) is not None and f is not PathFinder for f in sys.meta_path):
        return None
    seen: set[str] = set()
    found: list[_EntryPoint] = []
    for entry in sys.path:
        if not isinstance(entry, str) or entry.lower().endswith(".egg"):
            return None
        try:
            children = os.listdir(entry or ".")
        except OSError:
            if os.path.exists(entry or "."):
                return None  # a zip file: importlib.metadata reads into it
            continue
        groups: dict[str, list[str]] = {}  # importlib.metadata's order: by name, as first listed
        for child in children:
            if child.lower().endswith(_METADATA):
                if not child.endswith(_METADATA):
                    return None  # importlib.metadata then reads the name from the METADATA file
                name = re.sub(r"[-_.]+", "-", child.lower().rpartition(".")[0].partition("-")[0]).replace("-", "_")
                groups.setdefault(name, []).append(child)
        for name, children_named in groups.items():
            for child in children_named:
                if name in seen:
                    continue
                seen.add(name)
                read = _entry_points_of(os.path.join(entry, child), group)
                if read is None:
                    return None
                found.extend(read)
    return found


def _entry_points_of(folder: str, group: str) -> list[_EntryPoint] | None:
    """The entry points of ``group`` in the distribution ``folder``'s entry_points.txt, or None where
    importlib.metadata would read a line otherwise (or fail on it)."""
    text = ""
    with (
        suppress(FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError),
        open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as source,
    ):
        text = source.read()
    out = []
    section: str | None = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        if "=" not in line:
            return None
        name, value = map(str.strip, line.split("=", 1))
        if section == group:
            if _VALUE.match(value) is None:
                return None
            out.append(_EntryPoint(name, value, group))
    return out


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
