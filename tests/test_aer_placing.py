"""Aeroplanes: placing airport tiles through the rules layer (rules.py, transitions.py; AER-R-13..31).

Risk examples 1 and 2 (seed 002, l.119-121) are played through the model with their printed numbers and
compared with the calculator (risk.play, as tests/test_aer_risk.py does); the slot rules (l.122-129), the
engine-failure collapse (l.113-117) and the Americas bonus (l.131-132) with their rule IDs.  problems() is
empty after every step (``step``).  The property test legal_actions == accepted-by-check covers placing
through tests/test_aer_rules.py ``candidates`` (placing_candidates) and the random games of test_aer_era.
"""

from __future__ import annotations

import attrs
import pytest
from test_aer_rules import CTX, give_airport, rejected, set_player, started, step

from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.risk import Cover, Opponents, play, rolls_for, route_from_pack
from rulecraft.model.aeroplanes.rules import check, legal_actions
from rulecraft.model.aeroplanes.state import AerState, Airport, OwnedCard, Phase, problems

LR1 = 6  # a stage-1 LR card with 2 tiles (pack data)
PLAIN1 = 1  # a stage-1 card, not LR
STAGE2 = 17  # a stage-2 card, not LR


def with_card(state: AerState, seat: int, number: int, tiles: int, money: int = 4) -> AerState:
    p = state.players[seat]
    stage = CTX.pack.card(number).tile_stage
    supply = list(p.supply)
    supply[stage - 1] -= tiles
    cards = tuple(sorted((*p.cards, OwnedCard(number, tiles)), key=lambda c: c.number))
    state = set_player(state, seat, cards=cards, supply=(supply[0], supply[1], supply[2]), money=money)
    state = attrs.evolve(
        state, deck=tuple(n for n in state.deck if n != number), display=tuple(n for n in state.display if n != number)
    )
    return state


def example_state(opponent_in_kenya: bool) -> tuple[AerState, int]:
    state = started(4, seed=3)
    me = state.to_move
    other = (me + 1) % 4
    state = give_airport(state, me, "Ethiopia")
    state = give_airport(state, other, "East Africa")
    if opponent_in_kenya:
        state = give_airport(state, other, "Kenya")
    state = with_card(state, me, LR1, 2)
    assert problems(CTX, state) == [], problems(CTX, state)
    return state, me


def test_risk_example_1_through_the_model() -> None:
    """l.119: Ethiopia -> East Africa over Kenya, red + red, an opponent in East Africa: 12+ then 10+.
    (2, 5, 4) = 11: short 1, pay £1 before continuing; (3, 4, skull) = 7 and one EF, taken first; pay £3."""
    state, me = example_state(False)
    rejected(state, A.PlaceAirport(LR1, "East Africa", 0, "Ethiopia", "Kenya"), "AER-R-29")  # (d): slot 1 is empty
    rejected(state, A.PlaceAirport(PLAIN1, "East Africa", 1, "Ethiopia", "Kenya"), "AER-R-13")  # not owned
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    assert state.phase is Phase.RISK_ROLL
    assert state.turn.attempt is not None and state.turn.attempt.rolls == ((12, 0), (12, 2))
    state = step(state, A.RiskThrow(11, 0))
    assert state.phase is Phase.COVER
    assert legal_actions(CTX, state) == [A.CoverShortfall(1, 0), A.Decline(), A.Abort()]
    rejected(state, A.CoverShortfall(0, 0), "AER-R-23")  # partial cover does not count (AER-AMB-24)
    state = step(state, A.CoverShortfall(1, 0))
    state = step(state, A.RiskThrow(7, 1))
    assert state.players[me].engine_failures == 1  # the EF tile is taken first (l.119)
    assert legal_actions(CTX, state) == [A.CoverShortfall(3, 0), A.Decline()]
    state = step(state, A.CoverShortfall(3, 0))
    assert state.phase is Phase.PLACING
    assert state.slots("East Africa")[1] == Airport(me, 1)
    assert state.players[me].money == 0 and state.players[me].cards[0].tiles == 1
    # the calculator agrees
    rolls = rolls_for(CTX.pack, route_from_pack(CTX.pack, "Ethiopia", "East Africa", "Kenya"), Opponents(True))
    trace = play(CTX.pack, rolls, [(2, 5, 4), (3, 4, "skull")], money=4)
    assert [s.cover for s in trace.steps] == [Cover(1, 0), Cover(3, 0)] and trace.money_spent == 4
    state = step(state, A.StopPlacing())
    assert state.phase is Phase.ACTION and state.to_move == (me + 1) % 4


