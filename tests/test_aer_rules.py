"""Aeroplanes legality and transitions, first layer (model/aeroplanes/rules.py, transitions.py).

Each rule built here is tested with a legal and an illegal case (the rejection
names its AER-R ID), with the rulebook's printed numbers cited by seed line
(seed 002, Russian): income l.41, the first-player die l.48-51, skip pricing
l.62, the tile load l.63-66, the refill l.65, the claim conditions l.141-151,
the subsidy l.163.  ``problems`` is empty after every transition, and on
random reachable states ``legal_actions`` is exactly what ``check`` accepts
among a broad candidate set.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import check, legal_actions, plane_cost
from rulecraft.model.aeroplanes.setup import chance_outcomes, home_choices, new_game
from rulecraft.model.aeroplanes.state import AerState, Airport, OwnedCard, Phase, Slots, Waiting, problems
from rulecraft.model.aeroplanes.transitions import transition

CTX = Context.printed()
GRAPH = CTX.pack.graph()


def step(state: AerState, action: A.AerAction) -> AerState:
    why = check(CTX, state, action)
    assert why is None, str(why)
    state = transition(CTX, state, action)
    assert problems(CTX, state) == []
    return state


def chance(state: AerState, rng: random.Random) -> AerState:
    while outcomes := chance_outcomes(CTX, state):
        actions = [a for a, _ in outcomes]
        state = step(state, rng.choices(actions, weights=[float(p) for _, p in outcomes])[0])
    return state


def started(players: int = 4, homes: tuple[str, ...] = (), seed: int = 0) -> AerState:
    """Set-up through the rules layer; ``homes`` in choice order (else the first city offered)."""
    rng = random.Random(seed)
    state = chance(new_game(CTX, players), rng)
    i = 0
    while state.phase is Phase.CHOOSE_HOME:
        city = homes[i] if i < len(homes) else home_choices(CTX, state)[0].city
        state = step(state, A.ChooseHome(city))
        i += 1
    return state


def rejected(state: AerState, action: A.AerAction, rule: str) -> None:
    why = check(CTX, state, action)
    assert why is not None and why.rule == rule, why
    assert action not in legal_actions(CTX, state)


def give_airport(state: AerState, seat: int, destination: str) -> AerState:
    """A stage-1 tile of ``seat`` from its supply into the first empty slot of ``destination``."""
    board = []
    for s in state.map:
        if s.destination == destination:
            j = s.slots.index(None)
            s = Slots(s.destination, (*s.slots[:j], Airport(seat, 1), *s.slots[j + 1 :]))
        board.append(s)
    p = state.players[seat]
    p = attrs.evolve(p, supply=(p.supply[0] - 1, p.supply[1], p.supply[2]))
    state = attrs.evolve(state, map=tuple(board), players=(*state.players[:seat], p, *state.players[seat + 1 :]))
    assert problems(CTX, state) == []
    return state


def set_player(state: AerState, seat: int, **changes: Any) -> AerState:
    p = attrs.evolve(state.players[seat], **changes)
    return attrs.evolve(state, players=(*state.players[:seat], p, *state.players[seat + 1 :]))


# ---------------------------------------------------------------------------
# Set-up: home cities and the start of era 1 (AER-SET-03, SET-10, R-02, R-03)
# ---------------------------------------------------------------------------


def test_home_choice_legal_and_illegal_and_era_1_income() -> None:
    state = chance(new_game(CTX, 3), random.Random(1))
    state = step(state, A.ChooseHome("Paris"))
    rejected(state, A.ChooseHome("Paris"), "AER-SET-03")  # taken
    rejected(state, A.ChooseHome("Madrid"), "AER-SET-03")  # not a start city
    rejected(state, A.TakeSubsidy(), "AER-SET-03")  # set-up first
    state = step(state, A.ChooseHome("Berlin"))
    state = step(state, A.ChooseHome("London"))
    assert state.phase is Phase.ACTION and state.to_move == state.first_player
    assert state.subsidy_pool == 8 and state.marker_in_pool  # l.40
    money = {p.home: p.money for p in state.players}
    assert money["Paris"] == 11 and money["Berlin"] == 14  # l.41
    rejected(state, A.ChooseHome("Rome"), "AER-SET-03")  # set-up is over


# ---------------------------------------------------------------------------
# The turn and the round (AER-R-04, R-05, R-07)
# ---------------------------------------------------------------------------


def test_turn_passes_clockwise_and_the_round_ends_with_the_die() -> None:
    state = started(4)
    first = state.first_player
    for k in range(4):
        assert state.phase is Phase.ACTION and state.to_move == (first + k) % 4
        state = step(state, A.TakeSubsidy())
    assert state.phase is Phase.ROUND_DIE and state.die_roller == first
    rejected(state, A.TakeSubsidy(), "AER-R-05")  # nobody acts before the die is rolled
    rejected(state, A.RollFirstPlayerDie(7), "AER-R-05")  # a d6 (AER-AMB-05)
    # l.50: with four players a 1 passes the die to the roller's left neighbour ...
    one = step(state, A.RollFirstPlayerDie(1))
    assert one.first_player == one.to_move == (first + 1) % 4 and one.round == 2 and one.turns_in_round == 0
    # l.51: ... and a 4 goes round the table back to the roller.
    four = step(state, A.RollFirstPlayerDie(4))
    assert four.first_player == first


def test_chance_steps_are_not_player_actions() -> None:
    state = started(3)
    rejected(state, A.RollFirstPlayerDie(1), "AER-R-05")
    rejected(state, A.DrawCard(13), "AER-R-10")


def test_out_of_place_moves_are_rejected_with_their_rule() -> None:
    state = started(3)
    home = state.players[state.to_move].home
    assert home is not None
    rejected(state, A.PlaceAirport(1, "Frankfurt", 0, origin=home), "AER-R-13")  # card 1 not owned
    rejected(state, A.PlayRadioBeacons(), "AER-R-47")  # no NCR roll waiting (tests/test_aer_advantages.py)
    rejected(state, A.TakeAdvantage(4), "AER-R-40")  # Increased Production from era 2 (l.158)
    rejected(state, A.PlayEngineMaintenance(), "AER-R-44")  # none held
    rejected(state, A.PlayNightFlights(), "AER-R-46")  # no claim action open
    rejected(state, A.PickAdvantages((0, 1), (2, 3)), "AER-R-39")  # no advantage roll made
    rejected(state, A.AdvantageThrow(("skull", 2, 3)), "AER-R-39")  # chance only, and not due
    assert check(CTX, state, A.TakeAdvantage(2)) is None  # l.153: £1 for a Daring Pilot (era 1, l.156)


# ---------------------------------------------------------------------------
# Action 1: buy one plane card (AER-R-08..11, R-45)
# ---------------------------------------------------------------------------


def test_skip_pricing_printed() -> None:
    state = started(3)
    # l.62: the lowest display card at its printed price, £1 more per card skipped.
    assert plane_cost(CTX, state, 1) == CTX.pack.card(1).price
    assert plane_cost(CTX, state, 3) == CTX.pack.card(3).price + 2
    assert plane_cost(CTX, state, 12) == CTX.pack.card(12).price + 11


def test_buy_plane_legal_then_refill_in_number_order() -> None:
    state = started(3)
    seat = state.to_move
    money = state.players[seat].money
    printed = CTX.pack.card(2)
    state = step(state, A.BuyPlane(2))
    p = state.players[seat]
    assert p.money == money - (printed.price + 1)  # one card (1) skipped
    assert p.cards == (OwnedCard(2, tiles=printed.tile_count),)  # l.63: the printed number of tiles
    assert p.supply[printed.tile_stage - 1] == 9 - printed.tile_count
    assert state.phase is Phase.CARD_DRAW and state.to_move == seat
    rejected(state, A.DrawCard(14), "AER-R-10")
    rejected(state, A.TakeSubsidy(), "AER-R-10")
    state = step(state, A.DrawCard(13))  # l.65: the next card, placed in number order
    assert state.display == (1, *range(3, 14)) and state.deck == tuple(range(14, 47))
    assert state.phase is Phase.ACTION and state.to_move == (seat + 1) % 3


def test_buy_plane_illegal() -> None:
    state = started(3)
    rejected(state, A.BuyPlane(13), "AER-R-08")  # in the deck, not on the display
    poor = set_player(state, state.to_move, money=plane_cost(CTX, state, 3) - 1)
    rejected(poor, A.BuyPlane(3), "AER-R-08")
    assert check(CTX, poor, A.BuyPlane(1)) is None


def test_tile_limit_loads_what_the_supply_holds() -> None:
    """l.66: 27 tiles, 9 a stage; AER-AMB-07: a short load, and a card may be bought with no tile left."""
    state = started(3)
    seat = state.to_move
    state = give_airport(state, seat, "Frankfurt")
    for _ in range(7):
        state = give_airport(state, seat, _empty_european(state, seat))
    assert state.players[seat].supply[0] == 1
    state = step(state, A.BuyPlane(2))  # shows 2 stage-1 tiles
    assert state.players[seat].cards == (OwnedCard(2, tiles=1),)
    assert state.players[seat].supply == (0, 9, 9)


def _empty_european(state: AerState, seat: int) -> str:
    for s in state.map:
        if CTX.europe(s.destination) and None in s.slots and s.destination not in state.airports(seat):
            return s.destination
    raise AssertionError("no free European destination")


def test_increased_production() -> None:
    state = started(3)
    seat = state.to_move
    rejected(state, A.BuyPlane(2, increased_production=True), "AER-R-45")  # era 1, none held
    era2 = attrs.evolve(state, era=2, advantage_supply=(6, 6, 5, 6, 6))
    era2 = set_player(era2, seat, advantages=(0, 0, 1, 0, 0))
    assert problems(CTX, era2) == []
    printed = CTX.pack.card(2)
    after = step(era2, A.BuyPlane(2, increased_production=True))
    assert after.players[seat].cards == (OwnedCard(2, tiles=printed.tile_count + 1),)
    assert after.players[seat].advantages == (0, 0, 0, 0, 0) and after.advantage_supply == (6, 6, 6, 6, 6)
    short = set_player(era2, seat, advantages=(0, 0, 1, 0, 0))
    for _ in range(9 - printed.tile_count):
        short = give_airport(short, seat, _empty_european(short, seat))
    rejected(short, A.BuyPlane(2, increased_production=True), "AER-R-45")  # no extra tile in supply
    assert check(CTX, short, A.BuyPlane(2)) is None


# ---------------------------------------------------------------------------
# Action 3: claim one passenger tile (AER-R-34..37)
# ---------------------------------------------------------------------------


def _claim_setup(capacity_card: int = 10) -> tuple[AerState, int, str, str, str]:
    """Seat to move owns ``capacity_card``; returns (state, seat, tile, its origin city, its destination)."""
    state = started(3, seed=4)
    seat = state.to_move
    home = state.players[seat].home
    assert home is not None
    section = next(w for w in state.waiting if w.city == home)
    tile = next(t for t in section.slots if t is not None and CTX.pack.passenger(t).destination != home)
    dest = CTX.pack.passenger(tile).destination
    state = set_player(state, seat, money=50)
    state = step(state, A.BuyPlane(capacity_card))
    state = step(state, A.DrawCard(13))
    for _ in range(2):  # the others take subsidies; the round die brings the turn back to seat
        state = step(state, A.TakeSubsidy())
    state = step(state, A.RollFirstPlayerDie(3))  # 3 players: a 3 comes back to the roller
    assert state.to_move == seat
    return state, seat, tile, home, dest


def test_claim_from_the_waiting_area() -> None:
    state, seat, tile, _home, dest = _claim_setup()
    rejected(state, A.ClaimPassenger(tile, 10), "AER-R-34")  # l.143: no airport at the destination
    state = give_airport(state, seat, dest)
    rejected(state, A.ClaimPassenger(tile, 9), "AER-R-36")  # card 9 not owned
    rejected(state, A.ClaimPassenger(tile, 10, overflow=True), "AER-R-37")  # not in the overflow area
    after = step(state, A.ClaimPassenger(tile, 10))
    assert after.players[seat].cards[0].passengers == (tile,)
    assert tile not in [t for w in after.waiting for t in w.slots]  # the slot stays empty (l.178)
    assert after.to_move == (seat + 1) % 3


def test_claim_needs_an_airport_at_the_origin() -> None:
    state, seat, _tile, _home, dest = _claim_setup()
    state = give_airport(state, seat, dest)
    other = next(w for w in state.waiting if w.city not in state.airports(seat))
    far = next(t for t in other.slots if t is not None)
    if CTX.pack.passenger(far).destination not in state.airports(seat):
        state = give_airport(state, seat, CTX.pack.passenger(far).destination)
    rejected(state, A.ClaimPassenger(far, 10), "AER-R-34")  # l.142: it waits in a city without our airport


def test_same_city_passenger_needs_only_that_airport() -> None:
    """l.145 (AER-R-35): a passenger for Berlin in Berlin's section needs only an airport in Berlin."""
    state, seat, tile, home, _dest = _claim_setup()
    own = next(
        p.id
        for p in CTX.pack.passengers
        if p.destination == home and p.capacity <= CTX.pack.card(10).capacity and not p.not_in_era_1
    )
    # Put the same-city tile into the home section in place of ``tile`` (swapping the two).
    swap = {own: tile, tile: own}
    waiting = tuple(Waiting(w.city, tuple(swap.get(t, t) if t else t for t in w.slots)) for w in state.waiting)
    bag = tuple(sorted(swap.get(t, t) for t in state.bag))
    state = attrs.evolve(state, bag=bag, waiting=waiting)
    assert problems(CTX, state) == []
    assert own in next(w for w in state.waiting if w.city == home).slots
    after = step(state, A.ClaimPassenger(own, 10))
    assert own in after.players[seat].cards[0].passengers


