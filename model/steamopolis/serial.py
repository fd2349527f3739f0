"""The JSON form of Steamopolis states and actions (the canonical state form of the protocol).

Two parts of the state are unions that plain attrs structuring cannot tell
apart: the items on a gauge space (a pressure stone or a bonus marker) and
the effect programs still waiting (``turn.pending``).  Gauge items are
written ``{"stone": {"arrow": false}}`` or ``{"marker": {"numeral": 3,
"pink": false}}``; programs use the component pack's effect vocabulary
(effects.py), so a state file reads like the pack file, plus the turn's
bookkeeping steps (``{"handover": 1}``, ``{"envy-parasite": 0}``,
``{"next-sharer": {...}}``).
"""

from __future__ import annotations

from typing import Any

import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

from rulecraft.model.steamopolis.actions import BuyBanner, BuyBonusMarker, BuyMachine, PayCost, UsePart
from rulecraft.model.steamopolis.effects import Queued, program_to_data, queued_from_data
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Item, Stone
from rulecraft.model.steamopolis.state import PlayerState, TurnState
from rulecraft.serialization import SerializationError, _make_converter


def _item_to_json(item: Item | None) -> Any:
    if item is None:
        return None
    if isinstance(item, Stone):
        return {"stone": {"arrow": item.arrow}}
    return {"marker": {"numeral": item.numeral, "pink": item.pink}}


def _item_from_json(data: Any) -> Item | None:
    if data is None:
        return None
    if isinstance(data, dict) and set(data) == {"stone"} and isinstance(data["stone"], dict):
        return Stone(bool(data["stone"].get("arrow", False)))
    if isinstance(data, dict) and set(data) == {"marker"} and isinstance(data["marker"], dict):
        numeral = data["marker"].get("numeral")
        if not isinstance(numeral, int):
            raise SerializationError(f"gauge space: a bonus marker's numeral is an integer, got {numeral!r}")
        return BonusMarker(numeral, bool(data["marker"].get("pink", False)))
    raise SerializationError(f"gauge space: null, {{'stone': ...}} or {{'marker': ...}}, got {data!r}")


def _gauge_to_json(gauge: Gauge) -> dict[str, Any]:
    return {"base": gauge.base, "spaces": [_item_to_json(i) for i in gauge.spaces]}


def _gauge_from_json(data: Any, _: Any) -> Gauge:
    if not isinstance(data, dict) or not isinstance(data.get("base"), int) or not isinstance(data.get("spaces"), list):
        raise SerializationError(f"gauge: an object with an integer 'base' and a list 'spaces', got {data!r}")
    try:
        return Gauge(data["base"], tuple(_item_from_json(x) for x in data["spaces"]))
    except ValueError as exc:
        raise SerializationError(f"gauge: {exc}") from None


def _programs_from_json(data: Any) -> tuple[Queued, ...]:
    if not isinstance(data, list):
        raise SerializationError(f"turn.pending: a list of effect programs, got {data!r}")
    try:
        return tuple(queued_from_data(p) for p in data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SerializationError(f"turn.pending: not in the effect vocabulary: {exc!r}") from None


def _make() -> cattrs.Converter:
    conv = _make_converter()
    conv.register_unstructure_hook(Gauge, _gauge_to_json)
    conv.register_structure_hook(Gauge, _gauge_from_json)
    base_un = conv.get_unstructure_hook(TurnState)
    base_st = conv.get_structure_hook(TurnState)

    def turn_to_json(turn: TurnState) -> dict[str, Any]:
        pending = turn.pending
        data: dict[str, Any] = base_un(TurnState(**{**_fields(turn), "pending": ()}))
        data["pending"] = [program_to_data(p) for p in pending]
        return data

    def turn_from_json(data: Any, cls: Any) -> TurnState:
        if not isinstance(data, dict):
            raise SerializationError(f"turn: an object, got {data!r}")
        pending = _programs_from_json(data.get("pending", []))
        turn: TurnState = base_st({**data, "pending": []}, cls)
        return TurnState(**{**_fields(turn), "pending": pending})

    conv.register_unstructure_hook(TurnState, turn_to_json)
    conv.register_structure_hook(TurnState, turn_from_json)
    # STM-AMB-34 'two' (character 5's second sponsor): its fields appear only when in use, so that the
    # printed rules' states and actions read as before (docs/protocol/stm.md).
    unused = override(omit_if_default=True)
    conv.register_unstructure_hook(
        PlayerState, make_dict_unstructure_fn(PlayerState, conv, sponsor2=unused, sponsor2_used=unused)
    )
    for cls in (BuyBonusMarker, PayCost, UsePart):
        conv.register_unstructure_hook(cls, make_dict_unstructure_fn(cls, conv, sponsor2=unused))
    # STM-AMB-25 'cumulative': the further removals or stones of a purchase, likewise.
    for buy in (BuyMachine, BuyBanner):
        conv.register_unstructure_hook(buy, make_dict_unstructure_fn(buy, conv, sponsor2=unused, more=unused))
    return conv


def _fields(turn: TurnState) -> dict[str, Any]:
    return {f.name: getattr(turn, f.name) for f in TurnState.__attrs_attrs__}


converter = _make()
