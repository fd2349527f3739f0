"""Aeroplanes invariants: the checks' own bodies, pinned to the rules digest (issue 22 part 3).

The checks in ``invariants/aeroplanes.py`` are now registered by a call, so mutmut mutates their bodies.
Each test breaks one invariant in one specific way and asserts the exact messages, or builds a state
that only just keeps it (a limit met exactly) and asserts silence.  A check that raises is reported by
the registry as "the check could not run: ..." (rulecraft/invariant.py), so silence also means it did
not crash.  Digest: /work/shared/rules/aeroplanes.md (rule IDs, the rulebook's line numbers l.N).
"""

from __future__ import annotations

from typing import cast

import attrs
from invariant_helpers import game_with
from test_aer_invariants import CTX, PACK, PRINTED, find, in_phase, pair, player, set_slots

from rulecraft.invariants.aeroplanes import INVARIANTS, STEP_INVARIANTS
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.state import BLOCKER, HOME, AerState, Airport, OwnedCard, Phase


def msgs(name: str, state: AerState) -> list[str]:
    return [v.message for v in INVARIANTS[name].check(PRINTED, state)]


def step_msgs(name: str, before: AerState, after: AerState) -> list[str]:
    return [v.message for v in STEP_INVARIANTS[name].check(PRINTED, before, after)]


def setup_state() -> AerState:
    """A reachable home choice of the set-up (AER-SET-03): nobody holds anything yet (AER-SET-09/10)."""
    return in_phase(Phase.CHOOSE_HOME, players=3)


# -- era-and-phase (AER-R-01, R-63, AER-SET-09/10) -----------------------------------------------------


def test_the_set_up_runs_in_round_1_of_era_1_aer_set_10() -> None:
    """AER-SET-10: the era-1 Income step follows the set-up, so the set-up is round 1 of era 1."""
    state = attrs.evolve(setup_state(), round=2)
    assert msgs("era-and-phase", state) == ["set-up phase choose-home in era 1, round 2"]


def test_nothing_is_held_during_the_set_up_one_kind_at_a_time_aer_set_09() -> None:
    """AER-SET-09/10: no VP, no cards, no discards, no money before the Income step; each alone is
    reported."""
    state = setup_state()
    want = ["seats [1] hold money, VP, cards or passengers during the set-up (AER-SET-09, SET-10)"]
    assert msgs("era-and-phase", player(state, 1, vp=1)) == want
    assert msgs("era-and-phase", player(state, 1, cards=(OwnedCard(PACK.cards[0].number),))) == want
    assert msgs("era-and-phase", player(state, 1, discards=(PACK.cards[0].number,))) == want


def test_the_subsidy_section_is_empty_during_the_set_up_aer_set_10() -> None:
    """AER-SET-07/10: the eight notes go into the section at the Income step, not before."""
    state = attrs.evolve(setup_state(), subsidy_pool=8)
    assert msgs("era-and-phase", state) == [
        "the subsidy section holds 8 notes during the set-up; the Income step fills it"
    ]


def test_the_game_ends_only_after_era_3s_marker_aer_r_63() -> None:
    """AER-R-63: the game ends after the third era; an end in era 2 is reported with the marker's place."""
    over = in_phase(Phase.OVER)
    assert msgs("era-and-phase", attrs.evolve(over, era=2)) == ["the game is over in era 2 with the marker out"]
    pooled = attrs.evolve(over, marker_in_pool=True, marker_taker=None)
    assert msgs("era-and-phase", pooled) == ["the game is over in era 3 with the marker in the pool"]


# -- turn-order (AER-R-04, R-05, R-62, AER-SET-03) ---------------------------------------------------------


def test_each_seat_field_out_of_range_is_named_aer_r_04() -> None:
    """AER-R-04: the seats are the players 0..n-1; every seat field names one."""
    state = in_phase(Phase.ACTION, players=3)
    assert "first_player is seat 7, outside 0..2" in msgs("turn-order", attrs.evolve(state, first_player=7))
    taken = attrs.evolve(state, marker_in_pool=False, marker_taker=7)
    assert "marker_taker is seat 7, outside 0..2" in msgs("turn-order", taken)
    rolling = attrs.evolve(in_phase(Phase.ROUND_DIE, players=3), die_roller=7)
    assert "die_roller is seat 7, outside 0..2" in msgs("turn-order", rolling)


