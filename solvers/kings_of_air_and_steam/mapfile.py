"""``--map FILE``: a Kings of Air and Steam map for the flight and shipping queries.

A rules judge asks about the position on the table, not only about the bundled boards.  The file is
YAML or JSON in the scenario ``given.map`` form (``model/kings_of_air_and_steam/packs/map.schema.json``):
read within the data-file limits, checked against the schema, then built as the printed examples'
boards are.  Every refusal is one line naming the file and the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.model.kings_of_air_and_steam.components import GameMap
from rulecraft.model.kings_of_air_and_steam.scenario import fixture_map
from rulecraft.packs import first_schema_error
from rulecraft.scenarios.runner import ScenarioError
from rulecraft.yamlio import DataFileError, load_file

if TYPE_CHECKING:
    import jsonschema

MAP_HELP = "a map of your own: YAML or JSON, schema kings_of_air_and_steam/packs/map.schema.json (docs/cli.md)"
MAP_LAYOUT = "map-file"  # the layout name a --map board is known by in the game's context


class MapFileError(DataFileError):
    """A --map file that cannot be used (``FILE: FIELD: reason``)."""


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema  # only a --map file is checked: a query without one does not pay the import

    text = (files("rulecraft.model.kings_of_air_and_steam") / "packs" / "map.schema.json").read_text("utf-8")
    schema = json.loads(text)
    validator: jsonschema.protocols.Validator = jsonschema.Draft202012Validator(schema)
    return validator


def read_map(path: str | Path) -> GameMap:
    """The map in ``path``, checked (see the module text)."""
    data = load_file(path, error=MapFileError)
    # The project's bounded schema check: a hostile file cannot make it collect millions of errors.
    found = first_schema_error(_validator(), data, _entry)
    if found is not None:
        where, message = found
        raise MapFileError(path, "map" if where == "(top level)" else f"map.{where}", message)
    assert isinstance(data, Mapping)
    names = [c["name"] for c in data["cities"]]
    if len(set(names)) != len(names):
        raise MapFileError(path, "map.cities", "two cities share a name")
    ids = [ln["id"] for ln in data["lines"]]
    if len(set(ids)) != len(ids):
        raise MapFileError(path, "map.lines", "two rail lines share an id")
    try:
        return fixture_map(data, name=MAP_LAYOUT)
    except ScenarioError as exc:  # the builder's own checks (a line's ends among the cities...)
        message = str(exc).replace("given.map", "map")
        raise MapFileError(path, message.split(":", 1)[0], message.split(":", 1)[-1].strip()) from None


def _entry(node: Any) -> str:
    """A city or line entry named by its name or id in a field path (``cities[1] (Warsop)``)."""
    name = node.get("name", node.get("id")) if isinstance(node, Mapping) else None
    return f" ({name})" if isinstance(name, str) else ""


def use_map(game: Any, path: str | Path) -> str:
    """Read ``path`` and make it the game's layout :data:`MAP_LAYOUT`; that layout name."""
    game.ctx.maps[MAP_LAYOUT] = read_map(path)
    return MAP_LAYOUT