def test_capacity_cannot_be_split() -> None:
    """l.148: one tile rides on one card; a card with too little room cannot take it."""
    state, seat, tile, _home, dest = _claim_setup(capacity_card=1)  # card 1: capacity 2
    state = give_airport(state, seat, dest)
    need = CTX.pack.passenger(tile).capacity
    cap = CTX.pack.card(1).capacity
    assert cap == 2
    card = state.players[seat].cards[0]
    if need <= cap:  # fill the card so that one unit too few is left
        filler = next(p.id for p in CTX.pack.passengers if p.capacity == cap - need + 1 and p.id in state.bag)
        card = attrs.evolve(card, passengers=(filler,))
        state = attrs.evolve(set_player(state, seat, cards=(card,)), bag=tuple(t for t in state.bag if t != filler))
    assert problems(CTX, state) == []
    rejected(state, A.ClaimPassenger(tile, 1), "AER-R-36")


def test_overflow_claim_needs_only_the_destination() -> None:
    """l.151 (AER-R-37): an overflow tile needs only an airport at its destination, and room (AER-AMB-32)."""
    state, seat, _tile, _home, _dest = _claim_setup()
    far = next(
        p for p in CTX.pack.passengers if p.id in state.bag and not CTX.europe(p.destination) and p.capacity <= 4
    )
    state = attrs.evolve(state, era=2, bag=tuple(t for t in state.bag if t != far.id), overflow=(far.id,))
    assert problems(CTX, state) == []
    rejected(state, A.ClaimPassenger(far.id, 10, overflow=True), "AER-R-37")
    rejected(state, A.ClaimPassenger(far.id, 10), "AER-R-34")  # not in the waiting area
    state = give_airport(state, seat, far.destination)
    after = step(state, A.ClaimPassenger(far.id, 10, overflow=True))
    assert after.overflow == ()


