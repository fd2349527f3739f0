"""Z3: is a 4-card plan free of forfeits (KAS-R-25), given the money for upgrades?

The design card's named query.  A plan (KAS-R-19) is never illegal as such:
an over-budget card only loses its turn at the diamond check.  The question
is whether *some* schedule of Upgrade Airship actions (KAS-R-34), bought in
the action step of executed turns and paid from the money at hand (KAS-R-55),
lets every planned card pass its check.

Model of a round (the digest's Z3 form of KAS-R-25):

* turn i = cycle i; the check is step a, the action step c, so an upgrade in
  turn i raises the rating only for the checks of turns j > i;
* ``exec_i ⇔ D_i + d_i ≤ R_i`` with ``D_i = Σ_{j<i} exec_j·d_j``: a card lost
  to the check returns to the deck and its diamonds no longer count
  (KAS-AMB-05); its turn has no action, so no upgrade;
* money is only spent on upgrades here (no income): upgrades are limited by
  the money at the start of the round;
* Eli Diamond's extra cards (the ``eli_i`` of the digest, KAS-R-83) are not
  modelled: the base game has none.

The instance (diamonds, money, start level, the track's costs and ratings)
is asserted as plain equalities on ``plan.*`` / ``track.*`` variables; the
rule families are tracked per turn (``KAS-R-25#t2`` is KAS-R-25 in turn 2),
so an unsat core names the rules - and turns - that say no.  ``unknown`` (a
timeout included) is reported as such, never as proved.

Everything here depends on the cards only through their diamonds, which is
what lets :func:`legal_plans` enumerate diamond sequences (at most 3^4)
instead of the 11,880 ordered plans; the brute-force oracle at the bottom
does enumerate every plan and every schedule directly.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import attrs
import z3

from rulecraft.core import RulecraftError
from rulecraft.model.kings_of_air_and_steam.components import LETTERS, AirshipLevel, Card
from rulecraft.solving import ms as _ms

DEFAULT_TIMEOUT_MS = 2000
PLAN_SIZE = 4  # KAS-R-19: one card per slot 1..4
Track = tuple[AirshipLevel, ...]
Tracked = tuple[str, z3.BoolRef]


# --- inputs ----------------------------------------------------------------------------------


@attrs.frozen
class PlanSpec:
    """One plan's numbers: the diamonds of the planned cards in slot order, the track, money, level.

    ``cards`` are labels for the answer only (ids, or ``d0``.. when built from bare diamonds).
    """

    diamonds: tuple[int, ...]
    track: Track
    money: int
    start_level: int = 1
    cards: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        check_track(self.track)
        if any(d < 0 for d in self.diamonds):
            raise RulecraftError(f"diamond costs are never negative: {self.diamonds}")
        if self.money < 0:
            raise RulecraftError(f"KAS-R-55: money is never negative, got {self.money}")
        if not 1 <= self.start_level <= len(self.track):
            raise RulecraftError(f"KAS-R-34: the airship level is 1..{len(self.track)}, got {self.start_level}")
        if not self.cards:
            object.__setattr__(self, "cards", tuple(f"d{d}" for d in self.diamonds))
        if len(self.cards) != len(self.diamonds):
            raise RulecraftError("one card label per diamond cost")

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "diamonds": list(self.diamonds),
            "money": self.money,
            "start_level": self.start_level,
            "track": [{"level": lv.level, "cost": lv.cost, "diamonds": lv.diamonds} for lv in self.track],
        }


def check_track(track: Track) -> None:
    """Levels numbered 1..N in order, costs ≥ 0 (the encoding indexes the track by level)."""
    if not track:
        raise RulecraftError("the airship track has no levels")
    for i, lv in enumerate(track, 1):
        if lv.level != i:
            raise RulecraftError(f"airship track levels must be 1..{len(track)} in order; got {lv.level} at {i}")
        if lv.cost < 0 or lv.diamonds < 0:
            raise RulecraftError(f"level {lv.level}: cost and diamonds are never negative")


def resolve_cards(pack: Any, cards: Iterable[Card | str]) -> tuple[Card, ...]:
    """Card objects from cards or ids of ``pack`` (team special cards included)."""
    out: list[Card] = []
    for c in cards:
        if isinstance(c, Card):
            out.append(c)
            continue
        try:
            out.append(pack.card(str(c).strip()))
        except KeyError:
            raise RulecraftError(f"the pack has no card {c!r}") from None
    return tuple(out)


def movement_value(card: Card) -> int:
    """Hexes the card can fly at most: its largest value; Rose & Thorn flies its 2 twice (KAS-R-73)."""
    most = max(card.moves, default=0)  # the Emperor card has no movement step
    return 2 * most if card.special == "double-two" else most


# --- the encoding ----------------------------------------------------------------------------


@attrs.frozen
class Encoding:
    """The rule families over ``plan.*``/``track.*`` variables, per turn; no instance value."""

    rules: tuple[Tracked, ...]
    d: tuple[z3.ArithRef, ...]
    exe: tuple[z3.BoolRef, ...]
    up: tuple[z3.BoolRef, ...]
    level: tuple[z3.ArithRef, ...]  # level at each check; level[n] is the level after the round
    rating: tuple[z3.ArithRef, ...]
    spent: z3.ArithRef
    money: z3.ArithRef


def _lookup(index: z3.ArithRef, table: Sequence[z3.ArithRef]) -> z3.ArithRef:
    """table[index - 1] for index 1..N as an If-chain (the last entry is the default)."""
    out: z3.ArithRef = table[-1]
    for k in range(len(table) - 1, 0, -1):
        out = z3.If(index == k, table[k - 1], out)
    return out


@cache
def encoding(turns: int, levels: int) -> Encoding:
    """Built once per (turns, track length): only the instance changes between plans."""
    d = tuple(z3.Int(f"plan.d{i}") for i in range(1, turns + 1))
    money = z3.Int("plan.money")
    cost = [z3.Int(f"track.cost{k}") for k in range(1, levels + 1)]
    dia = [z3.Int(f"track.diamonds{k}") for k in range(1, levels + 1)]
    exe = tuple(z3.Bool(f"exec{i}") for i in range(1, turns + 1))
    up = tuple(z3.Bool(f"upgrade{i}") for i in range(1, turns + 1))
    # level1 is pinned by the instance (the start level); the others follow KAS-R-34.
    level = tuple(z3.Int(f"level{i}") for i in range(1, turns + 2))
    rating = tuple(z3.Int(f"rating{i}") for i in range(1, turns + 1))
    before = [z3.Int(f"D{i}") for i in range(1, turns + 2)]  # diamonds in play before turn i
    pay = [z3.Int(f"pay{i}") for i in range(1, turns + 1)]
    spent = [z3.Int(f"spent{i}") for i in range(1, turns + 2)]
    rules: list[Tracked] = [("KAS-R-25#start", before[0] == 0), ("KAS-R-55#start", spent[0] == 0)]
    for i in range(turns):
        t = f"t{i + 1}"
        rules.append(
            (
                f"KAS-R-25#{t}",
                z3.And(
                    # The rating at the moment of the check (step a): earlier turns' upgrades count.
                    rating[i] == _lookup(level[i], dia),
                    exe[i] == (before[i] + d[i] <= rating[i]),
                    # KAS-AMB-05: a returned card's diamonds no longer count.
                    before[i + 1] == before[i] + z3.If(exe[i], d[i], 0),
                ),
            )
        )
        rules.append(
            (
                f"KAS-R-34#{t}",
                z3.And(
                    level[i] >= 1,
                    z3.Implies(up[i], exe[i]),  # a lost turn has no action step
                    z3.Implies(up[i], level[i] < levels),  # maximum level: the end of the track
                    level[i + 1] == level[i] + z3.If(up[i], 1, 0),  # exactly one level per action
                    pay[i] == z3.If(up[i], _lookup(level[i] + 1, cost), 0),  # the next space's price
                ),
            )
        )
        rules.append(
            (
                f"KAS-R-55#{t}",
                z3.And(
                    spent[i + 1] == spent[i] + pay[i],
                    spent[i + 1] <= money,  # every payment needs the money at hand (no income here)
                ),
            )
        )
    return Encoding(tuple(rules), d, exe, up, level, rating, spent[-1], money)


def instance(spec: PlanSpec, enc: Encoding, *, pin_diamonds: bool = True) -> list[z3.BoolRef]:
    """The spec's values as equalities (untracked): money, start level, track and diamonds."""
    out: list[z3.BoolRef] = [enc.money == spec.money, enc.level[0] == spec.start_level]
    for lv in spec.track:
        out += [z3.Int(f"track.cost{lv.level}") == lv.cost, z3.Int(f"track.diamonds{lv.level}") == lv.diamonds]
    if pin_diamonds:
        out += [x == v for x, v in zip(enc.d, spec.diamonds, strict=True)]
    return out


