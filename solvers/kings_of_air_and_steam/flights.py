"""Z3: where can a card's flight end (KAS-R-26, KAS-R-27 and the special cards)?

A flight of n steps is n direction variables ``d_1..d_n ∈ 0..5``; the hexes
entered are sums of direction vectors from the start (axial coordinates,
``hexgrid.DIRECTIONS``).  Rule families, each tracked under its ID:

* ``KAS-R-26#steps``: exactly the card's n steps (the geometry itself);
* ``KAS-R-26#turn<k>``: the change between steps k and k+1 is allowed -
  {0, 1, 5} (KAS-AMB-01 (a)), {0} under reading (c) or for the DaVinci card
  (``KAS-R-65``), {0, 1, 2, 4, 5} for Clint Castle (``KAS-R-82``); reading
  (b) forbids two bends in a row;
* ``KAS-R-27#<k>``: every hex entered is in the play area, and
  ``KAS-R-27#end``: the last one is a full hex that is not a city;
* KAS-AMB-02 (b)/(c) as ``KAS-R-26#revisit`` / ``KAS-R-26#return``.

Play-area membership is a disjunction over the map's rows of q-intervals
(a handful of terms per row instead of one per hex).  The start hex and the
target are the instance, untracked.

The whole endpoint set is not enumerated end by end (one solve per end: 63-90
on the 7-player layout) but walked once over the flight's finite states and
proved exact by one Z3 check of a propositional encoding of the same rules
(``endpoints_z3``); Z3 enumerates alone, blocking each end found, only for the
readings that look at the whole path or when the check refutes the walk.

Rose & Thorn (KAS-R-73) is two flights of 2 in one formula: no turn
constraint between the legs, the middle hex must be a legal end.  Kings Over
Aces (KAS-R-77) and Godfather (KAS-R-85) offer several distances, each its
own formula.  The oracle is the model's own :func:`flight.endpoints`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import z3

from rulecraft.core import RulecraftError
from rulecraft.model.kings_of_air_and_steam import flight
from rulecraft.model.kings_of_air_and_steam.components import Card, GameMap
from rulecraft.model.kings_of_air_and_steam.flight import FlightRules, Path
from rulecraft.model.kings_of_air_and_steam.hexgrid import DIRECTIONS, Hex
from rulecraft.solvers.kings_of_air_and_steam.plans import minimal_core_ids
from rulecraft.solving import ms as _ms

DEFAULT_TIMEOUT_MS = 5000
DEFAULT_LAYOUT = "ABC"
Tracked = tuple[str, z3.BoolRef]


# --- what is flown -------------------------------------------------------------------------------


@attrs.frozen
class FlightSpec:
    """One movement step to judge: where from, which distances, how many legs, which rules."""

    layout: str
    start: Hex
    distances: tuple[int, ...]  # the values the player may choose (one for a standard card)
    legs: int = 1  # 2: Rose & Thorn flies its distance twice (KAS-R-73)
    rules: FlightRules = attrs.field(factory=FlightRules)
    card: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "layout": self.layout,
            "from": [self.start.q, self.start.r],
            "distances": list(self.distances),
            "legs": self.legs,
            "card": self.card,
            "turns": self.rules.turns,
            "sharp_ok": self.rules.sharp_ok,
            "straight_only": self.rules.straight_only,
            "no_revisit": self.rules.no_revisit,
            "no_return": self.rules.no_return,
        }


def flight_spec(
    game: Any,
    start: Hex,
    *,
    card: Card | str | None = None,
    moves: Sequence[int] | None = None,
    layout: str = DEFAULT_LAYOUT,
    sharp_ok: bool = False,
    straight: bool = False,
) -> FlightSpec:
    """The spec for a card (its special effect included) or bare distances, under the game's readings."""
    if (card is None) == (moves is None):
        raise RulecraftError("give a card or movement values, not both")
    legs, card_id = 1, None
    if card is not None:
        c = card if isinstance(card, Card) else _card(game, str(card))
        card_id = c.id
        distances = tuple(sorted(set(c.moves)))
        straight = straight or c.special == "straight"  # DaVinci, KAS-R-65
        legs = 2 if c.special == "double-two" else 1  # Rose & Thorn, KAS-R-73
    else:
        assert moves is not None
        distances = tuple(sorted(set(int(m) for m in moves)))
    if any(m < 0 for m in distances):
        raise RulecraftError(f"a movement value is never negative, got {distances}")
    try:
        game.ctx.game_map(layout)
    except KeyError:
        raise RulecraftError(f"the pack has no layout {layout!r}") from None
    rules = FlightRules.from_readings(game.ctx.readings, sharp_ok=sharp_ok, straight_only=straight)
    return FlightSpec(layout, start, distances, legs, rules, card_id)


