"""The pressure gauge in Z3 (STM-R-14..16, R-19): one bit-vector per stone, one bit per space.

Each stone's space is a one-hot bit-vector ``P_j`` over the spaces ``0..last``; the markers are a
constant mask.  The spaces a stone may move to are the free ones right of it,
``C_j = free & ~((P_j << 1) - 1)``, and an increment moves it to the nearest, the lowest set bit
``C_j & -C_j`` (STM-R-15: jumping stones and markers, never stopping on an occupied space); a
stone with ``C_j = 0`` cannot move.  Stones keep their identity, so their faces (arrow or not)
travel with them.

Rule families (tracked by name):

* ``STM-R-15 increment to the nearest free space``: at most one stone moves per increment, one that
  can, to the nearest free space; the others stay;
* ``STM-R-15 no voluntary stop``: an increment lapses only when no stone can move;
* ``STM-R-19 arrow stones move at the start of the turn``: each arrow stone once, in an order the
  player chooses, a blocked one does not move (STM-AMB-07 'each');
* ``STM-R-23 one action per turn``: the pressure rises only in a MAKE STEAM turn (the top query).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce

import attrs
import z3

from rulecraft.model.steamopolis.gauge import Gauge, GaugeLayout
from rulecraft.solvers.steamopolis.common import RuleSolver

R15_MOVE = "STM-R-15 increment to the nearest free space"
R15_STOP = "STM-R-15 no voluntary stop"
R19_ARROWS = "STM-R-19 arrow stones move at the start of the turn"
R23_ONE_ACTION = "STM-R-23 one action per turn"

Bits = tuple[z3.BitVecRef, ...]


@attrs.frozen
class Increment:
    """One increment: the stones' spaces before it and which stone was chosen."""

    before: Bits
    chosen: tuple[z3.BoolRef, ...]


@attrs.frozen
class ArrowMoves:
    """The start-of-turn arrow moves: ``order[r][k]`` says arrow stone k moves r-th."""

    before: tuple[Bits, ...]
    order: tuple[tuple[z3.BoolRef, ...], ...]