def test_risk_example_2_through_the_model() -> None:
    """l.120: also an opponent in Kenya: 10+, 10+; 11 succeeds; 7 and a skull still costs £3; placed."""
    state, me = example_state(True)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    assert state.turn.attempt is not None and state.turn.attempt.rolls == ((12, 2), (12, 2))
    state = step(state, A.RiskThrow(11, 0))
    assert legal_actions(CTX, state) == [A.CoverShortfall(0, 0), A.Abort()]  # go on, or abort (l.112)
    state = step(state, A.CoverShortfall(0, 0))
    state = step(state, A.RiskThrow(7, 1))
    state = step(state, A.CoverShortfall(3, 0))
    assert state.slots("East Africa")[1] == Airport(me, 1) and state.players[me].money == 1


def test_decline_abort_and_collapse() -> None:
    """l.111 decline: the tile stays on its card, the action ends; l.112 abort; l.113-117: the 4th EF."""
    state, me = example_state(False)
    start = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    declined = step(step(start, A.RiskThrow(11, 0)), A.Decline())
    assert declined.phase is Phase.ACTION and declined.to_move != me
    assert declined.players[me].cards[0].tiles == 2 and declined.players[me].money == 4
    aborted = step(step(step(start, A.RiskThrow(11, 0)), A.CoverShortfall(1, 0)), A.RiskThrow(12, 0))
    assert aborted.phase is Phase.PLACING  # passed the last roll: placed
    three = set_player(start, me, engine_failures=3)
    collapsed = step(three, A.RiskThrow(10, 1))
    p = collapsed.players[me]
    assert p.engine_failures == 0 and p.cards[0].tiles == 1 and p.supply[0] == state.players[me].supply[0] + 1
    assert collapsed.to_move != me
    rejected(start, A.CoverShortfall(0, 0), "AER-R-20")  # a roll is due first


def test_slot_rules_replacement_and_home() -> None:
    """l.122-129: an empty slot must be used; replacement only by a higher stage; never a home tile;
    one own tile a destination; an upgrade of one's own tile needs a full destination and no roll."""
    state = started(4, homes=("Paris", "Berlin", "London", "Amsterdam"), seed=5)
    me = state.to_move
    assert state.players[me].home != "Paris"
    a, b = (me + 1) % 4, (me + 2) % 4
    state = give_airport(state, me, "Frankfurt")
    state = with_card(state, me, STAGE2, 2)
    state = with_card(state, me, PLAIN1, 1)
    paris = state.slots("Paris")
    home_slot = next((i for i, t in enumerate(paris) if t is not None and t.home), None)
    # fill Paris
    while None in state.slots("Paris"):
        seat = next(s for s in (a, b, (me + 3) % 4) if s not in {t.owner for t in state.slots("Paris") if t})
        state = give_airport(state, seat, "Paris")
    slots = state.slots("Paris")
    stage1 = next(i for i, t in enumerate(slots) if t is not None and t.stage == 1)
    rejected(state, A.PlaceAirport(PLAIN1, "Paris", stage1, "Frankfurt"), "AER-R-29")  # (e) same stage
    if home_slot is not None:
        rejected(state, A.PlaceAirport(STAGE2, "Paris", home_slot, "Frankfurt"), "AER-R-29")  # (f) home
    assert check(CTX, state, A.PlaceAirport(STAGE2, "Paris", stage1, "Frankfurt")) is None
    # Frankfurt has an empty slot: no upgrade of the own tile (AER-AMB-13 full), no second own tile (c)
    rejected(state, A.PlaceAirport(STAGE2, "Frankfurt", 0), "AER-R-29")
    rejected(state, A.PlaceAirport(STAGE2, "Frankfurt", 1, "Frankfurt"), "AER-R-29")
    # the replacement in Paris: the red/black/white route decides the rolls; the replaced tile goes home
    replaced = slots[stage1]
    assert replaced is not None
    owner = replaced.owner
    before = state.players[owner].supply[0]
    state = step(state, A.PlaceAirport(STAGE2, "Paris", stage1, "Frankfurt"))
    while state.phase is Phase.RISK_ROLL:
        state = step(state, A.RiskThrow(18, 0))
        if state.phase is Phase.COVER:
            state = step(state, A.CoverShortfall(0, 0))
    assert state.slots("Paris")[stage1] == Airport(me, 2)
    assert state.players[owner].supply[0] == before + 1  # AER-AMB-15 supply


