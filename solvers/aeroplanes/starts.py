"""Aeroplanes witness hooks: targeted starts, and an exhaustive check, for ambiguities random games miss.

``rulecraft ambiguities aer`` plays both readings from the starts exactly as from a printed example's
given state (rulecraft/witness.py): the witness is still found by that search, never named here.

- AER-AMB-16 (l.86-110, the risk table's missing rows): the readings part only on a hop by an LR
  card whose first leg is red or black and whose second is white (default: the white leg 2 is
  rolled at 10+; 'symmetric': never).  Random games seldom hold an LR card with a tile at the
  origin of such a route.  The starts are built with the scenario builder (the printed examples'
  ``given:`` vocabulary): seat 0 owns an LR card and an airport at a destination whose legal
  placements include such a hop, found among the model's own legal actions.
  With five players, every other destination in seat 0's reach has its free slots taken by the
  other seats' tiles (one per player and destination, AER-R-29 (c)): the hops are then 2 to 4 of
  5 to 9 legal actions, not 2 to 4 of about 90.  The starts are in era 3 with the subsidy section
  empty, so the subsidy (the black marker) ends the game: a game that misses the hop ends soon
  and the next one tries again (at 3 s a random game of all three eras may not end at all).
- AER-AMB-20 (l.103-110, the +2 on a ‡ route): seat 0 at Java, seat 1 at Australia, Java - Australia
  a ‡ route of two rolls; every other destination in reach full, so the ‡ placement is seat 0's
  only one: by default both rolls get the +2 for the opponent at the destination, under 'last'
  only the second.
- AER-AMB-25 (l.156, Daring Pilot 'outside Europe' on a hop): the start is an attempt in progress,
  reached by legal steps: a hop whose red first leg ends in Europe and whose destination lies
  outside Europe, its first throw 2 short without a skull, seat 0 holding one Daring Pilot and no
  money: the default offers the pilot as a cover, 'leg-end' does not (the readings part at the
  start itself; the rolls stored with the attempt do not depend on the reading).
- AER-AMB-58 (l.169-170, profit ties of three or more): 4 players, the subsidy section empty and
  seat 0's only action the black marker, which ends the era and scores it (AER-R-06, R-48): seats
  0-2 tie on a profit of 0, seat 3 is below them (an empty card, capacity unused).  The Profit row
  pays ranks 1-3 (5/3/1 in era 1): by default ('competition') seat 3 is 4th and gets nothing,
  under 'one-place' it is 3rd and gets 1 VP.
- AER-AMB-33 (l.159, Night Flights "only within Europe"): no start can part the readings, and an
  exhaustive check says why: the switch is consulted in one rule only (AER-R-46,
  ``night_flights_rejection``), and every input that rule can see (each passenger tile waiting in
  each start city's section, and each tile the overflow invariant lets into the overflow area) is
  judged alike under 'destination' and 'trip'.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from rulecraft.core import Game
from rulecraft.tools import tools
from rulecraft.witness import SolverHook, SolverVerdict, StartHook, consulted_in

LR_CARD_HOME = "London"  # seat 0's home in the starts (any start city would do)
PLAYERS = 5  # AER-AMB-16: four other seats to fill the slots seat 0 could otherwise place on
# Era 3 with the subsidy section empty: the subsidy action takes the black marker, which ends the era and so
# the game (AER-R-06, R-48, R-63), so a game from the start that misses the question ends soon.
_LAST_ERA_ENDING: dict[str, Any] = {"era": 3, "subsidy_pool": 0}


def _colours(pack: Any) -> dict[tuple[str, str], str | None]:
    out: dict[tuple[str, str], str | None] = {}
    for c in pack.connections:
        out[(c.a, c.b)] = c.colour
        out[(c.b, c.a)] = c.colour
    return out


def _is_hop(colour: Mapping[tuple[str, str], str | None], action: Any) -> bool:
    """A hop whose first leg is red or black and whose second is white (AER-AMB-16's missing rows)."""
    return (
        action.via is not None
        and action.origin is not None
        and colour.get((action.origin, action.via)) in ("red", "black")
        and colour.get((action.via, action.destination)) == "white"
    )


def _coloured_then_white_hops(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Seat 0 with an LR card (its printed tiles on it, no money) and an airport at a destination
    from which a legal hop runs red/black then white (AER-R-17, R-21; AER-AMB-16).  With 5 players,
    every other destination seat 0 could reach has its free slots taken by the other seats' tiles
    (one per player and destination, AER-R-29 (c)), so the hops are most of what seat 0 may do."""
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
        given: dict[str, Any] = {
            "players": PLAYERS,
            **_LAST_ERA_ENDING,
            "seats": {0: {"home": LR_CARD_HOME, "cards": [lr_cards[0]], "money": 0}},
            "map": {origin: ["0:1"]},
        }
        try:
            state = tools(game).scenario_state(given)
        except Exception:  # not a destination a stage-1 tile can stand on in this pack
            continue
        placements = [a for a in game.legal_actions(state) if isinstance(a, PlaceAirport)]
        hops = [a for a in placements if _is_hop(colour, a)]
        if not hops:
            continue
        others = {a.destination for a in placements} - {a.destination for a in hops}
        try:
            narrowed = tools(game).scenario_state({**given, "map": {**given["map"], **_taken(game, state, others)}})
        except Exception:  # the other seats' tiles do not suffice: the start as it is
            narrowed = None
        if narrowed is not None and any(_is_hop(colour, a) for a in game.legal_actions(narrowed)):
            options = game.legal_actions(narrowed)
            shown = sum(1 for a in options if isinstance(a, PlaceAirport) and _is_hop(colour, a))
            yield (
                f"an LR card at {origin}, every other destination in reach full: {shown} of its {len(options)} legal "
                "actions hop red/black then white",
                narrowed,
            )
        else:
            yield f"an LR card at {origin}: {len(hops)} of its legal placements hop red/black then white", state


def _taken(game: Game[Any, Any], state: Any, destinations: set[str]) -> dict[str, list[str]]:
    """The ``given:`` map rows of ``destinations`` with every free slot taken by a tile of another
    seat (seats 1.., none twice in one destination, AER-R-29 (c)); stage 1 until a seat's stage-1
    tiles run out, then 2, then 3."""
    rows = {m["destination"]: m["slots"] for m in game.state_to_json(state)["map"]}
    supply = {seat: list(p["supply"]) for seat, p in enumerate(game.state_to_json(state)["players"])}
    out: dict[str, list[str]] = {}
    for name in sorted(destinations):
        present = {x["owner"] for x in rows[name] if x is not None}
        free = [seat for seat in range(1, PLAYERS) if seat not in present]
        row: list[str] = []
        for x in rows[name]:
            if x is not None:
                row.append("blocker" if x["owner"] < 0 else f"{x['owner']}:{x['stage'] or 'home'}")
                continue
            seat = free.pop(0)  # IndexError: more free slots than seats (caught by the caller)
            stage = next(i for i, left in enumerate(supply[seat], start=1) if left > 0)
            supply[seat][stage - 1] -= 1
            row.append(f"{seat}:{stage}")
        out[name] = row
    return out


def _dagger_route_with_an_opponent(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Seat 0 with an airport at Java and a plane card, seat 1's airport at Australia: Java - Australia
    is a ‡ route of two rolls (l.103-105, no LR plane needed, †), each rolled with +2 for the opponent
    at the destination by default (l.110), only the last under 'last'.  Every other destination in
    seat 0's reach is full (AER-R-29 (c)), so the ‡ placement is seat 0's only one."""
    from rulecraft.model.aeroplanes.actions import PlaceAirport

    pack = game.pack  # type: ignore[attr-defined]
    daggers = [c for c in pack.connections if c.rolls and not c.long_range]
    cards = [card.number for card in pack.cards if not card.long_range and card.era == 1]
    for route in daggers:
        for origin, destination in ((route.a, route.b), (route.b, route.a)):
            given: dict[str, Any] = {
                "players": PLAYERS,
                **_LAST_ERA_ENDING,
                "seats": {0: {"home": LR_CARD_HOME, "cards": cards[:1], "money": 0}},
                "map": {origin: ["0:1"], destination: ["1:1"]},
            }
            try:
                state = tools(game).scenario_state(given)
            except Exception:  # not destinations a stage-1 tile can stand on in this pack
                continue
            placements = [a for a in game.legal_actions(state) if isinstance(a, PlaceAirport)]
            if not any(a.destination == destination and a.origin == origin for a in placements):
                continue
            others = {a.destination for a in placements} - {destination}
            with contextlib.suppress(Exception):  # the other seats' tiles do not suffice: the start as it is
                state = tools(game).scenario_state({**given, "map": {**given["map"], **_taken(game, state, others)}})
            yield (
                f"an airport at {origin}, an opponent's at {destination}: the ‡ route {origin} - {destination} "
                f"({len(route.rolls)} rolls) with +2 (l.103-105, l.110)",
                state,
            )
            return


def _daring_pilot_on_a_hop_short_of_its_first_roll(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Seat 0 (an LR card, one Daring Pilot, no money) tries a hop whose first leg is red and ends in
    Europe and whose destination lies outside Europe, and throws 2 short of the red 12+ without a
    skull: the attempt waits for a cover.  By default ('target') Daring Pilot may cover any roll of
    an attempt on a destination outside Europe (l.156); under 'leg-end' only a roll whose own leg
    ends outside Europe, so the first leg's roll gets no pilot.  Reached by legal steps from the
    scenario builder's state (the placement, then the throw)."""
    from rulecraft.model.aeroplanes.actions import PlaceAirport

    pack = game.pack  # type: ignore[attr-defined]
    europe = game.ctx.europe  # type: ignore[attr-defined]
    colour = _colours(pack)
    lr_cards = [card.number for card in pack.cards if card.long_range and card.era == 1]
    names = [
        d.name for d in (pack.destinations.values() if isinstance(pack.destinations, Mapping) else pack.destinations)
    ]
    for origin in names:
        if origin == LR_CARD_HOME or not europe(origin) or not lr_cards:
            continue
        seat = {"home": LR_CARD_HOME, "cards": lr_cards[:1], "money": 0, "advantages": {"daring-pilot": 1}}
        try:
            state = tools(game).scenario_state({"players": 3, "seats": {0: seat}, "map": {origin: ["0:1"]}})
        except Exception:
            continue
        hops = [
            a
            for a in game.legal_actions(state)
            if isinstance(a, PlaceAirport)
            and a.via is not None
            and a.origin == origin
            and europe(a.via)
            and not europe(a.destination)
            and colour.get((origin, a.via)) == "red"
        ]
        for hop in hops:
            tried = game.apply(state, hop)
            need = pack.risk.target("red")
            short = [t for t, p in game.chance_outcomes(tried) if p > 0 and t.skulls == 0 and t.total == need - 2]
            if short:
                yield (
                    f"{origin} -> {hop.via} -> {hop.destination} (red, then outside Europe) thrown {need - 2} for the "
                    "red 12+, one Daring Pilot and no money to cover it (l.156)",
                    game.apply(tried, short[0]),
                )
                return


def _three_tied_ahead_of_a_fourth(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """4 players, the subsidy section empty and seat 0 without money or cards: its only action is the
    subsidy, so it takes the black marker and the era is scored at once (AER-R-06, R-48).  Seats 0-2
    carry nothing and have no capacity (profit 0, tied); seat 3's empty card 1 leaves its capacity
    unused (a negative profit, AER-R-51)."""
    given = {
        "players": 4,
        "subsidy_pool": 0,
        "seats": {
            0: {"money": 0},
            1: {"money": 0},
            2: {"money": 0},
            3: {"money": 0, "cards": [{"number": 1, "tiles": 0}]},
        },
    }
    yield (
        "4 players: seat 0's only action takes the black marker (the era ends), seats 0-2 tied on a profit of 0, "
        "seat 3 below them (AER-R-06, R-48, R-51, R-52)",
        tools(game).scenario_state(given),
    )


def witness_starts(game: Game[Any, Any]) -> Mapping[str, StartHook]:
    """The Aeroplanes witness-start hooks, by ambiguity (the record's ``witness_starts``)."""
    return {
        "AER-AMB-16": _coloured_then_white_hops,
        "AER-AMB-20": _dagger_route_with_an_opponent,
        "AER-AMB-25": _daring_pilot_on_a_hop_short_of_its_first_roll,
        "AER-AMB-58": _three_tied_ahead_of_a_fourth,
    }


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
