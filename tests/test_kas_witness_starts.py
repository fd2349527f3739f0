"""Kings of Air and Steam targeted witness starts for KAS-AMB-04, 10, 26 'all', 32, 35, 38 and 44 (issue 19).

Before (``rulecraft ambiguities kas --seconds 3 --seed 1``): 'not found' for 04 'b' and 'c', 10 'b' and
'c', 32 'distinct', 35 'up-to', 38 'spent' and 44 'ignore-capacity': random games from set-up seldom put a
team card or character where its rule bites (or fill a printed city while the demand pile is empty).  Each
test plays the rule from the start (expected values from the rulebook: rule ID and page in the docstring)
and then lets the seeded search find the difference itself, from the targeted start.  KAS-AMB-26 'all'
(delivery powers in the Sellout), once modelled, was 'not found' in 200 games: Sebastian King's sale is its
start.  KAS-AMB-39 'any-depot' and 30 'simultaneous', played since session 14, each have a start too (the
tests replay it with fixed steps)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import pytest
from kas_helpers import game, rule
from test_witness_targets import BUDGET, _at_the_difference, _kas_pair, _kas_witness, amb

from rulecraft.conformance.findings import Finding
from rulecraft.model.kings_of_air_and_steam.actions import Convert, EndSellout, Fly, Gamble, Grant, Sell, ShipGoods
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, path_hexes
from rulecraft.model.kings_of_air_and_steam.state import Phase, SlotStatus
from rulecraft.witness import PairResult, search_pair, targeted_starts

ABC = game().ctx.game_map("ABC")
ORIGIN = Hex(0, 0)  # seat 0's airship in the flight starts: rail of line A2, no city beside it


def _flyable_end(at: Hex) -> bool:
    """KAS-R-27 (p.11): a flight stays in the play area and ends on neither a city nor a partial hex."""
    mh = ABC.hexes.get(at)
    return mh is not None and mh.city is None and not mh.partial


def _straight(direction: int) -> int:
    """How far a straight flight from ORIGIN may go in ``direction`` (at most 6): every hex on the way
    inside the play area (cities and partial hexes may be passed, KAS-R-27), the end a flyable end."""
    longest = 0
    for length in range(1, 7):
        hexes = path_hexes(ORIGIN, (direction,) * length)
        if not all(h in ABC.hexes for h in hexes):
            break
        if _flyable_end(hexes[-1]):
            longest = length
    return longest


def _kas_witness_any(amb_id: str, reading: str) -> tuple[PairResult, Finding]:
    """The seeded search of :data:`BUDGET` with a database of its own, from however many targeted starts."""
    from hypothesis.database import InMemoryExampleDatabase

    result = search_pair("kas", amb("kas", amb_id), reading, BUDGET, database=InMemoryExampleDatabase())
    assert result.finding is not None, result.reason
    return result, result.finding


def _found(amb_id: str, reading: str) -> Finding:
    """The seeded search's witness, found from the targeted start (its root names the hook)."""
    result, finding = _kas_witness(amb_id, reading)
    assert result.games <= BUDGET.max_examples and f"[targeted start for {amb_id}]" in finding.root
    return finding


# -- KAS-AMB-04: the DaVinci card with no legal flight ----------------------------------------------------


def test_kas_amb_04_the_davinci_seven_from_the_middle_of_map_abc_has_no_legal_flight() -> None:
    """KAS-R-65 (p.18): the DaVinci card flies 7 hexes with no turn; KAS-R-27 (p.11): never out of the play
    area, never ending on a city or partial hex.  Map ABC is 13 columns wide and (0, 0) has at most 5
    straight hexes to go in any direction (down column q=0 over New Belfort to the factory at (0, 5)), so
    no flight of 7 exists: the default ('a') keeps the airship where it is (one legal 'flight', no move)."""
    default, _, start = _kas_pair("KAS-AMB-04", "b")
    state = start.state
    assert state.phase is Phase.FLIGHT and state.players[0].position == ORIGIN
    reach = {d: _straight(d) for d in range(6)}
    assert max(reach.values()) == 5 and list(reach.values()).count(5) == 1
    assert default.legal_actions(state) == [Fly(())]
    after = default.apply(state, Fly(()))
    assert after.players[0].position == ORIGIN and after.phase is Phase.CARGO and after.seat == 0


