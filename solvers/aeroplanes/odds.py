"""Z3: the exact probability that a placement attempt succeeds (AER-R-19..28), and what it costs.

Z3's part is the dice.  One roll of the risk dice is encoded with three symbolic dice (each one of the
pack's faces) under two rule families:

* ``AER-R-20 three dice, a skull counts 0 and is one engine failure``: the total and the skull count;
* ``AER-R-23 success: total + bonus >= target``: the shortfall ``max(0, need - total)``.

Z3 lists every throw (the dice sorted, a plain symmetry breaking: each model stands for the orderings of
its multiset, counted exactly), blocking each model, so the exact chance of every (shortfall, skulls)
class of one roll is a count out of 6^3 = 216.  The rolls' classes are then combined, exactly
(``Fraction``), by backward induction over (roll, money, Daring Pilots, Radio Beacons, engine failures):
cover a shortfall in full with £1 a point and/or Daring Pilots (+3, only outside Europe: AER-R-23,
R-42/43) or decline (AER-R-26); abort before a later roll (AER-R-27); re-throw with Radio Beacons
(AER-R-47; AER-AMB-26 ``reroll``: the skulls of a thrown-away throw are ignored, ``at-once``: they
count); the 4th engine failure collapses the attempt (AER-R-28).  Policies: ``optimal`` (most likely to
place, then cheapest in money, pilots, beacons, then the sooner end: the risk module's documented
policy) and ``always-pay``.  This combination is written here afresh; the oracle is the model's own
``risk.analyse`` (a forward pass under its own policy objects), so the two are independent.

``--dice`` plays given throws: Z3 says whether each kept throw meets its need (unsat names AER-R-23) and
the smallest cover (Optimize), and the trace is compared with ``risk.play``.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise, permutations

import attrs
import z3

from rulecraft.core import RulecraftError
from rulecraft.model.aeroplanes.components import Face, Pack
from rulecraft.solvers.aeroplanes.common import RuleSolver, int_in, ms, new_optimize, status_of

R20 = "AER-R-20 three dice, a skull counts 0 and is one engine failure"
R23 = "AER-R-23 success: total + bonus >= target"
ZERO = Fraction(0)
ONE = Fraction(1)


@attrs.frozen
class RollSpec:
    """One required roll: succeeds when total + bonus >= target; Daring Pilots may help when allowed."""

    target: int
    bonus: int = 0
    daring_pilot: bool = False

    @property
    def need(self) -> int:
        return self.target - self.bonus


@attrs.frozen
class Classes:
    """One roll's throws by (shortfall, skulls): counts out of ``total`` equally likely throws."""

    counts: tuple[tuple[tuple[int, int], int], ...]
    total: int
    checks: int
    ms: float
    status: str  # "done" | "unknown"

    def chances(self) -> list[tuple[int, int, Fraction]]:
        return [(s, k, Fraction(c, self.total)) for (s, k), c in self.counts]


def _dice_vars(pack: Pack, rs: RuleSolver) -> tuple[list[z3.ArithRef], z3.ArithRef, z3.ArithRef]:
    faces: tuple[Face, ...] = tuple(pack.supplies.risk_die_faces)
    dice = [z3.Int(f"die{i}") for i in range(pack.supplies.risk_dice)]
    for d in dice:
        rs.add(d >= 0, d < len(faces))  # the instance: a die shows one of its faces
    total = z3.Int("total")
    skulls = z3.Int("skulls")

    def value(d: z3.ArithRef) -> z3.ArithRef:
        expr: z3.ArithRef = z3.IntVal(0)
        for k, f in enumerate(faces):
            if f != "skull":
                expr = z3.If(d == k, int(f), expr)
        return expr

    def skull(d: z3.ArithRef) -> z3.ArithRef:
        return z3.If(z3.Or([d == k for k, f in enumerate(faces) if f == "skull"] or [z3.BoolVal(False)]), 1, 0)

    rs.rule(R20, [total == z3.Sum([value(d) for d in dice]), skulls == z3.Sum([skull(d) for d in dice])])
    return dice, total, skulls


def roll_classes(pack: Pack, need: int, *, timeout_ms: int) -> Classes:
    """Z3 counts the throws of one roll by (shortfall, skulls); memoised per pack dice and need."""
    return _roll_classes(tuple(pack.supplies.risk_die_faces), pack.supplies.risk_dice, need, timeout_ms, pack)


_CLASSES: dict[tuple[tuple[Face, ...], int, int], Classes] = {}


