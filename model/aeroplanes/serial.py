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
from rulecraft.model.aeroplanes.state import TurnState
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
