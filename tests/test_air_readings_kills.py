"""Airships: the readings' own code (issue 22 part 3), played under the non-default readings.

``bench/mutation/readings.py`` counts the mutants on the lines that name an ambiguity.  Here
AIR-AMB-06 (the cap of thrown dice per colour and the Material exchange,
/work/shared/rules/airships.md; rulebook p.4 "at most 3 dice of one colour", p.6 the Material
card) is played under 'before' with the cap parameter (AIR-R-30, ``dice_per_colour``) raised, so
that the throw's own exchange must use the parameter, not the printed 3.
"""

from __future__ import annotations

import pytest
from test_air_transitions_kills import attempt, board, ctx, display, ex06_board, state

from rulecraft.model.airships.actions import AttemptTarget, Throw
from rulecraft.model.airships.components import Dice
from rulecraft.model.airships.rules import action_rejection
from rulecraft.model.airships.state import Phase


def test_before_the_cap_five_throwable_whites_and_the_fixed_white_give_two_blacks_air_amb_06() -> None:
    """AIR-AMB-06 'before' (cap first, only capped dice may be given up) with AIR-AMB-07 'repeat'
    and the cap raised to 5 (AIR-R-30's parameter): AIR-EX-06's company (5 whites, the fixed
    white 3, Material 3W -> 1B, rulebook p.6) may throw all 5 whites, so it gives them and the
    fixed white (6 = 2 x 3, AIR-AMB-08 'yes') for 2 blacks; black 8 reaches HANB's 6 (p.4) and
    the card replaces the old Hangar, which leaves the game (AIR-R-38)."""
    c = ctx("06=before", "07=repeat", dice_per_colour=5)
    st = state(ex06_board(), board("S2", nation="Germany"), display=display("HANB"))
    after = attempt(c, st, "development:HANB", Throw(B=(8,)), exchanges=2, give_fixed=True)
    assert after.boards[0].departments[1] == "HANB"
    assert after.removed == ("HANWR",)


def test_before_the_printed_cap_only_three_whites_may_be_given_up_air_amb_06() -> None:
    """The same declaration under the printed cap of 3 (p.4): 'before' lets only 3 of the 5 whites
    be given up, 3 + the fixed white < 6, so the double exchange is refused (AIR-R-29); 'after'
    (the default: the exchange works on the uncapped entitlement) accepts it."""
    st = state(ex06_board(), board("S2", nation="Germany"), display=display("HANB"))
    declare = AttemptTarget("development:HANB", throw=Dice(B=1), exchanges=2, give_fixed=True)
    refused = action_rejection(ctx("06=before", "07=repeat"), st, declare)
    assert refused is not None and refused.rule == "AIR-R-29"
    assert action_rejection(ctx("07=repeat"), st, declare) is None


@pytest.mark.parametrize("cap", [3, 5])
def test_after_the_cap_the_exchange_ignores_the_cap_parameter_air_amb_06(cap: int) -> None:
    """AIR-AMB-06 'after' (default): the surplus whites above the cap can always be given up, so
    the double exchange is the same at cap 3 and cap 5 and black 8 wins HANB (p.4, p.6)."""
    c = ctx("07=repeat", dice_per_colour=cap)
    st = state(ex06_board(), board("S2", nation="Germany"), display=display("HANB"))
    after = attempt(c, st, "development:HANB", Throw(B=(8,)), exchanges=2, give_fixed=True)
    assert after.boards[0].departments[1] == "HANB"
    assert after.phase is Phase.REVEAL and after.seat == 1