def _card(game: Any, card_id: str) -> Card:
    try:
        found: Card = game.pack.card(card_id)
    except KeyError:
        raise RulecraftError(f"the pack has no card {card_id!r}") from None
    return found


# --- the encoding ----------------------------------------------------------------------------------


def _rows(hexes: Iterable[Hex]) -> dict[int, list[tuple[int, int]]]:
    """Per row r, the maximal runs of consecutive q: membership in a few comparisons."""
    by_row: dict[int, list[int]] = {}
    for h in hexes:
        by_row.setdefault(h.r, []).append(h.q)
    out: dict[int, list[tuple[int, int]]] = {}
    for r, qs in by_row.items():
        qs.sort()
        runs: list[tuple[int, int]] = []
        lo = hi = qs[0]
        for q in qs[1:]:
            if q == hi + 1:
                hi = q
            else:
                runs.append((lo, hi))
                lo = hi = q
        runs.append((lo, hi))
        out[r] = runs
    return out


def _member(q: z3.ArithRef, r: z3.ArithRef, rows: Mapping[int, list[tuple[int, int]]]) -> z3.BoolRef:
    return z3.Or(
        [z3.And(r == row, z3.Or([z3.And(q >= lo, q <= hi) for lo, hi in runs])) for row, runs in sorted(rows.items())]
    )


def _allowed_changes(rules: FlightRules) -> tuple[str, tuple[int, ...]]:
    """The rule and the step-to-step changes it allows, as ``flight._turn_problem`` judges."""
    if rules.straight_only:
        return "KAS-R-65", (0,)
    if rules.sharp_ok:
        return "KAS-R-82", (0, 1, 2, 4, 5)  # 180° stays forbidden
    if rules.turns == "straight":
        return "KAS-R-26", (0,)
    return "KAS-R-26", (0, 1, 5)


def _turned(a: z3.ArithRef, b: z3.ArithRef, change: int) -> z3.BoolRef:
    """(b - a) mod 6 == change, kept linear for directions 0..5."""
    return z3.Or(b == a + change, b == a + change - 6)


@attrs.frozen
class Encoding:
    rules: tuple[Tracked, ...]
    directions: tuple[z3.ArithRef, ...]
    q: tuple[z3.ArithRef, ...]  # q[0], r[0]: the start (pinned by the instance)
    r: tuple[z3.ArithRef, ...]


def encode(game_map: GameMap, length: int, legs: int, rules: FlightRules) -> Encoding:
    """The rules for ``legs`` flights of ``length`` steps each on this map (no start, no target)."""
    n = length * legs
    d = tuple(z3.Int(f"d{k}") for k in range(1, n + 1))
    q = tuple(z3.Int(f"q{k}") for k in range(n + 1))
    r = tuple(z3.Int(f"r{k}") for k in range(n + 1))
    area = _rows(h for h in game_map.hexes if game_map.can_pass(h))
    endable = _rows(h for h in game_map.hexes if game_map.can_end_on(h))
    tracked: list[Tracked] = []
    steps = []
    for k in range(n):
        dq = dr = z3.IntVal(0)
        for i, (vq, vr) in enumerate(DIRECTIONS):
            dq, dr = z3.If(d[k] == i, vq, dq), z3.If(d[k] == i, vr, dr)
        steps += [d[k] >= 0, d[k] <= 5, q[k + 1] == q[k] + dq, r[k + 1] == r[k] + dr]
    tracked.append(("KAS-R-26#steps", z3.And(steps) if steps else z3.BoolVal(True)))
    turn_rule, changes = _allowed_changes(rules)
    for leg in range(legs):
        first, last = leg * length, (leg + 1) * length  # step indices [first, last) of this leg
        # Each flight is judged on its own (KAS-R-26, KAS-R-73): no turn across two legs.
        for k in range(first, last - 1):
            tracked.append((f"{turn_rule}#turn{k + 1}", z3.Or([_turned(d[k], d[k + 1], c) for c in changes])))
            if rules.turns == "spaced" and not rules.sharp_ok and not rules.straight_only and k + 2 < last:
                # KAS-AMB-01 (b): a bend must be followed by a straight step before the next bend.
                tracked.append((f"KAS-R-26#spacing{k + 1}", z3.Or(d[k + 1] == d[k], d[k + 2] == d[k + 1])))
        for k in range(first + 1, last + 1):
            tracked.append((f"KAS-R-27#{k}", _member(q[k], r[k], area)))
        if length > 0:
            tracked.append((f"KAS-R-27#end{leg + 1}", _member(q[last], r[last], endable)))
        if rules.no_revisit:  # KAS-AMB-02 (b): no hex of a leg (its start included) entered twice
            hexes = range(first, last + 1)
            tracked.append(
                (
                    f"KAS-R-26#revisit{leg + 1}",
                    z3.And(
                        [z3.Or(q[i] != q[j], r[i] != r[j]) for i in hexes for j in hexes if i < j] or [z3.BoolVal(True)]
                    ),
                )
            )
        if rules.no_return and length > 0:  # KAS-AMB-02 (c): a leg may not end where it began
            tracked.append((f"KAS-R-26#return{leg + 1}", z3.Or(q[last] != q[first], r[last] != r[first])))
    return Encoding(tuple(tracked), d, q, r)