def test_home_choices_go_counter_clockwise_from_the_first_player_aer_set_03() -> None:
    """AER-SET-03: the player to the first player's right chooses first, counter-clockwise."""
    state = attrs.evolve(setup_state(), first_player=0, to_move=2)
    assert msgs("turn-order", state) == []
    home = PACK.start_cities[0]
    wrong = player(state, 1, home=home)
    assert msgs("turn-order", wrong) == [
        "seats [1] chose a home city; counter-clockwise from the first player: [2]",
        "seat 2 chooses a home after 1 choices; expected seat 1",
    ]


def test_a_full_round_of_actions_leaves_no_turn_aer_r_05() -> None:
    """AER-R-05: after n actions the round ends (the die is rolled); n actions in a turn phase is wrong."""
    state = in_phase(Phase.ACTION, players=3)
    assert "3 actions taken in a round of 3, yet phase action" in msgs(
        "turn-order", attrs.evolve(state, turns_in_round=3)
    )


def test_the_seat_to_move_wraps_clockwise_aer_r_04() -> None:
    """AER-R-04: clockwise from the first player; first player 2 after 1 action of 3 seats is seat 0."""
    state = attrs.evolve(in_phase(Phase.ACTION, players=3), first_player=2, turns_in_round=1, to_move=2)
    assert msgs("turn-order", state) == [
        "seat 2 acts after 1 actions of the round; clockwise from first player 2 it is seat 0"
    ]


def test_a_die_roller_outside_the_round_die_is_one_violation_aer_r_05() -> None:
    """AER-R-05: the first-player die is rolled between rounds only."""
    state = in_phase(Phase.ACTION, players=3)
    assert state.marker_in_pool
    roller = (state.first_player + 1) % 3
    assert msgs("turn-order", attrs.evolve(state, die_roller=roller)) == [f"die roller {roller} in phase action"]


# -- subsidy-pool-and-marker (AER-R-48) --------------------------------------------------------------------


def test_the_marker_and_its_taker_agree_aer_r_48() -> None:
    """AER-R-48 (l.163): the black marker is in the section, or held by the one who took it."""
    state = in_phase(Phase.ACTION, players=3)
    assert msgs("subsidy-pool-and-marker", attrs.evolve(state, marker_taker=1)) == [
        "the black marker is in the subsidy section and its taker is 1"
    ]
    out = attrs.evolve(state, marker_in_pool=False, subsidy_pool=0)
    assert msgs("subsidy-pool-and-marker", out) == ["the black marker is out of the section and its taker is None"]


# -- advantage-tiles-conserved (AER-SET-06, AER-R-41) ------------------------------------------------------


def test_a_negative_supply_is_reported_even_when_the_sum_is_right_aer_set_06() -> None:
    """AER-SET-06: 6 tiles of each type; a supply of -1 beside 7 held sums to 6 and is still wrong."""
    state = in_phase(Phase.ACTION, players=3, era=3)
    supply = list(state.advantage_supply)
    held = list(state.players[0].advantages)
    total = supply[0] + sum(p.advantages[0] for p in state.players)
    held[0] += supply[0] + 1
    supply[0] = -1
    broken = player(attrs.evolve(state, advantage_supply=tuple(supply)), 0, advantages=tuple(held))
    found = msgs("advantage-tiles-conserved", broken)
    assert total == 6
    held_now = [p.advantages[0] for p in broken.players]
    assert found == [f"type 2 ({CTX.pack.advantage(2).name}): supply -1 + held {held_now} != 6"]


def test_no_players_hold_no_advantages_aer_set_06() -> None:
    """AER-SET-06: with nobody holding a tile, the full supply is the whole stack (no crash on no seats)."""
    state = attrs.evolve(in_phase(Phase.ACTION, players=3), players=(), advantage_supply=(6, 6, 6, 6, 6))
    assert msgs("advantage-tiles-conserved", state) == []


# -- engine-failures (AER-R-28, AER-SET-05) ----------------------------------------------------------------


