"""Airships invariants: the checks' own bodies, pinned to the rules digest (issue 22 part 3).

The checks in ``invariants/airships.py`` are now registered by a call, so mutmut mutates their bodies.
Each test breaks one invariant in one specific way and asserts the exact message (messages name the
seat, the cards, the fields and the rule), or builds a state that only just keeps it (a threshold
met exactly) and asserts silence.  A check that raises on a malformed state is reported by the
registry as "the check could not run: ..." (rulecraft/invariant.py), so a check that must stay
silent asserts that no such message appears either.  Digest: /work/shared/rules/airships.md
(sections 3.1, 3.7 to 3.10; page numbers are the Hungarian seed's).
"""

from __future__ import annotations

import copy
from functools import cache

import attrs
from test_air_invariants_kills import GAME, _game, _play, early, messages, with_board

from rulecraft.model.airships.components import DEPARTMENTS, TIERS, Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState, Attempt, Phase

COULD_NOT_RUN = "the check could not run"


@cache
def full_stacks() -> AirState:
    """After set-up, all four airship fields still hold their 3 cards (AIR-R-03) and no card is owned."""
    return _play(
        GAME,
        lambda s: s.phase is Phase.ATTEMPT and all(len(x) == 3 for x in s.stacks) and bool(s.deck_era1),
    )


@cache
def pooled() -> tuple[AirshipsGame, AirState]:
    """A state under AIR-AMB-02 'pool' (one pile of 6 chips per participating nation, AIR-AMB-03)."""
    game = _game(**{"AIR-AMB-02": "pool"})
    return game, _play(game, lambda s: s.phase is Phase.ATTEMPT and s.goes >= 2)


def _attempt(throw: Dice, faces: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None) -> Attempt:
    return Attempt(target="A-1", exchanges=0, give_fixed=False, throw=throw, faces=faces)


def _tier_cards(tier: str) -> list[str]:
    return [c.id for c in GAME.pack.airships if c.tier == tier]


# -- nine-shared-dice (AIR-R-30, p.3-4: 3 dice of each colour) ---------------------------------------


def test_three_dice_of_one_colour_is_the_printed_limit_air_r_30() -> None:
    """AIR-R-30: there are 3 dice of each colour; throwing all 3 white dice is allowed."""
    state = attrs.evolve(early(), phase=Phase.THROW, attempt=_attempt(Dice(W=3, R=1), None))
    assert messages(GAME, state, "nine-shared-dice") == []
    four = attrs.evolve(state, attempt=_attempt(Dice(W=4, R=1), None))
    assert messages(GAME, four, "nine-shared-dice") == ["the attempt throws 4 W dice; only 3 exist"]


# -- chips-conserved (AIR-R-45, AIR-R-50, AIR-AMB-02/03) --------------------------------------------


def test_a_marker_on_an_unowned_stage_names_the_stage_air_r_45() -> None:
    """AIR-R-45 (p.5): a stage is marked with the completing player's chip; stage 1 marked with no
    owner is reported as stage 1 (the stages count from 1)."""
    state = attrs.evolve(early(), markers=(True, False, False, False))
    found = messages(GAME, state, "chips-conserved")
    assert "stage 1 carries a marker chip but has no owner" in found
    state3 = attrs.evolve(early(), markers=(False, False, True, False))
    assert "stage 3 carries a marker chip but has no owner" in messages(GAME, state3, "chips-conserved")


def test_an_owned_stage_without_a_marker_under_per_nation_chips_air_amb_02() -> None:
    """AIR-AMB-02 'nation' (default) with AIR-AMB-29: a nation's 6 chips always suffice for a marker
    (its supply, else its board), so an owned stage without one is reported."""
    state = attrs.evolve(early(), hindenburg=True, stages=(None, 0, None, None))
    assert "stage 2 (seat 0) has no marker chip, but a nation's chips always suffice" in messages(
        GAME, state, "chips-conserved"
    )


def test_pooled_chips_count_the_stage_markers_air_amb_02_pool() -> None:
    """AIR-AMB-02 'pool', AIR-R-45/50: a chip moved from the pool onto a stage as its marker keeps
    supply + boards + markers at 6 per nation."""
    game, state = pooled()
    assert messages(game, state, "chips-conserved") == []
    marked = attrs.evolve(
        state,
        supplies=(state.supplies[0] - 1,),
        hindenburg=True,
        stages=(0, None, None, None),
        markers=(True, False, False, False),
    )
    assert messages(game, marked, "chips-conserved") == []


