"""The fast protocol check agrees with jsonschema wherever it answers (rulecraft/jsonfast.py).

The conformance search trusts a ``True`` from the compiled check without asking jsonschema, so a
value it accepts must be one the schema accepts, and a ``False`` must be one it refuses; ``None``
(unsure) is always allowed.  Values are drawn around every message schema of both protocol
versions: valid messages built from the schema, then bent (a field dropped, retyped, a float for an
integer, true for 1).
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.conformance import messages
from rulecraft.jsonfast import compile_check

SCHEMAS = [
    (f"v{protocol} {kind} {op}", schema)
    for protocol in messages.PROTOCOLS
    for kind in ("request", "response")
    for op, schema in sorted(messages._table(kind, protocol).items())
]

_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.0, 1.0, 2.5, -1.0])
    | st.sampled_from(["", "0", "7", "x", "over", "chance", "kind", "hello", "apply", "1a"])
)
_JSON = st.recursive(
    _SCALAR,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["kind", "ok", "0", "1", "total", "x", "op", "state"]), inner, max_size=3)
    ),
    max_leaves=10,
)


def _valid(schema: Any, draw: st.DrawFn, depth: int = 0) -> Any:
    """A value meant to pass ``schema`` (the subset the protocol uses); not always valid, which is fine."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return draw(st.sampled_from(schema["enum"]))
    for combination in ("oneOf", "anyOf"):
        if combination in schema:
            return _valid(draw(st.sampled_from(schema[combination])), draw, depth + 1)
    kind = schema.get("type", "object")
    kind = draw(st.sampled_from(kind)) if isinstance(kind, list) else kind
    if kind == "object":
        out: dict[str, Any] = {}
        for name, sub in schema.get("properties", {}).items():
            if name in schema.get("required", []) or draw(st.booleans()):
                out[name] = _valid(sub, draw, depth + 1)
        extra = schema.get("additionalProperties", True)
        if isinstance(extra, dict) and depth < 4 and draw(st.booleans()):
            out[draw(st.sampled_from(["0", "1", "12", "x"]))] = _valid(extra, draw, depth + 1)
        if "then" in schema and draw(st.booleans()):
            out["to_move"] = "over"
        return out
    if kind == "array":
        return [_valid(schema.get("items", {}), draw, depth + 1) for _ in range(draw(st.integers(0, 2)))]
    if kind == "integer":
        return draw(st.integers(schema.get("minimum", -2), 5))
    if kind == "string":
        return draw(st.sampled_from(["", "x", "AIR-R-1"]))
    if kind == "boolean":
        return draw(st.booleans())
    return None


@st.composite
def _near(draw: st.DrawFn, schema: Any) -> Any:
    value = _valid(schema, draw)
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        if draw(st.booleans()):
            del value[key]
        else:
            value[key] = draw(_JSON)
    return value if draw(st.integers(0, 9)) else draw(_JSON)


@pytest.mark.parametrize(("label", "schema"), SCHEMAS, ids=[label for label, _ in SCHEMAS])
@settings(max_examples=150)
@given(data=st.data())
def test_the_compiled_check_answers_only_as_jsonschema_does(label: str, schema: Any, data: st.DataObject) -> None:
    value = data.draw(_near(schema))
    fast = compile_check(schema)(value)
    valid = jsonschema.Draft202012Validator(schema).is_valid(value)
    assert fast is None or fast == valid, (label, value, fast, valid)
    # and the protocol's own check gives the schema's answer, whichever way it got there
    _, kind, op = label.split(" ")
    protocol = int(label[1])
    assert (messages.problem(kind, op, value, protocol) is None) == valid, (label, value)


@pytest.mark.parametrize(("label", "schema"), SCHEMAS, ids=[label for label, _ in SCHEMAS])
def test_every_protocol_schema_compiles_to_a_check_that_decides(label: str, schema: Any) -> None:
    """Not merely sound by saying 'unsure' to everything: each schema's typical valid message and a
    clearly invalid one are decided without jsonschema."""
    check = compile_check(schema)
    assert check(12345) is False  # no message is a bare number
    assert check(["op"]) is False
    minimal = _minimal(schema)
    assert jsonschema.Draft202012Validator(schema).is_valid(minimal), minimal
    assert check(minimal) is True, (label, minimal)


def _minimal(schema: Any) -> Any:
    if "const" in schema:
        return schema["const"]
    for combination in ("oneOf", "anyOf"):
        if combination in schema:
            return _minimal(schema[combination][0])
    kind = schema.get("type", "object")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        return {name: _minimal(schema["properties"][name]) for name in schema.get("required", [])}
    return {"array": [], "integer": schema.get("minimum", 0), "string": "s", "boolean": True}[kind]


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"type": "integer"}, 1.0, None),  # an integral float is an integer to the schema: unsure, not wrong
        ({"type": "integer"}, True, False),  # a boolean is no integer
        ({"const": 1}, True, False),  # true is not 1 in JSON
        ({"const": 1}, 1.0, True),
        ({"enum": ["chance", "over"]}, "over", True),
        ({"minimum": 0}, -1, False),
        ({"minimum": 0}, "a string", True),  # minimum says nothing about strings
        ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 3, False),  # both match: not exactly one
        ({"not": {"type": "string"}}, 3, None),  # a keyword outside the subset: unsure
        ({"const": {"a": 1}}, {"a": 1}, None),  # a structured constant: unsure
        ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"a": 1}, False),
        ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"c": 1}, True),
        ({"propertyNames": {"pattern": "^[0-9]+$"}}, {"12": 0, "x": 0}, False),
        ({"type": "array", "items": {"type": "string"}}, ("a",), None),  # a tuple is not JSON text's
    ],
)
def test_the_subset_means_what_draft_2020_12_means(schema: Any, value: Any, expected: bool | None) -> None:
    assert compile_check(schema)(value) is expected
    if expected is not None:
        assert jsonschema.Draft202012Validator(schema).is_valid(value) is expected
