"""Z3: which gauges can one "increase the pressure by X" give (STM-R-15)?

The move sequence is X increments, each either one stone's move to the nearest free space right of
it or a lapse, bit-vector encoded (:mod:`.encoding`).  The rules are tracked families
(``STM-R-15 increment to the nearest free space``, ``STM-R-15 no voluntary stop``); the start gauge
is the instance (constants) and the target arrangement the question (plain).  STM-AMB-32 'most'
keeps only the orders that use the most increments: Z3 first finds that number (increment k is
used only if every earlier one was, a stuck gauge stays stuck).

Every end gauge: solve, block the arrangement found (positions and faces), solve again until
unsat.  The oracle is the model's own :func:`gauge.increase_outcomes`; Z3's witness orders replay
through :func:`gauge.increase`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs
import z3

from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import Gauge, GaugeError, Stone, increase, increase_outcomes
from rulecraft.solvers.steamopolis.common import Arrangement, RuleSolver, describe_gauge, ms
from rulecraft.solvers.steamopolis.encoding import Bits, GaugeEncoder, Increment


@attrs.frozen
class Outcome:
    gauge: Gauge
    picks: tuple[int, ...]  # a witness order: the stone moved at each increment (its current space)
    lapsed: int

    def to_json(self, ctx: Context) -> dict[str, Any]:
        return {
            **describe_gauge(self.gauge, ctx.layout),
            "picks": list(self.picks),
            "used": len(self.picks),
            "lapsed": self.lapsed,
        }


@attrs.frozen
class Reachable:
    status: str  # "done" | "unknown" (then ``outcomes`` is a subset)
    outcomes: tuple[Outcome, ...]
    most: int | None  # STM-AMB-32 'most': the increments every kept order uses
    checks: int
    ms: float
    reason: str | None = None


@attrs.frozen
class Reach:
    status: str  # "reachable" | "unreachable" | "unknown"
    outcome: Outcome | None
    core: tuple[str, ...]
    ms: float
    reason: str | None = None  # unknown: Z3's reason; unreachable without a core: why not


@attrs.frozen
class _Encoded:
    rs: RuleSolver
    enc: GaugeEncoder
    final: Bits
    steps: tuple[Increment, ...]
    trace: tuple[z3.BitVecRef, ...]  # what a model is read from: the moved stones' spaces, then the end

    def used(self, k: int) -> z3.BoolRef:
        """Increment k (1-based) moved a stone: then so did every earlier one."""
        return z3.Or(self.steps[k - 1].chosen) if self.steps[k - 1].chosen else z3.BoolVal(False)


def _encode(ctx: Context, gauge: Gauge, x: int, timeout_ms: int, *, track: bool) -> _Encoded:
    rs = RuleSolver(timeout_ms, track=track, logic="QF_FD")
    enc = GaugeEncoder(rs, gauge, ctx.layout)
    bits = enc.initial
    steps: list[Increment] = []
    for k in range(x):
        bits, step = enc.increment(bits, f"inc{k + 1}")
        steps.append(step)
    moved = [enc.moved(step) for step in steps if step.chosen]
    return _Encoded(rs, enc, bits, tuple(steps), (*moved, *bits))


def _outcome(gauge: Gauge, e: _Encoded, model: z3.ModelRef, x: int) -> tuple[Outcome, frozenset[tuple[int, bool]]]:
    """The end gauge and a witness order, read from one evaluation of the model."""
    read = e.enc.read(model, e.trace)
    cut = len(e.trace) - len(e.final)
    picks = tuple(s for s in read[:cut] if s >= 0)
    stones = frozenset(zip(read[cut:], e.enc.arrow, strict=True))
    spaces: list[Any] = [None if isinstance(item, Stone) else item for item in gauge.spaces]
    for space, arrow in stones:
        spaces[space] = Stone(arrow)
    return Outcome(Gauge(gauge.base, tuple(spaces)), picks, x - len(picks)), stones


def _most(e: _Encoded, x: int) -> tuple[str, int | None, str | None]:
    """STM-AMB-32 'most': the largest number of increments some order uses."""
    if not e.steps or not e.steps[0].chosen:
        return "done", 0, None
    for k in range(x, 0, -1):
        result = e.rs.check(e.rs.assume(e.used(k), f"used{k}"))
        if result == z3.sat:
            return "done", k, None
        if result != z3.unsat:
            return "unknown", None, e.rs.reason()
    return "done", 0, None


def _keep_most(e: _Encoded, most: int, x: int) -> list[z3.BoolRef]:
    """The question restricted to orders of exactly ``most`` increments."""
    out = [e.used(most)] if most else []
    if most < x and e.steps[most].chosen:
        out.append(z3.Not(e.used(most + 1)))
    return out


def reachable_gauges(ctx: Context, gauge: Gauge, x: int, *, timeout_ms: int) -> Reachable:
    """Every gauge 'increase the pressure by x' can give, each with a witness order."""
    begin = time.perf_counter()
    e = _encode(ctx, gauge, x, timeout_ms, track=False)
    most: int | None = None
    if ctx.r("STM-AMB-32") == "most":
        status, most, reason = _most(e, x)
        if status != "done" or most is None:
            return Reachable("unknown", (), None, x, ms(begin), reason)
        e.rs.add(*_keep_most(e, most, x))
    found: list[Outcome] = []
    checks = 0
    while True:
        checks += 1
        result = e.rs.check()
        if result != z3.sat:
            found.sort(key=lambda o: sorted(arrangement_of(o.gauge)))
            if result == z3.unsat:
                return Reachable("done", tuple(found), most, checks, ms(begin))
            return Reachable("unknown", tuple(found), most, checks, ms(begin), e.rs.reason())
        model = e.rs.model()
        got, stones = _outcome(gauge, e, model, x)
        found.append(got)
        e.rs.add(z3.Not(e.enc.is_arrangement(e.final, stones)))


def can_reach(ctx: Context, gauge: Gauge, x: int, targets: Sequence[Arrangement], *, timeout_ms: int) -> Reach:
    """Can 'increase the pressure by x' end on one of ``targets``?  Unsat: the rules saying no."""
    begin = time.perf_counter()
    faces = sorted(a for _, a in arrangement_of(gauge))
    if all(sorted(a for _, a in t.stones) != faces for t in targets):
        arrows = sum(faces)
        why = (
            f"the gauge holds {len(faces)} stone(s), {arrows} with an arrow, and no target does: increments "
            "move stones, never add, remove or turn them (STM-R-15)"
        )
        return Reach("unreachable", None, (), ms(begin), why)
    e = _encode(ctx, gauge, x, timeout_ms, track=True)
    if ctx.r("STM-AMB-32") == "most":
        status, most, reason = _most(e, x)
        if status != "done" or most is None:
            return Reach("unknown", None, (), ms(begin), reason)
        e.rs.rule("STM-AMB-32 the most increments", _keep_most(e, most, x))
    question = z3.Or([e.enc.is_arrangement(e.final, t.stones) for t in targets])
    e.rs.add(question)
    result = e.rs.check()
    if result == z3.sat:
        return Reach("reachable", _outcome(gauge, e, e.rs.model(), x)[0], (), ms(begin))
    if result == z3.unsat:
        return Reach("unreachable", None, e.rs.core(), ms(begin))
    return Reach("unknown", None, (), ms(begin), e.rs.reason())


# --- the oracle ---------------------------------------------------------------------------------------


def oracle_gauges(ctx: Context, gauge: Gauge, x: int) -> tuple[frozenset[Gauge], float]:
    """The model's own outcome set (STM-R-15 with the ruleset's STM-AMB-32 reading)."""
    begin = time.perf_counter()
    found = frozenset(r.gauge for r in increase_outcomes(gauge, x, ctx.r("STM-AMB-32")))
    return found, ms(begin)


def arrangement_of(gauge: Gauge) -> frozenset[tuple[int, bool]]:
    return frozenset((i, item.arrow) for i, item in enumerate(gauge.spaces) if isinstance(item, Stone))


def replay_problem(ctx: Context, gauge: Gauge, x: int, outcome: Outcome) -> str | None:
    """The model's judge on a Z3 witness order: None when it is legal and ends on the outcome."""
    try:
        result = increase(gauge, x, outcome.picks)
    except GaugeError as err:  # it names the rule
        return f"the order {list(outcome.picks)} is illegal: {err}"
    if result.gauge != outcome.gauge:
        return f"the order {list(outcome.picks)} ends on {describe_gauge(result.gauge, ctx.layout)}"
    return None