# ---------------------------------------------------------------------------
# Action 5: take a subsidy (AER-R-48)
# ---------------------------------------------------------------------------


def test_subsidy() -> None:
    state = started(3)
    seat = state.to_move
    money = state.players[seat].money
    after = step(state, A.TakeSubsidy())  # l.163: £1 from the subsidy section
    assert after.players[seat].money == money + 1 and after.subsidy_pool == 7
    empty = attrs.evolve(state, subsidy_pool=0)
    marker = step(empty, A.TakeSubsidy())  # l.163: the section is empty, so the black marker instead
    assert marker.marker_taker == seat and not marker.marker_in_pool
    assert marker.players[seat].money == money  # the marker pays nothing
    assert marker.phase is not Phase.ACTION  # l.52-53: the era ends at once (tests/test_aer_era.py)


# ---------------------------------------------------------------------------
# legal_actions is exactly what check accepts, on random reachable states
# ---------------------------------------------------------------------------


def candidates(state: AerState) -> list[A.AerAction]:
    out: list[A.AerAction] = [A.TakeSubsidy()]
    out += [A.RollFirstPlayerDie(v) for v in range(0, 8)]
    out += [A.RefillWaiting(t) for t in sorted(set(state.bag))[:5]]
    out += [A.DrawCard(n) for n in range(1, 47)]
    out += [A.BuyPlane(n, ip) for n in range(1, 47) for ip in (False, True)]
    out += [A.ChooseHome(c) for c in CTX.pack.start_cities]
    tiles = [t for w in state.waiting for t in w.slots if t is not None] + list(state.overflow)
    numbers = [c.number for p in state.players for c in p.cards] + [1]
    out += [A.ClaimPassenger(t, n, o) for t in tiles for n in numbers for o in (False, True)]
    out += placing_candidates(state, numbers)
    out += advantage_candidates(state)
    return out