def test_five_players_may_hold_all_fifteen_ef_tiles_aer_r_28() -> None:
    """AER-R-28/SET-05 (l.113-117): up to 3 EF tiles each (the 4th discards them); 5 x 3 = the box's 15."""
    state = in_phase(Phase.ACTION, players=5)
    full = state
    for seat in range(5):
        full = player(full, seat, engine_failures=3)
    assert msgs("engine-failures", full) == []


# -- turn-bookkeeping (AER-R-13, R-20, R-25, R-47) ----------------------------------------------------------


def attempting() -> AerState:
    """A reachable risk roll: an attempt is under way (AER-R-20)."""
    return in_phase(Phase.RISK_ROLL, players=3)


def with_attempt(state: AerState, **changes: object) -> AerState:
    assert state.turn.attempt is not None
    return attrs.evolve(state, turn=attrs.evolve(state.turn, attempt=attrs.evolve(state.turn.attempt, **changes)))


def test_an_attempt_of_no_seat_is_not_looked_up_aer_r_04() -> None:
    """A seat to move past the last player is turn-order's report; this check must not crash on it."""
    state = attrs.evolve(attempting(), to_move=3)
    assert not [m for m in msgs("turn-bookkeeping", state) if m.startswith("the check could not run")]


def test_an_attempt_without_rolls_left_aer_r_25() -> None:
    assert msgs("turn-bookkeeping", with_attempt(attempting(), rolls=())) == [
        "an attempt waits on a roll with none left to make (AER-R-25)"
    ]


def test_a_pending_throw_needs_the_cover_step_and_a_throw_aer_r_47() -> None:
    """AER-R-47 (Radio Beacons): a throw waits to be re-thrown only in the cover step, for a kept throw."""
    state = attrs.evolve(with_attempt(attempting(), pending=True), phase=Phase.COVER)
    assert msgs("turn-bookkeeping", state) == [
        "a kept throw None in phase cover",
        "a throw waits to be kept or re-thrown in phase cover (AER-R-47)",
    ]


def test_a_pending_throw_without_radio_beacons_aer_r_47() -> None:
    state = attrs.evolve(with_attempt(attempting(), pending=True, throw=(6, 0)), phase=Phase.COVER)
    seat = state.to_move
    advantages = list(state.players[seat].advantages)
    advantages[4] = 0
    state = player(state, seat, advantages=tuple(advantages))
    assert msgs("turn-bookkeeping", state) == [
        "a throw waits for a Radio Beacons re-throw, but none is held (AER-R-47)"
    ]


def test_the_first_blocked_slot_is_not_in_play_with_3_players_aer_set_04() -> None:
    """AER-SET-04: with 3 players the "4/5" slots are blocked; an attempt at the first of them is reported."""
    state = attempting()
    attempt = state.turn.attempt
    assert attempt is not None
    dest = next(d for d in PACK.destinations if d.slots_in_play(3) < d.slots)
    blocked = with_attempt(state, destination=dest.name, slot=dest.slots_in_play(3))
    assert f"the attempt fills slot {dest.slots_in_play(3)} of {dest.name}, not in play" in msgs(
        "turn-bookkeeping", blocked
    )


# -- americas-bonus (AER-R-31) --------------------------------------------------------------------------


def test_two_bonuses_per_america_are_allowed_and_one_each_aer_r_31() -> None:
    """AER-R-31 (l.131-132): £3 and 1 VP to each of the first two players in each America."""
    state = in_phase(Phase.ACTION, players=3)
    two = attrs.evolve(state, americas_paid=(("North America", 0), ("North America", 1)))
    assert msgs("americas-bonus", two) == []
    twice = attrs.evolve(state, americas_paid=(("North America", 1), ("North America", 1)))
    assert msgs("americas-bonus", twice) == ["seat 1 paid 2 times for North America"]


# -- home-tiles-never-replaced (AER-R-29, AER-SET-04) -----------------------------------------------------


def three_player_step() -> tuple[AerState, AerState]:
    return pair(lambda b, a: b.phase is Phase.ACTION and len(b.players) == 3 and a.phase is not Phase.OVER)


