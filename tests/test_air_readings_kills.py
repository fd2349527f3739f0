"""Airships: the readings' own code (issue 22 part 3), played under the non-default readings.

``bench/mutation/readings.py`` counts the mutants on the lines that name an ambiguity.  Here
AIR-AMB-06 (the cap of thrown dice per colour and the Material exchange,
/work/shared/rules/airships.md; rulebook p.4 "at most 3 dice of one colour", p.6 the Material
card) is played under 'before' with the cap parameter (AIR-R-30, ``dice_per_colour``) raised, so
that the throw's own exchange must use the parameter, not the printed 3.  The refusals that name a
reading (AIR-AMB-08 'no', 12 'auto', 23 'mandatory', 36 'forbidden') are held to their rule and
their reason in full (the reason is the model's wording; the rule and the verdict are the
rulebook's), with the states of tests/test_air_rules_kills.py.
"""

from __future__ import annotations

import pytest
import test_air_rules_kills as rk
from test_air_transitions_kills import attempt, board, ctx, display, ex06_board, state

from rulecraft.core import Rejection
from rulecraft.model.airships.actions import AttemptTarget, NoAttempt, Resolve, Throw
from rulecraft.model.airships.components import Dice, FixedDie
from rulecraft.model.airships.dice import Pool
from rulecraft.model.airships.rules import action_rejection, pool_or_rejection, throw_allowed
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


# -- refusals that name a reading: the rule and the whole reason ----------------------------------------


def says(why: object, rule: str, reason: str) -> None:
    """``why`` cites ``rule`` for exactly ``reason``."""
    assert isinstance(why, Rejection), why
    assert (why.rule, why.reason) == (rule, reason), why


def test_the_fixed_die_may_not_be_exchanged_under_amb_08_no() -> None:
    """AIR-AMB-08 'no' (p.6, AIR-R-18): AIR-EX-06's fixed white cannot be one of the 3 whites given
    up; 'yes' (default) accepts it."""
    says(
        pool_or_rejection(rk.ctx("08=no"), rk.EX06, 1, True),
        "AIR-R-18",
        "the fixed die cannot be given up in an exchange (AIR-AMB-08 'no')",
    )
    assert isinstance(pool_or_rejection(rk.ctx(), rk.EX06, 1, True), Pool)


def test_no_die_thrown_is_refused_under_amb_36_forbidden() -> None:
    """AIR-AMB-36 'forbidden' (p.4, AIR-R-30): a stage needing one red, covered by the fixed red
    alone, with no die thrown."""
    fixed_only = Pool(Dice(R=1), FixedDie(rk.R, 4))
    says(
        throw_allowed(rk.ctx("36=forbidden"), fixed_only, rk.target("stage:2"), Dice()),
        "AIR-R-30",
        "an attempt throws at least one die (AIR-AMB-36 'forbidden')",
    )


def test_no_pass_with_a_target_in_reach_under_amb_23_mandatory() -> None:
    """AIR-AMB-23 'mandatory' (default; p.4, AIR-R-22): HANW needs one white, which the entrepreneur
    has, so step 2 cannot be passed."""
    in_reach = rk.state(rk.board(), display=rk.display("HANW", "EX04"))
    says(
        action_rejection(rk.ctx(), in_reach, NoAttempt()),
        "AIR-R-22",
        "step 2 is not optional: a target is within reach of the company's dice (AIR-AMB-23)",
    )


def test_the_bonuses_cannot_be_declined_under_amb_12_auto() -> None:
    """AIR-AMB-12 'auto' (default; p.4, AIR-R-34): the engine and the wooden airship always add."""
    says(
        action_rejection(rk.ctx(), rk.short_throw(), Resolve(engine=False)),
        "AIR-R-34",
        "the engine and wooden-airship bonuses always apply (AIR-AMB-12 'auto')",
    )