def test_a_lost_pooled_chip_is_reported_with_the_sum_air_r_50() -> None:
    """AIR-R-50 under AIR-AMB-02 'pool' and AIR-AMB-03 'participating': 6 chips per nation in play,
    so 3 nations keep 18; one chip lost shows the whole sum."""
    game, state = pooled()
    on_boards = sum(b.chips for b in state.boards)
    short = attrs.evolve(state, supplies=(state.supplies[0] - 1,))
    assert messages(game, short, "chips-conserved") == [
        f"supply {state.supplies[0] - 1} + boards {on_boards} + markers 0 = 17, expected 18"
    ]


# -- one-card-per-department (AIR-R-11) ---------------------------------------------------------------


def test_every_board_with_a_wrong_number_of_fields_is_reported_air_r_11() -> None:
    """AIR-R-11: a company board has 6 department fields; two short boards are two violations."""
    state = early()
    broken = with_board(state, 0, departments=state.boards[0].departments[:5])
    broken = with_board(broken, 1, departments=state.boards[1].departments[:5])
    assert messages(GAME, broken, "one-card-per-department") == [
        "seat 0's board has 5 department fields, expected 6",
        "seat 1's board has 5 department fields, expected 6",
    ]


# -- development-cards-accounted (AIR-R-04, AIR-R-05, AIR-R-24) ---------------------------------------


def test_the_display_rows_are_counted_as_one_place_air_r_24() -> None:
    """AIR-R-04: 48 development cards; the recount names 'display' once, all six rows together."""
    state = early()
    shown = sum(1 for row in state.display for c in row if c is not None)
    lost = attrs.evolve(state, deck_era1=state.deck_era1[1:])
    (message,) = [m for m in messages(GAME, lost, "development-cards-accounted") if " = " in m]
    parts = message.split(" = ")[0].split(" + ")
    assert f"display {shown}" in parts
    assert not [p for p in parts if p.startswith("display row")]


def test_two_missing_cards_are_listed_comma_separated_air_r_04() -> None:
    """AIR-R-04: every card of the pack lies somewhere; two lost are both named, in order."""
    state = early()
    gone = sorted(state.deck_era1[:2])
    lost = attrs.evolve(state, deck_era1=state.deck_era1[2:])
    assert f"missing from every place: {gone[0]}, {gone[1]}" in messages(GAME, lost, "development-cards-accounted")


def test_cards_not_of_the_pack_are_named_air_r_04() -> None:
    """AIR-R-04: only the pack's 48 development cards are in play; strangers are named."""
    state = early()
    strange = attrs.evolve(state, removed=(*state.removed, "ZZ-2", "ZZ-1"))
    assert f"not cards of pack {GAME.pack.name}: ZZ-1, ZZ-2" in messages(GAME, strange, "development-cards-accounted")


# -- airship-cards-in-play (AIR-R-03, AIR-R-40) -------------------------------------------------------


def test_an_airship_card_lying_twice_is_reported_air_r_03() -> None:
    """AIR-R-03: 18 distinct airship cards; one in a stack and also among the removed ones."""
    state = full_stacks()
    card = state.stacks[0][-1]
    twice = attrs.evolve(state, airships_undealt=(*state.airships_undealt, card))
    assert f"airship card {card} appears 2 times" in messages(GAME, twice, "airship-cards-in-play")


def test_airship_cards_not_of_the_pack_are_named_air_r_03() -> None:
    state = full_stacks()
    strange = attrs.evolve(state, airships_undealt=(*state.airships_undealt, "ZZ-B", "ZZ-A"))
    assert messages(GAME, strange, "airship-cards-in-play") == [
        f"stacks 12 + owned 0 + undealt {len(state.airships_undealt) + 2} = 20, expected 18",
        f"not airship cards of pack {GAME.pack.name}: ZZ-A, ZZ-B",
    ]


