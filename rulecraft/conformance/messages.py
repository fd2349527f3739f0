"""Protocol versions 1 and 2: the messages and their JSON Schemas.

JSON Lines over the implementation's standard input and output: one request
line, one response line, UTF-8.  The canonical state of a game is its
``Game.state_to_json`` form and actions are ``Game.action_to_json`` forms;
an implementation declares which top-level state fields it models
(``models``), and only those are compared.

Requests (``op``) and responses, version 1:

- ``hello {protocol}`` -> ``{game, protocol, models, capabilities}``
- ``new_game {setup, readings?, components?}`` -> ``{ok, state?, to_move?, error?}``
- ``set_state {state}`` -> ``{ok, error?}`` (capability ``set_state``)
- ``state`` -> ``{state, to_move}``
- ``legal_actions`` -> ``{actions}``
- ``apply {action}`` -> ``{ok, state?, to_move?, rejected?: {rule?, reason}}``
- ``quit`` -> ``{ok}``

Version 2 adds the outcome of a game (``Outcome.to_json``): every reply
carrying a ``state`` whose ``to_move`` is ``"over"`` also carries
``outcome``, and two ops ask for the count directly:

- ``scores`` -> ``{scores: {seat: {part: points, ..., total}}}`` (now, mid-game too)
- ``outcome`` -> ``{outcome: {termination, scores, winners, tiebreak} | null}``

The version is the session's: a server answers in the version of the last
``hello`` it accepted, version 1 before any.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema

from rulecraft.jsonfast import Check, compile_check

PROTOCOL = 2  # the newest version; the reference server speaks every one of PROTOCOLS
PROTOCOLS = (1, 2)

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


# -- version 2: the outcome -------------------------------------------------------------------------

SEAT_KEY = "^(0|[1-9][0-9]*)$"
# Per seat (a seat number as a string) the parts the rulebook scores, named in the game's words, and
# their "total" (the parts add up to it).
SCORES: dict[str, Any] = {
    "type": "object",
    "propertyNames": {"pattern": SEAT_KEY},
    "additionalProperties": {
        "type": "object",
        "required": ["total"],
        "additionalProperties": {"type": "integer"},
    },
}
OUTCOME: dict[str, Any] = _obj(
    ["termination", "scores", "winners", "tiebreak"],
    {
        "termination": {"type": "string"},
        "scores": SCORES,
        "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "tiebreak": {"type": ["string", "null"]},
        "standing": {"type": ["string", "null"]},
        # Optional: per seat the counts the tie-breaks compare (compared when given).
        "ranking": {
            "type": "object",
            "propertyNames": {"pattern": SEAT_KEY},
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
    },
)
# A reply whose to_move is "over" carries the outcome.
_OUTCOME_AT_THE_END: dict[str, Any] = {
    "if": {"required": ["to_move"], "properties": {"to_move": {"const": "over"}}},
    "then": {"required": ["outcome"]},
}


def _with_outcome(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "properties": {**schema["properties"], "outcome": OUTCOME}, **_OUTCOME_AT_THE_END}


_STATE_REPLIES = ("new_game", "state", "apply")  # the replies that carry a state
REQUESTS_V2: dict[str, dict[str, Any]] = {
    **REQUESTS,
    "scores": _obj(["op"], {"op": {"const": "scores"}}),
    "outcome": _obj(["op"], {"op": {"const": "outcome"}}),
}
RESPONSES_V2: dict[str, dict[str, Any]] = {
    **{op: _with_outcome(schema) if op in _STATE_REPLIES else schema for op, schema in RESPONSES.items()},
    "scores": _obj(["scores"], {"ok": {"type": "boolean"}, "scores": SCORES}),
    "outcome": _obj(["outcome"], {"ok": {"type": "boolean"}, "outcome": {"anyOf": [OUTCOME, {"type": "null"}]}}),
}

_TABLES: dict[int, tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]] = {
    1: (REQUESTS, RESPONSES),
    2: (REQUESTS_V2, RESPONSES_V2),
}


def _table(kind: str, protocol: int) -> dict[str, dict[str, Any]]:
    if protocol not in _TABLES:
        raise ValueError(f"protocol {protocol} does not exist; rulecraft knows {list(PROTOCOLS)}")
    requests, responses = _TABLES[protocol]
    return requests if kind == "request" else responses


def ops(protocol: int = 1) -> list[str]:
    """The request ops of a protocol version, sorted."""
    return sorted(_table("request", protocol))


@cache
def _validator(kind: str, op: str, protocol: int) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_table(kind, protocol)[op])


@cache
def _fast(kind: str, op: str, protocol: int) -> Check:
    return compile_check(_table(kind, protocol)[op])


def problem(kind: str, op: str, message: Any, protocol: int = 1) -> str | None:
    """Why ``message`` is not a valid ``kind`` ("request"/"response") of ``op`` in protocol version
    ``protocol`` (1 unless said), or None."""
    table = _table(kind, protocol)
    if op not in table:
        return f"unknown op {op!r}; protocol {protocol} knows {sorted(table)}"
    # Two messages a step in a conformance search: the compiled check accepts what is valid at a
    # fraction of the general validator's cost; anything else goes to the schema, which names it.
    if _fast(kind, op, protocol)(message) is True:
        return None
    errors = sorted(_validator(kind, op, protocol).iter_errors(message), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    err = errors[0]
    where = "/".join(map(str, err.absolute_path)) or "(top level)"
    return f"{op} {kind}: {where}: {err.message}"


def schemas(protocol: int = 1) -> dict[str, Any]:
    """Every message schema of a version, for docs/protocol.md and users' own validators
    (docs/schemas/protocol-v1.json and protocol-v2.json)."""
    return {"protocol": protocol, "requests": _table("request", protocol), "responses": _table("response", protocol)}
