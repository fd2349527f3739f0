"""What a uniform random draw picks from (``AeroplanesGame.candidates``): ``legal_actions``' list, in its
order, as a sequence that makes only the action drawn.

A random game asks for one action of a list of fifty-odd: an action turn offers every airport placement
of every card with tiles (AER-R-13..30), and after each tile placed the map is new, so that list was
worked out afresh at about a third of the decisions and built whole to be drawn from once (issue 18).
Here the placements are counted per destination (each reached destination's open slots looked up once,
times the routes to it) and only the drawn one is made.  ``rules.legal_actions`` stays the reference:
tests/test_aer_choices.py holds ``list(candidates)``, its length and every index equal to it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, overload

from rulecraft.model.aeroplanes import rules
from rulecraft.model.aeroplanes.actions import STOP_PLACING, AerAction, PlaceAirport, place_airport
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import (
    _routes_from,
    buys,
    claims,
    empty_placements,
    legal_actions,
    maintenances,
    me,
    origins,
    subsidies,
)
from rulecraft.model.aeroplanes.state import (
    ACTION,
    PLACING,
    AerState,
    MapMemo,
)
from rulecraft.sequences import Joined

# A route as (destination, origin, via): origin None for an upgrade (AER-R-30).
Route = tuple[str, str | None, str | None]
# Routes beside their destinations (counted in C).
Routes = tuple[list[Route], tuple[str, ...]]
# A run of one card's routes, with each destination's open slots.
Segment = tuple[list[Route], dict[str, tuple[int, ...]]]


class Placements(Sequence[PlaceAirport]):
    """``rules.placements``' list for one decision: per card with tiles (in its order) its segments of
    routes (the upgrades, each origin's direct routes, each origin's LR hops, in ``rules.placements``'
    order), each route with the open slots of its destination; an item is made only when asked for."""

    __slots__ = ("_cards", "_length")

    def __init__(self, cards: list[tuple[int, list[Segment], int]]) -> None:
        self._cards = cards  # (card number, its segments, how many placements)
        self._length = sum(card[2] for card in cards)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> PlaceAirport: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[PlaceAirport]: ...
    def __getitem__(self, index: int | slice) -> PlaceAirport | Sequence[PlaceAirport]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._length
        if index >= 0:
            for number, segments, count in self._cards:
                if index >= count:
                    index -= count
                    continue
                for routes, open_slots in segments:
                    for destination, origin, via in routes:
                        slots = open_slots[destination]
                        if index < len(slots):
                            return place_airport(number, destination, slots[index], origin, via)
                        index -= len(slots)
        raise IndexError("placement index out of range")

    def __iter__(self) -> Iterator[PlaceAirport]:
        for number, segments, _ in self._cards:
            for routes, open_slots in segments:
                for destination, origin, via in routes:
                    for slot in open_slots[destination]:
                        yield place_airport(number, destination, slot, origin, via)


class Kept(dict[Any, Any]):
    """A bounded memo (emptied when full) that the mutation profile empties before every test, as it does
    functools caches (``cache_clear``, ``cache_info``): an answer kept there would hide a mutant."""

    def keep(self, key: Any, value: Any) -> None:
        if len(self) > 4096:
            self.clear()
        self[key] = value

    def cache_clear(self) -> None:
        self.clear()

    def cache_info(self) -> int:
        return len(self)


def advantage_buys(ctx: Context, state: AerState) -> Sequence[AerAction]:
    """``rules.advantage_buys``, kept per (£1 to pay or not, era, the stacks), its only inputs (AER-R-39/40)."""
    key = (id(ctx), me(state).money >= rules.ADVANTAGE_PRICE, state.era, state.advantage_supply)
    found = _ADVANTAGE_BUYS.get(key)
    if found is None or found[0] is not ctx:
        found = (ctx, rules.advantage_buys(ctx, state))
        _ADVANTAGE_BUYS.keep(key, found)
    return found[1]


_ADVANTAGE_BUYS = Kept()


def candidates(ctx: Context, state: AerState) -> Sequence[AerAction]:
    """``rules.legal_actions(ctx, state)`` for a seat to move, the placements listed on demand."""
    if state.phase is ACTION:  # the parts of rules.legal_actions, in its order
        placed = placements(ctx, state)
        if type(placed) is tuple:
            return [
                *maintenances(state),
                *buys(ctx, state),
                *placed,
                *claims(ctx, state),
                *advantage_buys(ctx, state),
                *subsidies(ctx, state),
                *empty_placements(ctx),
            ]
        before: list[AerAction] = [*maintenances(state), *buys(ctx, state)]
        after: list[AerAction] = [
            *claims(ctx, state),
            *advantage_buys(ctx, state),
            *subsidies(ctx, state),
            *empty_placements(ctx),
        ]
        return Joined((before, placed, after))
    if state.phase is PLACING:
        placed = placements(ctx, state)
        if type(placed) is tuple:
            return [*placed, STOP_PLACING]
        return Joined((placed, (STOP_PLACING,)))
    return legal_actions(ctx, state)


def placements(ctx: Context, state: AerState) -> Sequence[PlaceAirport]:
    """``rules.placements(ctx, state)``, counted and listed on demand; kept per map as it keeps its own."""
    seat = state.to_move
    lost = ctx.r("AER-AMB-41") == "lost"  # AER-AMB-41 lost: no tile from a card discarded full
    usable = tuple([c.number for c in me(state).cards if c.tiles >= 1 and not (lost and c.excess == 0)])
    if not usable:
        return ()
    start = origins(ctx, state)  # AER-AMB-10
    n = len(state.players)

    def worked_out() -> Placements:
        board = state.board()
        # AER-AMB-10 fixed: one's airports placed in this action may be upgraded, though no route starts there
        extra = tuple([d for d in state.airports(seat) if d not in start])
        cards: list[tuple[int, list[Segment], int]] = []
        worked: dict[tuple[int, bool], tuple[list[Segment], int]] = {}  # per (stage, LR) of the cards
        for number in usable:
            printed = ctx.pack.card(number)
            stage, long_range = printed.tile_stage, printed.long_range
            found = worked.get((stage, long_range))
            if found is None:
                found = worked[stage, long_range] = _segments(ctx, state, board, start, extra, stage, long_range)
            cards.append((number, *found))
        return Placements(cards)

    key = (seat, n, start, usable)
    found = _CHOICES.get(ctx, state.map, key)
    if found is not None:  # asked again (the same map, player and cards)
        return found
    return _CHOICES.put(ctx, state.map, key, worked_out())


_CHOICES: MapMemo[Placements] = MapMemo()  # placements per map, seat, start and cards


def _segments(
    ctx: Context,
    state: AerState,
    board: dict[str, tuple[Any, ...]],
    start: tuple[str, ...],
    extra: tuple[str, ...],
    stage: int,
    long_range: bool,
) -> tuple[list[Segment], int]:
    """The runs of routes of a card of stage ``stage``, with or without an LR tile, from the airports
    ``start``, in ``rules.placements``' order (rules._routes: the upgrades, each origin's direct routes,
    AER-AMB-10 fixed's upgrades, each origin's LR hops), with each destination's open slots, and how many
    placements: each destination reached looked up once, the routes counted in C."""
    seat, n = state.to_move, len(state.players)
    direct = [_from(ctx, o)[long_range] for o in start]  # AER-R-16: an LR leg only for an LR card
    over = [_from(ctx, o)[2] for o in start] if long_range else []  # AER-R-17: the hops over one destination
    reached: set[str] = set().union(*[run[1] for run in direct], *[run[1] for run in over])
    facts = _facts_table(ctx, n)
    open_slots: dict[str, tuple[int, ...]] = {}
    for d in reached:
        held = board[d]
        found = facts.get(d)
        if found is None or found[0] is not held:  # a tile placed there since
            found = facts[d] = _slot_facts(ctx, d, held, n)
        open_slots[d] = () if seat in found[1] else found[2][stage]
    for d in start:  # rules._routes leads no new airport where a route starts
        open_slots[d] = ()
    upgrade: dict[str, tuple[int, ...]] = {}  # AER-R-30: the upgrades
    for d in (*start, *extra):
        held = board[d]
        found = facts.get(d)
        if found is None or found[0] is not held:
            found = facts[d] = _slot_facts(ctx, d, held, n)
        upgrade[d] = found[3].get(seat, found[4])[stage]
    leading = chain.from_iterable([run[1] for run in direct] + [run[1] for run in over])  # each route's destination
    count = sum(map(len, upgrade.values())) + sum(map(len, map(open_slots.__getitem__, leading)))
    segments: list[Segment] = [(_upgrades(start), upgrade)]
    segments += [(run[0], open_slots) for run in direct]
    if extra:
        segments.append((_upgrades(extra), upgrade))
    segments += [(run[0], open_slots) for run in over]
    return segments, count


# What a destination's slots say about an airport placed there: (its slots, their owners, the open slots
# by tile stage for a player with no tile there, for an upgrade by each owner who may upgrade, and for an
# upgrade by anyone else: none).  By tile stage: an index for 0 and each stage the pack's cards show.
SlotFacts = tuple[
    tuple[Any, ...],
    frozenset[int],
    tuple[tuple[int, ...], ...],
    dict[int, tuple[tuple[int, ...], ...]],
    tuple[tuple[int, ...], ...],
]


def _facts_table(ctx: Context, n: int) -> dict[str, SlotFacts]:
    """The slot facts of every destination asked about, for ``n`` players, kept per context."""
    key = (id(ctx), n)
    found = _FACTS.get(key)
    if found is None or found[0] is not ctx:
        found = (ctx, {})
        _FACTS.keep(key, found)
    table: dict[str, SlotFacts] = found[1]
    return table


def _slot_facts(ctx: Context, destination: str, slots: tuple[Any, ...], n: int) -> SlotFacts:
    """``rules._slots_open`` for every player and stage at once, worked out once per slots tuple (not once
    per player, stage and kind).  A new airport: none for a player with a tile there (AER-R-30: upgrade it
    instead); else the empty slots while one is empty; else the slots of a lower stage that are no home
    tile (AER-R-29).  An upgrade: only onto one's own (first) tile, of a lower stage and no home tile, and
    not while a slot is empty (AER-AMB-13 ``anytime``: beside one too)."""
    stages = _stages(ctx)
    in_play = ctx.pack.destination(destination).slots_in_play(n)  # AER-SET-04: 3 players, no "4/5" slots
    held = slots[:in_play]
    first: dict[int, int] = {}  # each owner's first slot here
    for i, a in enumerate(held):
        if a is not None and a.owner not in first:
            first[a.owner] = i
    none: tuple[tuple[int, ...], ...] = tuple([() for _ in stages])
    upgrades: dict[int, tuple[tuple[int, ...], ...]] = {}
    empty = tuple([i for i, a in enumerate(held) if a is None])
    if not empty or ctx.r("AER-AMB-13") == "anytime":  # AER-AMB-13 anytime: upgrade beside an empty slot
        for owner, i in first.items():
            tile = held[i]
            upgrades[owner] = tuple([(i,) if not tile.home and tile.stage < stage else () for stage in stages])
    if empty:
        return slots, frozenset(first), tuple([empty for _ in stages]), upgrades, none
    new = tuple(tuple([i for i in range(in_play) if not held[i].home and held[i].stage < stage]) for stage in stages)
    return slots, frozenset(first), new, upgrades, none


_FACTS = Kept()


def _stages(ctx: Context) -> range:
    """0 and every tile stage the pack's plane cards show (AER-R-11: 1..3), kept per pack."""
    found = _STAGES.get(id(ctx.pack))
    if found is None or found[0] is not ctx.pack:
        found = (ctx.pack, range(max(card.tile_stage for card in ctx.pack.cards) + 1))
        _STAGES.keep(id(ctx.pack), found)
    stages: range = found[1]
    return stages


_STAGES = Kept()


def _upgrades(airports: tuple[str, ...]) -> list[Route]:
    """AER-R-30: an upgrade at each of one's airports, as a route with no origin."""
    return [(d, None, None) for d in airports]


def _from(ctx: Context, origin: str) -> tuple[Routes, Routes, Routes]:
    """The direct routes out of ``origin`` for a card without and with an LR tile, and the LR hops
    (``rules._routes_from``), as (destination, origin, via) beside their destinations."""
    key = (id(ctx), origin)
    found = _FROM.get(key)
    if found is not None and found[0] is ctx:
        kept: tuple[Routes, Routes, Routes] = found[1]
        return kept
    direct, over = _routes_from(ctx, origin)

    def routes(options: list[tuple[str, str | None, str | None, bool]]) -> Routes:
        return [(d, o, v) for d, o, v, _ in options], tuple([r[0] for r in options])

    answer = (routes([r for r in direct if not r[3]]), routes(direct), routes(over))  # AER-R-16
    _FROM.keep(key, (ctx, answer))
    return answer


_FROM = Kept()
