"""Brute-force oracle for one attempt: every legal choice, every ordered face
combination of the thrown dice (6^k each, exact Fractions).

It scores through the model's own functions (``base_score``,
``engine_bonus``, ``fixed_counts``; choices through ``exchange_options``,
``exchanged`` and ``throw_allowed``), so it *is* the reference semantics the
Z3 query and the exact-chance computation are checked against.  It is slow
on purpose: no dominance argument, no sorting of faces, no convolution.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import attrs

from rulecraft.model.airships.components import COLOURS, FACES
from rulecraft.model.airships.dice import Pool, base_score, engine_bonus, fixed_counts
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.solvers.airships.spec import AttemptSpec, Choice, legal_choices, legal_pools


@attrs.frozen
class OracleAnswer:
    legal: bool  # some exchange choice covers the requirement (AIR-R-27)
    best_throw: int | None  # max S + E + A over choices and faces; None: no legal throw
    best_total: int | None  # best_throw plus the one chip the board could spend
    reachable: bool  # best_total >= target
    p_no_chip: Fraction  # best choice, no chip
    p_with_chip: Fraction  # best choice, one chip spent when decisive (as if chips >= 1)
    choices: int  # legal choices enumerated
    chips_available: bool = False

    @property
    def probability(self) -> Fraction:
        """Success with the chips the board actually has."""
        return self.p_with_chip if self.chips_available else self.p_no_chip


def throw_total(
    game: AirshipsGame, spec: AttemptSpec, choice: Choice, pool: Pool,
    faces: tuple[tuple[int, ...], ...],
) -> int:
    """S + E + A for one outcome (AIR-R-33..36), exactly as transitions score it."""
    ctx = game.ctx
    base = base_score(spec.requirement, faces, pool.fixed)
    engine = engine_bonus(
        spec.engine, spec.requirement, choice.throw,
        involved=ctx.r("AIR-AMB-09"), per=ctx.r("AIR-AMB-10"),
        fixed_counted=fixed_counts(spec.requirement, faces, pool.fixed), fixed=pool.fixed,
    )
    return base + engine + (1 if spec.wooden_airship else 0)


def oracle(game: AirshipsGame, spec: AttemptSpec) -> OracleAnswer:
    legal = any(True for _ in legal_pools(game, spec))
    best: int | None = None
    p_no = p_chip = Fraction(0)
    n = 0
    for choice, pool in legal_choices(game, spec):
        n += 1
        # The thrown dice in colour order; each ordered face tuple has weight 1/6^k.
        colours = [c for c in COLOURS for _ in range(choice.throw[c])]
        weight = Fraction(1, 6 ** len(colours))
        hits_no = hits_chip = 0
        for roll in product(*(FACES[c] for c in colours)):
            faces = tuple(
                tuple(v for v, c in zip(roll, colours, strict=True) if c is colour)
                for colour in COLOURS
            )
            total = throw_total(game, spec, choice, pool, faces)
            best = total if best is None else max(best, total)
            hits_no += total >= spec.target
            hits_chip += total + 1 >= spec.target  # AIR-R-37: +1, only needed when short
        p_no = max(p_no, hits_no * weight)
        p_chip = max(p_chip, hits_chip * weight)
    chip = 1 if spec.chips >= 1 else 0
    best_total = None if best is None else best + chip
    return OracleAnswer(
        legal=legal, best_throw=best, best_total=best_total,
        reachable=best_total is not None and best_total >= spec.target,
        p_no_chip=p_no, p_with_chip=p_chip, choices=n, chips_available=chip == 1,
    )


def oracle_cost(game: AirshipsGame, spec: AttemptSpec) -> int:
    """Face combinations the oracle would enumerate (to keep tests bounded)."""
    return sum(6 ** choice.throw.total() for choice, _ in legal_choices(game, spec))