def test_a_changed_destination_list_is_one_violation_aer_r_29() -> None:
    before, after = three_player_step()
    assert step_msgs("home-tiles-never-replaced", before, attrs.evolve(after, map=after.map[1:])) == [
        "the map's destinations changed in one step"
    ]


def _home(state: AerState) -> tuple[str, int, int]:
    """(destination, slot, owner) of a home tile on the map."""
    return next(
        (s.destination, i, a.owner)
        for s in state.map
        for i, a in enumerate(s.slots)
        if a is not None and a.stage == HOME and a.owner != BLOCKER
    )


def test_a_home_tile_in_a_vanished_slot_is_reported_not_crashed_on_aer_set_03() -> None:
    """AER-SET-03: the home tile stays in its slot for the whole game."""
    before, after = three_player_step()
    dest, slot, owner = _home(before)
    gone = set_slots(after, dest, ())
    found = step_msgs("home-tiles-never-replaced", before, gone)
    assert f"the seat {owner}'s home tile in slot {slot} of {dest} became None" in found
    assert not [m for m in found if m.startswith("the check could not run")]


def test_a_removed_blocker_is_named_a_blocker_aer_set_04() -> None:
    """AER-SET-04: with 3 players the "4/5" slots hold blockers for the whole game."""
    before, after = three_player_step()
    slots = next(s for s in before.map if Airport(BLOCKER, HOME) in s.slots)
    i = slots.slots.index(Airport(BLOCKER, HOME))
    cleared = set_slots(after, slots.destination, tuple(None if j == i else a for j, a in enumerate(slots.slots)))
    assert step_msgs("home-tiles-never-replaced", before, cleared) == [
        f"the blocker in slot {i} of {slots.destination} became None"
    ]


# -- tiles-replaced-only-by-higher-stage (AER-R-29 e) -----------------------------------------------------


def _free_slots(state: AerState, k: int) -> list[tuple[str, int]]:
    """k empty slots in play, in different destinations."""
    out = []
    for s, d in zip(state.map, PACK.destinations, strict=True):
        free = [i for i, a in enumerate(s.slots[: d.slots_in_play(len(state.players))]) if a is None]
        if free:
            out.append((s.destination, free[0]))
        if len(out) == k:
            return out
    raise LookupError("not enough free slots")


def _put(state: AerState, dest: str, slot: int, tile: Airport | None) -> AerState:
    slots = next(s for s in state.map if s.destination == dest).slots
    return set_slots(state, dest, tuple(tile if j == slot else a for j, a in enumerate(slots)))


def test_a_changed_slot_count_is_one_violation_aer_r_29() -> None:
    before, after = three_player_step()
    dest = after.map[0].destination
    assert step_msgs("tiles-replaced-only-by-higher-stage", before, set_slots(after, dest, ())) == [
        "the map's slots changed in one step"
    ]


def test_two_slots_changed_are_both_judged_aer_r_29() -> None:
    """AER-R-29: one attempt fills one slot; two changes are reported, each judged."""
    before = in_phase(Phase.ACTION, players=3)
    (d1, i1), (d2, i2) = _free_slots(before, 2)
    mover = before.to_move
    other = (mover + 1) % 3
    start = _put(before, d1, i1, Airport(mover, 1))
    after = _put(_put(start, d1, i1, None), d2, i2, Airport(other, 1))
    assert step_msgs("tiles-replaced-only-by-higher-stage", start, after) == [
        f"2 slots changed in one step: [({d1!r}, {i1}), ({d2!r}, {i2})]",
        f"{Airport(mover, 1)!r} left slot {i1} of {d1} without a replacement",
        f"{Airport(other, 1)!r} went into slot {i2} of {d2}, but seat {mover} was placing (phase action)",
    ]


def test_nobody_places_a_tile_between_rounds_aer_r_05() -> None:
    """AER-R-05/R-29: tiles are placed in a seat's placement action, never at the round die."""
    before = in_phase(Phase.ROUND_DIE, players=3)
    ((d, i),) = _free_slots(before, 1)
    after = _put(before, d, i, Airport(before.to_move, 1))
    assert step_msgs("tiles-replaced-only-by-higher-stage", before, after) == [
        f"{Airport(before.to_move, 1)!r} went into slot {i} of {d}, but seat None was placing (phase round-die)"
    ]


