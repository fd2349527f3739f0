"""Protocol version 1: the messages and their JSON Schemas.

JSON Lines over the implementation's standard input and output: one request
line, one response line, UTF-8.  The canonical state of a game is its
``Game.state_to_json`` form and actions are ``Game.action_to_json`` forms;
an implementation declares which top-level state fields it models
(``models``), and only those are compared.

Requests (``op``) and responses:

- ``hello {protocol}`` -> ``{game, protocol, models, capabilities}``
- ``new_game {setup, readings?, components?}`` -> ``{ok, state?, to_move?, error?}``
- ``set_state {state}`` -> ``{ok, error?}`` (capability ``set_state``)
- ``state`` -> ``{state, to_move}``
- ``legal_actions`` -> ``{actions}``
- ``apply {action}`` -> ``{ok, state?, to_move?, rejected?: {rule?, reason}}``
- ``quit`` -> ``{ok}``
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema

PROTOCOL = 1

TO_MOVE: dict[str, Any] = {"oneOf": [{"type": "integer", "minimum": 0}, {"enum": ["chance", "over"]}]}
ACTION: dict[str, Any] = {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}}
STATE: dict[str, Any] = {"type": "object"}
SETUP: dict[str, Any] = {
    "type": "object",
    "required": ["players"],
    "additionalProperties": False,
    "properties": {
        "players": {"type": "integer", "minimum": 1},
        "first_seat": {"type": "integer", "minimum": 0},
        "options": {"type": "object"},
    },
}


def _obj(required: list[str], properties: dict[str, Any], *, extra: bool = True) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "required": required, "properties": properties}
    if not extra:
        schema["additionalProperties"] = False
    return schema


REQUESTS: dict[str, dict[str, Any]] = {
    "hello": _obj(["op", "protocol"], {"op": {"const": "hello"}, "protocol": {"type": "integer"}}),
    "new_game": _obj(
        ["op", "setup"],
        {
            "op": {"const": "new_game"},
            "setup": SETUP,
            "readings": {"type": "object", "additionalProperties": {"type": "string"}},
            "components": {"type": ["object", "null"]},
        },
    ),
    "set_state": _obj(
        ["op", "state"],
        {
            "op": {"const": "set_state"},
            "state": STATE,
            "readings": {"type": "object", "additionalProperties": {"type": "string"}},
            "fixture": {"type": "object"},
        },
    ),
    "state": _obj(["op"], {"op": {"const": "state"}}),
    "legal_actions": _obj(["op"], {"op": {"const": "legal_actions"}}),
    "apply": _obj(["op", "action"], {"op": {"const": "apply"}, "action": ACTION}),
    "quit": _obj(["op"], {"op": {"const": "quit"}}),
}

REJECTED: dict[str, Any] = _obj(["reason"], {"rule": {"type": ["string", "null"]}, "reason": {"type": "string"}})

RESPONSES: dict[str, dict[str, Any]] = {
    "hello": _obj(
        ["game", "protocol", "models"],
        {
            "game": {"type": "string"},
            "protocol": {"type": "integer"},
            "models": {"type": "array", "items": {"type": "string"}},
            "capabilities": {"type": "array", "items": {"type": "string"}},
        },
    ),
    "new_game": _obj(
        ["ok"], {"ok": {"type": "boolean"}, "state": STATE, "to_move": TO_MOVE, "error": {"type": "string"}}
    ),
    "set_state": _obj(["ok"], {"ok": {"type": "boolean"}, "error": {"type": "string"}}),
    "state": _obj(["state", "to_move"], {"state": STATE, "to_move": TO_MOVE}),
    "legal_actions": _obj(["actions"], {"actions": {"type": "array", "items": ACTION}}),
    "apply": _obj(
        ["ok"],
        {
            "ok": {"type": "boolean"},
            "state": STATE,
            "to_move": TO_MOVE,
            "rejected": REJECTED,
            "error": {"type": "string"},
        },
    ),
    "quit": _obj(["ok"], {"ok": {"type": "boolean"}}),
}


@cache
def _validator(kind: str, op: str) -> jsonschema.Draft202012Validator:
    table = REQUESTS if kind == "request" else RESPONSES
    return jsonschema.Draft202012Validator(table[op])


def problem(kind: str, op: str, message: Any) -> str | None:
    """Why ``message`` is not a valid ``kind`` ("request"/"response") of ``op``, or None."""
    table = REQUESTS if kind == "request" else RESPONSES
    if op not in table:
        return f"unknown op {op!r}; protocol {PROTOCOL} knows {sorted(table)}"
    errors = sorted(_validator(kind, op).iter_errors(message), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    err = errors[0]
    where = "/".join(map(str, err.absolute_path)) or "(top level)"
    return f"{op} {kind}: {where}: {err.message}"


def schemas() -> dict[str, Any]:
    """Every message schema, for docs/protocol.md and users' own validators."""
    return {"protocol": PROTOCOL, "requests": REQUESTS, "responses": RESPONSES}
