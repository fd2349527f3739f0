"""Flights and Course Correction for Kings of Air and Steam (KAS-R-26, -27, -42).

A flight is a tuple of step directions (``hexgrid.DIRECTIONS``, E=0 .. SE=5)
flown from a start hex.  :func:`flight_problem` is the judge: it explains
the first broken rule of one flight.  :func:`legal_flights` and
:func:`endpoints` enumerate what a player may do; they are derived from the
same turn table as the judge, and the tests check the two against each other.

Readings (KAS-AMB-01/02) and the card/character exceptions (DaVinci KAS-R-65,
Clint Castle KAS-R-82 / KAS-AMB-40) are carried by :class:`FlightRules`.

Performance: the model asks for the endpoints of every airship in every turn,
so each GameMap gets integer neighbour tables and an endpoint cache.  The
cache is keyed by the map's *identity*, not by ``==``: GameMap compares
without its ``hexes`` (``eq=False``), so two different play areas with the same
layout name would otherwise share answers.  Maps are treated as immutable
once flown over (mutating ``game_map.hexes`` afterwards gives stale answers).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable, Iterator, Mapping

import attrs

from rulecraft.model.kings_of_air_and_steam.components import GameMap
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex

Problem = tuple[str, str]
Path = tuple[int, ...]

TURN_READINGS: Mapping[str, str] = {"a": "wide", "b": "spaced", "c": "straight"}
_NO_STEP = 6  # "previous direction" before the first step: facing is irrelevant (KAS-R-26)


# cache_hash: the rules are a key of the kept flights and of the judge's memo, asked every turn.
@attrs.frozen(cache_hash=True)
class FlightRules:
    """How a flight may bend and where it may go back to.

    ``turns`` is the KAS-AMB-01 reading: ``"wide"`` (a) every step-to-step change
    is 0 or ±60°; ``"spaced"`` (b) a 60° bend must be followed by a straight step
    before the next bend; ``"straight"`` (c) no bends at all.

    ``sharp_ok`` (Clint Castle, KAS-R-82 / KAS-AMB-40) lifts the sharp-turn ban
    *whatever the reading calls sharp*: ±60° and ±120° at any step, no spacing;
    180° stays forbidden.  ``straight_only`` (DaVinci card, KAS-R-65) overrides
    both: all steps in one direction.  ``no_revisit`` is KAS-AMB-02 (b), no hex
    (the start hex included) entered twice; ``no_return`` is KAS-AMB-02 (c), a
    flight may not end on its start hex.
    """

    turns: str = attrs.field(default="wide", validator=attrs.validators.in_(("wide", "spaced", "straight")))
    sharp_ok: bool = False
    straight_only: bool = False
    no_revisit: bool = False
    no_return: bool = False

    @classmethod
    def from_readings(
        cls, readings: Mapping[str, str], *, sharp_ok: bool = False, straight_only: bool = False
    ) -> FlightRules:
        """Build the rules from chosen readings; absent keys take the defaults (a)."""
        turns_reading = readings.get("KAS-AMB-01", "a")
        revisit_reading = readings.get("KAS-AMB-02", "a")
        if turns_reading not in TURN_READINGS:
            raise ValueError(f"KAS-AMB-01 has readings a, b, c; got {turns_reading!r}")
        if revisit_reading not in ("a", "b", "c"):
            raise ValueError(f"KAS-AMB-02 has readings a, b, c; got {revisit_reading!r}")
        return cls(
            turns=TURN_READINGS[turns_reading],
            sharp_ok=sharp_ok,
            straight_only=straight_only,
            no_revisit=revisit_reading == "b",
            no_return=revisit_reading == "c",
        )


# --- turns: one table shared by the judge and the enumerators ---------------------------------


def _turn_problem(rules: FlightRules, bent: bool, change: int) -> Problem | None:
    """Why a step-to-step direction change is illegal (words without the step number).

    ``bent``: the previous step was itself a bend (only the 'spaced' reading cares).
    """
    if change == 0:
        return None
    if change == 3:
        return ("KAS-R-26", "goes backwards")
    degrees = 60 if change in (1, 5) else 120
    if rules.straight_only:
        return ("KAS-R-65", f"turns {degrees}° (the DaVinci card flies in one direction only)")
    if rules.sharp_ok:
        return None
    if degrees == 120:
        return ("KAS-R-26", "turns 120° (a sharp turn)")
    if rules.turns == "straight":
        return ("KAS-R-26", "turns 60° (reading KAS-AMB-01 (c): every bend is a sharp turn)")
    if rules.turns == "spaced" and bent:
        return (
            "KAS-R-26",
            "turns 60° right after another turn (reading KAS-AMB-01 (b): turns need a straight step between)",
        )
    return None


def _moves_uncached(rules: FlightRules) -> tuple[tuple[tuple[tuple[int, bool], ...], ...], ...]:
    """``_moves(rules)[previous][bent]`` = the allowed ``(direction, bent after)`` in ascending order.

    Ascending order makes the depth-first search lexicographic, which
    :func:`endpoints` relies on for "smallest path per destination".
    """
    first = (tuple((d, False) for d in range(6)),) * 2
    table = []
    for previous in range(6):
        rows = []
        for bent in (False, True):
            row = []
            for d in range(6):
                change = (d - previous) % 6
                if _turn_problem(rules, bent, change) is None:
                    row.append((d, change != 0))
            rows.append(tuple(row))
        table.append(tuple(rows))
    table.append(first)  # index _NO_STEP
    return tuple(table)


# Memoised by a call rather than a decorator: mutation testing (mutmut) skips decorated functions.
_moves = functools.cache(_moves_uncached)


# --- per-map tables and cache ------------------------------------------------------------------


class _Tables:
    """Integer neighbour tables of one GameMap plus its endpoint cache."""

    __slots__ = ("endable", "endpoints", "hexes", "index", "nbr", "owner")

    def __init__(self, game_map: GameMap) -> None:
        self.owner = weakref.ref(game_map)
        self.hexes: tuple[Hex, ...] = tuple(sorted(game_map.hexes))
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        # -1: the step would leave the play area (KAS-R-27).
        self.nbr: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index[n] if game_map.can_pass(n) else -1 for n in h.neighbours()) for h in self.hexes
        )
        self.endable: tuple[bool, ...] = tuple(game_map.can_end_on(h) for h in self.hexes)
        self.endpoints: dict[tuple[Hex, int, FlightRules], dict[Hex, Path]] = {}

    def start_index(self, start: Hex) -> int:
        try:
            return self.index[start]
        except KeyError:
            raise ValueError(f"the start hex {start} is not in the play area") from None


_TABLES: dict[int, _Tables] = {}


def _tables(game_map: GameMap) -> _Tables:
    key = id(game_map)
    tables = _TABLES.get(key)
    # The owner check guards against id() reuse should a finalizer not have run yet.
    if tables is not None and tables.owner() is game_map:
        return tables
    tables = _Tables(game_map)
    _TABLES[key] = tables
    weakref.finalize(game_map, _TABLES.pop, key, None)
    return tables


# --- the judge -------------------------------------------------------------------------------


def _plural(n: int, word: str, plural: str) -> str:
    return f"{n} {word if n == 1 else plural}"


def flight_problem(
    game_map: GameMap, start: Hex, directions: Iterable[int], length: int, rules: FlightRules
) -> Problem | None:
    """None if flying ``directions`` from ``start`` is a legal flight of ``length``; else (rule ID, words).

    The first step may go anywhere (facing is irrelevant, KAS-R-26); every hex
    entered must be in the play area; cities and partial hexes may be passed
    but not ended on (KAS-R-27).  A 0 flight (the airship stays) is always legal.
    """
    steps = tuple(directions)
    if any(not isinstance(d, int) or not 0 <= d < 6 for d in steps):
        raise ValueError(f"directions are 0..5, got {steps}")
    if length < 0:
        raise ValueError(f"a movement value is never negative, got {length}")
    # Judged once per map (by identity: its tables), start, flight and rules: every turn judges a
    # flight the same airship flew from the same hex before.
    return _judged(_tables(game_map), start, steps, length, rules)


def _judge(tables: _Tables, start: Hex, steps: Path, length: int, rules: FlightRules) -> Problem | None:
    """:func:`flight_problem` of checked ``steps``, on the map ``tables`` belong to."""
    game_map = tables.owner()
    assert game_map is not None  # the caller holds the map
    if len(steps) != length:
        return (
            "KAS-R-26",
            f"the card moves {_plural(length, 'hex', 'hexes')}; the flight has {_plural(len(steps), 'step', 'steps')}",
        )
    at = start
    visited = {start}
    bent = False
    previous = _NO_STEP
    for k, d in enumerate(steps, 1):
        if previous != _NO_STEP:
            change = (d - previous) % 6
            problem = _turn_problem(rules, bent, change)
            if problem is not None:
                return (problem[0], f"step {k} {problem[1]}")
            bent = change != 0
        at = at.step(d)
        if not game_map.can_pass(at):
            return ("KAS-R-27", f"step {k} leaves the play area at {at}")
        if rules.no_revisit and at in visited:
            return ("KAS-R-26", f"step {k} re-enters {at}, already visited in this flight (reading KAS-AMB-02 (b))")
        visited.add(at)
        previous = d
    if length == 0:
        return None
    if not game_map.can_end_on(at):
        mh = game_map.hexes[at]
        if mh.city is not None:
            return ("KAS-R-27", f"a flight may not end on the city {mh.city}")
        if mh.partial:
            return ("KAS-R-27", f"a flight may not end on a partial hex {at}")
        return ("KAS-R-27", f"a flight may not end on {at}")
    if rules.no_return and at == start:
        return ("KAS-R-26", f"the flight ends on its start hex {at} (reading KAS-AMB-02 (c))")
    return None


# Memoised by a call rather than a decorator (mutmut skips decorated functions); bounded.
_judged = functools.lru_cache(maxsize=1 << 16)(_judge)


# --- enumeration -----------------------------------------------------------------------------


def legal_flights(game_map: GameMap, start: Hex, length: int, rules: FlightRules) -> Iterator[Path]:
    """Every legal direction sequence of exactly ``length`` steps, in lexicographic order.

    Depth-first; a branch stops at the first illegal step, and (except under
    no-revisit, where legality depends on the whole path) a search state
    ``(hex, previous direction, bent, steps left)`` that once led nowhere is
    never expanded again.  May yield nothing (KAS-AMB-04 is the caller's call).
    """
    if length < 0:
        raise ValueError(f"a movement value is never negative, got {length}")
    tables = _tables(game_map)
    s = tables.start_index(start)
    if length == 0:
        yield ()
        return
    moves = _moves(rules)
    nbr, endable = tables.nbr, tables.endable
    no_revisit, no_return = rules.no_revisit, rules.no_return
    dead: set[tuple[int, int, bool, int]] = set()
    path: list[int] = []
    visited = [s]

    def go(at: int, previous: int, bent: bool, remaining: int) -> Iterator[Path]:
        if remaining == 0:
            if endable[at] and not (no_return and at == s):
                yield tuple(path)
            return
        state = (at, previous, bent, remaining)
        if state in dead:
            return
        any_found = False
        for d, bent_after in moves[previous][bent]:
            n = nbr[at][d]
            if n < 0 or (no_revisit and n in visited):
                continue
            path.append(d)
            visited.append(n)
            for flight in go(n, d, bent_after, remaining - 1):
                any_found = True
                yield flight
            visited.pop()
            path.pop()
        if not any_found and not no_revisit:
            dead.add(state)

    yield from go(s, _NO_STEP, False, length)


def _search_endpoints(tables: _Tables, s: int, length: int, rules: FlightRules) -> dict[int, Path]:
    """Each reachable end (by index) with its lexicographically smallest legal path.

    The search is lexicographic, so the first path found to an end is the
    smallest.  A state ``(hex, previous, bent, steps left)`` seen before was
    reached by a smaller prefix of the same length and fully explored, so
    everything it leads to is already recorded with a smaller path: skip it.
    That bounds the work by the number of states, not of paths (which matters
    for Clint's 6·5^(n-1) flights).  Under no-revisit the state would have to
    include the visited set, so that reading searches without the shortcut.
    """
    moves = _moves(rules)
    nbr, endable = tables.nbr, tables.endable
    no_revisit, no_return = rules.no_revisit, rules.no_return
    found: dict[int, Path] = {}
    seen: set[int] = set()
    path: list[int] = []
    visited = [s]

    def go(at: int, previous: int, bent: bool, remaining: int) -> None:
        if remaining == 0:
            if endable[at] and at not in found and not (no_return and at == s):
                found[at] = tuple(path)
            return
        if not no_revisit:
            state = ((at * 7 + previous) * 2 + bent) * 8 + remaining
            if state in seen:
                return
            seen.add(state)
        row = nbr[at]
        for d, bent_after in moves[previous][bent]:
            n = row[d]
            if n < 0 or (no_revisit and n in visited):
                continue
            path.append(d)
            visited.append(n)
            go(n, d, bent_after, remaining - 1)
            visited.pop()
            path.pop()

    go(s, _NO_STEP, False, length)
    return found


def endpoints(game_map: GameMap, start: Hex, length: int, rules: FlightRules) -> dict[Hex, Path]:
    """Each legal end hex of a ``length`` flight, with its lexicographically smallest path.

    This is what the game offers: one choice per destination.  Length 0 gives
    ``{start: ()}`` (the airship stays, KAS-R-26).  An empty dict means no legal
    flight exists (KAS-AMB-04: the caller applies its reading).  Cached per map.
    """
    if length < 0:
        raise ValueError(f"a movement value is never negative, got {length}")
    tables = _tables(game_map)
    key = (start, length, rules)
    cached = tables.endpoints.get(key)
    if cached is None:
        s = tables.start_index(start)
        if length == 0:
            cached = {start: ()}
        else:
            found = _search_endpoints(tables, s, length, rules)
            # Insertion order is discovery order, i.e. sorted by path: deterministic for callers.
            cached = {tables.hexes[i]: p for i, p in found.items()}
        tables.endpoints[key] = cached
    return dict(cached)  # a copy: callers may not corrupt the cache


def card_flights(
    game_map: GameMap, start: Hex, card_moves: tuple[int, ...], rules: FlightRules
) -> dict[int, dict[Hex, Path]]:
    """The endpoints for each distance a card offers.

    A standard card lists one value; Kings Over Aces (KAS-R-77) lists 0..3 and
    Godfather (KAS-R-85) 0..2, the player choosing any one of them with the
    normal rules; the Emperor card lists none (no movement step).
    """
    return {n: endpoints(game_map, start, n, rules) for n in sorted(set(card_moves))}


# --- Course Correction -----------------------------------------------------------------------


def course_correction_problem(game_map: GameMap, at: Hex, direction: int) -> Problem | None:
    """KAS-R-42: one step in any direction (no turn rules) onto a full, non-city hex of the play area."""
    if not isinstance(direction, int) or not 0 <= direction < 6:
        raise ValueError(f"directions are 0..5, got {direction!r}")
    target = at.step(direction)
    mh = game_map.hexes.get(target)
    if mh is None:
        return ("KAS-R-42", f"course correction leaves the play area at {target}")
    if mh.city is not None:
        return ("KAS-R-42", f"course correction may not enter the city {mh.city}")
    if mh.partial:
        return ("KAS-R-42", f"course correction may not enter a partial hex {target}")
    if not game_map.can_end_on(target):
        return ("KAS-R-42", f"course correction may not enter {target}")
    return None


def course_corrections(game_map: GameMap, at: Hex) -> dict[Hex, int]:
    """KAS-R-42: every hex a Course Correction from ``at`` may enter, with its direction."""
    return {at.step(d): d for d in range(6) if course_correction_problem(game_map, at, d) is None}
