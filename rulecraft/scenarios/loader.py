"""Loading scenario files: YAML checked against ``schemas/scenario.json``.

A malformed file is a :class:`ScenarioFileError` naming the file and the
field at fault; it never stops the other scenarios from running. Files are
read within :mod:`rulecraft.yamlio`'s limits, and the rule IDs, ambiguities
and readings a scenario names must be the game's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft import yamlio
from rulecraft.yamlio import DataFileError, excerpt, name

if TYPE_CHECKING:  # imported where a scenario is checked: listing scenarios (`rulecraft rules`) needs no schema
    import jsonschema

SCENARIO_GLOB = "[A-Z][A-Z][A-Z]-EX-*.yaml"


MAX_PROBLEMS = 5  # reported per file: enough to fix several at once, never a flood


class ScenarioFileError(DataFileError):
    """A scenario file that cannot be used: ``path: field: message``, the first problem found, with up
    to :data:`MAX_PROBLEMS` more on the same line; ``problems`` lists them all as (field, message)."""

    def __init__(self, path: str | Path, field: str, message: str, more: Sequence[tuple[str, str]] = ()) -> None:
        also = "; ".join(f"{f}: {m}" for f, m in more[: MAX_PROBLEMS - 1])
        super().__init__(path, field, f"{message} (also {also})" if also else message)
        self.problems = ((self.field, message), *more[: MAX_PROBLEMS - 1])


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
    # The English edition's words where they settle a point the rulebook (the seed) leaves open:
    # ``(quote, section)``, always shown as the English edition's ([EN]), never as the rulebook's.
    english: tuple[str, str] | None = None

    def english_citation(self) -> str:
        """``[EN] (section): "quote"``, or "" when the example cites no other edition."""
        return f'[EN] ({self.english[1]}): "{self.english[0]}"' if self.english else ""


@cache
def scenario_schema() -> dict[str, Any]:
    text = files("rulecraft").joinpath("schemas/scenario.json").read_text("utf-8")
    schema: dict[str, Any] = yamlio.load_json_text(text, "rulecraft/schemas/scenario.json")
    return schema


@cache
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(scenario_schema())


def load_scenario(path: str | Path, *, game: str | None = None) -> Scenario:
    """Read and check a scenario file (for ``game``, when given); every problem names the file and the
    field. The content is checked before the file name, so a misnamed file still shows its other errors."""
    p = Path(path)
    data = yamlio.load_file(p, error=ScenarioFileError, bundled=p.resolve().is_relative_to(scenario_root().resolve()))
    if not isinstance(data, dict):
        raise ScenarioFileError(
            p, "(top level)", f"a scenario is a mapping with id, title, game, ..., not {_kind(data)}"
        )
    problems = _problems(data, p, game)
    if problems:
        raise ScenarioFileError(p, *problems[0], more=problems[1:])
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
        english=(source["english"]["quote"], source["english"]["where"]) if "english" in source else None,
    )


def check_scenario_files(paths: Iterable[str | Path], game: str) -> list[Scenario]:
    """Every file named for ``game`` (``rulecraft scenarios GAME FILE...``), loaded before any runs: the
    first bad one, or one written for another game, is a ScenarioFileError (an input error)."""
    return [load_scenario(path, game=game) for path in paths]


def _kind(data: Any) -> str:
    return {list: "a list", str: "text", type(None): "an empty file"}.get(type(data), excerpt(data))


def _problems(data: dict[Any, Any], p: Path, game: str | None) -> list[tuple[str, str]]:
    """(field, message) of every problem, most telling first, at most MAX_PROBLEMS."""
    out: list[tuple[str, str]] = []
    own = data.get("game")
    if game is not None and isinstance(own, str) and own != game:
        out.append(("game", f"this scenario is for {name(own)}, not {game}"))
    errors = yamlio.schema_errors(_validator(), data)
    if errors:
        err = _deepest(sorted(errors, key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path)))))
        out.append((yamlio.field_of(err.absolute_path), yamlio.schema_message(err)))
    else:
        out.extend(_against_the_game(data))
    scenario_id = data.get("id")
    if isinstance(scenario_id, str) and not _named_after(p, scenario_id):
        out.append(("id", f"{name(scenario_id)} does not match the file name (<ID>-<slug>.yaml)"))
    return out[:MAX_PROBLEMS]


def _named_after(p: Path, scenario_id: str) -> bool:
    return "-".join(p.name.split("-")[:3]) == scenario_id or p.name.startswith(scenario_id)


def _against_the_game(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Rule IDs, ambiguities and readings that the scenario's game does not have (a typo such as
    AIR-R-99 would otherwise pass silently)."""
    from rulecraft.registry import game_class, game_ids

    game_id = data["game"]
    if game_id not in game_ids():
        return [("game", f"{excerpt(game_id)} is not a registered game; known: {', '.join(game_ids())}")]
    cls = game_class(game_id)
    out = [
        (f"rules[{i}]", f"{rule} is not a rule of {game_id} (rulecraft rules {game_id} lists them)")
        for i, rule in enumerate(data["rules"])
        if rule not in cls.catalogue
    ]
    register = {amb.id: amb for amb in cls.register}
    out += [
        (f"depends_on[{i}]", f"{amb_id} is not an ambiguity of {game_id} (rulecraft readings {game_id} lists them)")
        for i, amb_id in enumerate(data.get("depends_on", ()))
        if amb_id not in register
    ]
    for amb_id, key in data.get("readings", {}).items():
        if amb_id not in register:
            out.append((f"readings.{name(amb_id)}", f"not an ambiguity of {game_id}"))
        elif key not in register[amb_id].choices():
            choices = list(register[amb_id].choices())
            out.append((f"readings.{amb_id}", f"{excerpt(key)} is not a reading; choose one of {choices}"))
    return out


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
    from rulecraft.registry import game_class, game_ids, record

    # From the records where they say (no game imported), else from the game class.
    return {gid: record(gid).scenario_folder or game_class(gid).scenario_folder for gid in game_ids()}


def scenario_files(game_id: str, root: Path | None = None) -> Iterator[Path]:
    root = root or scenario_root()
    folder = root / game_folders()[game_id]
    yield from sorted(folder.glob(SCENARIO_GLOB))
