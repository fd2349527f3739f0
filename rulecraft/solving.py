"""What every game's Z3 queries share: the one place Z3 runs, rule families tracked by name with a core
that keeps only the rules needed to say no, and small encoding helpers.

An encoding keeps the rules (named families, ``assert_and_track`` through one literal per family) apart
from the instance (the state's data and the question, plain assertions), so an unsat core names rules
only.  Z3's ``unknown`` is its own outcome (:func:`status_of`), never read as a proof.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

import z3


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def check(solver: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """The one place that runs Z3 (tests replace ``rulecraft.solving.check`` to force 'unknown')."""
    return solver.check(*assumptions)


def new_solver(timeout_ms: int, logic: str | None = None) -> z3.Solver:
    """A solver with a timeout; ``logic`` "QF_FD" (bit-vectors and Booleans only) is Z3's incremental
    SAT solver, an order of magnitude faster per check on finite-domain encodings."""
    solver = z3.SolverFor(logic) if logic else z3.Solver()
    solver.set("timeout", timeout_ms)  # Z3's convention: 0 means no limit
    return solver


def new_optimize(timeout_ms: int) -> z3.Optimize:
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    return opt


def status_of(result: z3.CheckSatResult) -> str:
    """'sat' | 'unsat' | 'unknown': Z3's unknown is its own outcome, never read as a proof."""
    if result == z3.sat:
        return "sat"
    if result == z3.unsat:
        return "unsat"
    return "unknown"


class RuleSolver:
    """A solver whose rule families are tracked by name; the instance is added plainly.

    Each family has one literal; its parts are added as ``literal -> part`` and every check assumes
    all family literals, so an unsat core is a set of family names.  A family may be added several
    times (one part per step or turn).
    """

    def __init__(self, timeout_ms: int, *, track: bool = True, logic: str | None = None) -> None:
        self.timeout_ms = timeout_ms
        self.logic = logic
        self.track = track  # False: the families are added plainly (enumerations need no core; faster)
        self.solver = new_solver(timeout_ms, logic)
        self.plain: list[z3.BoolRef] = []
        self.families: dict[str, list[z3.BoolRef]] = {}
        self._lits: dict[str, z3.BoolRef] = {}

    def add(self, *constraints: z3.BoolRef) -> None:
        """Instance facts and the question: never part of a core."""
        self.plain.extend(constraints)
        self.solver.add(*constraints)

    def rule(self, label: str, constraints: Iterable[z3.BoolRef]) -> None:
        parts = list(constraints)
        if not parts:
            return
        self.families.setdefault(label, []).extend(parts)
        if not self.track:
            self.solver.add(*parts)
            return
        lit = self._lits.setdefault(label, z3.Bool(f"rule!{label}"))
        self.solver.add(*[z3.Implies(lit, p) for p in parts])

    def assume(self, expr: z3.BoolRef, name: str) -> z3.BoolRef:
        """A literal standing for ``expr``: checked as an assumption, so the question can change."""
        lit = z3.Bool(f"ask!{name}!{len(self.plain)}")
        self.add(z3.Implies(lit, expr))
        return lit

    def check(self, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        return check(self.solver, *self._lits.values(), *assumptions)

    def model(self) -> z3.ModelRef:
        return self.solver.model()

    def reason(self) -> str:
        return str(self.solver.reason_unknown())

    def core(self, assumptions: Sequence[z3.BoolRef] = ()) -> tuple[str, ...]:
        """The rule families of the last unsat core, then dropped one by one while the rest still says
        no (Z3's cores are not minimal; each family kept is needed)."""
        names = {str(lit): label for label, lit in self._lits.items()}
        kept = {names[str(b)] for b in self.solver.unsat_core() if str(b) in names}
        for label in sorted(kept):
            trial = kept - {label}
            probe = new_solver(self.timeout_ms, self.logic)
            probe.add(*self.plain)
            for name in trial:
                probe.add(*self.families[name])
            if check(probe, *assumptions) == z3.unsat:
                kept = trial
        return tuple(sorted(kept))


def exactly_one(xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    if not xs:
        return z3.BoolVal(False)
    return z3.PbEq([(x, 1) for x in xs], 1)


def at_most_one(xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    if not xs:
        return z3.BoolVal(True)
    return z3.PbLe([(x, 1) for x in xs], 1)


def any_of(xs: Iterable[z3.BoolRef]) -> z3.BoolRef:
    parts = list(xs)
    if not parts:
        return z3.BoolVal(False)
    return parts[0] if len(parts) == 1 else z3.Or(parts)


def true_in(model: z3.ModelRef, x: z3.BoolRef) -> bool:
    return bool(z3.is_true(model.eval(x, model_completion=True)))


def int_in(model: z3.ModelRef, x: z3.ArithRef) -> int:
    value = model.eval(x, model_completion=True)
    assert isinstance(value, z3.IntNumRef)
    return int(value.as_long())
