"""Z3: "can this target ever be reached from this company board?"

The instance (the spec's numbers) is asserted as plain equalities on
``spec.*`` variables; the rules are separate constraint families over them,
each tracked under its rule ID (``AIR-R-30#W`` is the family AIR-R-30 for
white), so an unsat core names the rules that say no.  The readings choose
which constraints a family holds, as they choose branches in the model.

Two stages: legality first (AIR-R-27/29/31: does any exchange cover the
requirement?), then the throw (AIR-R-30..37) with the success test AIR-R-34.
A core from the first stage therefore always names AIR-R-27 when the
requirement itself cannot be met.  ``unknown`` (a timeout included) is
reported as such, never as proved.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import attrs
import z3

from rulecraft.model.airships.components import COLOURS, DICE_PER_COLOUR, FACES, Colour, Dice
from rulecraft.model.airships.dice import Pool
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.rules import pool_or_rejection
from rulecraft.solvers.airships.oracle import throw_total
from rulecraft.solvers.airships.spec import READINGS, AttemptSpec, Choice, readings_of

DEFAULT_TIMEOUT_MS = 2000
MAX_REPEATS = 6  # AIR-AMB-07 'repeat': as many as the model's exchange_options tries
Tracked = tuple[str, z3.BoolRef]


def _min3(x: z3.ArithRef) -> z3.ArithRef:
    return z3.If(x < DICE_PER_COLOUR, x, DICE_PER_COLOUR)


def _times(count: z3.ArithRef, amount: z3.ArithRef, upto: int) -> z3.ArithRef:
    """count * amount for a small bounded count, kept linear."""
    return z3.Sum([z3.If(count == j, j * amount, 0) for j in range(1, upto + 1)])


@attrs.define
class Encoding:
    """Variables and constraints of one attempt; ``instance`` is untracked."""

    instance: list[z3.BoolRef]
    legality: list[Tracked]
    throw: list[Tracked]
    goal: Tracked
    total: z3.ArithRef
    k: z3.ArithRef
    give_fixed: z3.BoolRef
    chip: z3.ArithRef
    score: z3.ArithRef
    engine: z3.ArithRef
    airship: z3.ArithRef
    t: dict[Colour, z3.ArithRef]
    d: dict[Colour, list[z3.ArithRef]]


def instance(spec: AttemptSpec) -> list[z3.BoolRef]:
    """The spec's values as equalities on the ``spec.*`` variables (untracked)."""
    f, e, x = spec.fixed, spec.engine, spec.exchange
    out: list[z3.BoolRef] = [
        z3.Int("spec.target") == spec.target, z3.Int("spec.chips") == spec.chips,
        z3.Bool("spec.wooden") == spec.wooden_airship,
        z3.Bool("spec.exchange") == (x is not None),
        z3.Bool("spec.engine_any") == (e is not None and e.colour is None),
        z3.Int("spec.engine_bonus") == (e.bonus if e else 0),
    ]
    for c in COLOURS:
        out += [
            z3.Int(f"spec.n_{c.value}") == spec.dice[c],
            z3.Int(f"spec.q_{c.value}") == spec.requirement[c],
            z3.Int(f"spec.fixed_{c.value}") == (1 if f is not None and f.colour is c else 0),
            z3.Int(f"spec.fixed_value_{c.value}") == (
                f.value if f is not None and f.colour is c else 0),
            z3.Bool(f"spec.engine_{c.value}") == (e is not None and e.colour is c),
            z3.Int(f"spec.give_{c.value}") == (
                x.give if x is not None and x.give_colour is c else 0),
            z3.Int(f"spec.get_{c.value}") == (x.get if x is not None and x.get_colour is c else 0),
        ]
    return out


def encode(spec: AttemptSpec, readings: Mapping[str, str]) -> Encoding:
    """The rules for these readings (built once, cached) plus this spec's instance."""
    rules = _rules(tuple(sorted((k, readings[k]) for k in READINGS)))
    return attrs.evolve(rules, instance=instance(spec))