def _start(enc: Encoding, start: Hex) -> list[z3.BoolRef]:
    return [enc.q[0] == start.q, enc.r[0] == start.r]


def _at_end(enc: Encoding, target: Hex) -> z3.BoolRef:
    return z3.And(enc.q[-1] == target.q, enc.r[-1] == target.r)


def _check(solver: z3.Solver) -> z3.CheckSatResult:
    """One place that runs Z3 (tests replace it to force 'unknown')."""
    return solver.check()


def _solver(timeout_ms: int) -> z3.Solver:
    # The encoding is linear integer arithmetic without quantifiers: Z3's QF_LIA solver answers the
    # 7-player layout's flights 1.5-1.8x sooner than its general one, with the same answers.
    solver = z3.SolverFor("QF_LIA")
    solver.set("timeout", timeout_ms)  # Z3's convention: 0 means no limit
    solver.set("core.minimize", True)
    return solver


def _path(model: z3.ModelRef, enc: Encoding) -> Path:
    return tuple(int(model.eval(x, model_completion=True).as_long()) for x in enc.directions)


def _end(model: z3.ModelRef, enc: Encoding) -> Hex:
    return Hex(
        int(model.eval(enc.q[-1], model_completion=True).as_long()),
        int(model.eval(enc.r[-1], model_completion=True).as_long()),
    )


# --- queries ---------------------------------------------------------------------------------------


@attrs.frozen
class Reach:
    """Can one distance's flight (all legs) end on the target?"""

    distance: int
    status: str  # "reachable" | "unreachable" | "unknown"
    path: Path | None  # the witness: every leg's steps, concatenated
    core: tuple[str, ...]
    core_labels: tuple[str, ...]
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "distance": self.distance,
            "status": self.status,
            "path": list(self.path) if self.path is not None else None,
            "core": list(self.core),
            "core_labels": list(self.core_labels),
            "reason": self.reason,
        }