def test_a_field_stacked_upside_down_names_field_and_levels_air_r_03() -> None:
    """AIR-R-03 (p.2): each field holds dark at the bottom, then medium, then light on top.  Field 2
    turned over has its light card at level 1 and its dark card at level 3."""
    state = full_stacks()
    stacks = list(state.stacks)
    dark, medium, light = stacks[1]
    stacks[1] = (light, medium, dark)
    flipped = attrs.evolve(state, stacks=tuple(stacks))
    assert messages(GAME, flipped, "airship-cards-in-play") == [
        f"airship field 2 has {TIERS[2]} card {light} at level 1, expected {TIERS[0]}",
        f"airship field 2 has {TIERS[0]} card {dark} at level 3, expected {TIERS[2]}",
    ]


def test_a_fourth_card_on_a_field_is_reported_not_crashed_on_air_r_03() -> None:
    """AIR-R-03: a field holds 3 cards; a 4th (from the removed ones) is a violation, and the tier
    check stops at the three printed tiers."""
    state = full_stacks()
    stacks = list(state.stacks)
    extra = state.airships_undealt[0]
    stacks[0] = (*stacks[0], extra)
    rest = state.airships_undealt[1:]
    over = attrs.evolve(state, stacks=tuple(stacks), airships_undealt=rest)
    found = messages(GAME, over, "airship-cards-in-play")
    assert "airship field 1 holds 4 cards, at most 3" in found
    assert not [m for m in found if m.startswith(COULD_NOT_RUN)]


def _dealing(lengths: list[int]) -> AirState:
    start = GAME.new_game(3)
    assert start.phase is Phase.DEAL_AIRSHIPS
    by_tier = {t: _tier_cards(t) for t in TIERS}
    stacks = []
    for n in lengths:
        stacks.append(tuple(by_tier[TIERS[level]].pop() for level in range(n)))
    dealt = {c for s in stacks for c in s}
    return attrs.evolve(
        start, stacks=tuple(stacks), airships_undealt=tuple(c for c in start.airships_undealt if c not in dealt)
    )


def test_stacks_dealt_one_field_at_a_time_may_differ_by_one_air_r_03() -> None:
    """AIR-R-03: the cards are dealt field by field, tier by tier; a field may be one ahead of the
    next, so [2, 1, 1, 1] is a moment of the deal, but [1, 2, 1, 1] (a later field ahead) and
    [3, 1, 1, 1] (two ahead) are not."""
    assert messages(GAME, _dealing([2, 1, 1, 1]), "airship-cards-in-play") == []
    assert messages(GAME, _dealing([1, 2, 1, 1]), "airship-cards-in-play") == ["stacks dealt unevenly: [1, 2, 1, 1]"]
    assert messages(GAME, _dealing([3, 1, 1, 1]), "airship-cards-in-play") == ["stacks dealt unevenly: [3, 1, 1, 1]"]


def test_a_lost_stack_card_shows_stacks_plus_owned_air_r_40() -> None:
    """AIR-R-03/40: 12 airship cards in play, on the fields or owned; one owned and one lost."""
    state = full_stacks()
    stacks = list(state.stacks)
    won = stacks[0][-1]
    stacks[0] = stacks[0][:-1]
    stacks[1] = stacks[1][:-1]
    broken = with_board(attrs.evolve(state, stacks=tuple(stacks), wooden_airship=0), 0, airships=(won,))
    assert "stacks 10 + owned 1 = 11, expected 12" in messages(GAME, broken, "airship-cards-in-play")


# -- display-rows (AIR-R-24, AIR-AMB-16) ---------------------------------------------------------------


def test_five_display_rows_are_one_violation_not_a_crash_air_r_24() -> None:
    """AIR-R-24: six rows, one per department; a state with five is reported, the five checked."""
    state = early()
    short = attrs.evolve(state, display=state.display[:5])
    assert messages(GAME, short, "display-rows") == ["5 display rows, expected 6"]


def _a_shown_card(state: AirState) -> tuple[int, str]:
    """(row index, card) of the first card on display."""
    return next((r, c) for r, row in enumerate(state.display) for c in row if c is not None)