def test_a_tile_replaced_by_the_same_stage_aer_r_29_e() -> None:
    """AER-R-29 e: a tile may be replaced only by a strictly higher stage."""
    before = in_phase(Phase.ACTION, players=3)
    ((d, i),) = _free_slots(before, 1)
    mover = before.to_move
    start = _put(before, d, i, Airport((mover + 1) % 3, 2))
    after = _put(start, d, i, Airport(mover, 2))
    assert step_msgs("tiles-replaced-only-by-higher-stage", start, after) == [
        f"{Airport((mover + 1) % 3, 2)!r} in slot {i} of {d} replaced by {Airport(mover, 2)!r},"
        " not a higher stage (AER-R-29 e)"
    ]


# -- vp-never-decreases (AER-R-31) --------------------------------------------------------------------------


def test_two_americas_bonuses_in_one_step_aer_r_31() -> None:
    """AER-R-31: one placement pays at most one Americas bonus, so one step adds at most one."""
    before = in_phase(Phase.ACTION, players=3)
    assert before.americas_paid == ()
    after = attrs.evolve(before, americas_paid=(("North America", 0), ("South America", 0)))
    assert step_msgs("vp-never-decreases", before, after) == [
        "Americas bonuses [] became [('North America', 0), ('South America', 0)]"
    ]


# -- money-moves-with-the-mover (AER-R-03, AER-R-31, AER-R-48) ---------------------------------------------


def test_money_from_nowhere_in_a_plain_step_aer_r_48() -> None:
    """AER-R-48: a seat gains money from a subsidy note, an income or a bonus; £1 with none is reported."""
    before = in_phase(Phase.ACTION, players=3)
    mover = before.to_move
    after = player(before, mover, money=before.players[mover].money + 1)
    assert step_msgs("money-moves-with-the-mover", before, after) == [
        f"seat {mover} gained £1 (action -> action); income, subsidy notes and Americas bonuses account for £0:"
        " the rest came from nowhere"
    ]


def test_a_bonus_accounts_for_its_3_pounds_only_aer_r_31() -> None:
    """AER-R-31 (l.131-132): an Americas bonus pays £3; £4 gained with one bonus is £1 too many."""
    before = in_phase(Phase.ACTION, players=3)
    mover = before.to_move
    after = player(before, mover, money=before.players[mover].money + 4)
    after = attrs.evolve(after, americas_paid=(("North America", mover),))
    assert step_msgs("money-moves-with-the-mover", before, after) == [
        f"seat {mover} gained £4 (action -> action); income, subsidy notes and Americas bonuses account for £3:"
        " the rest came from nowhere"
    ]


def test_a_note_taken_at_the_income_step_is_no_gain_aer_r_03() -> None:
    """AER-R-02/03: the Income step refills the section and pays the income; a note 'taken' in that same
    step pays nothing more, so the income plus £1 is £1 too many."""
    before = in_phase(Phase.ACTION, players=3, era=1)
    due = PACK.income.amount(2, "")  # eras 2 and 3 pay the bare amount (AER-R-03)
    after = attrs.evolve(before, era=2, subsidy_pool=before.subsidy_pool - 1)
    mover = before.to_move
    for seat in range(3):
        extra = 1 if seat == mover else 0
        after = player(after, seat, money=before.players[seat].money + due + extra)
    assert step_msgs("money-moves-with-the-mover", before, after) == [
        f"seat {mover} gained £{due + 1} (action -> action); income, subsidy notes and Americas bonuses"
        f" account for £{due}: the rest came from nowhere"
    ]


# -- era-advances-by-one (AER-R-63) --------------------------------------------------------------------------


def test_nothing_changes_after_the_game_is_over_aer_r_63() -> None:
    over = in_phase(Phase.OVER)
    changed = player(over, 0, vp=over.players[0].vp + 1)
    assert step_msgs("era-advances-by-one", over, changed) == ["the state changed after the game was over"]


# -- one-tile-per-slot (AER-R-29, AER-SET-04) -----------------------------------------------------------


