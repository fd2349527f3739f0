"""What every game's component-pack loader shares: the error, reading a pack file, the schema, and
naming the entry a schema error is in.

A pack file is checked against its JSON Schema first; the first error (in
document order) is reported with a readable path such as
``machines[3] (M0-04).boilers[0].effect[1]``, where each game's ``label``
names an entry after its index.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from rulecraft import yamlio
from rulecraft.core import RulecraftError

Label = Callable[[Any], str]


class PackError(RulecraftError):
    """A component pack that breaks its schema, the rulebook's counts or the game's geometry: the file
    (or source), the entry and field, and what is wrong."""

    def __init__(self, source: str, where: str, message: str) -> None:
        super().__init__(f"{source}: {where}: {message}")
        self.source = source
        self.where = where
        self.message = message


def read_pack_file(path: str | Path) -> Any:
    """A pack file's parsed YAML; a file that cannot be read or parsed is a PackError naming it."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PackError(str(p), "(file)", f"cannot read: {reason}") from None
    try:
        return yamlio.load(text)
    except yaml.YAMLError as exc:
        raise PackError(str(p), "(file)", f"not valid YAML: {exc}") from None


@cache
def pack_schema_of(package: str) -> dict[str, Any]:
    """``packs/schema.json`` of a game's model package."""
    schema: dict[str, Any] = json.loads(files(package).joinpath("packs/schema.json").read_text("utf-8"))
    return schema


@cache
def validator_of(package: str) -> jsonschema.protocols.Validator:
    """The pack schema's validator, built once (generated packs in property tests stay cheap)."""
    return jsonschema.Draft202012Validator(pack_schema_of(package))


def json_path(data: Any, path: Sequence[Any], label: Label) -> str:
    """The path of ``path`` in ``data``, each list entry named by ``label``; '(top level)' when empty."""
    out = ""
    node = data
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            try:
                node = node[part]
            except (IndexError, KeyError, TypeError):
                node = None
                continue
            out += label(node)
            continue
        out += f".{part}" if out else str(part)
        node = node.get(part) if isinstance(node, dict) else None
    return out or "(top level)"


def _path_key(part: Any) -> tuple[int, int, str]:
    """Sort key for a schema error's path: list indices numerically, keys by name."""
    return (0, part, "") if isinstance(part, int) else (1, 0, str(part))


def first_schema_error(
    validator: jsonschema.protocols.Validator,
    data: Any,
    label: Label,
    weak: tuple[str, ...] = ("type", "const", "enum"),
) -> tuple[str, str] | None:
    """(where, message) of the first schema error in document order, or None.

    Inside a oneOf/anyOf the branch that came closest is reported: the deepest error wins, and
    a branch of the right shape beats a mere ``weak`` mismatch (a type, a constant...).
    """
    errors = sorted(validator.iter_errors(data), key=lambda e: [_path_key(p) for p in e.absolute_path])
    if not errors:
        return None
    err = errors[0]
    while err.context:
        err = max(err.context, key=lambda e: (len(e.absolute_path), e.validator not in weak))
    return json_path(data, list(err.absolute_path), label), err.message
