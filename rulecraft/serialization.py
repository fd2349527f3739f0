"""JSON forms of setups, states and actions (cattrs over attrs classes).

Every error names the path of the field at fault, so a bad file or a bad
message from another implementation is explained, never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from enum import Enum
from typing import Any, TypeVar

import cattrs
from cattrs.errors import ClassValidationError

from rulecraft.core import RulecraftError

T = TypeVar("T")


class SerializationError(RulecraftError):
    """Data that does not describe the object it claims to."""


def _make_converter() -> cattrs.Converter:
    # Sets become sorted lists: JSON has no set, and a stable order keeps the text stable.
    conv = cattrs.Converter(forbid_extra_keys=True, unstruct_collection_overrides={AbstractSet: sorted})
    conv.register_unstructure_hook(Enum, lambda e: e.value)
    conv.register_unstructure_hook(frozenset, sorted)
    return conv


converter = _make_converter()


def to_jsonable(obj: Any) -> Any:
    return converter.unstructure(obj)


def json_type(value: Any) -> str:
    """The JSON name of ``value``'s type (``object``, ``list``, ``string``...), for refusals."""
    names = {dict: "object", list: "list", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def json_object(data: Any, what: str) -> dict[str, Any]:
    """A copy of the JSON object ``data`` (a game's state, say), or a one-line refusal naming ``what``
    when it is another JSON value: a list or a string at the top is a wrong file, not a crash."""
    if not isinstance(data, Mapping):
        raise SerializationError(f"{what}: a JSON object; got a {json_type(data)}")
    return dict(data)


def from_jsonable(data: Any, cls: type[T], *, what: str = "", using: cattrs.Converter | None = None) -> T:
    """``cls`` from JSON data; errors name the path (``state.players[0].money``).  ``using``: a game's
    own converter (its hooks' SerializationErrors pass through as they are)."""
    try:
        return (using or converter).structure(data, cls)
    except SerializationError:
        raise
    except ClassValidationError as exc:
        messages = "; ".join(cattrs.transform_error(exc, path=what or cls.__name__))
        raise SerializationError(messages) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        raise SerializationError(f"{what or cls.__name__}: {exc}") from None


def dumps(obj: Any) -> str:
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"))