def advantage_candidates(state: AerState) -> list[A.AerAction]:
    """The advantage moves (AER-R-39..47): buying, rolling and picking, the throws, Engine Maintenance,
    Night Flights and its end, keeping a throw."""
    out: list[A.AerAction] = [A.TakeAdvantage(t) for t in range(1, 8)]
    out += [A.RollForAdvantages(), A.PlayEngineMaintenance(), A.PlayNightFlights(), A.EndClaims(), A.KeepThrow()]
    out += [A.AdvantageThrow(f) for f in (("skull", 2, 3), (2, 2, 2), (6, 6, 6), (3, 4, 5), (1, 2, 3))]
    kinds: list[int | None] = [None, 2, 3, 5, 7]
    out += [A.PickAdvantages(d, (a, b)) for d in ((0, 1), (1, 2), (1, 0)) for a in kinds for b in kinds]
    return out


def placing_candidates(state: AerState, numbers: list[int]) -> list[A.AerAction]:
    """PlaceAirport from every own airport (and over every hop) to every destination and slot, and the
    risk choices (AER-R-13..31)."""
    out: list[A.AerAction] = [A.StopPlacing(), A.Decline(), A.Abort(), A.PlayRadioBeacons()]
    out += [A.CoverShortfall(m, d) for m in range(0, 8) for d in range(0, 3)]
    out += [A.RiskThrow(t, k) for t in range(0, 19) for k in range(0, 4)]
    graph = GRAPH
    mine = state.airports(state.to_move) if state.players else ()
    near = set(mine) | {m for o in mine for m in graph.successors(o)}
    near |= {d for m in near for d in graph.successors(m)} | {"Paris", "North America"}
    for n in sorted(set(numbers))[:3]:
        for d in (d for d in CTX.pack.destinations if d.name in near):
            for slot in range(d.slots):
                out.append(A.PlaceAirport(n, d.name, slot))
                for o in mine:
                    out.append(A.PlaceAirport(n, d.name, slot, o))
                    out += [A.PlaceAirport(n, d.name, slot, o, m) for m in graph.successors(o)]
    return out


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6))
def test_legal_actions_match_check_on_reachable_states(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(CTX, players)
    for _ in range(120):
        legal = legal_actions(CTX, state)
        assert len(set(legal)) == len(legal)
        for action in legal:
            assert check(CTX, state, action) is None, (action, check(CTX, state, action))
        if state.phase not in (Phase.DEAL_PASSENGERS,):
            accepted = {a for a in candidates(state) if check(CTX, state, a) is None}
            assert accepted <= set(legal)
        if not legal:
            break
        state = transition(CTX, state, rng.choice(legal))
        assert problems(CTX, state) == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_ninth_subsidy_action_takes_the_marker(players: int) -> None:
    """l.163: eight £1 notes, then the black marker, which ends the action round at once (l.52-53)."""
    state = started(players, seed=players)
    for _ in range(8):
        state = chance(state, random.Random(0))
        state = step(state, A.TakeSubsidy())
    state = chance(state, random.Random(0))
    assert state.subsidy_pool == 0 and state.phase is Phase.ACTION
    taker = state.to_move
    assert legal_actions(CTX, state).count(A.TakeSubsidy()) == 1  # always legal (AER-AMB-46)
    after = step(state, A.TakeSubsidy())
    assert after.marker_taker == taker and after.phase is Phase.UPDATE_DRAW
