"""Z3 bounded model check: in how few turns can the player put a stone on level 8 (or a given
district), looking at the gauge only?

The abstraction: each turn starts with the arrow stones' moves (STM-R-19, STM-AMB-07 'each'; in the
first turn only if the state is still at the start of the turn), then either MAKE STEAM (increase
the pressure by the player's boilers, STM-R-25, needing a stone that can move, STM-R-24) or, in the
last turn, SET 1 TARGET with a stone whose value is at least the level (STM-R-26) on a district that
is free now (STM-R-27).  Turns are unrolled up to ``max_turns`` once; turn k is asked with the
assumptions "turns 1..k-1 make steam, turn k sets the stone", k = 1, 2, ... so the first sat k is
the fewest.  Rule families are tracked by name (:mod:`.encoding` for the gauge, plus
``STM-R-24 make steam needs a movable stone``, ``STM-R-26 the stone set comes from the gauge``,
``STM-R-26 level at most value``,
``STM-R-27 free district``); when even ``max_turns`` is too few, the unsat core names the rules.

Ignored (the answer says so in ``assumes``): channelling and placing other stones, FLY TO ALL
TARGETS and taking stones back, every effect (machines, districts, passengers, bonus markers, the
base marker), boilers gained later, and the other players (the district is assumed to stay free).
The oracle is a breadth-first search over gauges with the model's own ``arrow_outcomes`` and
``increase_outcomes``; Z3's plan replays through ``arrow_moves`` and ``increase``.
"""

from __future__ import annotations

import time
from typing import Any

import attrs
import z3

from rulecraft.core import NotApplicable
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import (
    Gauge,
    GaugeError,
    arrow_moves,
    arrow_outcomes,
    increase,
    increase_outcomes,
    movable,
)
from rulecraft.solvers.steamopolis.common import RuleSolver, ms
from rulecraft.solvers.steamopolis.encoding import ArrowMoves, GaugeEncoder, Increment

R24_STEAM = "STM-R-24 make steam needs a movable stone"
R26_GAUGE = "STM-R-26 the stone set comes from the gauge"
R26_LEVEL = "STM-R-26 level at most value"
R27_FREE = "STM-R-27 free district"
ASSUMES = (
    "only the gauge: each turn the arrow stones move (STM-R-19), then MAKE STEAM (+boilers, STM-R-25) or, "
    "in the last turn, SET 1 TARGET of a stone whose value is at least the level (STM-R-26) on a district "
    "free now (STM-R-27); ignored: channelling and other placements, FLY TO ALL TARGETS and take-backs, "
    "every effect (machines, districts, passengers, bonus markers, base marker), boilers gained later, "
    "other players (the district is assumed to stay free)"
)


@attrs.frozen
class TopSpec:
    gauge: Gauge
    boilers: int  # the increments of MAKE STEAM (STM-R-25)
    level: int
    position: str | None
    district_free: bool  # STM-R-27, judged in the state now
    arrows_first: bool  # the state is at the start of the turn: turn 1 begins with the arrow moves
    max_turns: int

    def to_json(self) -> dict[str, Any]:
        return {
            "boilers": self.boilers,
            "level": self.level,
            "position": self.position,
            "district_free": self.district_free,
            "arrows_first": self.arrows_first,
            "max_turns": self.max_turns,
        }


@attrs.frozen
class Turn:
    arrows: tuple[int, ...]  # the arrow stones' starting spaces, in the order they moved
    steam: tuple[int, ...] | None  # MAKE STEAM: the stone moved at each increment; None: the SET turn
    set_space: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.steam is None:
            return {"arrows": list(self.arrows), "action": "set", "space": self.set_space}
        return {"arrows": list(self.arrows), "action": "make-steam", "picks": list(self.steam)}


@attrs.frozen
class Top:
    status: str  # "reachable" | "unreachable" (within max_turns) | "unknown"
    turns: int | None
    plan: tuple[Turn, ...]
    core: tuple[str, ...]
    checked: int  # the largest k decided
    ms: float
    reason: str | None = None


def readings_problem(ctx: Context) -> None:
    """The encoding is written for STM-AMB-07 'each' and STM-AMB-32 'free-order'."""
    if ctx.r("STM-AMB-07") != "each" or ctx.r("STM-AMB-32") != "free-order":
        raise NotApplicable(
            "top: encoded for STM-AMB-07 'each' and STM-AMB-32 'free-order', the ruleset reads "
            f"{ctx.r('STM-AMB-07')!r} and {ctx.r('STM-AMB-32')!r}"
        )