def _roll_classes(faces: tuple[Face, ...], n: int, need: int, timeout_ms: int, pack: Pack) -> Classes:
    key = (faces, n, need)
    if key in _CLASSES:
        return _CLASSES[key]
    begin = time.perf_counter()
    rs = RuleSolver(timeout_ms, track=False)
    dice, total, skulls = _dice_vars(pack, rs)
    short = z3.Int("shortfall")
    rs.rule(R23, [short == z3.If(total >= need, 0, need - total)])
    rs.add(*[a <= b for a, b in pairwise(dice)])  # symmetry breaking: sorted dice
    counts: Counter[tuple[int, int]] = Counter()
    checks = 0
    status = "done"
    while True:
        checks += 1
        result = rs.check()
        if result != z3.sat:
            status = "done" if result == z3.unsat else "unknown"
            break
        model = rs.model()
        shown = [int_in(model, d) for d in dice]
        ways = len(set(permutations(shown)))  # the orderings of this multiset of faces
        counts[(int_in(model, short), int_in(model, skulls))] += ways
        rs.add(z3.Or([d != x for d, x in zip(dice, shown, strict=True)]))
    out = Classes(tuple(sorted(counts.items())), len(faces) ** n, checks, ms(begin), status)
    if status == "done":
        _CLASSES[key] = out
    return out


# --- the attempt, combined exactly ------------------------------------------------------------------------


