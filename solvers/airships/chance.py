"""Exact chance of one attempt: the best choice of dice and trade.

The colours are independent (digest §3.10), so per choice the score is the
convolution of three per-colour distributions, each built once from the
model's sorted-face distribution (``colour_distribution``) and scored with
the model's ``base_score``/``fixed_counts``.  The engine bonus is added per
outcome with ``engine_bonus`` (under AIR-AMB-09 'C' it depends on whether
the fixed die counts, so that flag is carried through the convolution).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache
from typing import Any

import attrs

from rulecraft.model.airships.components import COLOURS, Colour, Dice, FixedDie
from rulecraft.model.airships.dice import base_score, engine_bonus, fixed_counts
from rulecraft.model.airships.game import AirshipsGame, colour_distribution
from rulecraft.solvers.airships.spec import AttemptSpec, Choice, legal_choices

# (score of the colour, whether the fixed die counts) -> probability
ColourDist = tuple[tuple[tuple[int, bool], Fraction], ...]


@cache
def colour_scores(colour: Colour, thrown: int, need: int, fixed: FixedDie | None) -> ColourDist:
    """Distribution of one colour's share of S (AIR-R-33) for ``thrown`` dice."""
    requirement = Dice().with_count(colour, need)
    own_fixed = fixed if fixed is not None and fixed.colour is colour else None
    out: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    for faces, p in colour_distribution(colour, thrown):
        per_colour = tuple(faces if c is colour else () for c in COLOURS)
        key = (
            base_score(requirement, per_colour, own_fixed),
            fixed_counts(requirement, per_colour, own_fixed),
        )
        out[key] += p
    return tuple(sorted(out.items()))


def _convolve(a: ColourDist, b: ColourDist) -> ColourDist:
    out: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    for (sa, fa), pa in a:
        for (sb, fb), pb in b:
            out[(sa + sb, fa or fb)] += pa * pb
    return tuple(out.items())


@attrs.frozen
class ChanceAnswer:
    p_no_chip: Fraction
    choice_no_chip: Choice | None
    p_with_chip: Fraction  # as if the board had a chip (information when it has none)
    choice_with_chip: Choice | None
    chips_available: bool
    choices: int

    @property
    def probability(self) -> Fraction:
        return self.p_with_chip if self.chips_available else self.p_no_chip

    @property
    def choice(self) -> Choice | None:
        return self.choice_with_chip if self.chips_available else self.choice_no_chip


def choice_chances(game: AirshipsGame, spec: AttemptSpec, choice: Choice,
                   fixed: FixedDie | None) -> tuple[Fraction, Fraction]:
    """P(S + E + A >= T) and P(S + E + A + 1 >= T) for one choice."""
    ctx = game.ctx
    dist: ColourDist = (((0, False), Fraction(1)),)
    for colour in COLOURS:
        own = fixed if fixed is not None and fixed.colour is colour else None
        part = colour_scores(colour, choice.throw[colour], spec.requirement[colour], own)
        dist = _convolve(dist, part)
    airship = 1 if spec.wooden_airship else 0
    p_no = p_chip = Fraction(0)
    for (score, fixed_counted), p in dist:
        total = score + airship + engine_bonus(
            spec.engine, spec.requirement, choice.throw,
            involved=ctx.r("AIR-AMB-09"), per=ctx.r("AIR-AMB-10"),
            fixed_counted=fixed_counted, fixed=fixed,
        )
        if total >= spec.target:
            p_no += p
        if total + 1 >= spec.target:  # AIR-R-37: the chip is spent only when decisive
            p_chip += p
    return p_no, p_chip


def chance(game: AirshipsGame, spec: AttemptSpec) -> ChanceAnswer:
    best_no: tuple[Fraction, Choice | None] = (Fraction(0), None)
    best_chip: tuple[Fraction, Choice | None] = (Fraction(0), None)
    n = 0
    for choice, pool in legal_choices(game, spec):
        n += 1
        p_no, p_chip = choice_chances(game, spec, choice, pool.fixed)
        # Strictly better only: ties keep the first (fewest exchanges, fewest dice).
        if best_no[1] is None or p_no > best_no[0]:
            best_no = (p_no, choice)
        if best_chip[1] is None or p_chip > best_chip[0]:
            best_chip = (p_chip, choice)
    return ChanceAnswer(best_no[0], best_no[1], best_chip[0], best_chip[1], spec.chips >= 1, n)


def fraction_json(p: Fraction) -> dict[str, Any]:
    return {"p": str(p), "approx": round(float(p), 6)}