def test_upgrade_of_own_tile_when_full() -> None:
    """AER-R-30 (l.85, l.128): Frankfurt full: the own stage-1 tile is upgraded, no roll, no reach."""
    state = started(4, seed=5)
    me = state.to_move
    state = give_airport(state, me, "Frankfurt")
    state = give_airport(state, (me + 1) % 4, "Frankfurt")
    state = with_card(state, me, STAGE2, 1)
    mine = next(i for i, t in enumerate(state.slots("Frankfurt")) if t is not None and t.owner == me)
    rejected(state, A.PlaceAirport(STAGE2, "Frankfurt", 1 - mine), "AER-R-29")  # (c): replaces one's own
    before = state.players[me]
    state = step(state, A.PlaceAirport(STAGE2, "Frankfurt", mine))
    assert state.phase is Phase.PLACING and state.slots("Frankfurt")[mine] == Airport(me, 2)
    # l.128, AER-AMB-15 'supply': the replaced stage-1 tile goes back to its owner's supply (here: mine),
    # and the stage-2 tile came off the card.
    after = state.players[me]
    assert after.supply == (before.supply[0] + 1, before.supply[1], before.supply[2])
    assert sum(c.tiles for c in after.cards) == sum(c.tiles for c in before.cards) - 1


def test_lr_hop_needs_an_lr_card() -> None:
    """AER-R-17, AER-R-18 (l.77-83): two arcs through another destination only with an LR card's tile."""
    state, me = example_state(False)
    state = with_card(state, me, PLAIN1, 1)
    rejected(state, A.PlaceAirport(PLAIN1, "East Africa", 1, "Ethiopia", "Kenya"), "AER-R-17")


def test_europe_to_north_america_and_the_americas_bonus() -> None:
    """l.79 (one way from Europe), l.105 (‡ Europe - North America: 14+ three times, an LR card),
    l.131-132: £3 and 1 VP to each of the first two players placing there."""
    state = started(4, homes=("Paris", "Berlin", "London", "Amsterdam"), seed=5)
    me = state.to_move
    home = state.players[me].home
    assert home is not None
    state = with_card(state, me, LR1, 2, money=0)
    state = with_card(state, me, PLAIN1, 1, money=0)
    rejected(state, A.PlaceAirport(PLAIN1, "North America", 0, home), "AER-R-16")  # needs an LR card
    state = step(state, A.PlaceAirport(LR1, "North America", 0, home))
    assert state.turn.attempt is not None and state.turn.attempt.rolls == ((14, 0),) * 3
    for _ in range(2):
        state = step(step(state, A.RiskThrow(14, 0)), A.CoverShortfall(0, 0))
    state = step(state, A.RiskThrow(15, 0))
    p = state.players[me]
    assert state.slots("North America")[0] == Airport(me, 1) and (p.money, p.vp) == (3, 1)
    assert state.americas_paid == (("North America", me),)
    # one way: no new airport from North America back into Europe (l.79)
    rejected(state, A.PlaceAirport(LR1, "Madrid", 0, "North America"), "AER-R-14")


@pytest.mark.parametrize(
    ("paid_before", "bonus"),
    [
        ((), True),  # the first player there
        ((("South America", "other"),), True),  # South America is counted apart
        ((("North America", "other"),), True),  # the second player there: still among the first two
        ((("North America", "other"), ("North America", "third")), False),  # the third: no bonus
        ((("North America", "me"),), False),  # already paid for North America
    ],
)
def test_the_americas_bonus_goes_to_the_first_two_players_of_each_america(
    paid_before: tuple[tuple[str, str], ...], bonus: bool
) -> None:
    """AER-R-31 (l.131-132): £3 and 1 VP to a player placing in North America if among the first two
    players to do so there; South America separately; once per player."""
    state = started(4, homes=("Paris", "Berlin", "London", "Amsterdam"), seed=5)
    me = state.to_move
    others = [s for s in range(4) if s != me]
    seats = {"me": me, "other": others[0], "third": others[1]}
    paid = tuple((where, seats[who]) for where, who in paid_before)
    home = state.players[me].home
    assert home is not None
    state = attrs.evolve(with_card(state, me, LR1, 2, money=0), americas_paid=paid)
    state = step(state, A.PlaceAirport(LR1, "North America", 0, home))
    for _ in range(2):
        state = step(step(state, A.RiskThrow(14, 0)), A.CoverShortfall(0, 0))
    state = step(state, A.RiskThrow(15, 0))
    p = state.players[me]
    assert state.slots("North America")[0] == Airport(me, 1)
    assert (p.money, p.vp) == ((3, 1) if bonus else (0, 0))
    assert state.americas_paid == (paid + (("North America", me),) if bonus else paid)