def test_a_wrong_card_after_an_empty_field_is_found_air_r_24() -> None:
    """AIR-R-24 (p.2): a card lies in its department's row; the fields after a gap are checked too."""
    state = early()
    r, card = _a_shown_card(state)
    t = (r + 1) % len(DEPARTMENTS)
    rows: list[tuple[str | None, ...]] = [(None, None, None)] * len(DEPARTMENTS)
    rows[t] = (None, card, None)
    moved = attrs.evolve(state, display=tuple(rows))
    assert messages(GAME, moved, "display-rows") == [
        f"{DEPARTMENTS[r].value} card {card} lies in the {DEPARTMENTS[t].value} row"
    ]


def test_a_gap_under_compact_rows_shows_the_row_air_amb_16() -> None:
    """AIR-AMB-16 'compact': the cards left in a row slide left at once, so no field is empty before
    a filled one."""
    game = _game(**{"AIR-AMB-16": "compact"})
    state = early()
    r, card = _a_shown_card(state)
    rows: list[tuple[str | None, ...]] = [(None, None, None)] * len(DEPARTMENTS)
    rows[r] = (card, None, None)
    assert messages(game, attrs.evolve(state, display=tuple(rows)), "display-rows") == []
    rows[r] = (None, card, None)
    found = messages(game, attrs.evolve(state, display=tuple(rows)), "display-rows")
    assert found == [f"the {DEPARTMENTS[r].value} row has a gap under AIR-AMB-16 'compact': [None, {card!r}, None]"]


# -- wooden-airship-single-holder (AIR-R-45, AIR-R-46) ------------------------------------------------


def test_the_wooden_airship_away_from_every_stage_owner_air_r_46() -> None:
    """AIR-R-45/46 (p.5): completing a stage takes the wooden airship; after that only a stage moves
    it, so with stage 1 completed by seat 1 the holder must be seat 1."""
    state = attrs.evolve(early(), hindenburg=True, stages=(1, None, None, None), wooden_airship=0)
    assert messages(GAME, state, "wooden-airship-single-holder") == [
        "seat 0 holds it, but stages were completed (by seats [1]) and only a stage moves it after the first (AIR-R-46)"
    ]


# -- stages-once (AIR-R-43, AIR-R-44, AIR-AMB-18) --------------------------------------------------------


def _revealed(state: AirState) -> AirState:
    """The Hindenburg shown because field 4 was emptied (AIR-R-43)."""
    stacks = (*state.stacks[:3], ())
    return attrs.evolve(state, stacks=stacks, hindenburg=True)


def test_a_stage_owned_by_no_seat_names_stage_and_seats_air_r_44() -> None:
    """AIR-R-44/45: a stage is owned by one of the players (seats 0..2 of 3)."""
    state = attrs.evolve(_revealed(full_stacks()), stages=(None, 7, None, None))
    assert "stage 2 is owned by seat 7; seats are 0..2" in messages(GAME, state, "stages-once")


def test_a_stage_owned_before_the_reveal_names_the_stage_air_r_43() -> None:
    """AIR-R-43 (p.5): stages become targets only once the Hindenburg is revealed."""
    state = attrs.evolve(full_stacks(), stages=(None, 0, None, None))
    assert messages(GAME, state, "stages-once") == ["stages [2] are owned but the Hindenburg is not revealed"]


def test_an_empty_field_without_the_reveal_names_the_field_air_r_43() -> None:
    """AIR-R-43: the first emptied airship field reveals the Hindenburg."""
    state = full_stacks()
    stacks = (state.stacks[0], (), *state.stacks[2:])
    assert messages(GAME, attrs.evolve(state, stacks=stacks), "stages-once") == [
        "airship fields [2] are empty but the Hindenburg is not revealed"
    ]


def test_the_hindenburg_is_not_revealed_while_dealing_air_r_43() -> None:
    state = attrs.evolve(GAME.new_game(3), hindenburg=True)
    assert messages(GAME, state, "stages-once") == ["the Hindenburg is revealed during set-up"]


def test_the_hindenburg_revealed_with_every_field_full_air_r_43() -> None:
    state = attrs.evolve(full_stacks(), hindenburg=True)
    assert messages(GAME, state, "stages-once") == ["the Hindenburg is revealed but no airship field is empty"]