@cache
def _rules(readings_items: tuple[tuple[str, str], ...]) -> Encoding:
    """The rule constraints over the ``spec.*`` variables; no spec value enters
    here, so one encoding per set of readings serves every attempt."""
    readings = dict(readings_items)
    n = {c: z3.Int(f"spec.n_{c.value}") for c in COLOURS}
    q = {c: z3.Int(f"spec.q_{c.value}") for c in COLOURS}
    fix = {c: z3.Int(f"spec.fixed_{c.value}") for c in COLOURS}  # 0/1: an Engineer die
    fval = {c: z3.Int(f"spec.fixed_value_{c.value}") for c in COLOURS}
    eng = {c: z3.Bool(f"spec.engine_{c.value}") for c in COLOURS}
    eng_grey, bonus = z3.Bool("spec.engine_any"), z3.Int("spec.engine_bonus")
    has_ex = z3.Bool("spec.exchange")
    give = {c: z3.Int(f"spec.give_{c.value}") for c in COLOURS}
    get = {c: z3.Int(f"spec.get_{c.value}") for c in COLOURS}
    target, chips, wooden = z3.Int("spec.target"), z3.Int("spec.chips"), z3.Bool("spec.wooden")

    # -- choices and derived values ---------------------------------------------
    k, gf = z3.Int("k_exchanges"), z3.Bool("give_fixed")
    n2 = {c: z3.Int(f"n'_{c.value}") for c in COLOURS}
    f2 = {c: z3.Int(f"fixed'_{c.value}") for c in COLOURS}
    t = {c: z3.Int(f"t_{c.value}") for c in COLOURS}
    d = {c: [z3.Int(f"d_{c.value}{i}") for i in range(DICE_PER_COLOUR)] for c in COLOURS}
    sel = {c: [z3.Bool(f"counts_{c.value}{i}") for i in range(DICE_PER_COLOUR)] for c in COLOURS}
    sel_fixed = {c: z3.Bool(f"counts_fixed_{c.value}") for c in COLOURS}
    s_c = {c: z3.Int(f"S_{c.value}") for c in COLOURS}
    score, engine, airship = z3.Int("S"), z3.Int("E"), z3.Int("A")
    chip, total = z3.Int("C"), z3.Int("total")
    most = 1 if readings["AIR-AMB-07"] == "once" else MAX_REPEATS

    # -- legality: AIR-R-29 (exchange), AIR-R-31 (fixed dice), AIR-R-27 -------
    # AIR-AMB-08: the fixed die may be one of the dice given, if of the given colour.
    may_give_fixed = z3.And(k >= 1, z3.Or([z3.And(give[c] > 0, fix[c] == 1) for c in COLOURS]))
    legality: list[Tracked] = [
        ("AIR-R-29#k", z3.And(k >= 0, k <= most, z3.Implies(z3.Not(has_ex), k == 0))),
        ("AIR-R-29#fixed", z3.Implies(
            gf, may_give_fixed if readings["AIR-AMB-08"] == "yes" else z3.BoolVal(False))),
    ]
    for c in COLOURS:
        from_fixed = z3.If(z3.And(gf, give[c] > 0), 1, 0)
        given = _times(k, give[c], most) - from_fixed
        # AIR-AMB-06 'before': only capped dice may be given up.
        have = _min3(n[c]) if readings["AIR-AMB-06"] == "before" else n[c]
        legality.append((f"AIR-R-29#{c.value}", z3.And(
            given <= have, n2[c] == n[c] - given + _times(k, get[c], most))))
        legality.append((f"AIR-R-31#{c.value}", f2[c] == fix[c] - from_fixed))
        usable = (_min3(n2[c]) if readings["AIR-AMB-32"] == "capped" else n2[c]) + f2[c]
        legality.append((f"AIR-R-27#{c.value}", z3.Implies(q[c] > 0, usable >= q[c])))

    # -- the throw: AIR-R-30, 33, 35, 36, 37 and the total of AIR-R-34 ----------
    throw: list[Tracked] = []
    for c in COLOURS:
        rule = [t[c] >= 0, t[c] <= n2[c], t[c] <= DICE_PER_COLOUR,
                z3.Implies(q[c] > 0, t[c] + f2[c] >= q[c])]
        if readings["AIR-AMB-05"] == "no":
            rule.append(z3.Implies(q[c] == 0, t[c] == 0))
        if readings["AIR-AMB-35"] == "max":
            rule.append(z3.Implies(q[c] > 0, t[c] == _min3(n2[c])))
        throw.append((f"AIR-R-30#{c.value}", z3.And(rule)))
        faces = sorted(set(FACES[c]))
        counted = []
        for i in range(DICE_PER_COLOUR):
            counted += [
                z3.If(i < t[c], z3.Or([d[c][i] == v for v in faces]), d[c][i] == 0),
                z3.Implies(sel[c][i], i < t[c]),
            ]
            if i + 1 < DICE_PER_COLOUR:  # high to low, as a Throw lists them
                counted.append(z3.Implies(i + 1 < t[c], d[c][i] >= d[c][i + 1]))
        # Exactly q_c of the thrown and fixed dice count; a maximiser picks the best.
        counted += [
            z3.Implies(sel_fixed[c], f2[c] == 1),
            z3.Sum([z3.If(b, 1, 0) for b in [*sel[c], sel_fixed[c]]]) == q[c],
            s_c[c] == z3.Sum([z3.If(sel[c][i], d[c][i], 0) for i in range(DICE_PER_COLOUR)])
            + z3.If(sel_fixed[c], fval[c], 0),
        ]
        throw.append((f"AIR-R-33#{c.value}", z3.And(counted)))
    throw.append(("AIR-R-33", score == z3.Sum([s_c[c] for c in COLOURS])))
    if readings["AIR-AMB-36"] == "forbidden":
        throw.append(("AIR-R-30#some", z3.Sum([t[c] for c in COLOURS]) >= 1))
    throw.append(("AIR-R-35", engine == _engine(readings, eng, eng_grey, bonus, q, t, f2)))
    throw.append(("AIR-R-36", airship == z3.If(wooden, 1, 0)))
    throw.append(("AIR-R-37", z3.And(chip >= 0, chip <= 1, chip <= chips)))
    throw.append(("AIR-R-34#total", total == score + engine + airship + chip))
    return Encoding(
        [], legality, throw, ("AIR-R-34", total >= target), total, k, gf, chip,
        score, engine, airship, t, d,
    )


