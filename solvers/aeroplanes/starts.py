"""Aeroplanes witness hooks: targeted starts, and an exhaustive check, for ambiguities random games miss.

``rulecraft ambiguities aer`` plays both readings from the starts exactly as from a printed example's
given state (rulecraft/witness.py): the witness is still found by that search, never named here.

- AER-AMB-16 (l.86-110, the risk table's missing rows): the readings part only on a hop by an LR
  card whose first leg is red or black and whose second is white (default: the white leg 2 is
  rolled at 10+; 'symmetric': never).  Random games seldom hold an LR card with a tile at the
  origin of such a route.  The starts are built with the scenario builder (the printed examples'
  ``given:`` vocabulary): seat 0 owns an LR card and an airport at a destination whose legal
  placements include such a hop, found among the model's own legal actions.
- AER-AMB-33 (l.159, Night Flights "only within Europe"): no start can part the readings, and an
  exhaustive check says why: the switch is consulted in one rule only (AER-R-46,
  ``night_flights_rejection``), and every input that rule can see (each passenger tile waiting in
  each start city's section, and each tile the overflow invariant lets into the overflow area) is
  judged alike under 'destination' and 'trip'.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from rulecraft.core import Game
from rulecraft.tools import tools
from rulecraft.witness import SolverHook, SolverVerdict, StartHook, consulted_in

LR_CARD_HOME = "London"  # seat 0's home in the starts (any start city would do)


def _colours(pack: Any) -> dict[tuple[str, str], str | None]:
    out: dict[tuple[str, str], str | None] = {}
    for c in pack.connections:
        out[(c.a, c.b)] = c.colour
        out[(c.b, c.a)] = c.colour
    return out


def _coloured_then_white_hops(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Seat 0 with an LR card (its printed tiles on it, no money) and an airport at a destination
    from which a legal hop runs red/black then white (AER-R-17, R-21; AER-AMB-16)."""
    from rulecraft.model.aeroplanes.actions import PlaceAirport

    pack = game.pack  # type: ignore[attr-defined]
    colour = _colours(pack)
    lr_cards = [card.number for card in pack.cards if card.long_range and card.era == 1]
    if not lr_cards:
        return
    names = [
        d.name for d in (pack.destinations.values() if isinstance(pack.destinations, Mapping) else pack.destinations)
    ]
    for origin in names:
        if origin == LR_CARD_HOME:
            continue
        given = {
            "players": 3,
            "seats": {0: {"home": LR_CARD_HOME, "cards": [lr_cards[0]], "money": 0}},
            "map": {origin: ["0:1"]},
        }
        try:
            state = tools(game).scenario_state(given)
        except Exception:  # not a destination a stage-1 tile can stand on in this pack
            continue
        hops = [
            a
            for a in game.legal_actions(state)
            if isinstance(a, PlaceAirport)
            and a.via is not None
            and a.origin is not None
            and colour.get((a.origin, a.via)) in ("red", "black")
            and colour.get((a.via, a.destination)) == "white"
        ]
        if hops:
            yield f"an LR card at {origin}: {len(hops)} of its legal placements hop red/black then white", state


def witness_starts(game: Game[Any, Any]) -> Mapping[str, StartHook]:
    """The Aeroplanes witness-start hooks, by ambiguity (the record's ``witness_starts``)."""
    return {"AER-AMB-16": _coloured_then_white_hops}


# -- AER-AMB-33: an exhaustive check ---------------------------------------------------------------------


def night_flights_check(default_game: Game[Any, Any], other_game: Game[Any, Any], seconds: float) -> SolverVerdict:
    """Every input AER-R-46's rule sees, judged under both readings of AER-AMB-33."""
    from rulecraft.model.aeroplanes.actions import ClaimPassenger
    from rulecraft.model.aeroplanes.rules import night_flights_rejection
    from rulecraft.model.aeroplanes.state import Waiting

    start = time.monotonic()
    if consulted_in(default_game, "AER-AMB-33") != {"night_flights_rejection"}:
        return SolverVerdict(
            "unknown", "AER-AMB-33 is consulted outside night_flights_rejection: the check does not cover it"
        )
    ctx_a, ctx_b = default_game.ctx, other_game.ctx  # type: ignore[attr-defined]
    pack = ctx_a.pack
    base = default_game.new_game(3)
    empty = tuple(Waiting(w.city, tuple(None for _ in w.slots)) for w in base.waiting)
    cases = 0
    for tile in pack.passengers:
        tile_id = tile.id
        inputs: list[tuple[str, Any, ClaimPassenger]] = []
        for i, section in enumerate(empty):
            waiting = tuple(
                attrs.evolve(w, slots=(tile_id, *w.slots[1:])) if j == i else w for j, w in enumerate(empty)
            )
            inputs.append(
                (f"waiting at {section.city}", attrs.evolve(base, waiting=waiting), ClaimPassenger(tile_id, 0))
            )
        if not ctx_a.europe(tile.destination):  # the overflow area holds only these (AER-R-57, invariant)
            over = attrs.evolve(base, waiting=empty, overflow=(tile_id,))
            inputs.append(("in the overflow area", over, ClaimPassenger(tile_id, 0, overflow=True)))
        for where, state, action in inputs:
            cases += 1
            a = night_flights_rejection(ctx_a, state, action) is None
            b = night_flights_rejection(ctx_b, state, action) is None
            if a != b:
                return SolverVerdict(
                    "sat",
                    f"{tile_id} {where}: {'allowed' if a else 'refused'} under the default, "
                    f"{'allowed' if b else 'refused'} under the other reading",
                    time.monotonic() - start,
                    {"tile": tile_id, "where": where},
                )
    return SolverVerdict(
        "unsat",
        f"exhaustive: AER-AMB-33 is consulted only in night_flights_rejection (AER-R-46), and all {cases} inputs it "
        f"can see ({len(pack.passengers)} passenger tiles, each waiting in each of {len(empty)} start cities' "
        "sections, and each tile bound outside Europe in the overflow area) are judged alike",
        time.monotonic() - start,
    )


def witness_queries(game: Game[Any, Any]) -> Mapping[str, SolverHook]:
    """The Aeroplanes exhaustive checks, by ambiguity (the record's ``witness_queries``)."""
    return {"AER-AMB-33": night_flights_check}
