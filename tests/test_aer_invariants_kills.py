"""Aeroplanes step invariants: who is acting in a step (issue 22, invariants/aeroplanes.py ``_acting``).

A seat acts only inside one of its five actions (AER-R-07, l.55-60), and only a seat of the game acts
(AER-R-04: each player in turn, clockwise).  The step checks lean on that: the display's refill after a
purchase (AER-R-10) is chance drawing a card, not the buyer acting, so no money and no subsidy note may
move in it (the price was paid in the purchase step, AER-R-08; a note goes only to a player taking the
subsidy action, AER-R-48).  A state whose seat to move names no player is judged as one where nobody
acts: its steps are checked by the Income rule alone (AER-R-03) and never crash the check.
"""

from __future__ import annotations

import attrs
from test_aer_invariants import PRINTED, in_phase, pair, player, step_reports

from rulecraft.invariants.aeroplanes import STEP_INVARIANTS, check_all, check_step, report
from rulecraft.model.aeroplanes.state import AerState, Phase

MONEY = "money-moves-with-the-mover"
NOTES = "subsidy-notes-to-the-mover"


def refill() -> tuple[AerState, AerState]:
    """A reachable step of the display's refill after a purchase (AER-R-10): chance, nobody acting."""
    before, after = pair(lambda b, a: b.phase is Phase.CARD_DRAW)
    assert check_step(PRINTED, before, after) == []
    return before, after


def test_aer_r_10_the_refill_after_a_purchase_moves_no_money_even_for_the_buyer() -> None:
    """AER-R-08/R-10: the buyer paid in the purchase step; the card drawn into the display moves no money.
    £1 lost by the seat still to move in the refill is reported: that seat is not acting then."""
    before, after = refill()
    buyer = before.to_move
    poorer = player(after, buyer, money=after.players[buyer].money - 1)
    step_reports(MONEY, before, poorer, "AER-R-03", f"seat {buyer}'s money went from")
    step_reports(MONEY, before, poorer, "AER-R-03", "income due £0, and it was not acting")


def test_aer_r_48_no_subsidy_note_leaves_during_the_refill() -> None:
    """AER-R-48: a note goes to the player taking the subsidy action; the refill (AER-R-10) is no action,
    so a note leaving then is taken with nobody acting, even if the seat to move gains exactly £1."""
    before, after = refill()
    buyer = before.to_move
    taken = attrs.evolve(after, subsidy_pool=before.subsidy_pool - 1)
    taken = player(taken, buyer, money=before.players[buyer].money + 1)
    step_reports(NOTES, before, taken, "AER-R-48", "with nobody acting")


def test_aer_r_04_a_seat_past_the_last_player_is_nobody_acting() -> None:
    """AER-R-04: the seats are the players, 0..n-1.  A state whose seat to move is n is reported by
    turn-order; the step checks take it as a step with nobody acting, so an unchanged step is silent
    (no crash on the missing seat) and money gained by seat 0 is still reported as not acting."""
    state = in_phase(Phase.ACTION, players=3)
    beyond = attrs.evolve(state, to_move=3)
    assert any("to_move is seat 3, outside 0..2" in v.message for v in check_all(PRINTED, beyond))
    for name in (MONEY, NOTES):
        found = STEP_INVARIANTS[name].check(PRINTED, beyond, beyond)
        assert found == [], report(found)
    richer = player(beyond, 0, money=beyond.players[0].money + 1)
    step_reports(MONEY, beyond, richer, "AER-R-03", "seat 0's money went from")
    found = STEP_INVARIANTS[MONEY].check(PRINTED, beyond, richer)
    assert all("could not run" not in v.message for v in found), report(found)
