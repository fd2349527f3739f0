"""Steamopolis invariants: the checks' own bodies, pinned to the rules digest (issue 22 part 3).

The checks in ``invariants/steamopolis.py`` are now registered by a call, so mutmut mutates their bodies.
Each test breaks one invariant in one specific way and asserts the exact message, or builds a state that
only just keeps it (a limit met exactly) and asserts silence.  States come from the hand-built
``start`` of tests/test_stm_invariants.py (the set-up as the rulebook describes it).  Digest:
/work/shared/rules/steamopolis.md (rule IDs, rulebook pages).
"""

from __future__ import annotations

import attrs
from test_stm_invariants import PRINTED, give, on_board, player, start

from rulecraft.invariants.steamopolis import INVARIANTS, STEP_INVARIANTS
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Stone, gauge_of
from rulecraft.model.steamopolis.state import SHADOW, BoardStone, Phase, Solo, StmState


def msgs(name: str, state: StmState) -> list[str]:
    return [v.message for v in INVARIANTS[name].check(PRINTED, state)]


def step_msgs(name: str, before: StmState, after: StmState) -> list[str]:
    return [v.message for v in STEP_INVARIANTS[name].check(PRINTED, before, after)]


# -- stones-conserved (STM-R-08, STM-R-29, STM-R-70) ---------------------------------------------------------


def test_channel_phase_needs_the_channelled_stone_stm_r_29() -> None:
    """STM-R-29: channelling moves a SET stone into the machine room; phase CHANNEL without one is wrong."""
    state = attrs.evolve(start(), phase=Phase.CHANNEL)
    assert msgs("stones-conserved", state) == ["phase CHANNEL without a stone in the machine room"]


def test_all_five_shadow_stones_on_the_board_stm_r_70() -> None:
    """STM-R-68/70: the shadow colour has 5 stones; all 5 on the board in solo is allowed."""
    solo = on_board(start(1), *(BoardStone(SHADOW, level, "left") for level in range(2, 7)))
    assert msgs("stones-conserved", solo) == []


# -- gauge-items (STM-R-14) ------------------------------------------------------------------------------------


def _left_of_base(item: Stone | BonusMarker, base: int) -> Gauge:
    """A gauge with ``item`` on the base marker's own space (built past the validators)."""
    spaces = list(gauge_of([(base + 1, False), (base + 2, False)]).spaces)
    spaces[base] = item
    with attrs.validators.disabled():
        return Gauge(base, tuple(spaces))


def test_an_item_on_the_base_markers_space_stm_r_14() -> None:
    """STM-R-14/17: every item lies strictly right of the base marker; on its space is too far left, and
    the message says which kind of item it is."""
    stone = player(start(), 0, gauge=_left_of_base(Stone(), 2))
    assert msgs("gauge-items", stone) == ["seat 0: a stone on space 2, on or left of the base marker (space 2)"]
    marker = player(start(), 0, gauge=_left_of_base(BonusMarker(2), 2))
    assert msgs("gauge-items", marker) == ["seat 0: a bonus marker on space 2, on or left of the base marker (space 2)"]


# -- vp-never-decreases, end-stays-triggered (STM-R-64, STM-R-69) ----------------------------------------------------


def test_every_seats_vp_is_compared_stm_r_09() -> None:
    """STM-R-09: VP only rise; seat 0 unchanged does not hide seat 1's fall."""
    before = attrs.evolve(start(), phase=Phase.ACTION)
    before = player(before, 1, vp=5)
    after = player(before, 1, vp=3)
    assert step_msgs("vp-never-decreases", before, after) == ["seat 1's VP fell from 5 to 3 (phase action -> action)"]


def test_the_solo_time_charge_does_not_hide_another_seat_stm_r_69() -> None:
    """STM-R-69: the 1-VP time charge is the solo player's; a malformed state with solo fields and two
    seats still has seat 1's fall reported after seat 0's charge."""
    before = attrs.evolve(player(player(start(2), 0, vp=4), 1, vp=4), phase=Phase.ACTION, solo=Solo())
    after = player(player(before, 0, vp=3), 1, vp=2)
    assert step_msgs("vp-never-decreases", before, after) == ["seat 1's VP fell from 4 to 2 (phase action -> action)"]


def test_a_triggered_end_stays_triggered_stm_r_64() -> None:
    before = attrs.evolve(start(), end_triggered=True)
    assert step_msgs("end-stays-triggered", before, attrs.evolve(before, end_triggered=False)) == [
        "the end was triggered before the step and is not after it"
    ]


# -- districts-occupied (STM-R-27, STM-R-66) -----------------------------------------------------------------------


def test_a_lone_stone_does_not_hide_a_shared_district_stm_r_27() -> None:
    """STM-R-27: one stone per district outside the final round; a district holding one stone is fine,
    and the next one, shared by seats 1 and 2, is reported."""
    state = on_board(start(3), BoardStone(0, 2, "left"), BoardStone(1, 3, "left"), BoardStone(2, 3, "left"))
    assert msgs("districts-occupied", state) == ["stones of seats [1, 2] share L3-left outside the final round"]


# -- resources-conserved (STM-R-21) --------------------------------------------------------------------------------


def test_an_empty_general_supply_is_allowed_stm_r_21() -> None:
    """STM-R-21: 15 crystals in all; the general supply may run out (0), never below."""
    state = start()
    all_out = give(state, 1, crystals=state.supply.crystals)
    assert all_out.supply.crystals == 0
    assert msgs("resources-conserved", all_out) == []