def test_sequential_stages_in_order_keep_the_invariant_air_amb_18() -> None:
    """AIR-AMB-18 'sequential': stages 1 and 2 done, in order, is allowed; stage 2 alone is not."""
    game = _game(**{"AIR-AMB-18": "sequential"})
    state = _revealed(full_stacks())
    assert messages(game, attrs.evolve(state, stages=(0, 1, None, None)), "stages-once") == []
    assert messages(game, attrs.evolve(state, stages=(None, 1, None, None)), "stages-once") == [
        "stages [2] are completed, not in order 1, 2, 3, 4 (AIR-AMB-18)"
    ]


# -- era-consistent (AIR-R-04, AIR-R-13, AIR-R-25) ------------------------------------------------------


def test_era_and_era_tile_disagree_both_ways_air_r_25() -> None:
    """AIR-R-04/25: the era tile lies between the era-1 and era-2 cards; era 2 begins when it is
    drawn."""
    state = early()
    assert messages(GAME, attrs.evolve(state, era=2), "era-consistent") == ["era 2 with the era tile still in the deck"]
    out = attrs.evolve(state, era_tile_in_deck=False, deck_era1=())
    found = messages(GAME, out, "era-consistent")
    assert found[0] == "era 1 with the era tile out of the deck"


def test_stray_cards_in_each_deck_part_are_listed_air_r_04() -> None:
    """AIR-R-04/05: era-1 cards above the era tile, era-2 cards below it, starters apart."""
    state = early()
    era1 = sorted(GAME.pack.group("era1"))[:2]
    era2 = sorted(GAME.pack.group("era2"))[:2]
    wrong = attrs.evolve(
        state,
        deck_era1=(*state.deck_era1, era2[1], era2[0]),
        deck_era2=(*state.deck_era2, era1[1], era1[0]),
        starters_undealt=(era1[1], era1[0]),
    )
    found = messages(GAME, wrong, "era-consistent")
    assert f"non-era-1 cards in the era-1 part of the deck: {era2[0]}, {era2[1]}" in found
    assert f"non-era-2 cards in the era-2 part of the deck: {era1[0]}, {era1[1]}" in found
    assert f"non-starter cards among the undealt starters: {era1[0]}, {era1[1]}" in found


def test_an_era_2_card_drawn_before_the_tile_is_counted_air_r_04() -> None:
    """AIR-R-04: the 24 era-2 cards lie under the tile; one gone while the tile is in the deck."""
    state = early()
    assert len(state.deck_era2) == 24
    gone = attrs.evolve(state, deck_era2=state.deck_era2[1:])
    assert "1 era-2 cards drawn before the era tile" in messages(GAME, gone, "era-consistent")


# -- end-condition-consistent (AIR-R-47, AIR-AMB-20) ----------------------------------------------------


def test_a_game_over_without_cause_with_a_reveal_pending_air_r_47() -> None:
    """AIR-R-47 (p.5): the game ends only on condition (a) or (b), immediately (AIR-AMB-20), so
    nothing is pending after it."""
    state = attrs.evolve(full_stacks(), phase=Phase.OVER, reveal_again=True)
    assert messages(GAME, state, "end-condition-consistent") == [
        "the game is over but no end condition was recorded",
        "the game is over but no end condition holds",
        "a reveal is pending after the game ended",
    ]


# -- scores-are-stars (AIR-R-48) -------------------------------------------------------------------------


def test_stage_values_are_high_once_all_four_are_built_air_r_48() -> None:
    """AIR-R-48 (p.5): each owned stage scores its high value once all four are completed; a seat
    with two stages scores both.  game.scores agrees with the recount."""
    state = attrs.evolve(_revealed(full_stacks()), stages=(0, 0, 1, 1), markers=(True,) * 4, wooden_airship=1)
    assert messages(GAME, state, "scores-are-stars") == []
    assert messages(GAME, attrs.evolve(state, stages=(0, 0, 1, None)), "scores-are-stars") == []
    high = {s.index: s.vp_high for s in GAME.pack.stages}
    base = GAME.scores(attrs.evolve(state, stages=(None,) * 4))
    assert GAME.scores(state)[0] == base[0] + high[1] + high[2]


