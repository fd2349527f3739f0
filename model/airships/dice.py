"""The dice a company may use, and what a throw scores (AIR-R-12..20, 27..36).

Pure functions over component data, shared by the legality check, the
transitions, the exact-chance query and the brute-force oracles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rulecraft.model.airships.components import (
    COLOURS,
    DICE_PER_COLOUR,
    FACES,
    Colour,
    Dice,
    EngineBonus,
    FixedDie,
    Pack,
)

# Re-exported: the rules and the solvers import them from here (pools.py: why apart).
from rulecraft.model.airships.pools import Company as Company
from rulecraft.model.airships.pools import Pool as Pool
from rulecraft.model.airships.state import CompanyBoard


def entrepreneur_dice(era: int) -> Dice:
    """AIR-R-13: one white die; white and red after the era change."""
    return Dice(W=1) if era == 1 else Dice(W=1, R=1)


def company_of(board: CompanyBoard, era: int, pack: Pack, *, airship_dice: bool = False) -> Company:
    """AIR-R-12: the dice at the bottom of every card on the board, and the
    extra red dice of AIR-AMB-01 'every-success'.  A card won this turn does
    not count yet under AIR-AMB-26 'next-turn' (the board records it only then)."""
    # Counted colour by colour, one Dice at the end (a board's company is worked out at every new board).
    start, extra = entrepreneur_dice(era), Dice(R=board.extra_red_dice)
    w, r, b = start.W, start.R + extra.R, start.B
    fixed = engine = exchange = None
    won = board.won_this_turn
    for card_id in board.departments:
        if card_id is None or card_id in won:
            continue
        card = pack.development(card_id)
        given = card.dice
        w, r, b = w + given.W, r + given.R, b + given.B
        if card.fixed is not None:
            fixed = card.fixed
        if card.engine is not None:
            engine = card.engine
        if card.exchange is not None:
            exchange = card.exchange
    if airship_dice:  # AIR-AMB-25 'yes'; by default airship cards give no dice (AIR-R-14)
        for card_id in board.airships:
            if card_id not in won:
                given = pack.airship(card_id).dice
                w, r, b = w + given.W, r + given.R, b + given.B
    # AIR-R-14: airship cards give no dice (unless AIR-AMB-25 'yes' added theirs above).
    return Company(Dice(w, r, b), fixed, engine, exchange)


def exchanged(
    company: Company, exchanges: int, give_fixed: bool, *, cap_first: bool = False, cap: int = DICE_PER_COLOUR
) -> Pool | str:
    """Apply ``exchanges`` Material exchanges; a string says why it cannot be done.

    ``give_fixed``: the Engineer's fixed die is one of the dice given up
    (AIR-AMB-08).  ``cap_first``: AIR-AMB-06 'before' (only capped dice may
    be given up).
    """
    dice, fixed = company.dice, company.fixed
    if exchanges == 0:
        if give_fixed:
            return "no exchange is made, so the fixed die cannot be given up"
        return Pool(dice, fixed, cap)
    ex = company.exchange
    if ex is None:
        return "no Material card on the board"
    give_total = ex.give * exchanges
    from_fixed = 0
    if give_fixed:
        if fixed is None or fixed.colour is not ex.give_colour:
            return f"no fixed {ex.give_colour.value} die to give up"
        from_fixed = 1
        fixed = None
    have = dice[ex.give_colour]
    if cap_first:
        have = min(have, cap)
    need = give_total - from_fixed
    if need > have:
        return f"the exchange gives up {give_total} {ex.give_colour.value} dice; only {have + from_fixed} can be given"
    dice = dice.with_count(ex.give_colour, dice[ex.give_colour] - need)
    dice = dice.with_count(ex.get_colour, dice[ex.get_colour] + ex.get * exchanges)
    return Pool(dice, fixed, cap)


def covers(pool: Pool, requirement: Dice, *, capped: bool = True) -> Colour | None:
    """The first colour whose requirement the pool cannot cover, or None."""
    for colour, q in requirement.items():
        if q and pool.usable(colour, capped=capped) < q:
            return colour
    return None  # every required colour is covered


def covers_pooled(pool: Pool, requirement: Dice, *, capped: bool = True) -> bool:
    """AIR-AMB-04 'any': the usable dice of the listed colours, together, reach
    the requirement's total (a surplus colour stands in for a short one)."""
    usable = sum(pool.usable(colour, capped=capped) for colour, q in requirement.items() if q)
    return usable >= requirement.total()


