"""What the Aeroplanes solvers share: the one place Z3 runs, rule families tracked by name with a core that
keeps only the rules needed to say no, the context/state/seat readers and the flag parsers.

Every encoding keeps the rules (named families, ``assert_and_track`` through one literal per family) apart
from the instance (the state's data and the question, plain assertions), so an unsat core names rules only.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import z3

from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.state import AerState, Phase

DEFAULT_TIMEOUT_MS = 5000


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def check(solver: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """The one place that runs Z3 (tests replace it to force 'unknown')."""
    return solver.check(*assumptions)


def new_solver(timeout_ms: int) -> z3.Solver:
    solver = z3.Solver()
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

    Each family has one literal; its parts are added as ``literal -> part`` and every check assumes all
    family literals, so an unsat core is a set of family names.
    """

    def __init__(self, timeout_ms: int, *, track: bool = True) -> None:
        self.timeout_ms = timeout_ms
        self.track = track  # False: the families are added plainly (enumerations need no core)
        self.solver = new_solver(timeout_ms)
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

    def check(self, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        return check(self.solver, *self._lits.values(), *assumptions)

    def model(self) -> z3.ModelRef:
        return self.solver.model()

    def reason(self) -> str:
        return str(self.solver.reason_unknown())

    def core(self, assumptions: Sequence[z3.BoolRef] = ()) -> tuple[str, ...]:
        """The rule families of the last unsat core, then dropped one by one while the rest still says no
        (Z3's cores are not minimal; each family kept is needed)."""
        names = {str(lit): label for label, lit in self._lits.items()}
        kept = {names[str(b)] for b in self.solver.unsat_core() if str(b) in names}
        for label in sorted(kept):
            trial = kept - {label}
            probe = new_solver(self.timeout_ms)
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


# --- the game, the state, the seat ------------------------------------------------------------------


def context_of(game: Any) -> Context:
    """``game.ctx`` (the AerGame), or a Context itself."""
    ctx = game if isinstance(game, Context) else getattr(game, "ctx", None)
    if not isinstance(ctx, Context):
        raise RulecraftError(f"the Aeroplanes queries need an Aeroplanes game (with a Context), got {game!r}")
    return ctx


def default_state(ctx: Context) -> AerState:
    """The position the queries use without ``--state``: a seeded 3-player game, 30 decisions in (seed 13)."""
    import random

    from rulecraft.solvers.aeroplanes.samples import random_state

    return random_state(ctx, random.Random(13), players=3, steps=30)


def state_of(game: Any, ctx: Context, state: Any) -> AerState:
    """An AerState, its JSON form (through ``game.state_from_json``), or the default state."""
    if state is None:
        return default_state(ctx)
    if isinstance(state, AerState):
        return state
    reader = getattr(game, "state_from_json", None)
    if isinstance(state, Mapping) and reader is not None:
        got = reader(state)
        if isinstance(got, AerState):
            return got
    raise RulecraftError(f"--state: an Aeroplanes state is needed, got {type(state).__name__}")


def seat_of(state: AerState, params: Mapping[str, Any]) -> int:
    seat = int_param(params, "seat", state.to_move)
    if not 0 <= seat < len(state.players):
        raise RulecraftError(f"--seat: the state has seats 0..{len(state.players) - 1}, got {seat}")
    return seat


def require_action_phase(state: AerState) -> None:
    if state.phase not in (Phase.ACTION, Phase.PLACING):
        raise RulecraftError(
            f"--state: placements are asked at the choice of action or between attempts, not in {state.phase.value}"
        )


def require_readings(ctx: Context, defaults: Mapping[str, str], what: str) -> None:
    """The encodings build only these readings; any other is refused (never answered wrongly)."""
    odd = {k: ctx.r(k) for k, v in defaults.items() if ctx.r(k) != v}
    if odd:
        raise NotApplicable(f"{what}: encoded for the default readings only, not {odd}")


def int_param(params: Mapping[str, Any], key: str, default: int, lo: int | None = None, hi: int | None = None) -> int:
    flag = f"--{key.replace('_', '-')}"
    value = params.get(key)
    if value is None:
        return default
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise RulecraftError(f"{flag}: an integer, got {value!r}") from None
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        raise RulecraftError(f"{flag}: between {lo} and {hi}, got {n}")
    return n


def destination_param(ctx: Context, params: Mapping[str, Any], key: str) -> str | None:
    value = params.get(key)
    if value is None or value == "":
        return None
    names: dict[str, str] = {str(d.name).lower(): str(d.name) for d in ctx.pack.destinations}
    got = names.get(str(value).strip().lower())
    if got is None:
        flag = f"--{key.replace('_', '-')}"
        raise RulecraftError(f"{flag}: no destination {value!r} on the map (AER-R-14)")
    return got