def test_every_destination_with_a_wrong_slot_count_is_reported_aer_r_29() -> None:
    """AER-R-29 (l.122-129): each destination has its printed slots; two wrong ones are two violations."""
    state = in_phase(Phase.ACTION, players=4)
    d1, d2 = PACK.destinations[6], PACK.destinations[7]
    broken = set_slots(set_slots(state, d1.name, ()), d2.name, ())
    assert msgs("one-tile-per-slot", broken) == [
        f"{d1.name} has 0 slots; the board prints {d1.slots}",
        f"{d2.name} has 0 slots; the board prints {d2.slots}",
    ]


def test_the_slots_after_a_foreign_entry_are_still_checked_aer_r_29() -> None:
    """AER-R-29: a slot holds one airport tile of a seat at the table; a foreign entry does not hide
    the next slot's tile of a seat that does not exist."""
    state = in_phase(Phase.ACTION, players=4)
    dest = PACK.destinations[6]
    entries = cast("tuple[Airport | None, ...]", ("junk", Airport(9, 1)))  # a corrupt state may hold anything
    junk = set_slots(state, dest.name, entries)
    assert msgs("one-tile-per-slot", junk) == [
        f"slot 0 of {dest.name} holds 'junk', not one airport tile",
        f"a tile of seat 9 in {dest.name}: no such seat",
    ]


def test_the_slots_after_a_misplaced_blocker_are_still_checked_aer_set_04() -> None:
    """AER-SET-04: blockers cover only the "4/5" slots of a 3-player game; with 4 players a blocker in
    play is reported, and the tile after it is still checked."""
    state = in_phase(Phase.ACTION, players=4)
    dest = PACK.destinations[6]
    blocked = set_slots(state, dest.name, (Airport(BLOCKER, HOME), Airport(9, 1)))
    assert msgs("one-tile-per-slot", blocked) == [
        f"a blocker in slot 0 of {dest.name}, which is in play with 4 players",
        f"a tile of seat 9 in {dest.name}: no such seat",
    ]


def test_a_home_tile_outside_the_home_city_aer_set_03() -> None:
    """AER-SET-03: the home tile goes into the player's chosen start city."""
    state = in_phase(Phase.ACTION, players=4)
    home = state.players[0].home
    dest = next(d for d in PACK.destinations if d.name != home and d.slots == 2)
    (slot,) = [i for i, a in enumerate(next(s for s in state.map if s.destination == dest.name).slots) if a is None][:1]
    moved = _put(state, dest.name, slot, Airport(0, HOME))
    assert f"seat 0's home tile in {dest.name}, not in its home city" in msgs("one-tile-per-slot", moved)


# -- passengers-conserved (AER-SET-01, AER-R-56, AER-R-58) -------------------------------------------------


def test_an_extra_passenger_tile_is_named_aer_set_01() -> None:
    """AER-SET-01 (l.11): the pack's 96 passenger tiles, each once; a copy in the bag is one extra."""
    state = in_phase(Phase.ACTION, players=3)
    tile = state.bag[0]
    extra = attrs.evolve(state, bag=tuple(sorted((*state.bag, tile))))
    assert msgs("passengers-conserved", extra) == [
        f"97 passenger tiles in play, the pack has {len(PACK.passengers)}: extra [{tile!r}], missing []"
    ]


def test_waiting_sections_out_of_board_order_aer_r_58() -> None:
    """AER-R-58: the waiting area's sections in the board's order Rome..Berlin."""
    state = in_phase(Phase.ACTION, players=3)
    swapped = attrs.evolve(state, waiting=(state.waiting[1], state.waiting[0], *state.waiting[2:]))
    cities = [w.city for w in swapped.waiting]
    assert msgs("passengers-conserved", swapped) == [
        f"waiting sections {cities}, the board's are {list(PACK.waiting_area.section_order)}"
    ]


def test_a_1_vp_tile_out_of_the_game_aer_r_56() -> None:
    """AER-R-56: only 0-VP tiles leave the game; a 1-VP tile is banked beside the discard pile."""
    state = in_phase(Phase.ACTION, players=3)
    tile = next(t for t in state.bag if PACK.passenger(t).vp == 1)
    bag = tuple(t for t in state.bag if t != tile)
    out = attrs.evolve(state, bag=bag, removed_passengers=tuple(sorted((*state.removed_passengers, tile))))
    assert msgs("passengers-conserved", out) == [
        f"tiles worth VP [{tile!r}] are out of the game; they go beside the discard pile"
    ]