def _engine(
    readings: Mapping[str, str], eng: dict[Colour, z3.BoolRef], grey: z3.BoolRef,
    bonus: z3.ArithRef, q: dict[Colour, z3.ArithRef], t: dict[Colour, z3.ArithRef],
    f2: dict[Colour, z3.ArithRef],
) -> z3.ArithRef:
    """AIR-R-35 under AIR-AMB-09/10, as ``engine_bonus`` computes it.

    Under 'C' a fixed die counts whenever no die of its colour is thrown and
    the colour is required (nothing can beat it), so 'thrown or counting'
    needs no face values.
    """
    per_die = readings["AIR-AMB-10"] == "die"
    involved = readings["AIR-AMB-09"]
    all_thrown = z3.Sum([t[c] for c in COLOURS])
    grey_bonus = _times(z3.If(all_thrown >= 1, all_thrown, 1), bonus, 9) if per_die else bonus
    colour_bonus: z3.ArithRef = z3.IntVal(0)
    for c in COLOURS:
        if involved == "A":
            active = q[c] > 0
        elif involved == "C":
            active = z3.Or(t[c] > 0, z3.And(f2[c] == 1, q[c] > 0))
        else:
            active = t[c] > 0
        amount = _times(z3.If(t[c] >= 1, t[c], 1), bonus, DICE_PER_COLOUR) if per_die else bonus
        colour_bonus = z3.If(z3.And(eng[c], active), amount, colour_bonus)
    return z3.If(grey, grey_bonus, colour_bonus)


def _check(solver: z3.Solver | z3.Optimize) -> z3.CheckSatResult:
    """One place that runs Z3 (tests replace it to force 'unknown')."""
    return solver.check()


def _core_ids(labels: Iterable[z3.ExprRef]) -> tuple[str, ...]:
    return tuple(sorted({str(b).split("#", 1)[0] for b in labels}))


@attrs.frozen
class ReachAnswer:
    status: str  # "reachable" | "unreachable" | "unknown"
    best_total: int | None  # the highest S + E + A + chip; None: no legal throw
    witness: dict[str, Any] | None
    core: tuple[str, ...]  # rule IDs saying no (only when unreachable)
    help: tuple[str, ...] | None  # fewest additions that make it reachable
    help_alternatives: tuple[tuple[str, ...], ...]
    reason: str | None = None  # why Z3 said unknown

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status, "best_total": self.best_total, "witness": self.witness,
            "core": list(self.core), "help": list(self.help) if self.help is not None else None,
            "help_alternatives": [list(h) for h in self.help_alternatives],
            "reason": self.reason,
        }


def _solver(timeout_ms: int) -> z3.Solver:
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.set("core.minimize", True)
    return solver


@attrs.frozen
class _Status:
    status: str
    core: tuple[str, ...]
    model: z3.ModelRef | None
    enc: Encoding
    legal: bool  # the legality stage was sat (or not decided: unknown)
    reason: str | None = None


def _status(
    spec: AttemptSpec, readings: Mapping[str, str], timeout_ms: int, enc: Encoding | None = None
) -> _Status:
    enc = enc or encode(spec, readings)
    solver = _solver(timeout_ms)
    solver.add(enc.instance)
    for label, constraint in enc.legality:
        solver.assert_and_track(constraint, label)
    result = _check(solver)
    legal = result != z3.unsat
    if result == z3.sat:
        for label, constraint in [*enc.throw, enc.goal]:
            solver.assert_and_track(constraint, label)
        result = _check(solver)
    if result == z3.sat:
        return _Status("reachable", (), solver.model(), enc, legal)
    if result == z3.unsat:
        return _Status("unreachable", _core_ids(solver.unsat_core()), None, enc, legal)
    return _Status("unknown", (), None, enc, legal, solver.reason_unknown())