def fewest_turns(ctx: Context, spec: TopSpec, *, timeout_ms: int) -> Top:
    begin = time.perf_counter()
    readings_problem(ctx)
    rs = RuleSolver(timeout_ms, logic="QF_FD")
    enc = GaugeEncoder(rs, spec.gauge, ctx.layout)
    reach = enc.value_mask(spec.level)
    bits = enc.initial
    steam: list[z3.BoolRef] = []
    arrows: list[ArrowMoves] = []
    increments: list[tuple[Increment, ...]] = []
    chosen: list[tuple[z3.BoolRef, ...]] = []
    at_turn: list[tuple[z3.BitVecRef, ...]] = []
    assumptions: list[z3.BoolRef] = []
    for t in range(1, spec.max_turns + 1):
        # Built turn by turn: the answer is often found before the last turn is needed.
        if t > 1:  # MAKE STEAM in turn t - 1
            on = z3.Bool(f"t{t - 1}steam")
            steam.append(on)
            rs.rule(R24_STEAM, [z3.Implies(on, enc.can_move(bits))])
            steps = []
            for k in range(spec.boilers):
                bits, step = enc.increment(bits, f"t{t - 1}inc{k + 1}", enabled=on)
                steps.append(step)
            increments.append(tuple(steps))
        moves = ArrowMoves((), ())
        if t > 1 or spec.arrows_first:
            bits, moves = enc.arrow_moves(bits, f"t{t}arrows")
        arrows.append(moves)
        at_turn.append(bits)
        # SET 1 TARGET in turn t: one stone, of value at least the level, on a free district.
        sets = tuple(z3.Bool(f"t{t}set{j}") for j in range(len(bits)))
        chosen.append(sets)
        ask = z3.Bool(f"t{t}sets")
        if sets:
            rs.add(z3.AtMost(*sets, 1))  # the question: one stone
        rs.rule(R26_GAUGE, [z3.Implies(ask, z3.Or(sets) if sets else z3.BoolVal(False))])
        rs.rule(R26_LEVEL, [z3.Implies(s, (b & reach) != 0) for s, b in zip(sets, bits, strict=True)])
        rs.rule(R27_FREE, [z3.Implies(ask, z3.BoolVal(spec.district_free))])
        assumptions = [*steam, ask]
        result = rs.check(*assumptions)
        if result == z3.sat:
            model = rs.model()
            plan = []
            for u in range(1, t + 1):
                order = enc.arrow_order(model, arrows[u - 1])
                if u < t:
                    plan.append(Turn(order, enc.picks(model, increments[u - 1])))
                else:
                    spaces = enc.read(model, list(at_turn[u - 1]))
                    j = next(j for j, s in enumerate(chosen[u - 1]) if z3.is_true(model.eval(s, model_completion=True)))
                    plan.append(Turn(order, None, spaces[j]))
            return Top("reachable", t, tuple(plan), (), t, ms(begin))
        if result != z3.unsat:
            return Top("unknown", None, (), (), t - 1, ms(begin), rs.reason())
    return Top("unreachable", None, (), rs.core(assumptions), spec.max_turns, ms(begin))


# --- the oracle ------------------------------------------------------------------------------------------


def oracle_fewest(ctx: Context, spec: TopSpec) -> tuple[int | None, float]:
    """Breadth-first search over the gauges the model's own functions give, turn by turn."""
    begin = time.perf_counter()
    layer = {spec.gauge}
    for t in range(1, spec.max_turns + 1):
        if t > 1 or spec.arrows_first:
            layer = {after for g in layer for after in arrow_outcomes(g)}
        if spec.district_free and any(ctx.layout.value(s) >= spec.level for g in layer for s in g.stone_spaces()):
            return t, ms(begin)
        layer = {r.gauge for g in layer if movable(g) for r in increase_outcomes(g, spec.boilers)}
        if not layer:
            break
    return None, ms(begin)


def replay_problem(ctx: Context, spec: TopSpec, plan: tuple[Turn, ...]) -> str | None:
    """The model's gauge functions on a Z3 plan: None when every turn is legal and the last sets."""
    gauge = spec.gauge
    try:
        for t, turn in enumerate(plan, start=1):
            if t > 1 or spec.arrows_first:
                gauge = arrow_moves(gauge, turn.arrows)
            if turn.steam is None:
                space = turn.set_space
                if space is None or space not in gauge.stone_spaces() or ctx.layout.value(space) < spec.level:
                    return f"turn {t}: no stone of value {spec.level} or more on space {space}"
                return None
            if not movable(gauge):
                return f"turn {t}: MAKE STEAM without a stone that can move (STM-R-24)"
            gauge = increase(gauge, spec.boilers, turn.steam).gauge
    except GaugeError as err:  # it names the rule
        return f"the plan is illegal: {err}"
    return "the plan never sets a stone"