def test_scores_for_the_wrong_seats_are_reported_air_r_48() -> None:
    """AIR-R-48: every player scores; a scorer that forgets seat 2 of 3 is caught."""
    state = early()
    wrong = copy.copy(GAME)
    right = GAME.scores(state)
    setattr(wrong, "scores", lambda s: {seat: vp for seat, vp in right.items() if seat != 2})  # noqa: B010
    assert messages(wrong, state, "scores-are-stars") == [
        "scores name seats [0, 1], expected 0..2",
        "seat 2: scores say None, recount development "
        + f"{GAME.score_parts(state)[2]['developments']} + airships {GAME.score_parts(state)[2]['airships']} "
        + f"+ stages 0 = {right[2]}",
    ]


# -- turn-bookkeeping (AIR-R-01, AIR-R-10, AIR-AMB-28) ----------------------------------------------------


def _companies(found: list[str]) -> list[str]:
    return [m for m in found if "companies" in m]


def test_one_company_only_under_air_amb_28_one() -> None:
    """AIR-R-01 (p.2) and AIR-AMB-28: 2 to 4 players by default, 1 to 4 under 'one'."""
    solo = attrs.evolve(early(), boards=early().boards[:1], seat=0, start_seat=0)
    assert _companies(messages(GAME, solo, "turn-bookkeeping")) == ["1 companies; the game is for 2..4"]
    one = _game(**{"AIR-AMB-28": "one"})
    assert _companies(messages(one, solo, "turn-bookkeeping")) == []


def test_four_companies_of_the_four_nations_are_allowed_air_r_01() -> None:
    """AIR-R-01: up to 4 players, each a distinct nation of the pack's four."""
    state = _play(GAME, lambda s: s.phase is Phase.ATTEMPT, players=4)
    assert sorted(b.nation for b in state.boards) == sorted(GAME.pack.nations)
    assert messages(GAME, state, "turn-bookkeeping") == []


def test_a_seat_out_of_range_to_move_air_r_10() -> None:
    state = attrs.evolve(early(), seat=5)
    assert "seat 5 to move; seats are 0..2" in messages(GAME, state, "turn-bookkeeping")


def test_an_attempt_pending_outside_throw_and_bonus_air_r_28() -> None:
    """AIR-R-28..32: an attempt is declared in step 2 and pending until its dice are resolved."""
    state = early()
    throw = attrs.evolve(state, phase=Phase.THROW)
    assert "phase throw with no attempt pending" in messages(GAME, throw, "turn-bookkeeping")
    declared = attrs.evolve(state, attempt=_attempt(Dice(W=1), None))
    assert "phase attempt with an attempt pending" in messages(GAME, declared, "turn-bookkeeping")


def test_faces_exist_exactly_after_the_throw_air_r_32() -> None:
    """AIR-R-32: the dice are thrown (faces) before the bonus choice, not before."""
    state = early()
    thrown = attrs.evolve(state, phase=Phase.THROW, attempt=_attempt(Dice(W=1), ((1,), (), ())))
    assert messages(GAME, thrown, "turn-bookkeeping") == ["the dice are thrown but the game still waits for the throw"]
    unthrown = attrs.evolve(state, phase=Phase.BONUS, attempt=_attempt(Dice(W=1), None))
    assert messages(GAME, unthrown, "turn-bookkeeping") == [
        "the game waits for the bonus choice but no dice were thrown"
    ]


def test_a_second_reveal_waits_only_in_the_reveal_phase_air_r_23() -> None:
    """AIR-R-23 with AIR-AMB-15: when the era tile is revealed, step 1 reveals again."""
    state = attrs.evolve(early(), phase=Phase.REVEAL, reveal_again=True)
    assert [m for m in messages(GAME, state, "turn-bookkeeping") if "second reveal" in m] == []
    attempt = attrs.evolve(early(), reveal_again=True)
    assert "a second reveal is pending in phase attempt" in messages(GAME, attempt, "turn-bookkeeping")


def test_two_companies_of_one_nation_are_reported_air_r_01() -> None:
    """AIR-R-01/02 (p.2): each player takes the company board of a different nation."""
    state = early()
    same = with_board(state, 1, nation=state.boards[0].nation)
    nations = [b.nation for b in same.boards]
    assert f"company nations {nations} are not distinct nations of the pack" in messages(GAME, same, "turn-bookkeeping")
