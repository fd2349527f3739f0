"""The JSON form of Aeroplanes states and actions (the canonical state form of the protocol).

Everything is plain attrs data except a risk-die face, which is a number or ``"skull"``
(components.Face); cattrs cannot structure that union by itself, so it gets a hook that
names the bad value.
"""

from __future__ import annotations

from typing import Any

import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

from rulecraft.model.aeroplanes.components import Face
from rulecraft.model.aeroplanes.state import AerState, Airport, Slots, TurnState
from rulecraft.plainjson import NotPlain, plain_int, plain_list, plain_reader, plain_str
from rulecraft.serialization import SerializationError, _make_converter


def _face_from_json(data: Any, _: Any) -> Face:
    if data == "skull":
        return "skull"
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    raise SerializationError(f"a risk-die face is a number or 'skull', got {data!r}")


def _make() -> cattrs.Converter:
    conv = _make_converter()
    conv.register_structure_hook(Face, _face_from_json)
    # AER-AMB-10 ``fixed`` alone keeps the action's origins: under every other reading a state's JSON is
    # what it was before that field existed.
    conv.register_unstructure_hook(
        TurnState, make_dict_unstructure_fn(TurnState, conv, origins=override(omit_if_default=True))
    )
    return conv


converter = _make()


# ---------------------------------------------------------------------------
# The plain path: a state's JSON read without cattrs
# ---------------------------------------------------------------------------
# A state read back from its own JSON (every step of the stateful tests, every state file) holds only
# JSON's plain types: ``plain_state`` builds it with rulecraft.plainjson's reader, several times faster
# than cattrs' general structuring (issue 18). Anything else makes it give up and ``converter`` reads the
# data, so every refusal and coercion is cattrs' own. tests/test_aer_serial.py holds the two paths equal.


def _face(v: Any) -> Face:
    if v == "skull" and type(v) is str:
        return "skull"
    return plain_int(v)


# A destination's slots, most of a state's objects (a few dozen a state), read by hand: the general
# reader's key checks and keyword dict cost more than the objects themselves.
_SLOTS_KEYS = frozenset(("destination", "slots"))
_AIRPORT_KEYS = frozenset(("owner", "stage"))
# The airport tiles read so far, shared (frozen, so one object serves every slot that holds its like).
_AIRPORTS: dict[tuple[int, int], Airport] = {}


def _slots(v: Any) -> Slots:
    if type(v) is not dict or v.keys() != _SLOTS_KEYS:
        raise NotPlain
    destination, entries = v["destination"], plain_list(v["slots"])
    out: list[Airport | None] = []
    for a in entries:
        if a is None:
            out.append(None)
            continue
        if type(a) is not dict or a.keys() != _AIRPORT_KEYS:
            raise NotPlain
        key = (plain_int(a["owner"]), plain_int(a["stage"]))
        tile = _AIRPORTS.get(key)
        if tile is None:
            if len(_AIRPORTS) > 256:  # a hostile file's odd seats and stages: kept bounded
                _AIRPORTS.clear()
            tile = _AIRPORTS[key] = Airport(*key)
        out.append(tile)
    return Slots(plain_str(destination), tuple(out))


_read_state = plain_reader(AerState, {Face: _face, Slots: _slots})


def plain_state(data: Any) -> AerState | None:
    """The state ``data`` is the plain JSON of, built directly; None when it is anything else (then
    ``converter`` reads it and words its refusal)."""
    try:
        state = _read_state(data)
    except Exception:  # not plain (NotPlain), or refused by a class: cattrs' path says how
        return None
    assert isinstance(state, AerState)
    return state
