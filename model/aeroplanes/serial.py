"""The JSON form of Aeroplanes states and actions (the canonical state form of the protocol).

Everything is plain attrs data except a risk-die face, which is a number or ``"skull"``
(components.Face); cattrs cannot structure that union by itself, so it gets a hook that
names the bad value.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

from rulecraft.model.aeroplanes.components import Face
from rulecraft.model.aeroplanes.state import AerState, Airport, Slots, TurnState
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
# JSON's plain types, exactly as the fields want them.  ``plain_state`` builds such a state directly,
# field by field, several times faster than cattrs' general structuring (issue 18).  Anything else (a
# missing or extra key, a bool or a string where a number goes, a wrong length, a failing class) makes it
# give up, and ``converter`` reads the data instead: so every refusal, and every value cattrs would
# coerce, is cattrs' own.  tests/test_aer_serial.py holds the two paths equal.


class _NotPlain(Exception):
    """The data is not plain JSON of the wanted type: cattrs reads it."""


_Read = Callable[[Any], Any]


def _int(v: Any) -> int:
    if type(v) is not int:  # a bool, a float, a string: cattrs' coercion or refusal
        raise _NotPlain
    return v


def _str(v: Any) -> str:
    if type(v) is not str:
        raise _NotPlain
    return v


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise _NotPlain
    return v


def _face(v: Any) -> Face:
    if v == "skull" and type(v) is str:
        return "skull"
    return _int(v)


def _list(v: Any) -> list[Any] | tuple[Any, ...]:
    if type(v) is not list and type(v) is not tuple:  # JSON's list, or state_to_json's own tuple
        raise _NotPlain
    return v


def _ints(v: Any) -> tuple[int, ...]:
    if not all(type(x) is int for x in _list(v)):
        raise _NotPlain
    return tuple(v)


def _strs(v: Any) -> tuple[str, ...]:
    if not all(type(x) is str for x in _list(v)):
        raise _NotPlain
    return tuple(v)


def _reader(tp: Any) -> _Read:
    """How a value of type ``tp`` is read from plain JSON (raising _NotPlain on anything else)."""
    if tp is int:
        return _int
    if tp is str:
        return _str
    if tp is bool:
        return _bool
    if tp == Face:
        return _face
    if isinstance(tp, type) and issubclass(tp, Enum):
        members = {m.value: m for m in tp}

        def read_enum(v: Any) -> Any:
            if type(v) is tp:  # state_to_json leaves a str enum's member as it is
                return v
            if type(v) is not str or v not in members:
                raise _NotPlain
            return members[v]

        return read_enum
    if tp is Slots:
        return _slots
    if isinstance(tp, type) and attrs.has(tp):
        return _class_reader(tp)
    args = get_args(tp)
    if get_origin(tp) in (Union, UnionType) and len(args) == 2 and type(None) in args:
        inner = _reader(args[0] if args[1] is type(None) else args[1])
        return lambda v: None if v is None else inner(v)
    if get_origin(tp) is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is int:
                return _ints
            if args[0] is str:
                return _strs
            each = _reader(args[0])
            return lambda v: tuple([each(x) for x in _list(v)])
        fixed = [_reader(a) for a in args]

        def read_fixed(v: Any) -> tuple[Any, ...]:
            if len(_list(v)) != len(fixed):  # cattrs' word on a wrong length
                raise _NotPlain
            return tuple([r(x) for r, x in zip(fixed, v, strict=True)])

        return read_fixed
    raise TypeError(f"no plain reader for {tp!r}")  # a new field type: write its reader


def _class_reader(cls: type[Any]) -> _Read:
    hints = get_type_hints(cls)
    fields = [f for f in attrs.fields(cls) if f.init]
    readers = {f.name: (f.alias, _reader(hints[f.name])) for f in fields}
    allowed = frozenset(readers)
    required = frozenset(f.name for f in fields if f.default is attrs.NOTHING)

    def read(v: Any) -> Any:
        if type(v) is not dict:
            raise _NotPlain
        keys = v.keys()
        if not keys <= allowed or not required <= keys:
            raise _NotPlain
        return cls(**{readers[k][0]: readers[k][1](x) for k, x in v.items()})

    return read


# A destination's slots, most of a state's objects (a few dozen a state), read by hand: the general
# reader's key checks and keyword dict cost more than the objects themselves.
_SLOTS_KEYS = frozenset(("destination", "slots"))
_AIRPORT_KEYS = frozenset(("owner", "stage"))
# The airport tiles read so far, shared (frozen, so one object serves every slot that holds its like).
_AIRPORTS: dict[tuple[int, int], Airport] = {}


def _slots(v: Any) -> Slots:
    if type(v) is not dict or v.keys() != _SLOTS_KEYS:
        raise _NotPlain
    destination, entries = v["destination"], _list(v["slots"])
    out: list[Airport | None] = []
    for a in entries:
        if a is None:
            out.append(None)
            continue
        if type(a) is not dict or a.keys() != _AIRPORT_KEYS:
            raise _NotPlain
        key = (_int(a["owner"]), _int(a["stage"]))
        tile = _AIRPORTS.get(key)
        if tile is None:
            if len(_AIRPORTS) > 256:  # a hostile file's odd seats and stages: kept bounded
                _AIRPORTS.clear()
            tile = _AIRPORTS[key] = Airport(*key)
        out.append(tile)
    return Slots(_str(destination), tuple(out))


_read_state = _class_reader(AerState)


def plain_state(data: Any) -> AerState | None:
    """The state ``data`` is the plain JSON of, built directly; None when it is anything else (then
    ``converter`` reads it and words its refusal)."""
    try:
        state = _read_state(data)
    except Exception:  # not plain (_NotPlain), or refused by a class: cattrs' path says how
        return None
    assert isinstance(state, AerState)
    return state
