"""A fast reader for a frozen attrs state's own plain JSON, beside the cattrs converter (issue 18).

A state read back from the JSON rulecraft wrote (every step of the stateful tests, every state file)
holds only JSON's plain types, exactly as the fields want them. :func:`plain_reader` builds a reader
for a class from its type hints that takes such data field by field, several times faster than cattrs'
general structuring. On anything else (a missing or extra key, a bool or a string where a number goes,
a wrong length) it raises :class:`NotPlain`, and the caller hands the data to its cattrs converter, so
every refusal and every coercion stays the converter's own. A game passes readers for the types only
it has (a die face that is a number or a word) in ``special``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

import attrs

Read = Callable[[Any], Any]


class NotPlain(Exception):
    """The data is not plain JSON of the wanted type: the converter reads it."""


def plain_int(v: Any) -> int:
    if type(v) is not int:  # a bool, a float, a string: the converter's coercion or refusal
        raise NotPlain
    return v


def plain_str(v: Any) -> str:
    if type(v) is not str:
        raise NotPlain
    return v


def plain_bool(v: Any) -> bool:
    if type(v) is not bool:
        raise NotPlain
    return v


def plain_list(v: Any) -> list[Any] | tuple[Any, ...]:
    if type(v) is not list and type(v) is not tuple:  # JSON's list, or state_to_json's own tuple
        raise NotPlain
    return v


def _ints(v: Any) -> tuple[int, ...]:
    if not all(type(x) is int for x in plain_list(v)):
        raise NotPlain
    return tuple(v)


def _strs(v: Any) -> tuple[str, ...]:
    if not all(type(x) is str for x in plain_list(v)):
        raise NotPlain
    return tuple(v)


def plain_reader(tp: Any, special: Mapping[Any, Read] | None = None) -> Read:
    """How a value of type ``tp`` is read from plain JSON (raising NotPlain on anything else); ``special``
    gives the readers of a game's own types, compared with ``==`` (a ``Literal`` alias is no class)."""
    given: dict[Any, Read] = dict(special or {})
    for key, read in given.items():
        if tp == key:
            return read
    if tp is int:
        return plain_int
    if tp is str:
        return plain_str
    if tp is bool:
        return plain_bool
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _enum_reader(tp)
    if isinstance(tp, type) and attrs.has(tp):
        return _class_reader(tp, given)
    args = get_args(tp)
    if get_origin(tp) in (Union, UnionType) and len(args) == 2 and type(None) in args:
        inner = plain_reader(args[0] if args[1] is type(None) else args[1], given)
        return lambda v: None if v is None else inner(v)
    if get_origin(tp) is tuple:
        return _tuple_reader(args, given)
    raise TypeError(f"no plain reader for {tp!r}")  # a new field type: give its reader in ``special``


def _enum_reader(tp: type[Enum]) -> Read:
    members = {m.value: m for m in tp}

    def read_enum(v: Any) -> Any:
        if type(v) is tp:  # state_to_json leaves a str enum's member as it is
            return v
        if type(v) is not str or v not in members:
            raise NotPlain
        return members[v]

    return read_enum


def _tuple_reader(args: tuple[Any, ...], given: Mapping[Any, Read]) -> Read:
    if len(args) == 2 and args[1] is Ellipsis:
        if args[0] is int:
            return _ints
        if args[0] is str:
            return _strs
        each = plain_reader(args[0], given)
        return lambda v: tuple([each(x) for x in plain_list(v)])
    fixed = [plain_reader(a, given) for a in args]

    def read_fixed(v: Any) -> tuple[Any, ...]:
        if len(plain_list(v)) != len(fixed):  # the converter's word on a wrong length
            raise NotPlain
        return tuple([r(x) for r, x in zip(fixed, v, strict=True)])

    return read_fixed


def _class_reader(cls: type[Any], given: Mapping[Any, Read]) -> Read:
    hints = get_type_hints(cls)
    fields = [f for f in attrs.fields(cls) if f.init]
    readers = {f.name: (f.alias, plain_reader(hints[f.name], given)) for f in fields}
    allowed = frozenset(readers)
    required = frozenset(f.name for f in fields if f.default is attrs.NOTHING)

    def read(v: Any) -> Any:
        if type(v) is not dict:
            raise NotPlain
        keys = v.keys()
        if not keys <= allowed or not required <= keys:
            raise NotPlain
        return cls(**{readers[k][0]: readers[k][1](x) for k, x in v.items()})

    return read


__all__ = ["NotPlain", "Read", "plain_bool", "plain_int", "plain_list", "plain_reader", "plain_str"]