def test_kas_amb_04_b_the_turn_is_lost_as_with_a_diamond_overflow() -> None:
    """KAS-AMB-04 'b' with KAS-R-25 (p.10): the turn is lost as after a diamond overflow: the card goes back
    into the deck (its slot 'returned', not slid under the board), no movement, no cargo step, no action.
    Seat 1 (card S05, letter C, before the DaVinci card's G: KAS-R-21) has played, so cycle 2 begins."""
    default, lost, start = _kas_pair("KAS-AMB-04", "b")
    state = start.state
    assert lost.legal_actions(state) == [Fly(())]
    after = lost.apply(state, Fly(()))
    assert after.players[0].slots[0] is SlotStatus.RETURNED and after.players[0].position == ORIGIN
    assert after.cycle == 2 and after.phase is Phase.FLIGHT
    kept = default.apply(state, Fly(()))
    assert kept.players[0].slots[0] is SlotStatus.PLANNED and kept.phase is Phase.CARGO  # slid after the action
    finding = _found("KAS-AMB-04", "b")
    assert finding.kind == "state" and finding.steps[-1] == {"kind": "fly", "path": []}
    # the step before the difference: a seat whose card has no legal flight, in the default's game
    before = attrs.evolve(finding, steps=finding.steps[:-1])
    at = _at_the_difference(default, before)
    seat, slot = at.seat, at.cycle - 1
    assert default.legal_actions(at) == [Fly(())]
    assert lost.apply(at, Fly(())).players[seat].slots[slot] is SlotStatus.RETURNED
    assert default.apply(at, Fly(())).players[seat].slots[slot] is SlotStatus.PLANNED


def test_kas_amb_04_c_flies_the_longest_straight_flight_that_is_legal() -> None:
    """KAS-AMB-04 'c': the airship flies as far as is legal.  With no turn (KAS-R-65) the longest legal
    straight flight from (0, 0) on map ABC is the 5 hexes down column q=0 (New Belfort at (0, 3) passed,
    KAS-R-27), ending on the luxury factory at (0, 5); it is the only flight offered."""
    default, far, start = _kas_pair("KAS-AMB-04", "c")
    (direction,) = [d for d in range(6) if _straight(d) == 5]
    (flight,) = far.legal_actions(start.state)
    assert isinstance(flight, Fly) and flight.path == (direction,) * 5
    assert path_hexes(ORIGIN, flight.path)[-1] == Hex(0, 5) and ABC.hexes[Hex(0, 5)].factory == "luxury"
    finding = _found("KAS-AMB-04", "c")
    assert finding.kind == "legal-actions"
    # where they part, no full flight exists: the default stays, 'c' flies short (never 0, never 7)
    ours, theirs = _at_the_difference(default, finding), _at_the_difference(far, finding)
    assert default.legal_actions(ours) == [Fly(())]
    assert all(isinstance(a, Fly) and 0 < len(a.path) < 7 for a in far.legal_actions(theirs))


# -- KAS-AMB-10: a printed city fills while the demand pile is empty --------------------------------------


def _bown_town(state: Any) -> Any:
    return state.cities[ABC.city_index("Bown Town")]


@pytest.mark.parametrize("reading", ["b", "c"])
def test_kas_amb_10_a_city_filled_in_round_1_waits_closes_or_demands_again(reading: str) -> None:
    """KAS-R-40 (p.14): a filled printed city returns its 5 goods and draws a demand tile; KAS-R-49 (p.16):
    tiles reach the demand pile only at Production, so in round 1 it is empty.  One food fills Bown Town
    (4 of 5, demand food); the delivery pays the food price, $5 (one food tile pushed it from $4, KAS-R-16,
    p.8).  KAS-AMB-10: 'a' clears the city to wait for a tile, 'b' clears and closes it for good, 'c' clears
    it to its printed demand (food) with 5 new slots."""
    default, other, start = _kas_pair("KAS-AMB-10", reading)
    state = start.state
    assert sum(state.demand_pile) == 0 and state.round == 1 and _bown_town(state).filled == 4
    ship = ShipGoods(Hex(3, -2), "food", 1, to_city="Bown Town", lines=("B2",))
    assert rule(default, state, ship) is None and rule(other, state, ship) is None
    waits, then = default.apply(state, ship), other.apply(state, ship)
    for after in (waits, then):
        assert after.players[0].money == state.players[0].money + 5
        assert _bown_town(after).filled == 0
    assert _bown_town(waits).waiting and not _bown_town(waits).closed
    if reading == "b":
        assert _bown_town(then).closed and not _bown_town(then).waiting
    else:
        city = _bown_town(then)
        assert (city.demand, city.slots, city.tile, city.closed, city.waiting) == ("food", 5, False, False, False)
    finding = _found("KAS-AMB-10", reading)
    assert finding.kind == "state" and finding.steps[-1]["to_city"] == "Bown Town"
    ours, theirs = _at_the_difference(default, finding), _at_the_difference(other, finding)
    assert _bown_town(ours) != _bown_town(theirs)