class GaugeEncoder:
    """The stones of one gauge as bit-vectors, and steps that add their rule families to ``rs``."""

    def __init__(self, rs: RuleSolver, gauge: Gauge, layout: GaugeLayout, tag: str = "") -> None:
        self.rs = rs
        self.layout = layout
        self.tag = tag
        self.width = len(gauge.spaces)
        self.spaces = gauge.stone_spaces()
        self.arrow = tuple(gauge.stone_at(s, "STM-R-14").arrow for s in self.spaces)
        self.markers = self.mask(gauge.marker_spaces())
        self.valid = self.mask(range(gauge.base + 1, self.width))
        self.initial: Bits = tuple(self.mask([s]) for s in self.spaces)
        self._n = 0
        self._concat: dict[tuple[int, ...], z3.BitVecRef] = {}

    # -- constants and small terms ------------------------------------------------------------------
    def mask(self, spaces: Sequence[int] | range) -> z3.BitVecRef:
        return z3.BitVecVal(sum(1 << s for s in spaces), self.width)

    def value_mask(self, at_least: int) -> z3.BitVecRef:
        """The spaces whose pressure value is at least ``at_least`` (STM-R-26)."""
        return self.mask([s for s in range(1, self.width) if (self.layout.values[s] or 0) >= at_least])

    def fresh(self, name: str) -> Bits:
        self._n += 1
        return tuple(z3.BitVec(f"{self.tag}{name}#{self._n}_{j}", self.width) for j in range(len(self.spaces)))

    def free(self, bits: Bits) -> z3.BitVecRef:
        occupied = reduce(lambda a, b: a | b, bits, self.markers)
        return ~occupied & self.valid

    def ahead(self, bits: Bits, j: int, free: z3.BitVecRef | None = None) -> z3.BitVecRef:
        """The free spaces right of stone j (STM-R-15: 'a free space somewhere to its right')."""
        return (self.free(bits) if free is None else free) & ~((bits[j] << 1) - 1)

    @staticmethod
    def nearest(ahead: z3.BitVecRef) -> z3.BitVecRef:
        return ahead & -ahead

    def can_move(self, bits: Bits) -> z3.BoolRef:
        free = self.free(bits)
        return z3.Or([self.ahead(bits, j, free) != 0 for j in range(len(bits))]) if bits else z3.BoolVal(False)

    def same(self, a: Bits, b: Bits) -> z3.BoolRef:
        return z3.And([x == y for x, y in zip(a, b, strict=True)])

    # -- steps ---------------------------------------------------------------------------------------
    def increment(self, bits: Bits, name: str, enabled: z3.BoolRef | None = None) -> tuple[Bits, Increment]:
        """One increment of 'increase the pressure' (STM-R-15); only when ``enabled`` (a MAKE STEAM turn)."""
        n = len(bits)
        if n == 0:
            return bits, Increment(bits, ())
        self._n += 1
        chosen = tuple(z3.Bool(f"{self.tag}{name}#{self._n}_pick{j}") for j in range(n))
        after = self.fresh(name)
        free = self.free(bits)
        ahead = [self.ahead(bits, j, free) for j in range(n)]
        move = [z3.AtMost(*chosen, 1)]
        for j in range(n):
            move.append(z3.Implies(chosen[j], ahead[j] != 0))
            move.append(after[j] == z3.If(chosen[j], self.nearest(ahead[j]), bits[j]))
        self.rs.rule(R15_MOVE, move)
        on = z3.BoolVal(True) if enabled is None else enabled
        self.rs.rule(R15_STOP, [z3.Implies(z3.And(on, z3.Not(z3.Or(chosen))), z3.And([a == 0 for a in ahead]))])
        if enabled is not None:
            self.rs.rule(R23_ONE_ACTION, [z3.Implies(c, enabled) for c in chosen])
        return after, Increment(bits, chosen)

    def arrow_moves(self, bits: Bits, name: str) -> tuple[Bits, ArrowMoves]:
        """STM-R-19 / STM-AMB-07 'each': every arrow stone makes one increment of itself, in a chosen
        order; a blocked one does not move."""
        arrows = [j for j in range(len(bits)) if self.arrow[j]]
        if not arrows:
            return bits, ArrowMoves((), ())
        rules: list[z3.BoolRef] = []
        befores: list[Bits] = []
        order: list[tuple[z3.BoolRef, ...]] = []
        for _ in arrows:
            self._n += 1
            picks = tuple(z3.Bool(f"{self.tag}{name}#{self._n}_arrow{j}") for j in arrows)
            after = self.fresh(name)
            rules.append(z3.PbEq([(p, 1) for p in picks], 1))
            free = self.free(bits)
            for j in range(len(bits)):
                if j in arrows:
                    ahead = self.ahead(bits, j, free)
                    bumped = z3.If(ahead != 0, self.nearest(ahead), bits[j])
                    rules.append(after[j] == z3.If(picks[arrows.index(j)], bumped, bits[j]))
                else:
                    rules.append(after[j] == bits[j])
            befores.append(bits)
            order.append(picks)
            bits = after
        for k in range(len(arrows)):
            rules.append(z3.PbEq([(picks[k], 1) for picks in order], 1))  # each arrow stone once
        self.rs.rule(R19_ARROWS, rules)
        return bits, ArrowMoves(tuple(befores), tuple(order))

    # -- reading a model (one evaluation per model: the terms concatenated) ---------------------------
    def read(self, model: z3.ModelRef, terms: Sequence[z3.BitVecRef]) -> list[int]:
        """The spaces (one-hot bit-vectors; -1 for 0) of ``terms``, from a single evaluation."""
        if not terms:
            return []
        key = tuple(t.get_id() for t in terms)
        whole = self._concat.get(key)
        if whole is None:
            whole = self._concat[key] = terms[0] if len(terms) == 1 else z3.Concat(*terms)
        value = int(model.eval(whole, model_completion=True).as_long())
        out: list[int] = []
        for k in range(len(terms)):
            chunk = (value >> ((len(terms) - 1 - k) * self.width)) & ((1 << self.width) - 1)
            out.append(chunk.bit_length() - 1)
        return out

    def moved(self, step: Increment) -> z3.BitVecRef:
        """The space the chosen stone stood on before the increment (0 when it lapsed)."""
        zero = z3.BitVecVal(0, self.width)
        return reduce(lambda a, b: a | b, (z3.If(c, step.before[j], zero) for j, c in enumerate(step.chosen)), zero)

    def picks(self, model: z3.ModelRef, steps: Sequence[Increment]) -> tuple[int, ...]:
        """The spaces of the stones moved, increment by increment (as ``gauge.increase`` takes them)."""
        return tuple(s for s in self.read(model, [self.moved(step) for step in steps if step.chosen]) if s >= 0)

    def arrow_order(self, model: z3.ModelRef, moves: ArrowMoves) -> tuple[int, ...]:
        """The starting spaces of the arrow stones in the order they moved (``gauge.arrow_moves``)."""
        if not moves.before:
            return ()
        arrows = [j for j in range(len(self.spaces)) if self.arrow[j]]
        zero = z3.BitVecVal(0, self.width)
        first = moves.before[0]
        terms = [
            reduce(lambda a, b: a | b, (z3.If(p, first[arrows[k]], zero) for k, p in enumerate(picks)), zero)
            for picks in moves.order
        ]
        return tuple(self.read(model, terms))

    def arrangement(self, model: z3.ModelRef, bits: Bits) -> frozenset[tuple[int, bool]]:
        return frozenset(zip(self.read(model, list(bits)), self.arrow, strict=True))

    def is_arrangement(self, bits: Bits, stones: frozenset[tuple[int, bool]]) -> z3.BoolRef:
        """The stones stand exactly on these spaces with these faces (one-hot, so the masks say all)."""
        out = []
        for face in (True, False):
            mine = [b for j, b in enumerate(bits) if self.arrow[j] == face]
            want = [s for s, a in stones if a == face]
            if len(mine) != len(want):
                return z3.BoolVal(False)
            if mine:
                out.append(reduce(lambda a, b: a | b, mine) == self.mask(want))
        return z3.And(out) if out else z3.BoolVal(True)