def _check(solver: z3.Solver | z3.Optimize) -> z3.CheckSatResult:
    """One place that runs Z3 (tests replace it to force 'unknown')."""
    return solver.check()


def _solver(timeout_ms: int) -> z3.Solver:
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)  # Z3's convention: 0 means no limit
    solver.set("core.minimize", True)
    return solver


def _core(labels: Iterable[z3.ExprRef]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    names = sorted(str(b) for b in labels)
    return tuple(sorted({n.split("#", 1)[0] for n in names})), tuple(names)


def minimal_core_ids(
    base: Sequence[z3.BoolRef], tracked: Sequence[Tracked], core_labels: Sequence[str], timeout_ms: int
) -> tuple[str, ...]:
    """Drop whole rule IDs from a core while the rest still says no.

    Z3's ``core.minimize`` is best-effort; a user reads the rule IDs, so each one
    kept here is needed: without its constraints (the others of the core kept),
    the question becomes satisfiable or undecided.  A handful of small checks.
    """
    kept = set(core_labels)
    ids = sorted({label.split("#", 1)[0] for label in kept})
    for rule in list(ids):
        trial = {label for label in kept if label.split("#", 1)[0] != rule}
        solver = _solver(timeout_ms)
        solver.add(list(base))
        for label, constraint in tracked:
            if label in trial:
                solver.add(constraint)
        if _check(solver) == z3.unsat:
            kept = trial
            ids.remove(rule)
    return tuple(ids)


def _track_rules(solver: z3.Solver, enc: Encoding) -> None:
    for label, constraint in enc.rules:
        solver.assert_and_track(constraint, label)


# --- (a) one plan ----------------------------------------------------------------------------


@attrs.frozen
class Schedule:
    """What happens in a round: the upgrades bought, the levels at each check, who executes."""

    upgrades: tuple[bool, ...]
    executed: tuple[bool, ...]
    levels: tuple[int, ...]  # at each check
    ratings: tuple[int, ...]
    spent: int

    def to_json(self) -> dict[str, Any]:
        return {
            "upgrades": list(self.upgrades),
            "executed": list(self.executed),
            "levels": list(self.levels),
            "ratings": list(self.ratings),
            "spent": self.spent,
            "upgrade_turns": [i + 1 for i, u in enumerate(self.upgrades) if u],
        }


def _schedule(model: z3.ModelRef, enc: Encoding) -> Schedule:
    def num(x: z3.ArithRef) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    def flag(x: z3.BoolRef) -> bool:
        return bool(z3.is_true(model.eval(x, model_completion=True)))

    return Schedule(
        tuple(flag(u) for u in enc.up),
        tuple(flag(e) for e in enc.exe),
        tuple(num(lv) for lv in enc.level[:-1]),
        tuple(num(r) for r in enc.rating),
        num(enc.spent),
    )


@attrs.frozen
class PlanAnswer:
    status: str  # "free" | "forfeit" | "unknown"
    spec: PlanSpec
    schedule: Schedule | None  # free: the cheapest schedule executing every card
    best_effort: Schedule | None  # forfeit: a schedule executing the most cards
    core: tuple[str, ...]  # forfeit: the rule IDs saying no
    core_labels: tuple[str, ...]  # the same, per turn
    reason: str | None = None
    ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "spec": self.spec.to_json(),
            "schedule": self.schedule.to_json() if self.schedule else None,
            "best_effort": self.best_effort.to_json() if self.best_effort else None,
            "core": list(self.core),
            "core_labels": list(self.core_labels),
            "reason": self.reason,
            "ms": self.ms,
        }