def test_the_unordered_piles_are_kept_sorted_aer_set_01() -> None:
    """The bag and the tiles out of the game are unordered piles, kept sorted in the state."""
    state = in_phase(Phase.ACTION, players=3)
    shuffled = attrs.evolve(state, bag=tuple(reversed(state.bag)))
    assert msgs("passengers-conserved", shuffled) == ["the bag pile is not kept sorted"]
    zero = sorted(t for t in state.bag if PACK.passenger(t).vp == 0)[:2]
    bag = tuple(t for t in state.bag if t not in zero)
    out = attrs.evolve(
        state, bag=bag, removed_passengers=tuple(sorted((*state.removed_passengers, *zero), reverse=True))
    )
    assert msgs("passengers-conserved", out) == ["the out of the game pile is not kept sorted"]


# -- cards-conserved (AER-SET-08, AER-R-08) -----------------------------------------------------------------


def test_a_lost_card_and_a_copied_card_are_named_aer_set_08() -> None:
    """AER-SET-08: the pack's 46 cards, each once, in display, deck, hands, discards or removed."""
    state = in_phase(Phase.ACTION, players=3)
    first = state.deck[0]
    lost = attrs.evolve(state, deck=state.deck[1:])
    assert msgs("cards-conserved", lost) == [f"cards not conserved: extra [], missing [{first}]"]
    last = state.deck[-1]
    copied = attrs.evolve(state, deck=(*state.deck[:-1], last, last))
    assert f"cards not conserved: extra [{last}], missing []" in msgs("cards-conserved", copied)


def test_the_deck_is_a_sorted_remainder_aer_set_08() -> None:
    """AER-SET-08: the deck is in number order; a reversed deck is reported."""
    state = in_phase(Phase.ACTION, players=3)
    assert len(state.deck) > 1
    assert msgs("cards-conserved", attrs.evolve(state, deck=tuple(reversed(state.deck)))) == [
        "the deck is not kept as a sorted remainder"
    ]


def test_a_deck_card_equal_to_the_top_display_card_is_not_lower_aer_set_08() -> None:
    """AER-SET-08: deck cards lie above the display; a copy of the top display card in the deck is a
    conservation break (a card twice), not a deck card lower than the display."""
    state = in_phase(Phase.ACTION, players=3)
    top = max(state.display)
    twice = attrs.evolve(state, deck=(top, *state.deck))
    found = msgs("cards-conserved", twice)
    assert f"cards not conserved: extra [{top}], missing []" in found
    assert not [m for m in found if "is lower than display card" in m]


# -- airport-tiles-conserved (AER-R-11, AER-SET-03) ---------------------------------------------------------


def _placed(state: AerState, seat: int, stage: int) -> int:
    return sum(1 for s in state.map for a in s.slots if a is not None and a.owner == seat and a.stage == stage)


def _on_cards(state: AerState, seat: int, stage: int) -> int:
    return sum(c.tiles for c in state.players[seat].cards if PACK.card(c.number).tile_stage == stage)


def test_each_stage_is_recounted_with_its_cards_and_map_tiles_aer_r_11() -> None:
    """AER-R-11 (l.66): 9 airport tiles of each stage a player, in the supply, on own cards or on the map."""
    state = find(lambda s: s.phase is Phase.ACTION and _on_cards(s, 0, 1) > 0 and _placed(s, 0, 1) > 0)
    supply = state.players[0].supply
    cards, placed = _on_cards(state, 0, 1), _placed(state, 0, 1)
    short = player(state, 0, supply=(supply[0] - 1, supply[1], supply[2]))
    assert msgs("airport-tiles-conserved", short) == [
        f"seat 0, stage 1: supply {supply[0] - 1} + on cards {cards} + on the map {placed}"
        f" = {supply[0] - 1 + cards + placed}, expected 9"
    ]
    short2 = player(state, 0, supply=(supply[0], supply[1] - 1, supply[2]))
    found = msgs("airport-tiles-conserved", short2)
    assert len(found) == 1 and found[0].startswith(f"seat 0, stage 2: supply {supply[1] - 1} + ")