# P(placed), E[£], E[pilots], E[beacons], P(collapse), E[£ spent, counted when placed]
Val = tuple[Fraction, Fraction, Fraction, Fraction, Fraction, Fraction]
NOTHING: Val = (ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
COLLAPSE: Val = (ZERO, ZERO, ZERO, ZERO, ONE, ZERO)


def _key(v: Val) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    return (v[0], -v[1], -v[2], -v[3])


def _best(options: Sequence[Val]) -> Val:
    """The best option; on a tie the earliest (options are listed soonest-ending first)."""
    best = options[0]
    for o in options[1:]:
        if _key(o) > _key(best):
            best = o
    return best


def _plus(v: Val, money: int = 0, pilots: int = 0, beacons: int = 0) -> Val:
    return (v[0], v[1] + money, v[2] + pilots, v[3] + beacons, v[4], v[5] + money * v[0])


def covers(shortfall: int, money: int, pilots: int, daring_pilot: bool, bonus: int) -> list[tuple[int, int]]:
    """AER-R-23 (AER-AMB-24: in full only): (pounds, pilots) with no pilot more than needed, fewest pilots first."""
    most = min(pilots, -(-shortfall // bonus)) if daring_pilot and bonus > 0 else 0
    return [(max(0, shortfall - bonus * k), k) for k in range(most + 1) if max(0, shortfall - bonus * k) <= money]


@attrs.frozen
class Exact:
    status: str  # "done" | "unknown"
    success: Fraction | None
    collapse: Fraction | None
    failure: Fraction | None
    expected_money: Fraction | None
    expected_pilots: Fraction | None
    expected_beacons: Fraction | None
    classes: tuple[Classes, ...]
    ms: float
    reason: str | None = None
    expected_money_if_placed: Fraction | None = None  # the expected pounds spent by an attempt that places


def exact(
    pack: Pack,
    rolls: Sequence[RollSpec],
    *,
    money: int,
    pilots: int = 0,
    beacons: int = 0,
    engine_failures: int = 0,
    policy: str = "optimal",
    at_once: bool = False,
    timeout_ms: int,
) -> Exact:
    """The attempt's exact odds and expected costs from Z3's per-roll throw classes."""
    begin = time.perf_counter()
    if policy not in ("optimal", "always-pay"):
        raise RulecraftError(f"--policy: optimal or always-pay, got {policy!r}")
    limit = pack.risk.engine_failure_limit
    if min(money, pilots, beacons, engine_failures) < 0 or engine_failures >= limit:
        raise RulecraftError(f"money, pilots, beacons >= 0 and 0 <= engine failures < {limit} (AER-R-28)")
    classes = tuple(roll_classes(pack, r.need, timeout_ms=timeout_ms) for r in rolls)
    if any(c.status != "done" for c in classes):
        return Exact("unknown", None, None, None, None, None, None, classes, ms(begin), "Z3 did not list every throw")
    chances = [c.chances() for c in classes]
    bonus = pack.risk.daring_pilot_bonus
    optimal = policy == "optimal"
    n = len(rolls)
    needs = [max(0, r.need) for r in rolls]
    money_cap = [sum(needs[i:]) for i in range(n + 1)]
    pilot_cap = [
        sum(-(-x // bonus) if r.daring_pilot and bonus else 0 for x, r in zip(needs[i:], rolls[i:], strict=True))
        for i in range(n + 1)
    ]

    @functools.cache
    def value(i: int, m: int, d: int, b: int, e: int) -> Val:
        if i == n:
            return (ONE, ZERO, ZERO, ZERO, ZERO, ZERO)
        go = throw(i, min(m, money_cap[i]), min(d, pilot_cap[i]), b, e)
        return go if i == 0 or not optimal else _best((NOTHING, go))

    @functools.cache
    def throw(i: int, m: int, d: int, b: int, e: int) -> Val:
        acc = [ZERO] * 6
        for short, skulls, p in chances[i]:
            v = thrown(i, m, d, b, e, short, skulls)
            for k in range(6):
                acc[k] += p * v[k]
        return (acc[0], acc[1], acc[2], acc[3], acc[4], acc[5])

    def thrown(i: int, m: int, d: int, b: int, e: int, short: int, skulls: int) -> Val:
        if at_once:
            e2 = e + skulls
            if e2 >= limit:
                return COLLAPSE
            keep = kept(i, m, d, b, e2, short)
            again = e2
        else:
            keep = kept(i, m, d, b, e + skulls, short)
            again = e
        if b <= 0 or not optimal:
            return keep
        return _best((keep, _plus(throw(i, m, d, b - 1, again), beacons=1)))

    def kept(i: int, m: int, d: int, b: int, e: int, short: int) -> Val:
        if e >= limit:
            return COLLAPSE
        if short <= 0:
            return value(i + 1, m, d, b, e)
        options = [
            _plus(value(i + 1, m - pay, d - k, b, e), money=pay, pilots=k)
            for pay, k in covers(short, m, d, rolls[i].daring_pilot, bonus)
        ]
        if not optimal:
            return options[0] if options else NOTHING
        return _best((NOTHING, *options))

    p, money_e, pilots_e, beacons_e, collapse, placed_money = value(0, money, pilots, beacons, engine_failures)
    if_placed = placed_money / p if p else None
    return Exact(
        "done", p, collapse, 1 - p - collapse, money_e, pilots_e, beacons_e, classes, ms(begin), None, if_placed
    )


# --- one attempt with given dice ----------------------------------------------------------------------------


@attrs.frozen
class Played:
    status: str  # "done" | "unknown"
    end: str | None  # placed | failed | collapsed
    steps: tuple[dict[str, object], ...]
    money_spent: int
    pilots_used: int
    engine_failures: int
    core: tuple[str, ...]  # the rule that said no to the first failed roll (AER-R-23)
    ms: float


def play_z3(
    pack: Pack,
    rolls: Sequence[RollSpec],
    throws: Sequence[Sequence[Face]],
    *,
    money: int,
    pilots: int = 0,
    engine_failures: int = 0,
    timeout_ms: int,
) -> Played:
    """Resolve the attempt with these throws, paying every shortfall it can (money first, then pilots)."""
    begin = time.perf_counter()
    if len(throws) > len(rolls):
        raise RulecraftError(f"--dice: {len(throws)} throws for {len(rolls)} roll(s)")
    faces = tuple(pack.supplies.risk_die_faces)
    limit = pack.risk.engine_failure_limit
    m, d, e = money, pilots, engine_failures
    steps: list[dict[str, object]] = []
    core: tuple[str, ...] = ()
    end: str | None = None
    for roll, shown in zip(rolls, throws, strict=False):
        if len(shown) != pack.supplies.risk_dice or any(f not in faces for f in shown):
            raise RulecraftError(f"--dice: {list(shown)} is not a throw of {pack.supplies.risk_dice} risk dice")
        rs = RuleSolver(timeout_ms)
        dice, total, skulls = _dice_vars(pack, rs)
        rs.add(*[x == faces.index(f) for x, f in zip(dice, shown, strict=True)])
        rs.rule(R23, [total + roll.bonus >= roll.target])
        result = rs.check()
        if status_of(result) == "unknown":
            return Played("unknown", None, tuple(steps), money - m, pilots - d, e, (), ms(begin))
        opt = new_optimize(timeout_ms)
        opt.add(*rs.plain, *rs.families[R20])
        cover = z3.Int("cover")
        opt.add(cover >= 0, total + roll.bonus + cover >= roll.target)
        opt.minimize(cover)
        if status_of(opt.check()) != "sat":
            return Played("unknown", None, tuple(steps), money - m, pilots - d, e, (), ms(begin))
        model = opt.model()
        got_total, got_skulls, short = int_in(model, total), int_in(model, skulls), int_in(model, cover)
        e += got_skulls
        step: dict[str, object] = {"faces": [str(f) for f in shown], "total": got_total, "skulls": got_skulls}
        if e >= limit:
            steps.append(step | {"outcome": "collapse"})
            return Played("done", "collapsed", tuple(steps), money - m, pilots - d, 0, core, ms(begin))
        if result == z3.sat:
            steps.append(step | {"outcome": "pass", "shortfall": 0})
            continue
        if not core:
            core = rs.core()
        options = covers(short, m, d, roll.daring_pilot, pack.risk.daring_pilot_bonus)
        if not options:
            steps.append(step | {"outcome": "decline", "shortfall": short})
            return Played("done", "failed", tuple(steps), money - m, pilots - d, e, core, ms(begin))
        pay, k = options[0]
        m, d = m - pay, d - k
        steps.append(step | {"outcome": "cover", "shortfall": short, "money": pay, "pilots": k})
    if len(throws) == len(rolls):
        end = "placed"
    return Played("done", end, tuple(steps), money - m, pilots - d, e, core, ms(begin))