def can_end_on(
    game: Any, spec: FlightSpec, target: Hex, *, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> tuple[str, list[Reach], float]:
    """ "Can the airship end on ``target``?" for each distance the card offers.

    Overall "reachable" if some distance reaches it, "unreachable" if every one
    is proved not to, else "unknown".
    """
    begin = time.perf_counter()
    game_map = game.ctx.game_map(spec.layout)
    _check_start(game_map, spec.start)
    out: list[Reach] = []
    for length in spec.distances:
        if length == 0:  # the airship stays (KAS-R-26): no flight to judge
            here = target == spec.start
            out.append(
                Reach(
                    0,
                    "reachable" if here else "unreachable",
                    () if here else None,
                    () if here else ("KAS-R-26",),
                    () if here else ("KAS-R-26#steps",),
                )
            )
            continue
        enc = encode(game_map, length, spec.legs, spec.rules)
        solver = _solver(timeout_ms)
        asked = [*_start(enc, spec.start), _at_end(enc, target)]
        solver.add(asked)
        for label, constraint in enc.rules:
            solver.assert_and_track(constraint, label)
        result = _check(solver)
        if result == z3.sat:
            out.append(Reach(length, "reachable", _path(solver.model(), enc), (), ()))
        elif result == z3.unsat:
            labels = tuple(sorted(str(b) for b in solver.unsat_core()))
            core = minimal_core_ids(asked, enc.rules, labels, timeout_ms)
            out.append(Reach(length, "unreachable", None, core, labels))
        else:
            out.append(Reach(length, "unknown", None, (), (), solver.reason_unknown()))
    statuses = {a.status for a in out}
    status = "reachable" if "reachable" in statuses else "unknown" if "unknown" in statuses else "unreachable"
    if not out:
        status = "unreachable"  # the Emperor card has no movement step
    return status, out, _ms(begin)


@attrs.frozen
class Ends:
    distance: int
    status: str  # "done" | "unknown" (then ``ends`` is a subset)
    # each end with a witness path: its smallest (the walk's, in path order) when the certificate
    # proved the set; Z3's own (not necessarily the smallest) when Z3 enumerated
    ends: dict[Hex, Path]
    checks: int  # solver calls
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "distance": self.distance,
            "status": self.status,
            "checks": self.checks,
            "reason": self.reason,
            "ends": [{"at": [h.q, h.r], "path": list(p)} for h, p in sorted(self.ends.items())],
        }