def test_kas_amb_10_d_the_city_filled_in_round_1_stays_full_where_a_clears_it() -> None:
    """KAS-R-40 (p.14): a filled printed city returns its 5 goods to the supply and draws a demand tile; in
    round 1 the pile is empty (KAS-R-49, p.16).  KAS-AMB-10 'a' clears Bown Town and lets it wait; 'd' ('not
    cleared until a tile is available') leaves the 5 food on it, out of the supply.  The search finds that
    difference at the fill itself (the state: the city and the supply), from the targeted start."""
    default, other, start = _kas_pair("KAS-AMB-10", "d")
    state = start.state
    ship = ShipGoods(Hex(3, -2), "food", 1, to_city="Bown Town", lines=("B2",))
    waits, full = default.apply(state, ship), other.apply(state, ship)
    assert (_bown_town(waits).filled, _bown_town(waits).waiting) == (0, True)
    assert (_bown_town(full).filled, _bown_town(full).demand, _bown_town(full).waiting) == (5, "food", False)
    food = 2  # goods order: chemical, machine, food, textile, luxury
    assert waits.supply[food] == state.supply[food] + 5 and full.supply[food] == state.supply[food]
    finding = _found("KAS-AMB-10", "d")
    assert finding.kind == "state" and finding.steps[-1]["to_city"] == "Bown Town"
    ours, theirs = _at_the_difference(default, finding), _at_the_difference(other, finding)
    assert (_bown_town(ours).filled, _bown_town(theirs).filled) == (0, 5)


# -- KAS-AMB-32: the Emperor card's two actions -----------------------------------------------------------


def test_kas_amb_32_distinct_the_emperor_card_may_not_take_the_same_action_twice() -> None:
    """KAS-R-61 (p.18): the Emperor card skips the movement step and gives two full actions, with no word
    against two of a kind (KAS-AMB-32's default 'any'); KAS-R-43 (p.14): a Grant takes $3.  Two Grants pay
    $6 by default; under 'distinct' the second Grant is refused as KAS-R-61.  The card's 2 diamonds are
    within the rating of airship level 3 (2, KAS-R-25, KAS-P-01)."""
    default, distinct, start = _kas_pair("KAS-AMB-32", "distinct")
    state = start.state
    assert state.phase is Phase.ACTION and state.players[0].plan[0] == "EMP"
    once = default.apply(state, Grant())
    assert once.phase is Phase.ACTION and once.seat == 0
    assert (
        rule(default, once, Grant()) is None and rule(distinct, distinct.apply(state, Grant()), Grant()) == "KAS-R-61"
    )
    twice = default.apply(once, Grant())
    assert twice.players[0].money == state.players[0].money + 6
    finding = _found("KAS-AMB-32", "distinct")
    assert finding.kind == "legal-actions"
    ours, theirs = _at_the_difference(default, finding), _at_the_difference(distinct, finding)
    missing = set(default.legal_actions(ours)) - set(distinct.legal_actions(theirs))
    assert missing and all(a.kind in ours.taken for a in missing)


# -- KAS-AMB-35: the Rose & Thorn card's flights ----------------------------------------------------------


def test_kas_amb_35_up_to_adds_the_shorter_rose_and_thorn_flights() -> None:
    """KAS-R-73 (p.19): "kétszer lépj 2 mezőt": two movement steps of 2 hexes, each a full flight (exactly
    its value, KAS-R-26, p.11).  From (0, 0) every one of the 6 neighbours is a full hex of map ABC with no
    city, so under 'up-to' the airship may also stay or fly 1 hex to any of them; by default every flight
    is 2 hexes long."""
    default, up_to, start = _kas_pair("KAS-AMB-35", "up-to")
    ours, theirs = set(default.legal_actions(start.state)), set(up_to.legal_actions(start.state))
    assert ours and all(isinstance(a, Fly) and len(a.path) == 2 for a in ours)
    assert ours < theirs
    extra = theirs - ours
    assert all(isinstance(a, Fly) and len(a.path) < 2 for a in extra)
    neighbours = {path_hexes(ORIGIN, (d,))[-1] for d in range(6)}
    assert all(_flyable_end(h) for h in neighbours)
    ends = {path_hexes(ORIGIN, a.path)[-1] for a in extra if isinstance(a, Fly) and a.path}
    assert ends == neighbours
    finding = _found("KAS-AMB-35", "up-to")
    assert finding.kind == "legal-actions"
    ours, theirs = _at_the_difference(default, finding), _at_the_difference(up_to, finding)
    gained = set(up_to.legal_actions(theirs)) - set(default.legal_actions(ours))
    assert gained and all(isinstance(a, Fly) and len(a.path) < 2 for a in gained)


