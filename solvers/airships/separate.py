"""Z3: can two readings of a dice ambiguity disagree on whether an attempt is allowed?

The question "is there a state where reading a allows X and reading b forbids
it?" has the right shape for the Airships ambiguities that only decide which
attempts are legal (AIR-R-27/29/30 with AIR-AMB-05/06/07/08/32/35/36).  The
instance is symbolic: every company board the pack allows (one card per
department, either era, era-2 cards only in era 2), every target the pack has
(development cards, airship cards, Hindenburg stages) and every attempt
choice (exchanges, the fixed die given up, dice thrown per colour).

- ``unsat``: no board, target and choice separates the readings, so they allow
  the same attempts everywhere (an over-approximation of the reachable boards,
  so the proof covers every game); as the switch is consulted only in those
  legality rules, play cannot differ;
- ``sat``: the model gives a board, a target and a choice that one reading
  allows and the other forbids (a state, not yet shown reachable);
- ``unknown``: the solver gave up (time-out); never reported as proved.

Each rule is a named constraint family (``AIR-R-27#covers`` ...), the instance
apart from the rules; :func:`legal_by_model` is the oracle the tests hold the
encoding to.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import z3

from rulecraft.model.airships.components import COLOURS, DEPARTMENTS, Colour, Department, Dice, Pack
from rulecraft.model.airships.dice import Pool, company_of
from rulecraft.model.airships.rules import (
    Context,
    TargetInfo,
    pool_or_rejection,
    requirement_met,
    throw_allowed,
)
from rulecraft.model.airships.state import CompanyBoard
from rulecraft.witness import SolverVerdict

if TYPE_CHECKING:
    from rulecraft.model.airships.game import AirshipsGame

# The ambiguities consulted only in the attempt's legality (checked by a test over the model's source).
LEGALITY_ONLY: tuple[str, ...] = (
    "AIR-AMB-05",
    "AIR-AMB-06",
    "AIR-AMB-07",
    "AIR-AMB-08",
    "AIR-AMB-32",
    "AIR-AMB-35",
    "AIR-AMB-36",
)
MOST_EXCHANGES = 12  # a Material card gives up >= 1 die; no company holds more than 12 of a colour


@attrs.frozen
class Board:
    """The symbolic instance: what is on the company board, the era, the target, the choice."""

    sel: tuple[z3.ArithRef, ...]  # per department: 0 empty, k the k-th card of that department
    era2: z3.BoolRef
    target: z3.ArithRef  # index into the pack's targets
    exchanges: z3.ArithRef
    give_fixed: z3.BoolRef
    throw: tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef]


def targets(pack: Pack) -> list[tuple[str, Dice]]:
    """Every requirement a target can carry: displayed cards, airship cards, stages."""
    out = [(f"development:{c.id}", c.requirement) for c in pack.developments]
    out += [(f"airship card {c.id}", c.requirement) for c in pack.airships]
    out += [(f"stage:{i}", s.requirement) for i, s in enumerate(pack.stages, start=1)]
    return out


def department_cards(pack: Pack) -> list[list[Any]]:
    return [[c for c in pack.developments if c.department is d] for d in DEPARTMENTS]


def instance(pack: Pack, tag: str = "") -> tuple[Board, list[z3.BoolRef]]:
    """The variables and their domains (no rule yet)."""
    cards = department_cards(pack)
    sel = tuple(z3.Int(f"dept_{d.value}{tag}") for d in DEPARTMENTS)
    era2 = z3.Bool(f"era2{tag}")
    target = z3.Int(f"target{tag}")
    k = z3.Int(f"exchanges{tag}")
    gf = z3.Bool(f"give_fixed{tag}")
    throw = (z3.Int(f"throw_W{tag}"), z3.Int(f"throw_R{tag}"), z3.Int(f"throw_B{tag}"))
    domain: list[z3.BoolRef] = []
    for s, dept in zip(sel, cards, strict=True):
        domain.append(z3.And(s >= 0, s <= len(dept)))
        for i, card in enumerate(dept, start=1):
            if card.group == "era2":  # era-2 cards are revealed only after the era change (AIR-R-25)
                domain.append(z3.Implies(s == i, era2))
    domain += [target >= 0, target < len(targets(pack)), k >= 0, k <= MOST_EXCHANGES]
    domain += [t >= 0 for t in throw]
    return Board(sel, era2, target, k, gf, throw), domain


def _pick(sel: z3.ArithRef, values: Sequence[int], default: int = 0) -> z3.ArithRef:
    """values[k-1] when sel == k, else ``default``."""
    expr: z3.ArithRef = z3.IntVal(default)
    for i, v in enumerate(values, start=1):
        expr = z3.If(sel == i, v, expr)
    return expr


def _per_card(sel: z3.ArithRef, amounts: Sequence[tuple[int, int]], k: z3.ArithRef) -> z3.ArithRef:
    """amount * k for the selected card (0 when no card with an amount is selected)."""
    terms = [z3.If(sel == i, amount * k, 0) for i, amount in amounts]
    return z3.Sum(terms) if terms else z3.IntVal(0)


def _min(a: z3.ArithRef, b: int) -> z3.ArithRef:
    return z3.If(a < b, a, z3.IntVal(b))


def legality(pack: Pack, board: Board, readings: Mapping[str, str], cap: int) -> list[tuple[str, z3.BoolRef]]:
    """The attempt is legal under ``readings``: one named family per rule (AIR-R-12/18/20/27/29/30)."""
    cards = department_cards(pack)
    engineer, material = DEPARTMENTS.index(Department.ENGINEER), DEPARTMENTS.index(Department.MATERIAL)
    colour_i = {c: i for i, c in enumerate(COLOURS)}
    # AIR-R-12/13: the dice of the cards and the entrepreneur tile (white; white + red after the era change).
    dice = []
    for c in COLOURS:
        total: z3.ArithRef = z3.IntVal(1 if c is Colour.W else 0)
        if c is Colour.R:
            total = total + z3.If(board.era2, 1, 0)
        for s, dept in zip(board.sel, cards, strict=True):
            total = total + _pick(s, [card.dice[c] for card in dept])
        dice.append(total)
    # AIR-R-18: the Engineer's fixed die (colour index, -1: none) and value do not matter here, only colour.
    eng, mat = cards[engineer], cards[material]
    fcol = _pick(board.sel[engineer], [colour_i[c.fixed.colour] if c.fixed else -1 for c in eng], -1)
    # AIR-R-20: the Material card's exchange.
    m = board.sel[material]
    has_ex = _pick(m, [1 if c.exchange else 0 for c in mat]) == 1
    gcol = _pick(m, [colour_i[c.exchange.give_colour] if c.exchange else -1 for c in mat], -1)
    getcol = _pick(m, [colour_i[c.exchange.get_colour] if c.exchange else -1 for c in mat], -1)
    k, gf = board.exchanges, board.give_fixed
    # AIR-R-29 with AIR-AMB-06/07/08: the pool after k exchanges (a card's amounts times k: linear).
    give_total = _per_card(m, [(i, c.exchange.give) for i, c in enumerate(mat, 1) if c.exchange], k)
    get_total = _per_card(m, [(i, c.exchange.get) for i, c in enumerate(mat, 1) if c.exchange], k)
    from_fixed = z3.If(gf, 1, 0)
    need = give_total - from_fixed
    have = z3.Sum([z3.If(gcol == i, dice[i], 0) for i in range(3)])
    if readings["AIR-AMB-06"] == "before":
        have = _min(have, cap)
    exchange = [
        ("AIR-R-29#no-exchange-no-give", z3.Implies(k == 0, z3.Not(gf))),
        ("AIR-R-20#material", z3.Implies(k > 0, has_ex)),
        ("AIR-R-29#fixed-given", z3.Implies(gf, z3.And(fcol >= 0, fcol == gcol))),
        ("AIR-R-29#enough", z3.Implies(k > 0, need <= have)),
    ]
    if readings["AIR-AMB-07"] == "once":
        exchange.append(("AIR-AMB-07#once", k <= 1))
    if readings["AIR-AMB-08"] == "no":
        exchange.append(("AIR-AMB-08#no", z3.Not(gf)))
    pool = [
        dice[i] - z3.If(z3.And(k > 0, gcol == i), need, 0) + z3.If(z3.And(k > 0, getcol == i), get_total, 0)
        for i in range(3)
    ]
    fixed_count = [z3.If(z3.And(fcol == i, z3.Not(gf)), 1, 0) for i in range(3)]
    # The target's requirement.
    reqs = [r for _, r in targets(pack)]
    q = [_pick(board.target + 1, [r[c] for r in reqs]) for c in COLOURS]
    capped = readings["AIR-AMB-32"] == "capped"
    covers = []
    throw_rules = []
    for i in range(3):
        usable = (_min(pool[i], cap) if capped else pool[i]) + fixed_count[i]
        covers.append(z3.Implies(q[i] > 0, usable >= q[i]))
        t = board.throw[i]
        throw_rules += [t <= cap, t <= pool[i], z3.Implies(q[i] > 0, t + fixed_count[i] >= q[i])]
        if readings["AIR-AMB-05"] == "no":
            throw_rules.append(z3.Implies(q[i] == 0, t == 0))
        if readings["AIR-AMB-35"] == "max":
            throw_rules.append(z3.Implies(q[i] > 0, t == _min(pool[i], cap)))
    if readings["AIR-AMB-36"] == "forbidden":
        throw_rules.append(z3.Sum(list(board.throw)) >= 1)
    return [
        *exchange,
        ("AIR-R-27#covers", z3.And(covers)),
        ("AIR-R-30#throw", z3.And(throw_rules)),
    ]


def _legal(rules: list[tuple[str, z3.BoolRef]]) -> z3.BoolRef:
    return z3.And([c for _, c in rules])


def separate(game_a: AirshipsGame, game_b: AirshipsGame, timeout: float) -> SolverVerdict:
    """Is there a board, target and choice one reading allows and the other forbids?"""
    start = time.monotonic()
    pack = game_a.pack
    board, domain = instance(pack)
    cap = game_a.ctx.p("dice_per_colour")
    la = _legal(legality(pack, board, game_a.ctx.readings, cap))
    lb = _legal(legality(pack, board, game_b.ctx.readings, game_b.ctx.p("dice_per_colour")))
    solver = z3.Solver()
    solver.set("timeout", int(timeout * 1000))
    solver.add(domain)
    solver.add(la != lb)
    result = solver.check()
    seconds = time.monotonic() - start
    if result == z3.unsat:
        return SolverVerdict(
            "unsat",
            "Z3: over every company board the pack allows (either era), every target and every attempt choice, "
            "both readings allow exactly the same attempts (AIR-R-27/29/30)",
            seconds,
        )
    if result == z3.sat:
        model = solver.model()
        found = describe(pack, board, model)
        found["allowed_by"] = "default" if z3.is_true(model.eval(la, model_completion=True)) else "other reading"
        return SolverVerdict("sat", _sentence(found), seconds, found)
    return SolverVerdict("unknown", f"Z3 gave no answer: {solver.reason_unknown()}", seconds)


def describe(pack: Pack, board: Board, model: z3.ModelRef) -> dict[str, Any]:
    cards = department_cards(pack)
    chosen = []
    for s, dept in zip(board.sel, cards, strict=True):
        k = model.eval(s, model_completion=True).as_long()
        if k:
            chosen.append(dept[k - 1].id)
    t = model.eval(board.target, model_completion=True).as_long()
    throw = {c.value: model.eval(x, model_completion=True).as_long() for c, x in zip(COLOURS, board.throw, strict=True)}
    return {
        "cards": chosen,
        "era": 2 if z3.is_true(model.eval(board.era2, model_completion=True)) else 1,
        "target": targets(pack)[t][0],
        "requirement": targets(pack)[t][1].to_mapping(),
        "exchanges": model.eval(board.exchanges, model_completion=True).as_long(),
        "give_fixed": z3.is_true(model.eval(board.give_fixed, model_completion=True)),
        "throw": {k: v for k, v in throw.items() if v},
    }


def _sentence(found: Mapping[str, Any]) -> str:
    return (
        f"Z3: a company with {', '.join(found['cards']) or 'no cards'} in era {found['era']} attempting "
        f"{found['target']} (needs {found['requirement']}) with {found['exchanges']} exchange(s), throwing "
        f"{found['throw'] or 'no die'}: allowed by the {found['allowed_by']} only"
    )


def legal_by_model(
    game: AirshipsGame, cards: Sequence[str], era: int, requirement: Dice, exchanges: int, give_fixed: bool, throw: Dice
) -> bool:
    """The oracle: the model's own legality rules on one concrete board, target and choice."""
    departments: list[str | None] = [None] * len(DEPARTMENTS)
    for card_id in cards:
        departments[DEPARTMENTS.index(game.pack.development(card_id).department)] = card_id
    board = CompanyBoard("oracle", tuple(departments))
    ctx: Context = game.ctx
    comp = company_of(board, era, game.pack)
    pool = pool_or_rejection(ctx, comp, exchanges, give_fixed)
    if not isinstance(pool, Pool):
        return False
    target = TargetInfo("oracle", "development", requirement, 0)
    return requirement_met(ctx, pool, target) is None and throw_allowed(ctx, pool, target, throw) is None


def airship_dice(game_a: AirshipsGame, game_b: AirshipsGame, timeout: float) -> SolverVerdict | None:
    """AIR-AMB-25 (do airship cards give dice?) decided by the pack: if no airship card carries dice,
    both readings give every company the same dice, and the switch is read nowhere else."""
    carrying = [c.id for c in game_a.pack.airships if c.dice.total()]
    if carrying:
        return None  # the pack gives some airship cards dice: search for a witness
    return SolverVerdict(
        "unsat", f"no airship card of the pack ({game_a.pack.name}) shows dice: both readings give the same dice"
    )


def witness_queries(game: AirshipsGame) -> dict[str, Any]:
    """The solver hooks for ``rulecraft ambiguities``: one per legality-only ambiguity, and the pack check."""
    hooks: dict[str, Any] = {"AIR-AMB-25": airship_dice}
    if game.ctx.r("AIR-AMB-04") != "exact" or game.ctx.r("AIR-AMB-25") != "no":
        return hooks  # the encoding scores per colour and gives airship cards no dice
    return hooks | {amb: separate for amb in LEGALITY_ONLY}
