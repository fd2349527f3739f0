"""Loading scenario files: YAML checked against ``schemas/scenario.json``.

A malformed file is a :class:`ScenarioFileError` naming the file and the
field at fault; it never stops the other scenarios from running.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import yaml

from rulecraft import yamlio
from rulecraft.core import RulecraftError

SCENARIO_GLOB = "[A-Z][A-Z][A-Z]-EX-*.yaml"


class ScenarioFileError(RulecraftError):
    def __init__(self, path: str, field: str, message: str) -> None:
        super().__init__(f"{path}: {field}: {message}")
        self.path = path
        self.field = field
        self.message = message


@attrs.frozen
class Scenario:
    id: str
    title: str
    game: str
    page: str
    rulebook: str
    rules: tuple[str, ...]
    readings: Mapping[str, str]
    depends_on: tuple[str, ...]
    given: Mapping[str, Any]
    steps: tuple[Mapping[str, Any], ...]
    expect: tuple[Mapping[str, Any], ...]
    path: str
    components: str | None = None
    reconstruction: str = ""


@cache
def scenario_schema() -> dict[str, Any]:
    text = files("rulecraft").joinpath("schemas/scenario.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _field(path: list[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        data = yamlio.load(p.read_text("utf-8"))
    except OSError as exc:
        raise ScenarioFileError(str(p), "(file)", f"cannot read: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise ScenarioFileError(str(p), "(file)", f"not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioFileError(str(p), "(top level)", "a scenario is a mapping with id, title, game, ...")
    validator = jsonschema.Draft202012Validator(scenario_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if errors:
        err = _deepest(errors)
        raise ScenarioFileError(str(p), _field(list(err.absolute_path)), err.message)
    stem_id = p.name.split("-")[:3]
    if "-".join(stem_id) != data["id"] and not p.name.startswith(data["id"]):
        raise ScenarioFileError(str(p), "id", f"{data['id']} does not match the file name")
    source = data["source"]
    return Scenario(
        id=data["id"],
        title=data["title"],
        game=data["game"],
        page=str(source["page"]),
        rulebook=source["rulebook"],
        rules=tuple(data["rules"]),
        readings=dict(data.get("readings", {})),
        depends_on=tuple(data.get("depends_on", ())),
        given=data["given"],
        steps=tuple(data.get("steps", ())),
        expect=tuple(data["expect"]),
        path=str(p),
        components=data.get("components"),
        reconstruction=data.get("reconstruction", ""),
    )


def _deepest(errors: list[jsonschema.ValidationError]) -> jsonschema.ValidationError:
    """The most specific error: descend into oneOf contexts."""
    best = max(errors, key=lambda e: len(e.absolute_path))
    while best.context:
        best = max(best.context, key=lambda e: len(e.absolute_path))
    return best


def scenario_root() -> Path:
    """The bundled scenarios: the source tree's scenarios/, or the installed copy."""
    here = Path(__file__).resolve().parents[2] / "scenarios"
    if here.is_dir():
        return here
    return Path(str(files("rulecraft.scenario_data")))


def game_folders() -> dict[str, str]:
    """Scenario folder per game id (the folder holds the game's printed examples)."""
    from rulecraft.registry import game_class, game_ids

    return {gid: game_class(gid).scenario_folder for gid in game_ids()}


def scenario_files(game_id: str, root: Path | None = None) -> Iterator[Path]:
    root = root or scenario_root()
    folder = root / game_folders()[game_id]
    yield from sorted(folder.glob(SCENARIO_GLOB))