def throw_range(pool: Pool, requirement: Dice, colour: Colour) -> range:
    """AIR-R-30/31: the dice of ``colour`` that may be thrown for a required colour."""
    q = requirement[colour]
    low = max(0, q - pool.fixed_count(colour))
    high = min(pool.dice[colour], pool.cap)
    return range(low, high + 1)


def _listed_values(requirement: Dice, faces: Sequence[Sequence[int]], fixed: FixedDie | None) -> list[int]:
    """The thrown and fixed dice of the colours the target lists, best first."""
    values = [v for colour, thrown in zip(COLOURS, faces, strict=True) if requirement[colour] for v in thrown]
    if fixed is not None and requirement[fixed.colour]:
        values.append(fixed.value)
    return sorted(values, reverse=True)


def base_score(
    requirement: Dice, faces: Sequence[Sequence[int]], fixed: FixedDie | None, *, pooled: bool = False
) -> int:
    """AIR-R-33: per required colour, the best q_c of the thrown and fixed dice;
    ``pooled`` (AIR-AMB-04 'any'): the best sum(q_c) of all listed-colour dice."""
    if pooled:
        return sum(_listed_values(requirement, faces, fixed)[: requirement.total()])
    total = 0
    # The counts read once, by field: a throw is scored at every attempt.
    counts = (requirement.W, requirement.R, requirement.B)
    for q, colour, thrown in zip(counts, COLOURS, faces, strict=True):
        if not q:
            continue
        values = list(thrown)
        if fixed is not None and fixed.colour is colour:
            values.append(fixed.value)
        values.sort(reverse=True)
        total += sum(values[:q])
    return total


def fixed_counts(
    requirement: Dice, faces: Sequence[Sequence[int]], fixed: FixedDie | None, *, pooled: bool = False
) -> bool:
    """Whether the fixed die is among the dice that count (AIR-AMB-09 'C');
    ``pooled`` (AIR-AMB-04 'any'): it competes with every listed colour's dice."""
    if fixed is None:
        return False
    q = requirement[fixed.colour]
    if not q:
        return False
    if pooled:
        q = requirement.total()
        thrown = [v for colour, vs in zip(COLOURS, faces, strict=True) if requirement[colour] for v in vs]
    else:
        thrown = list(faces[COLOURS.index(fixed.colour)])
    better = sum(1 for v in thrown if v > fixed.value)
    return better < q


def engine_bonus(
    engine: EngineBonus | None,
    requirement: Dice,
    thrown: Dice,
    *,
    involved: str = "B",
    per: str = "throw",
    fixed_counted: bool = False,
    fixed: FixedDie | None = None,
) -> int:
    """AIR-R-19/35: the engine's bonus for this throw.

    ``involved`` is the AIR-AMB-09 reading (A: required colour, B: a die of
    the colour thrown, C: thrown or fixed and counting); ``per`` the
    AIR-AMB-10 reading ('throw' once, 'die' per thrown die).
    """
    if engine is None:
        return 0
    # AIR-R-35: a grey engine's bonus counts on every throw.
    if engine.colour is None:  # grey: any throw, even one with no die (AIR-AMB-36)
        return engine.bonus * (max(1, thrown.total()) if per == "die" else 1)
    # AIR-R-35: a coloured engine's bonus counts only when its colour is involved in the throw.
    colour = engine.colour
    if involved == "A":
        active = requirement[colour] > 0
    elif involved == "C":
        active = thrown[colour] > 0 or (fixed_counted and fixed is not None and fixed.colour is colour)
    else:
        active = thrown[colour] > 0
    if not active:
        return 0
    return engine.bonus * (max(1, thrown[colour]) if per == "die" else 1)


def faces_valid(colour: Colour, values: Iterable[int]) -> bool:
    return all(v in FACES[colour] for v in values)
