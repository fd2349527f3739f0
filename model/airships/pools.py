"""What a board gives (``Company``) and the dice of one attempt (``Pool``): the values the dice rules of
dice.py work on.

Kept apart from dice.py, which the optional compiled build compiles (docs/speed.md): mypyc cannot
compile an attrs class whose fields have defaults.
"""

from __future__ import annotations

import attrs

from rulecraft.model.airships.components import DICE_PER_COLOUR, Colour, Dice, EngineBonus, Exchange, FixedDie


@attrs.frozen
class Company:
    """What a board gives: throwable dice (uncapped), at most one fixed die,
    at most one engine and at most one exchange (one card per department)."""

    dice: Dice
    fixed: FixedDie | None = None
    engine: EngineBonus | None = None
    exchange: Exchange | None = None


@attrs.frozen
class Pool:
    """The dice for one attempt after the optional exchange (AIR-R-29)."""

    dice: Dice  # throwable, uncapped
    fixed: FixedDie | None
    cap: int = DICE_PER_COLOUR  # dice of one colour thrown at most (AIR-R-30; a variant may change it)

    def usable(self, colour: Colour, *, capped: bool = True) -> int:
        """Dice of ``colour`` that can count: min(n', 3) + fixed (AIR-R-27, AIR-AMB-32)."""
        n = self.dice[colour]
        if capped and n > self.cap:
            n = self.cap
        fixed = self.fixed
        # AIR-R-31: the fixed die counts on top of the capped thrown dice, never against the cap.
        return n + 1 if fixed is not None and fixed.colour is colour else n

    def fixed_count(self, colour: Colour) -> int:
        return 1 if self.fixed is not None and self.fixed.colour is colour else 0