# -- KAS-AMB-38: Sebastian King's tokens ------------------------------------------------------------------


def test_kas_amb_38_spent_a_three_dollar_bet_leaves_two_tokens() -> None:
    """KAS-R-78 (p.19): he bets up to $3 (to the bank), turns up one of his 5 tokens per dollar, and gets $2
    more per good delivered if one shows the shipment's goods.  The 5 tokens show the 5 goods types
    (KAS-AMB-38), so a $3 bet on food wins 3 times in 5 under either reading.  Under 'spent' the 3 turned
    tokens are used up: 2 left (a later $3 bet is refused); reused by default, he keeps 5."""
    default, spent, start = _kas_pair("KAS-AMB-38", "spent")
    state = start.state
    bet = ShipGoods(Hex(3, -2), "food", 1, to_city="Bown Town", lines=("B2",), bet=3)
    assert rule(default, state, bet) is None and rule(spent, state, bet) is None
    for g in (default, spent):
        after = g.apply(state, bet)
        # the food's $5 (one food tile pushed it from $4, KAS-R-16, p.8) less the $3 bet
        assert after.phase is Phase.GAMBLE and after.players[0].money == state.players[0].money + 5 - 3
        outcomes = g.chance_outcomes(after)
        assert sum((p for a, p in outcomes if isinstance(a, Gamble) and a.win), Fraction(0)) == Fraction(3, 5)
    turned = ("chemical", "machine", "textile")  # no food: the bet is lost
    lost = spent.apply(spent.apply(state, bet), Gamble(False, turned))
    assert lost.players[0].tokens == 2
    later = attrs.evolve(state, players=(lost.players[0], *state.players[1:]))  # his next delivery, 2 tokens left
    assert rule(spent, later, bet) == "KAS-R-78" and rule(spent, later, attrs.evolve(bet, bet=2)) is None
    kept = default.apply(default.apply(state, bet), Gamble(False))
    assert kept.players[0].tokens == 5
    finding = _found("KAS-AMB-38", "spent")
    assert finding.kind == "chance" and finding.steps[-1]["kind"] == "ship" and finding.steps[-1]["bet"] > 0


# -- KAS-AMB-44: Aurelia Bayley's conversion in a full hold -----------------------------------------------


def test_kas_amb_44_ignore_capacity_lets_a_full_hold_convert() -> None:
    """KAS-R-66 (p.18): as an action Aurelia turns 1 good in a depot or her hold into 2 of one other type;
    KAS-R-29 (p.11): the hold never exceeds its capacity (2 at airship level 1, KAS-P-01 / KAS-EX-11).  With
    2 food in the hold the default refuses every hold conversion (3 goods would not fit); 'ignore-capacity'
    allows it, leaving 1 food and 2 machines in a hold of 2."""
    from rulecraft.model.kings_of_air_and_steam.components import GOODS_INDEX

    default, ignore, start = _kas_pair("KAS-AMB-44", "ignore-capacity")
    state = start.state
    convert = Convert("food", "machine")
    assert rule(default, state, convert) == "KAS-R-29" and rule(ignore, state, convert) is None
    hold = ignore.apply(state, convert).players[0].hold
    assert hold[GOODS_INDEX["food"]] == 1 and hold[GOODS_INDEX["machine"]] == 2 and sum(hold) == 3
    assert not any(isinstance(a, Convert) for a in default.legal_actions(state))
    assert {a.into for a in ignore.legal_actions(state) if isinstance(a, Convert)} == {
        "chemical",
        "machine",
        "textile",
        "luxury",
    }
    finding = _found("KAS-AMB-44", "ignore-capacity")
    assert finding.kind == "legal-actions"
    ours, theirs = _at_the_difference(default, finding), _at_the_difference(ignore, finding)
    gained = set(ignore.legal_actions(theirs)) - set(default.legal_actions(ours))
    assert gained and all(isinstance(a, Convert) and a.at is None for a in gained)


# -- KAS-AMB-26 'all': Sebastian King's bet on a Sellout sale ---------------------------------------------