def _optimised(
    spec: PlanSpec, enc: Encoding, goal: list[z3.BoolRef], objective: z3.ArithRef, maximise: bool, timeout_ms: int
) -> Schedule | None:
    """A schedule optimising ``objective`` (None if Z3 could not finish)."""
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(instance(spec, enc))
    opt.add([c for _, c in enc.rules])
    opt.add(goal)
    if maximise:
        opt.maximize(objective)
    else:
        opt.minimize(objective)
    if _check(opt) != z3.sat:
        return None
    return _schedule(opt.model(), enc)


def check_plan(spec: PlanSpec, *, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> PlanAnswer:
    """Is there an upgrade schedule under which every planned card passes KAS-R-25?"""
    start = time.perf_counter()
    enc = encoding(len(spec.diamonds), len(spec.track))
    solver = _solver(timeout_ms)
    solver.add(instance(spec, enc))
    _track_rules(solver, enc)
    everything = list(enc.exe)
    solver.add(everything)  # the question itself, untracked: a core names only rules
    result = _check(solver)
    if result == z3.sat:
        # The cheapest schedule reads best ("upgrade only when it is needed"); any model would do.
        cheapest = _optimised(spec, enc, everything, enc.spent, False, timeout_ms) or _schedule(solver.model(), enc)
        return PlanAnswer("free", spec, cheapest, None, (), (), ms=_ms(start))
    if result == z3.unsat:
        _, labels = _core(solver.unsat_core())
        core = minimal_core_ids([*instance(spec, enc), *everything], enc.rules, labels, timeout_ms)
        most = _optimised(spec, enc, [], z3.Sum([z3.If(e, 1, 0) for e in enc.exe]), True, timeout_ms)
        return PlanAnswer("forfeit", spec, None, most, core, labels, ms=_ms(start))
    return PlanAnswer("unknown", spec, None, None, (), (), solver.reason_unknown(), _ms(start))


def executions(spec: PlanSpec, upgrades: Sequence[bool], *, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> PlanAnswer:
    """The round under one fixed upgrade schedule: "free"/"forfeit" as for a plan, with
    ``best_effort`` the (unique) outcome of that schedule; "forfeit" with no schedule and the
    core when the schedule itself is impossible (an upgrade in a lost turn, or unaffordable)."""
    start = time.perf_counter()
    if len(upgrades) != len(spec.diamonds):
        raise RulecraftError("one upgrade flag per turn")
    enc = encoding(len(spec.diamonds), len(spec.track))
    solver = _solver(timeout_ms)
    solver.add(instance(spec, enc))
    solver.add([u == bool(v) for u, v in zip(enc.up, upgrades, strict=True)])
    _track_rules(solver, enc)
    result = _check(solver)
    if result == z3.sat:
        outcome = _schedule(solver.model(), enc)
        status = "free" if all(outcome.executed) else "forfeit"
        return PlanAnswer(status, spec, outcome if status == "free" else None, outcome, (), (), ms=_ms(start))
    if result == z3.unsat:
        _, labels = _core(solver.unsat_core())
        fixed = [u == bool(v) for u, v in zip(enc.up, upgrades, strict=True)]
        core = minimal_core_ids([*instance(spec, enc), *fixed], enc.rules, labels, timeout_ms)
        return PlanAnswer("forfeit", spec, None, None, core, labels, "the schedule itself is impossible", _ms(start))
    return PlanAnswer("unknown", spec, None, None, (), (), solver.reason_unknown(), _ms(start))


def plan_spec(
    game: Any, cards: Iterable[Card | str], money: int, start_level: int = 1, track: Track | None = None
) -> PlanSpec:
    chosen = resolve_cards(game.pack, cards)
    if len(chosen) != PLAN_SIZE:
        raise RulecraftError(f"KAS-R-19: a plan has {PLAN_SIZE} cards, one per slot; got {len(chosen)}")
    if len({c.id for c in chosen}) != len(chosen):
        raise RulecraftError(f"KAS-R-19: a plan holds distinct cards, got {[c.id for c in chosen]}")
    return PlanSpec(
        tuple(c.diamonds for c in chosen),
        track or tuple(game.pack.airship_track),
        money,
        start_level,
        tuple(c.id for c in chosen),
    )


def plan_free_of_forfeits(
    game: Any,
    cards: Iterable[Card | str],
    money: int,
    start_level: int = 1,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    *,
    track: Track | None = None,
) -> PlanAnswer:
    """(a) "free" with the cheapest schedule, "forfeit" with the core, or "unknown"."""
    return check_plan(plan_spec(game, cards, money, start_level, track), timeout_ms=timeout_ms)


# --- (b) every plan free of forfeits ---------------------------------------------------------------


def _deck(game: Any, deck: Iterable[Card | str] | None) -> tuple[Card, ...]:
    cards = resolve_cards(game.pack, deck) if deck is not None else tuple(game.pack.deck)
    if len({c.id for c in cards}) != len(cards):
        raise RulecraftError("a deck holds each card once")
    return cards


def ordered_selections(counts: Counter[int], sequence: Sequence[int]) -> int:
    """How many ordered plans of distinct cards show these diamonds, given the deck's counts per value."""
    need = Counter(sequence)
    return math.prod(math.perm(counts[v], k) for v, k in need.items())


@attrs.frozen
class LegalPlans:
    status: str  # "done" | "unknown"
    count: int  # ordered plans free of forfeits (a lower bound when unknown)
    sequences: tuple[tuple[int, ...], ...]  # the diamond sequences free of forfeits, sorted
    total: int  # every ordered plan of the deck
    deck: tuple[Card, ...]
    spec: PlanSpec  # money, level, track (diamonds empty)
    reason: str | None = None
    ms: float = 0.0

    def plans(self) -> Iterator[tuple[str, ...]]:
        """The legal plans themselves, in deck order (11,880 at most for 12 cards)."""
        free = set(self.sequences)
        for combo in itertools.permutations(self.deck, PLAN_SIZE):
            if tuple(c.diamonds for c in combo) in free:
                yield tuple(c.id for c in combo)

    def to_json(self, limit: int = 20) -> dict[str, Any]:
        return {
            "status": self.status,
            "count": self.count,
            "total": self.total,
            "sequences": [list(s) for s in self.sequences],
            "plans": [list(p) for p in itertools.islice(self.plans(), limit)],
            "money": self.spec.money,
            "start_level": self.spec.start_level,
            "reason": self.reason,
            "ms": self.ms,
        }


def legal_plans(
    game: Any,
    money: int,
    start_level: int = 1,
    deck: Iterable[Card | str] | None = None,
    *,
    track: Track | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> LegalPlans:
    """(b) Every ordered 4-card plan of the deck free of forfeits.

    One solver, the diamonds left symbolic over the deck's values: each model is
    a free diamond sequence, blocked before the next check.  Legality depends on
    the cards only through their diamonds, so the count is the sum over the free
    sequences of the ordered ways to pick distinct cards showing them.
    """
    start = time.perf_counter()
    cards = _deck(game, deck)
    spec = PlanSpec((), track or tuple(game.pack.airship_track), money, start_level)
    enc = encoding(PLAN_SIZE, len(spec.track))
    counts = Counter(c.diamonds for c in cards)
    solver = _solver(timeout_ms)
    solver.add(instance(spec, enc, pin_diamonds=False))
    # Only values the deck can still supply in that multiplicity: saves checks, not correctness.
    for d in enc.d:
        solver.add(z3.Or([d == v for v in counts]))
    for v, n in counts.items():
        solver.add(z3.Sum([z3.If(d == v, 1, 0) for d in enc.d]) <= n)
    _track_rules(solver, enc)
    solver.add(list(enc.exe))
    found: list[tuple[int, ...]] = []
    status, reason = "done", None
    while True:
        result = _check(solver)
        if result == z3.unsat:
            break
        if result != z3.sat:
            status, reason = "unknown", solver.reason_unknown()
            break
        model = solver.model()
        seq = tuple(int(model.eval(d, model_completion=True).as_long()) for d in enc.d)
        found.append(seq)
        solver.add(z3.Or([d != v for d, v in zip(enc.d, seq, strict=True)]))
    found.sort()
    count = sum(ordered_selections(counts, s) for s in found)
    total = math.perm(len(cards), PLAN_SIZE)
    return LegalPlans(status, count, tuple(found), total, cards, spec, reason, _ms(start))


# --- (c) the best plan --------------------------------------------------------------------------


@attrs.frozen
class BestPlan:
    status: str  # "optimal" | "none" (no plan free of forfeits matches) | "unknown"
    cards: tuple[str, ...]
    movement: int | None
    letters: str | None
    schedule: Schedule | None
    core: tuple[str, ...]
    spec: PlanSpec
    reason: str | None = None
    ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "cards": list(self.cards),
            "movement": self.movement,
            "letters": self.letters,
            "schedule": self.schedule.to_json() if self.schedule else None,
            "core": list(self.core),
            "money": self.spec.money,
            "start_level": self.spec.start_level,
            "reason": self.reason,
            "ms": self.ms,
        }


def check_letters(letters: str | None) -> str | None:
    if letters is None:
        return None
    pattern = letters.strip().upper()
    if len(pattern) != PLAN_SIZE or any(ch != "?" and ch not in LETTERS for ch in pattern):
        raise RulecraftError(f"a letter pattern has {PLAN_SIZE} characters of A..G or '?' (e.g. A?C?), not {letters!r}")
    return pattern


def matches(cards: Sequence[Card], pattern: str | None) -> bool:
    return pattern is None or all(p in ("?", c.letter) for p, c in zip(pattern, cards, strict=True))


def best_plan(
    game: Any,
    money: int,
    start_level: int = 1,
    objective: str = "movement",
    letters: str | None = None,
    deck: Iterable[Card | str] | None = None,
    *,
    track: Track | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> BestPlan:
    """(c) The plan free of forfeits with the most movement; with ``objective="letters"``
    only plans whose letters fit the pattern (``"A?C?"``: A in cycle 1, C in cycle 3), the
    most movement among them.  Z3 Optimize finds it; a second check proves that no plan
    free of forfeits has more (``unsat`` of "movement ≥ best + 1")."""
    start = time.perf_counter()
    if objective not in ("movement", "letters"):
        raise RulecraftError(f"objective is 'movement' or 'letters', got {objective!r}")
    pattern = check_letters(letters)
    if objective == "letters" and pattern is None:
        raise RulecraftError("objective 'letters' needs a pattern, e.g. A?C?")
    cards = _deck(game, deck)
    spec = PlanSpec((), track or tuple(game.pack.airship_track), money, start_level)
    enc = encoding(PLAN_SIZE, len(spec.track))
    n = len(cards)
    deck_d = [z3.Int(f"deck.diamonds{k}") for k in range(1, n + 1)]
    deck_m = [z3.Int(f"deck.moves{k}") for k in range(1, n + 1)]
    deck_l = [z3.Int(f"deck.letter{k}") for k in range(1, n + 1)]
    inst = instance(spec, enc, pin_diamonds=False)
    for k, c in enumerate(cards):
        inst += [deck_d[k] == c.diamonds, deck_m[k] == movement_value(c), deck_l[k] == LETTERS.index(c.letter)]
    choice = [z3.Int(f"card{i}") for i in range(1, PLAN_SIZE + 1)]  # 1-based deck index
    moves = [z3.Int(f"moves{i}") for i in range(1, PLAN_SIZE + 1)]
    letter = [z3.Int(f"letter{i}") for i in range(1, PLAN_SIZE + 1)]
    planning: list[Tracked] = [("KAS-R-19#distinct", z3.Distinct(choice))]
    for i in range(PLAN_SIZE):
        planning.append(
            (
                f"KAS-R-19#t{i + 1}",
                z3.And(
                    choice[i] >= 1,
                    choice[i] <= n,
                    enc.d[i] == _lookup(choice[i], deck_d),
                    moves[i] == _lookup(choice[i], deck_m),
                    letter[i] == _lookup(choice[i], deck_l),
                ),
            )
        )
    asked: list[z3.BoolRef] = list(enc.exe)
    if pattern is not None:
        asked += [letter[i] == LETTERS.index(ch) for i, ch in enumerate(pattern) if ch != "?"]
    total = z3.Sum(moves)
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(inst)
    opt.add([c for _, c in [*enc.rules, *planning]])
    opt.add(asked)
    opt.maximize(total)
    result = _check(opt)
    if result == z3.unknown:
        return BestPlan("unknown", (), None, pattern, None, (), spec, opt.reason_unknown(), _ms(start))
    solver = _solver(timeout_ms)
    solver.add(inst)
    for label, constraint in [*enc.rules, *planning]:
        solver.assert_and_track(constraint, label)
    solver.add(asked)
    if result == z3.unsat:
        proof = _check(solver)  # the same question, tracked: which rules leave no plan at all
        if proof != z3.unsat:
            return BestPlan("unknown", (), None, pattern, None, (), spec, "no core", _ms(start))
        _, labels = _core(solver.unsat_core())
        core = minimal_core_ids([*inst, *asked], [*enc.rules, *planning], labels, timeout_ms)
        return BestPlan("none", (), None, pattern, None, core, spec, ms=_ms(start))
    model = opt.model()
    best = int(model.eval(total, model_completion=True).as_long())
    picked = tuple(cards[int(model.eval(c, model_completion=True).as_long()) - 1] for c in choice)
    solver.add(total >= best + 1)
    proof = _check(solver)
    status = "optimal" if proof == z3.unsat else "unknown"
    reason = None if status == "optimal" else f"optimality not proved ({proof})"
    return BestPlan(
        status,
        tuple(c.id for c in picked),
        best,
        "".join(c.letter for c in picked),
        _schedule(model, enc),
        (),
        spec,
        reason,
        _ms(start),
    )


# --- the brute-force oracle -----------------------------------------------------------------------


def oracle_round(spec: PlanSpec, upgrades: Sequence[bool]) -> Schedule | None:
    """Play the round turn by turn as the rules read; None if the schedule is impossible."""
    track, level, before, spent = spec.track, spec.start_level, 0, 0
    executed: list[bool] = []
    levels: list[int] = []
    ratings: list[int] = []
    for d, up in zip(spec.diamonds, upgrades, strict=True):
        rating = track[level - 1].diamonds
        levels.append(level)
        ratings.append(rating)
        ok = before + d <= rating
        executed.append(ok)
        if ok:
            before += d
        if up:
            if not ok or level >= len(track) or spent + track[level].cost > spec.money:
                return None
            spent += track[level].cost
            level += 1
    return Schedule(tuple(bool(u) for u in upgrades), tuple(executed), tuple(levels), tuple(ratings), spent)


def oracle_schedules(spec: PlanSpec) -> Iterator[Schedule]:
    """Every possible round of the plan (2^n upgrade patterns, the impossible ones dropped)."""
    for upgrades in itertools.product((False, True), repeat=len(spec.diamonds)):
        outcome = oracle_round(spec, upgrades)
        if outcome is not None:
            yield outcome


def oracle_free(spec: PlanSpec) -> Schedule | None:
    """The cheapest schedule executing every card, or None."""
    free = [s for s in oracle_schedules(spec) if all(s.executed)]
    return min(free, key=lambda s: s.spent) if free else None


def oracle_most_executed(spec: PlanSpec) -> int:
    return max(sum(s.executed) for s in oracle_schedules(spec))


def oracle_legal_plans(
    game: Any,
    money: int,
    start_level: int = 1,
    deck: Iterable[Card | str] | None = None,
    *,
    track: Track | None = None,
) -> list[tuple[Card, ...]]:
    """Every ordered plan × every schedule, directly (12·11·10·9 × 2^4 rounds)."""
    cards = _deck(game, deck)
    chosen_track = track or tuple(game.pack.airship_track)
    out: list[tuple[Card, ...]] = []
    for combo in itertools.permutations(cards, PLAN_SIZE):
        spec = PlanSpec(tuple(c.diamonds for c in combo), chosen_track, money, start_level, tuple(c.id for c in combo))
        if any(all(s.executed) for s in oracle_schedules(spec)):
            out.append(combo)
    return out


def oracle_best_plan(
    game: Any,
    money: int,
    start_level: int = 1,
    letters: str | None = None,
    deck: Iterable[Card | str] | None = None,
    *,
    track: Track | None = None,
) -> tuple[int | None, list[tuple[Card, ...]]]:
    """The best movement among legal plans fitting the pattern, and every plan reaching it."""
    pattern = check_letters(letters)
    legal = [p for p in oracle_legal_plans(game, money, start_level, deck, track=track) if matches(p, pattern)]
    if not legal:
        return None, []
    best = max(sum(movement_value(c) for c in p) for p in legal)
    return best, [p for p in legal if sum(movement_value(c) for c in p) == best]