def test_an_empty_supply_with_all_nine_on_the_map_is_fine_aer_r_11() -> None:
    """AER-R-11: a supply may run out: 0 in the supply with all 9 stage-3 tiles on the map is conserved."""
    state = in_phase(Phase.ACTION, players=4)
    assert state.players[0].supply[2] == 9 and _on_cards(state, 0, 3) == 0
    full = state
    for dest, slot in _free_slots(state, 9):
        full = _put(full, dest, slot, Airport(0, 3))
    supply = state.players[0].supply
    full = player(full, 0, supply=(supply[0], supply[1], 0))
    assert msgs("airport-tiles-conserved", full) == []


def test_two_players_with_one_home_city_aer_set_03() -> None:
    """AER-SET-03: each player chooses a free start city."""
    state = in_phase(Phase.CHOOSE_HOME, players=3)
    city = PACK.start_cities[0]
    both = player(player(state, 0, home=city), 1, home=city)
    assert f"2 players have their home in {city} (AER-SET-03: a free start city each)" in msgs(
        "airport-tiles-conserved", both
    )


# -- plane-capacity (AER-R-36, AER-R-55, AER-AMB-42) ---------------------------------------------------------


def _after_update() -> tuple[AerState, int]:
    """A reachable era-2 action with a seat owning a card (face-down cards exist only after an update)."""
    state = find(lambda s: s.phase is Phase.ACTION and s.era == 2 and any(p.cards for p in s.players))
    return state, next(i for i, p in enumerate(state.players) if p.cards)


def _with_card(state: AerState, seat: int, card: OwnedCard) -> AerState:
    return player(state, seat, cards=(card, *state.players[seat].cards[1:]))


def _tiles_of_load(load: int) -> tuple[str, ...]:
    """Passenger tiles from the pack whose capacities add up to at least ``load``."""
    out: list[str] = []
    for t in PACK.passengers:
        if sum(PACK.passenger(x).capacity for x in out) >= load:
            break
        out.append(t.id)
    return tuple(sorted(out))


def test_over_capacity_names_the_cards_side_aer_r_36() -> None:
    """AER-R-36 face up (the printed capacity), AER-R-55 face down (the excess markers)."""
    state, seat = _after_update()
    number = state.players[seat].cards[0].number
    printed = PACK.card(number).capacity
    tiles = _tiles_of_load(printed + 1)
    used = sum(PACK.passenger(t).capacity for t in tiles)
    up = _with_card(state, seat, OwnedCard(number, passengers=tiles))
    assert msgs("plane-capacity", up) == [
        f"seat {seat}'s card {number} (face up) carries {used} on a capacity of {printed}"
    ]
    down = _with_card(state, seat, OwnedCard(number, passengers=tiles, excess=1))
    assert msgs("plane-capacity", down) == [
        f"seat {seat}'s card {number} (face down) carries {used} on a capacity of 1"
    ]


def test_a_face_down_card_may_show_no_excess_markers_aer_r_55() -> None:
    """AER-R-55: the markers show the unused capacity at the update: 0 when the plane was full."""
    state, seat = _after_update()
    number = state.players[seat].cards[0].number
    assert msgs("plane-capacity", _with_card(state, seat, OwnedCard(number, excess=0))) == []


def test_a_closed_face_down_card_carries_nothing_aer_amb_42() -> None:
    """AER-AMB-42 'closed': a face-down card takes no passengers."""
    state, seat = _after_update()
    number = state.players[seat].cards[0].number
    tile = _tiles_of_load(1)
    loaded = _with_card(state, seat, OwnedCard(number, passengers=tile, excess=PACK.card(number).capacity))
    closed = game_with("aer", Context.printed(readings={"AER-AMB-42": "closed"}))
    found = [v.message for v in INVARIANTS["plane-capacity"].check(closed, loaded)]
    assert found == [f"seat {seat}'s face-down card {number} carries {list(tile)} (AER-AMB-42 closed)"]
    assert msgs("plane-capacity", loaded) == []