def best_total(
    spec: AttemptSpec, readings: Mapping[str, str], timeout_ms: int = DEFAULT_TIMEOUT_MS,
    enc: Encoding | None = None,
) -> int | str | None:
    """The highest total (chip included): an int, None (no legal throw) or 'unknown'."""
    enc = enc or encode(spec, readings)
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(enc.instance)
    opt.add([c for _, c in [*enc.legality, *enc.throw]])
    handle = opt.maximize(enc.total)
    result = _check(opt)
    if result == z3.unsat:
        return None
    if result != z3.sat:
        return "unknown"
    return int(handle.value().as_long())


def _witness(
    game: AirshipsGame, spec: AttemptSpec, enc: Encoding, model: z3.ModelRef
) -> dict[str, Any]:
    def val(x: z3.ExprRef) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    t = {c: val(enc.t[c]) for c in COLOURS}
    faces = tuple(tuple(val(enc.d[c][i]) for i in range(t[c])) for c in COLOURS)
    k, gf = val(enc.k), bool(z3.is_true(model.eval(enc.give_fixed, model_completion=True)))
    choice = Choice(k, gf, Dice(*(t[c] for c in COLOURS)))
    chip = val(enc.chip)
    witness = choice.to_json() | {
        "faces": {c.value: list(fs) for c, fs in zip(COLOURS, faces, strict=True)},
        "chip": chip, "S": val(enc.score), "E": val(enc.engine), "A": val(enc.airship),
        "total": val(enc.total),
    }
    # Re-score the witness with the model's own functions, as transitions would.
    pool = _pool(game, spec, k, gf)
    if pool is not None:
        witness["model_total"] = throw_total(game, spec, choice, pool, faces) + chip
    return witness


def _pool(game: AirshipsGame, spec: AttemptSpec, k: int, gf: bool) -> Pool | None:
    pool = pool_or_rejection(game.ctx, spec.company, k, gf)
    return pool if isinstance(pool, Pool) else None


def _helps(spec: AttemptSpec) -> list[tuple[str, AttemptSpec]]:
    out: list[tuple[str, AttemptSpec]] = []
    if spec.chips == 0:
        out.append(("chip", spec.evolve(chips=1)))
    if not spec.wooden_airship:
        out.append(("wooden_airship", spec.evolve(wooden_airship=True)))
    return out


def smallest_help(
    spec: AttemptSpec, readings: Mapping[str, str], timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> tuple[tuple[str, ...], ...]:
    # Only the instance changes between the variants: the cached rules are reused.
    """All minimal sets of additions (+1 chip, the wooden airship) that make
    the target reachable; empty when none does.

    Using the exchange is never an addition here: every exchange the
    readings allow is already among the choices the query considers.
    """
    singles = _helps(spec)
    found: list[tuple[str, ...]] = []
    for name, changed in singles:
        if _status(changed, readings, timeout_ms).status == "reachable":
            found.append((name,))
    if found or len(singles) < 2:
        return tuple(found)
    both = spec.evolve(chips=max(spec.chips, 1), wooden_airship=True)
    if _status(both, readings, timeout_ms).status == "reachable":
        return (tuple(name for name, _ in singles),)
    return ()


def reach(
    game: AirshipsGame, spec: AttemptSpec, *, timeout_ms: int = DEFAULT_TIMEOUT_MS,
    want_help: bool = True, want_best: bool = True,
) -> ReachAnswer:
    readings = readings_of(game)
    enc = encode(spec, readings)  # shared by both queries: building it is half the cost
    st = _status(spec, readings, timeout_ms, enc)
    status, core, reason = st.status, st.core, st.reason
    witness = _witness(game, spec, st.enc, st.model) if st.model is not None else None
    best: int | None = None
    if want_best and status != "unknown" and st.legal:
        got = best_total(spec, readings, timeout_ms, enc)
        if got == "unknown":
            reason = "the maximisation of the total timed out"
        else:
            assert not isinstance(got, str)
            best = got
    helps: tuple[tuple[str, ...], ...] = ()
    if want_help and status == "unreachable":
        helps = smallest_help(spec, readings, timeout_ms)
    return ReachAnswer(status, best, witness, core, helps[0] if helps else None, helps, reason)


def timed_reach(game: AirshipsGame, spec: AttemptSpec, **kw: Any) -> tuple[ReachAnswer, float]:
    start = time.perf_counter()
    answer = reach(game, spec, **kw)
    return answer, (time.perf_counter() - start) * 1000
