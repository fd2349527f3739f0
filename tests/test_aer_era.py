"""Aeroplanes: the black marker, the end of an era and the end of the game (rules.py, transitions.py).

Cited by seed line (seed 002, Russian): the marker l.52-53 and l.163, era
scoring l.164-170, the update l.171-181 in its printed order, the end of the
game l.182-186.  ``problems`` is empty after every step (``step``), and random
play from set-up reaches the end of the game with ``legal_actions`` exactly
what ``check`` accepts.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_aer_rules import candidates, started

from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import check, legal_actions
from rulecraft.model.aeroplanes.scoring import era_scores, final_ranking, final_scores, winners
from rulecraft.model.aeroplanes.setup import chance_outcomes, new_game
from rulecraft.model.aeroplanes.state import AerState, Airport, OwnedCard, Phase, Slots, Waiting, problems
from rulecraft.model.aeroplanes.transitions import transition

CTX = Context.printed()


def step(state: AerState, action: A.AerAction, ctx: Context = CTX) -> AerState:
    why = check(ctx, state, action)
    assert why is None, str(why)
    state = transition(ctx, state, action)
    assert problems(ctx, state) == [], problems(ctx, state)
    return state


def set_player(state: AerState, seat: int, **changes: Any) -> AerState:
    p = attrs.evolve(state.players[seat], **changes)
    return attrs.evolve(state, players=(*state.players[:seat], p, *state.players[seat + 1 :]))


def take_passenger(state: AerState, tile: str) -> AerState:
    """Take ``tile`` out of the bag or the waiting area (its slot left empty)."""
    if tile in state.bag:
        bag = list(state.bag)
        bag.remove(tile)
        return attrs.evolve(state, bag=tuple(bag))
    waiting = tuple(Waiting(w.city, tuple(None if t == tile else t for t in w.slots)) for w in state.waiting)
    assert waiting != state.waiting, tile
    return attrs.evolve(state, waiting=waiting)


def give_card(state: AerState, seat: int, number: int, passengers: tuple[str, ...] = (), tiles: int = 0) -> AerState:
    """Card ``number`` from the deck to ``seat`` with ``tiles`` stage tiles from its supply and ``passengers``."""
    assert number in state.deck
    for t in passengers:
        state = take_passenger(state, t)
    state = attrs.evolve(state, deck=tuple(c for c in state.deck if c != number))
    p = state.players[seat]
    stage = CTX.pack.card(number).tile_stage - 1
    supply = tuple(n - tiles if i == stage else n for i, n in enumerate(p.supply))
    card = OwnedCard(number, tiles=tiles, passengers=tuple(sorted(passengers)))
    cards = tuple(sorted((*p.cards, card), key=lambda c: c.number))
    return set_player(state, seat, supply=supply, cards=cards)


def give_airport(state: AerState, seat: int, destination: str) -> AerState:
    board = []
    for s in state.map:
        if s.destination == destination:
            j = s.slots.index(None)
            s = Slots(s.destination, (*s.slots[:j], Airport(seat, 1), *s.slots[j + 1 :]))
        board.append(s)
    p = state.players[seat]
    state = attrs.evolve(state, map=tuple(board))
    return set_player(state, seat, supply=(p.supply[0] - 1, p.supply[1], p.supply[2]))


def chance(state: AerState, rng: random.Random, ctx: Context = CTX) -> AerState:
    while outcomes := chance_outcomes(ctx, state):
        actions = [a for a, _ in outcomes]
        state = step(state, rng.choices(actions, weights=[float(p) for _, p in outcomes])[0], ctx)
    return state


def era_end_state(players: int = 3, seed: int = 0) -> AerState:
    """Era 1, mid-round, the subsidy section empty: seat 0 has a full card 13, seat 1 a part-used card 14,
    seat 2 an airport in Cairo (Africa)."""
    state = started(players, seed=seed)
    state = give_card(state, 0, 13, ("P01", "P04"), tiles=1)  # capacity 4: 1 + 3, full
    state = give_card(state, 1, 14, ("P02",), tiles=1)  # capacity 3: 1 used, 2 unused
    state = give_airport(state, 2, "Cairo")
    state = attrs.evolve(state, subsidy_pool=0, turns_in_round=1, to_move=(state.first_player + 1) % players)
    assert problems(CTX, state) == []
    return state


# ---------------------------------------------------------------------------
# AER-R-48, R-06: the black marker ends the era at once
# ---------------------------------------------------------------------------


def test_the_marker_ends_the_era_at_once() -> None:
    state = era_end_state()
    taker = state.to_move
    assert state.subsidy_pool == 0 and state.marker_in_pool
    assert A.TakeSubsidy() in legal_actions(CTX, state)  # l.163: the black marker instead of a note
    after = step(state, A.TakeSubsidy())
    # l.163: the marker goes to the taker; l.52-53: the action round ends immediately: the players after
    # the taker in this round do not act and no die is rolled between rounds; scoring follows.
    assert after.marker_taker == taker and not after.marker_in_pool
    assert after.phase is Phase.UPDATE_DRAW and after.era == 1
    for action in (A.TakeSubsidy(), A.BuyPlane(3), A.RollFirstPlayerDie(1)):
        assert check(CTX, after, action) is not None and action not in legal_actions(CTX, after)
    assert after.players[taker].money == state.players[taker].money


def test_era_scoring_lands_on_the_vp_track() -> None:
    """l.164-170: majorities then profitability, added to the VP track at once (scoring.era_scores)."""
    state = era_end_state()
    scores = era_scores(CTX, state, 1)
    after = step(state, A.TakeSubsidy())
    gained = {seat: after.players[seat].vp - state.players[seat].vp for seat in range(3)}
    assert gained == dict(scores)
    for seat in range(3):
        assert sum(scores.breakdown(seat).values()) == gained[seat]
    # Seat 2 alone holds an Africa airport: first place, 1st-place VP of the era-1 row (l.166).
    assert scores.breakdown(2)["majority:Africa"] == CTX.pack.majority_vp("Africa", 1)[0]
    # Profit (l.169): seat 0 carries 0 + 2 VP with nothing unused = 2; seat 1 1 - 2 = -1; seat 2 0.
    # Era 1 pays 5/3/1 (l.170): 5, 1, 3.
    assert [scores.profit.vp(s) for s in range(3)] == [5, 1, 3]


# ---------------------------------------------------------------------------
# AER-R-53..62: the update in its printed order
# ---------------------------------------------------------------------------


def test_the_update_runs_in_its_printed_order() -> None:
    state = era_end_state()
    taker = state.to_move
    money = [p.money for p in state.players]
    s = step(state, A.TakeSubsidy())
    # U1 (l.172): the two lowest display cards leave the game; the next two deck cards come in number order.
    assert s.phase is Phase.UPDATE_DRAW
    assert s.removed_cards == (1, 2) and 1 not in s.display and len(s.display) == 10
    assert s.players[0].cards[0].passengers == ("P01", "P04")  # U2-U4 not run yet
    assert legal_actions(CTX, s) == [A.DrawCard(15)]  # 13 and 14 are owned: 15 is next
    s = step(s, A.DrawCard(15))
    assert s.phase is Phase.UPDATE_DRAW
    before_refill = s = step(s, A.DrawCard(16))
    assert s.display == tuple(range(3, 13)) + (15, 16)
    # U2 (l.173): the full card 13 to seat 0's discard pile, its tile back to the supply (AER-AMB-41).
    p0 = s.players[0]
    assert p0.cards == () and p0.discards == (13,) and p0.supply[0] == state.players[0].supply[0] + 1
    # U3 (l.174): card 14 face down with 2 excess markers; its tile stays on it.
    assert s.players[1].cards == (OwnedCard(14, tiles=1, passengers=(), excess=2),)
    # U4 (l.175): passengers with VP beside the discard pile, 0-VP ones out of the game.
    assert p0.banked == ("P04",) and s.players[1].banked == ("P02",) and "P01" in s.removed_passengers
    # U5 (l.176): from each section, Rome to Berlin, the first tile bound outside Europe to the overflow.
    expected = []
    for w in state.waiting:
        far = [t for t in w.slots if t is not None and not CTX.europe(CTX.pack.passenger(t).destination)]
        if far:
            expected.append(far[0])
    assert s.overflow == tuple(expected)
    # U6 (l.177-178): every empty slot refilled from the bag, Rome to Berlin; ¤ tiles allowed now.
    empty = sum(t is None for w in s.waiting for t in w.slots)
    assert empty == sum(t is None for w in state.waiting for t in w.slots) + len(expected)
    assert s.phase is Phase.REFILL
    outcomes = chance_outcomes(CTX, s)
    assert sum(p for _, p in outcomes) == 1 and len(outcomes) == len(set(s.bag))
    marked = next(t for t in s.bag if CTX.not_in_era_1(t))
    s = step(s, A.RefillWaiting(marked))  # the first empty slot in section order
    first = next((i, j) for i, w in enumerate(before_refill.waiting) for j, t in enumerate(w.slots) if t is None)
    assert s.waiting[first[0]].slots[first[1]] == marked
    s = chance_until(s, Phase.ROUND_DIE)
    assert all(t is not None for w in s.waiting for t in w.slots)
    # U7 (l.179, AER-R-59) is the Income step's payment (AER-AMB-03 once); U8 (l.180): the era marker moves on.
    assert s.era == 2 and [p.money for p in s.players] == money
    # U9 (l.181): the marker-taker rolls the first-player die and passes it as between rounds.
    assert s.die_roller == taker
    new = step(s, A.RollFirstPlayerDie(2))
    assert new.first_player == new.to_move == (taker + 2) % 3
    # Era 2's Income step (l.40-42, AER-R-61): eight notes and the marker back, £22 each.
    assert new.phase is Phase.ACTION and new.era == 2 and new.round == 1 and new.turns_in_round == 0
    assert new.subsidy_pool == 8 and new.marker_in_pool and new.marker_taker is None
    assert [p.money for p in new.players] == [m + 22 for m in money]


def chance_until(state: AerState, phase: Phase) -> AerState:
    rng = random.Random(3)
    while state.phase is not phase:
        outcomes = chance_outcomes(CTX, state)
        assert outcomes, state.phase
        state = step(state, rng.choice([a for a, _ in outcomes]))
    return state


def test_the_overflow_stops_at_eight() -> None:
    """l.176: once the overflow area holds 8 tiles no more are moved."""
    state = era_end_state()
    far = [t for t in state.bag if not CTX.europe(CTX.pack.passenger(t).destination)][:7]
    for t in far:
        state = take_passenger(state, t)
    state = attrs.evolve(state, era=2, overflow=tuple(far))
    assert problems(CTX, state) == []
    s = step(state, A.TakeSubsidy())
    s = chance_until(s, Phase.REFILL)
    assert len(s.overflow) == 8 and s.overflow[:7] == tuple(far)


def test_the_deck_running_out_shrinks_the_display() -> None:
    """AER-AMB-55: U1 still discards the two lowest cards; with one deck card only one is drawn."""
    state = era_end_state()
    state = attrs.evolve(state, deck=(46,), removed_cards=tuple(sorted(c for c in state.deck if c != 46)))
    s = step(state, A.TakeSubsidy())
    assert s.phase is Phase.UPDATE_DRAW and legal_actions(CTX, s) == [A.DrawCard(46)]
    s = step(s, A.DrawCard(46))
    assert s.phase is not Phase.UPDATE_DRAW and len(s.display) == 11 and s.deck == ()


def test_face_down_card_carries_later_and_is_discarded_once_full() -> None:
    """AER-AMB-42 reuse: a face-down card takes passengers up to its excess; ``closed``: none."""
    state = era_end_state()
    s = chance_until(step(state, A.TakeSubsidy()), Phase.ROUND_DIE)
    s = step(s, A.RollFirstPlayerDie(6))  # 6 with 3 players: back to the taker
    card = s.players[1].cards[0]
    assert card.face_down and card.excess == 2
    closed = Context.printed(readings={"AER-AMB-42": "closed"})
    s1 = attrs.evolve(s, to_move=1)
    claims = [a for a in legal_actions(CTX, s1) if isinstance(a, A.ClaimPassenger)]
    assert [a for a in legal_actions(closed, s1) if isinstance(a, A.ClaimPassenger)] == []
    for a in claims:
        why = check(closed, s1, a)
        assert why is not None and why.rule == "AER-R-55"
    # Filled later (two 1-capacity tiles), it is full at the next update and goes to the discard pile.
    ones = [t for t in s.bag if CTX.pack.passenger(t).capacity == 1][:2]
    for t in ones:
        s = take_passenger(s, t)
    s = set_player(s, 1, cards=(attrs.evolve(card, passengers=tuple(sorted(ones))),))
    s = attrs.evolve(s, subsidy_pool=0, to_move=1)
    assert problems(CTX, s) == []
    s = chance_until(step(s, A.TakeSubsidy()), Phase.REFILL)
    assert s.players[1].cards == () and s.players[1].discards == (14,)
    assert s.players[1].supply == (9, 9, 9)  # its unplaced tile back to the supply (AER-AMB-41)


def test_marker_taker_reading_skips_the_roll() -> None:
    """AER-AMB-04 ``taker`` (l.163 read alone): the marker-taker is first player of the new era."""
    ctx = Context.printed(readings={"AER-AMB-04": "taker"})
    state = era_end_state()
    taker = state.to_move
    s = step(state, A.TakeSubsidy(), ctx)
    s = chance(s, random.Random(1), ctx)
    assert s.phase is Phase.ACTION and s.era == 2 and s.first_player == s.to_move == taker


def test_income_twice_reading_pays_at_the_update_too() -> None:
    """AER-AMB-03 ``twice``: update step 7 (l.179) pays £22 and the Income step pays £22 again."""
    ctx = Context.printed(readings={"AER-AMB-03": "twice"})
    state = era_end_state()
    money = [p.money for p in state.players]
    s = chance(step(state, A.TakeSubsidy(), ctx), random.Random(2), ctx)
    assert [p.money for p in s.players] == [m + 44 for m in money]


@pytest.mark.parametrize(("amb", "value"), [("AER-AMB-41", "keep"), ("AER-AMB-41", "lost")])
def test_the_marker_is_taken_under_every_amb_41_reading(amb: str, value: str) -> None:
    """AER-AMB-41 ``keep``/``lost`` are built (tests/test_aer_readings_play.py): the marker ends the era."""
    ctx = Context.printed(readings={amb: value})
    state = era_end_state()
    assert check(ctx, state, A.TakeSubsidy()) is None
    assert check(ctx, attrs.evolve(state, subsidy_pool=3), A.TakeSubsidy()) is None  # a note is still fine


# ---------------------------------------------------------------------------
# AER-R-63/64: the end of the game
# ---------------------------------------------------------------------------


def era_3_end(money: tuple[int, int, int]) -> tuple[AerState, AerState]:
    """Era 3, the section empty; seats 0 and 1 tie on final VP (l.186), seat 2 far behind."""
    state = era_end_state()
    state = attrs.evolve(state, era=3)
    scores = era_scores(CTX, state, 3)
    finals = final_scores(CTX, state)
    extra = [f.cards + f.passengers + scores[f.seat] for f in finals]  # what the end adds per seat
    for seat, target in enumerate((60, 60, 40)):
        state = set_player(state, seat, vp=target - extra[seat], money=money[seat])
    assert problems(CTX, state) == []
    return state, step(state, A.TakeSubsidy())


def test_era_3_ends_the_game_with_final_scoring() -> None:
    state, over = era_3_end((5, 9, 30))
    assert over.phase is Phase.OVER and over.era == 3
    # l.182: no update after era 3 (AER-AMB-45 skip): cards and passengers stay where they are.
    assert over.display == state.display and over.players[1].cards == state.players[1].cards
    gained = {seat: over.players[seat].vp - state.players[seat].vp for seat in range(3)}
    assert gained == dict(era_scores(CTX, state, 3))
    # l.183-185: the plane cards' and passenger tiles' VP join the track.
    totals = [f.total for f in final_scores(CTX, over)]
    assert totals == [60, 60, 40]
    assert final_scores(CTX, over)[0].cards == CTX.pack.card(13).vp
    # l.186: most VP, then most money: seat 1.
    assert winners(CTX, over) == (1,) and final_ranking(CTX, over) == (1, 0, 2)
    assert legal_actions(CTX, over) == []
    for action in (A.TakeSubsidy(), A.RollFirstPlayerDie(1), A.DrawCard(15)):
        why = check(CTX, over, action)
        assert why is not None and why.rule == "AER-R-63", why


def test_a_tie_on_vp_and_money_is_shared() -> None:
    """AER-AMB-53: still tied after the money tie-break: a shared win."""
    _, over = era_3_end((7, 7, 30))
    assert winners(CTX, over) == (0, 1)


# ---------------------------------------------------------------------------
# Random play from set-up to the end of the game
# ---------------------------------------------------------------------------


def play(players: int, seed: int, check_candidates: bool) -> AerState:
    """Random play; the subsidy is favoured so eras end; legal_actions == accepted-by-check throughout."""
    rng = random.Random(seed)
    state = new_game(CTX, players)
    eras_seen = {1}
    for _ in range(3000):
        legal = legal_actions(CTX, state)
        assert len(set(legal)) == len(legal)
        for action in legal:
            assert check(CTX, state, action) is None, (action, check(CTX, state, action))
        if check_candidates and state.phase is not Phase.DEAL_PASSENGERS:
            accepted = {a for a in candidates(state) if check(CTX, state, a) is None}
            assert accepted <= set(legal), accepted - set(legal)
        if not legal:
            break
        if state.phase is Phase.ACTION and A.TakeSubsidy() in legal and rng.random() < 0.5:
            action = A.TakeSubsidy()
        else:
            action = rng.choice(legal)
        state = transition(CTX, state, action)
        assert problems(CTX, state) == [], problems(CTX, state)
        eras_seen.add(state.era)
    assert eras_seen == {1, 2, 3}
    return state


@settings(max_examples=6, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6))
def test_random_play_reaches_the_end_of_the_game(players: int, seed: int) -> None:
    over = play(players, seed, check_candidates=True)
    assert over.phase is Phase.OVER
    assert legal_actions(CTX, over) == []
    assert set(winners(CTX, over)) <= set(range(players))