def endpoints_z3(
    game_map: GameMap,
    start: Hex,
    length: int,
    rules: FlightRules,
    *,
    legs: int = 1,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> Ends:
    """Every legal end of the flight, the set proved exact by one Z3 check.

    The flight's finite states are walked once, step by step (:func:`_walk`: each end with its
    smallest path); Z3 then proves that no other hex is an end and that every hex found is one
    (:func:`_certificate`, unsat).  Rules that look at the whole path rather than the last step -
    KAS-AMB-02 (b) no revisit, (c) no return for a flight of two legs - are left to Z3's own
    enumeration (:func:`enumerate_ends_z3`), and so is any set the check refutes.  Length 0 is
    ``{start: ()}`` as in the model (the airship stays, KAS-R-26).
    """
    _check_start(game_map, start)
    if length == 0:
        return Ends(0, "done", {start: ()}, 0)
    if not _walkable(rules, legs):
        return enumerate_ends_z3(game_map, start, length, rules, legs=legs, timeout_ms=timeout_ms)
    area, endable = _hex_sets(game_map)
    ends = _walk(area, endable, start, length, legs, rules)
    solver = z3.SolverFor("QF_FD")  # Booleans only: Z3's SAT core
    solver.set("timeout", timeout_ms)
    # Parsed in one call: building thousands of terms through the Python API costs more than the proof.
    solver.from_string(_certificate(area, endable, start, length, legs, rules, ends))
    result = _check(solver)
    if result == z3.unsat:
        return Ends(length, "done", ends, 1)
    if result == z3.sat:  # the walk and the rules disagree: Z3's own enumeration answers
        found = enumerate_ends_z3(game_map, start, length, rules, legs=legs, timeout_ms=timeout_ms)
        return attrs.evolve(found, checks=found.checks + 1)
    return Ends(length, "unknown", {}, 1, solver.reason_unknown())


def enumerate_ends_z3(
    game_map: GameMap,
    start: Hex,
    length: int,
    rules: FlightRules,
    *,
    legs: int = 1,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> Ends:
    """Every legal end by Z3 alone on :func:`encode`: solve, block the end found, solve again until unsat.

    One check per end plus one: 63-90 checks for a flight of 5-6 on the 7-player layout.
    """
    _check_start(game_map, start)
    if length == 0:
        return Ends(0, "done", {start: ()}, 0)
    enc = encode(game_map, length, legs, rules)
    solver = _solver(timeout_ms)
    solver.add(_start(enc, start))
    # Plain constraints: the enumeration needs no cores, and untracked solving is faster.
    solver.add([c for _, c in enc.rules])
    found: dict[Hex, Path] = {}
    checks = 0
    while True:
        checks += 1
        result = _check(solver)
        if result == z3.unsat:
            return Ends(length, "done", found, checks)
        if result != z3.sat:
            return Ends(length, "unknown", found, checks, solver.reason_unknown())
        model = solver.model()
        end = _end(model, enc)
        found[end] = _path(model, enc)
        solver.add(z3.Not(_at_end(enc, end)))


# --- the walk and its certificate ----------------------------------------------------------------
#
# A flight's state after a step: the hex, the direction of that step (_NO_STEP before the first step
# of a leg), and - under KAS-AMB-01 (b) only - whether that step was a bend.  The next step depends
# on nothing else, so the states reachable after k steps are a finite set computed from those after
# k - 1: the walk does that in Python, the certificate says it in propositional logic for Z3.

_NO_STEP = -1
_State = tuple[Hex, int, bool]


def _walkable(rules: FlightRules, legs: int) -> bool:
    """The rules look only at the last step: KAS-AMB-02 (b), and (c) across two legs, look further back."""
    return not rules.no_revisit and not (rules.no_return and legs > 1)


def _spaced(rules: FlightRules) -> bool:
    """KAS-AMB-01 (b) applies (as in :func:`encode`): a bend must be followed by a straight step."""
    return rules.turns == "spaced" and not rules.sharp_ok and not rules.straight_only


def _next_steps(rules: FlightRules) -> dict[tuple[int, bool], tuple[tuple[int, bool], ...]]:
    """(direction, bent) of the last step -> the allowed (direction, bent) of the next, ascending.

    The first step of a leg goes anywhere (KAS-R-26, KAS-R-73); then the change must be one
    :func:`_allowed_changes` allows (KAS-R-26, KAS-R-65, KAS-R-82), and under KAS-AMB-01 (b) not a
    bend right after a bend.
    """
    _, changes = _allowed_changes(rules)
    spaced = _spaced(rules)
    table = {(_NO_STEP, False): tuple((d, False) for d in range(6))}
    for previous in range(6):
        for bent in (False, True) if spaced else (False,):
            table[previous, bent] = tuple(
                (d, spaced and d != previous)
                for d in range(6)
                if (d - previous) % 6 in changes and not (bent and d != previous)
            )
    return table


def _hex_sets(game_map: GameMap) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The hexes a flight may enter and those it may end on (KAS-R-27)."""
    return (
        frozenset(h for h in game_map.hexes if game_map.can_pass(h)),
        frozenset(h for h in game_map.hexes if game_map.can_end_on(h)),
    )


def _by_path(item: tuple[_State, Path]) -> Path:
    return item[1]


def _walk(
    area: frozenset[Hex], endable: frozenset[Hex], start: Hex, length: int, legs: int, rules: FlightRules
) -> dict[Hex, Path]:
    """Each end hex with its smallest path, in path order.

    Every state keeps the smallest path reaching it: states are expanded in path order and the
    first path to arrive stays.
    """
    next_steps = _next_steps(rules)
    layer: dict[_State, Path] = {(start, _NO_STEP, False): ()}
    for leg in range(legs):
        if leg:  # KAS-R-73: the next flight starts afresh from a hex the last one may end on (KAS-R-27)
            fresh: dict[_State, Path] = {}
            for (at, _, _), path in sorted(layer.items(), key=_by_path):
                if at in endable:
                    fresh.setdefault((at, _NO_STEP, False), path)
            layer = fresh
        for _ in range(length):
            following: dict[_State, Path] = {}
            for (at, direction, bent), path in sorted(layer.items(), key=_by_path):
                around = at.neighbours()
                for d, bent_after in next_steps[direction, bent]:
                    if around[d] in area:  # KAS-R-27: every hex entered is in the play area
                        following.setdefault((around[d], d, bent_after), (*path, d))
            layer = following
    ends: dict[Hex, Path] = {}
    for (at, _, _), path in sorted(layer.items(), key=_by_path):
        if at in endable and not (rules.no_return and at == start):  # KAS-R-27#end, KAS-AMB-02 (c)
            ends.setdefault(at, path)
    return ends


def _or(names: Sequence[str]) -> str:
    if not names:
        return "false"
    return names[0] if len(names) == 1 else f"(or {' '.join(names)})"


def _certificate(
    area: frozenset[Hex],
    endable: frozenset[Hex],
    start: Hex,
    length: int,
    legs: int,
    rules: FlightRules,
    ends: Mapping[Hex, Path],
) -> str:
    """SMT-LIB: unsat iff ``ends`` is exactly the set of hexes a legal flight ends on.

    One Boolean per step k, hex and state of the last step, defined to be true iff one of the states
    it may follow is true (the start alone is true before step 1): the hexes are those of the play
    area no farther than k from the start (KAS-R-27; k steps go no farther), the states it may follow
    are those :func:`_next_steps` allows from (KAS-R-26 turns; each leg starts afresh from a hex the
    last one may end on, KAS-R-73).  A state with none of those is false and left out.  The last
    assertion denies that the end hexes (KAS-R-27#end, KAS-AMB-02 (c)) are exactly ``ends``.
    """
    before: dict[tuple[int, bool], list[tuple[int, bool]]] = {}
    for last, allowed in _next_steps(rules).items():
        if last[0] != _NO_STEP:
            for step in allowed:
                before.setdefault(step, []).append(last)
    bents = (False, True) if _spaced(rules) else (False,)
    declared: list[str] = []
    defined: list[str] = []
    layer: dict[_State, str] = {(start, _NO_STEP, False): "true"}
    for k in range(1, length * legs + 1):
        fresh = (k - 1) % length == 0  # the first step of a leg
        if fresh:
            at_hex: dict[Hex, list[str]] = {}
            for (at, _, _), name in layer.items():
                if k == 1 or at in endable:
                    at_hex.setdefault(at, []).append(name)
        following: dict[_State, str] = {}
        for at in sorted(area):
            if at.distance(start) > k:
                continue
            around = at.neighbours()
            for d in range(6):
                came_from = around[(d + 3) % 6]  # the hex one step back against direction d
                for bent in bents:
                    if fresh:
                        if bent:
                            continue  # a first step is no bend
                        sources = at_hex.get(came_from, [])
                    else:
                        sources = [layer[s] for e, b in before.get((d, bent), ()) if (s := (came_from, e, b)) in layer]
                    if not sources:
                        continue  # false: left out, as are the states it would lead to
                    name = f"x{len(declared)}"
                    declared.append(f"(declare-const {name} Bool)")
                    defined.append(f"(assert (= {name} {_or(sources)}))")
                    following[at, d, bent] = name
        layer = following
    finals: dict[Hex, list[str]] = {}
    for (at, _, _), name in layer.items():
        if at in endable and not (rules.no_return and at == start):
            finals.setdefault(at, []).append(name)
    claims = [_or(names) if at in ends else f"(not {_or(names)})" for at, names in sorted(finals.items())]
    claims += ["false" for at in ends if at not in finals]  # an end no flight of this length can reach
    defined.append(f"(assert (not (and true {' '.join(claims)})))")
    return "\n".join(declared + defined)


def card_ends(game: Any, spec: FlightSpec, *, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> tuple[list[Ends], float]:
    """The Z3 endpoint set for each distance the card offers."""
    begin = time.perf_counter()
    game_map = game.ctx.game_map(spec.layout)
    out = [
        endpoints_z3(game_map, spec.start, n, spec.rules, legs=spec.legs, timeout_ms=timeout_ms) for n in spec.distances
    ]
    return out, _ms(begin)


def _check_start(game_map: GameMap, start: Hex) -> None:
    if start not in game_map.hexes:
        raise RulecraftError(f"the start hex {start} is not in the play area of {game_map.layout}")


# --- the oracle -------------------------------------------------------------------------------------


def oracle_ends(game_map: GameMap, start: Hex, length: int, rules: FlightRules, *, legs: int = 1) -> set[Hex]:
    """The model's own endpoints; Rose & Thorn: the second flight from every end of the first."""
    ends = {start}
    for _ in range(legs):
        ends = {e for s in ends for e in flight.endpoints(game_map, s, length, rules)}
    return ends


def oracle_card_ends(game: Any, spec: FlightSpec) -> tuple[dict[int, set[Hex]], float]:
    begin = time.perf_counter()
    game_map = game.ctx.game_map(spec.layout)
    out = {n: oracle_ends(game_map, spec.start, n, spec.rules, legs=spec.legs) for n in spec.distances}
    return out, _ms(begin)


def judge_path(game_map: GameMap, start: Hex, path: Path, length: int, legs: int, rules: FlightRules) -> str | None:
    """The model's judge on a Z3 witness, leg by leg: None if every leg is legal."""
    at = start
    for leg in range(legs):
        steps = path[leg * length : (leg + 1) * length]
        problem = flight.flight_problem(game_map, at, steps, length, rules)
        if problem is not None:
            return f"leg {leg + 1}: {problem[0]} {problem[1]}"
        for d in steps:
            at = at.step(d)
    return None