def test_kas_amb_26_all_sebastian_king_may_bet_on_a_sellout_sale() -> None:
    """p.16 (KAS-R-51): in the Sellout a good that could be shipped to its city goes back to the supply
    for $4; p.19 (KAS-R-78): Sebastian King may bet up to $3 when he delivers to a city.  By default
    (KAS-AMB-26 'birch-only') a sale is no delivery and takes no bet; under 'all' it is a one-good delivery:
    a $2 bet goes to the bank before his tokens are turned (2 of 5, one a type: food shows 2 times in 5)."""
    default, every = game(), game(**{"KAS-AMB-26": "all"})
    (start,) = [s for s in targeted_starts(default, "KAS-AMB-26") if "Sebastian King" in s.label]
    state = start.state
    assert state.phase is Phase.SELLOUT and state.order[state.turn] == state.seat == 0
    sale = Sell(Hex(3, -2), "food", "Bown Town", lines=("B2",), payees=())
    assert rule(default, state, sale) is None and rule(every, state, sale) is None
    bet = attrs.evolve(sale, bet=2)
    assert rule(default, state, bet) == "KAS-R-51" and rule(every, state, bet) is None
    after = every.apply(state, bet)
    assert after.phase is Phase.GAMBLE and after.players[0].money == state.players[0].money + 4 - 2
    wins = sum((p for a, p in every.chance_outcomes(after) if isinstance(a, Gamble) and a.win), Fraction(0))
    assert wins == Fraction(2, 5)
    result, finding = _kas_witness_any("KAS-AMB-26", "all")
    assert result.outcome == "witness" and "[targeted start for KAS-AMB-26]" in finding.root
    ours, theirs = _at_the_difference(default, finding), _at_the_difference(every, finding)
    gained = set(every.legal_actions(theirs)) - set(default.legal_actions(ours))
    assert gained and all(isinstance(a, Sell) and (a.bet or a.returned) for a in gained)


# -- KAS-AMB-39 'any-depot' and KAS-AMB-30 'simultaneous': replays from their targeted starts --------------


def test_kas_amb_39_any_depot_start_the_textile_of_the_other_depot_rides_along() -> None:
    """KAS-R-79 (p.19): Corey McQueen's swindle puts one good of another type into the shipment.  The start
    has 1 food in his depot on B2 (Bown Town takes food) and a textile only in his depot on A2: no swindle
    by default ('same-depot'); under 'any-depot' 1 food + the A2 textile go to Bown Town along B2."""
    default, anywhere, start = _kas_pair("KAS-AMB-39", "any-depot")
    state = start.state
    a2 = ABC.line("A2").hexes[0]
    action = ShipGoods(Hex(3, -2), "food", 2, to_city="Bown Town", swindle="textile", swindle_from=a2)
    assert rule(default, state, action) == "KAS-R-79" and rule(anywhere, state, action) is None
    assert not [a for a in default.legal_actions(state) if isinstance(a, ShipGoods) and a.swindle]
    gained = set(anywhere.legal_actions(state)) - set(default.legal_actions(state))
    assert gained and all(isinstance(a, ShipGoods) and a.swindle_from is not None for a in gained)


def test_kas_amb_30_simultaneous_start_the_earlier_sellers_toll_pays_no_later_toll() -> None:
    """p.16 (KAS-R-51, R-38): seat 1 sells first; its food from A2 to Bown Town over A1 pays $1 to seat 0's
    depot there.  Seat 0 then has $1, and its food's ring route to Bown Town (A2, C1, C2, B1, B2, all seat 1's)
    owes $5: $1 + $4 pays it by priority (the default), not under 'simultaneous' (received tolls are paid
    out after all sales, p.5, 17)."""
    default, simultaneous, start = _kas_pair("KAS-AMB-30", "simultaneous")
    steps = [Sell(ABC.line("A2").hexes[0], "food", "Bown Town", lines=("A2", "A1"), payees=(("A1", 0),)), EndSellout()]
    sides = []
    for g in (default, simultaneous):
        state = start.state
        for step in steps:
            assert rule(g, state, step) is None
            state = g.apply(state, step)
        assert state.seat == 0 and state.players[0].money == 1
        sides.append(set(g.legal_actions(state)))
    lost = sides[0] - sides[1]
    assert sides[1] < sides[0] and len(lost) == 1
    (ring,) = lost
    assert isinstance(ring, Sell) and ring.to_city == "Bown Town" and len(ring.payees or ()) == 5
