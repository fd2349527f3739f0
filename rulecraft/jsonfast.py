"""A fast, exact-or-unsure check of JSON values against the subset of JSON Schema rulecraft's own
protocol uses.

The conformance search validates two messages per step (the request it sends, the reply it reads);
``jsonschema``'s general validator takes 60-100 microseconds a message, a tenth of a step.
:func:`compile_check` turns a schema into a function that answers ``True`` (valid), ``False``
(invalid) or ``None`` (unsure) with the meaning of Draft 2020-12.  It is *sound*: it never answers
where ``jsonschema`` would answer otherwise (a test draws values and compares), and it answers
``None`` for what it does not model exactly (an unknown keyword, a float where an integer is asked, a
structured ``const``).  Callers take ``True`` as valid and hand anything else to ``jsonschema``, which
also words the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Check = Callable[[Any], bool | None]

# Keywords that only annotate: they never change validity.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "examples", "default"})


def compile_check(schema: Any) -> Check:
    """The check for ``schema``; a schema with a keyword outside the subset checks as unsure."""
    try:
        return _compile(schema)
    except _Unsupported:
        return _unsure


class _Unsupported(Exception):
    pass


def _unsure(value: Any) -> bool | None:
    return None


def _compile(schema: Any) -> Check:
    if schema is True:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, Mapping):
        raise _Unsupported(repr(schema))
    checks: list[Check] = []
    for keyword, argument in schema.items():
        if keyword in _ANNOTATIONS or keyword in ("then", "else"):
            continue  # then/else are read with their "if"
        build = _KEYWORDS.get(keyword)
        if build is None:
            raise _Unsupported(keyword)
        checks.append(build(argument, schema))
    return _all(checks)


def _all(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def check(value: Any) -> bool | None:
        return _conjunction(one(value) for one in checks)

    return check


def _conjunction(results: Iterable[bool | None]) -> bool | None:
    """All true: True; one false: False (at once); else unsure."""
    unsure = False
    for result in results:
        if result is False:
            return False
        if result is None:
            unsure = True
    return None if unsure else True


# -- types -------------------------------------------------------------------------------------------


_JSON_TYPES = (dict, list, str, int, float, bool, type(None))


def _is_type(name: str, value: Any) -> bool | None:
    kind = type(value)
    if kind not in _JSON_TYPES:
        return None  # not a value JSON text gives (a tuple, a Decimal): jsonschema decides
    if name == "object":
        return kind is dict
    if name == "array":
        return kind is list
    if name == "string":
        return kind is str
    if name == "boolean":
        return kind is bool
    if name == "null":
        return value is None
    if name == "number":
        return kind is int or kind is float
    if name == "integer":
        if kind is float:
            return None  # 1.0 is an integer to the schema: jsonschema decides
        return kind is int
    raise _Unsupported(f"type {name!r}")


def _type(argument: Any, schema: Mapping[str, Any]) -> Check:
    names = [argument] if isinstance(argument, str) else list(argument)
    for name in names:
        _is_type(name, None)  # an unknown type name is unsupported now, not at the first value

    def check(value: Any) -> bool | None:
        unsure = False
        for name in names:
            result = _is_type(name, value)
            if result:
                return True
            if result is None:
                unsure = True
        return None if unsure else False

    return check


# -- values ----------------------------------------------------------------------------------------------


def _equal(value: Any, constant: Any) -> bool | None:
    """JSON equality as the schema means it: true and 1 differ, 1 and 1.0 do not."""
    if constant is None:
        return value is None
    if type(constant) is bool or type(value) is bool:
        return type(value) is type(constant) and value == constant
    if type(constant) is str:
        return type(value) is str and value == constant
    if type(constant) in (int, float):
        return type(value) in (int, float) and value == constant
    return None  # a structured constant: not modelled here


def _const(argument: Any, schema: Mapping[str, Any]) -> Check:
    _require_scalar(argument)
    return lambda value: _equal(value, argument)


def _enum(argument: Any, schema: Mapping[str, Any]) -> Check:
    constants = list(argument)
    for constant in constants:
        _require_scalar(constant)

    def check(value: Any) -> bool | None:
        return any(_equal(value, constant) for constant in constants)

    return check


def _require_scalar(constant: Any) -> None:
    if constant is not None and type(constant) not in (bool, str, int, float):
        raise _Unsupported(f"structured constant {constant!r}")


def _minimum(argument: Any, schema: Mapping[str, Any]) -> Check:
    def check(value: Any) -> bool | None:
        kind = type(value)
        if kind is int or kind is float:
            return bool(value >= argument)
        return True if kind in _JSON_TYPES else None  # applies to numbers only

    return check


def _pattern(argument: Any, schema: Mapping[str, Any]) -> Check:
    compiled = re.compile(argument)

    def check(value: Any) -> bool | None:
        return compiled.search(value) is not None if isinstance(value, str) else True

    return check


# -- objects ------------------------------------------------------------------------------------------------


def _required(argument: Any, schema: Mapping[str, Any]) -> Check:
    names = list(argument)

    def check(value: Any) -> bool | None:
        return all(name in value for name in names) if isinstance(value, dict) else True

    return check


def _properties(argument: Any, schema: Mapping[str, Any]) -> Check:
    inner = {name: _compile(sub) for name, sub in argument.items()}

    def check(value: Any) -> bool | None:
        if not isinstance(value, dict):
            return True
        return _conjunction(one(value[name]) for name, one in inner.items() if name in value)

    return check


def _additional(argument: Any, schema: Mapping[str, Any]) -> Check:
    if "patternProperties" in schema:
        raise _Unsupported("patternProperties")
    known = frozenset(schema.get("properties", {}))
    inner = _compile(argument)

    def check(value: Any) -> bool | None:
        if not isinstance(value, dict):
            return True
        return _every(inner, (v for k, v in value.items() if k not in known))

    return check


def _property_names(argument: Any, schema: Mapping[str, Any]) -> Check:
    inner = _compile(argument)

    def check(value: Any) -> bool | None:
        return _every(inner, value) if isinstance(value, dict) else True

    return check


def _items(argument: Any, schema: Mapping[str, Any]) -> Check:
    if "prefixItems" in schema:
        raise _Unsupported("prefixItems")
    inner = _compile(argument)

    def check(value: Any) -> bool | None:
        return _every(inner, value) if isinstance(value, list) else True

    return check


def _every(inner: Check, values: Any) -> bool | None:
    return _conjunction(inner(one) for one in values)


# -- combinations ----------------------------------------------------------------------------------------------


def _any_of(argument: Any, schema: Mapping[str, Any]) -> Check:
    inner = [_compile(sub) for sub in argument]

    def check(value: Any) -> bool | None:
        results = [one(value) for one in inner]
        if True in results:
            return True
        return None if None in results else False

    return check


def _one_of(argument: Any, schema: Mapping[str, Any]) -> Check:
    inner = [_compile(sub) for sub in argument]

    def check(value: Any) -> bool | None:
        results = [one(value) for one in inner]
        if None in results:
            return None
        return results.count(True) == 1

    return check


def _if(argument: Any, schema: Mapping[str, Any]) -> Check:
    condition = _compile(argument)
    then = _compile(schema.get("then", True))
    otherwise = _compile(schema.get("else", True))

    def check(value: Any) -> bool | None:
        holds = condition(value)
        if holds is None:
            return None
        return then(value) if holds else otherwise(value)

    return check


_KEYWORDS: dict[str, Callable[[Any, Mapping[str, Any]], Check]] = {
    "type": _type,
    "const": _const,
    "enum": _enum,
    "minimum": _minimum,
    "pattern": _pattern,
    "required": _required,
    "properties": _properties,
    "additionalProperties": _additional,
    "propertyNames": _property_names,
    "items": _items,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "if": _if,
}
