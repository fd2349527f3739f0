"""Aeroplanes: the advantage tiles through the rules layer (rules.py, transitions.py; AER-R-39..47).

Action 4 (seed 002, l.152-161): £1 for one tile of one's choice, or £1 to roll the three risk dice and use
two of them (a skull wild); availability by era and the 6-tile stacks (l.16, l.155-160).  The tiles'
effects: Engine Maintenance (l.157, l.118), Night Flights (l.159), Radio Beacons (l.160, with AER-AMB-26
both ways); Daring Pilot (l.156) and Increased Production (l.158) are tested with placing and buying.
The advantage roll's odds are exact; the model's Radio Beacons process is held to the risk calculator
(risk.play, risk.success_probability).  problems() is empty after every step.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache

import attrs
import pytest
from test_aer_placing import LR1, example_state, with_card
from test_aer_rules import CTX, candidates, give_airport, rejected, set_player, started, step

from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.risk import ScriptedPolicy, play, rolls_for, route_from_pack, success_probability
from rulecraft.model.aeroplanes.rules import check, legal_actions
from rulecraft.model.aeroplanes.setup import advantage_throw_outcomes, chance_outcomes
from rulecraft.model.aeroplanes.state import AerState, OwnedCard, Phase, Waiting, problems
from rulecraft.model.aeroplanes.transitions import transition

DP, EM, IP, NF, RB = 2, 3, 4, 5, 6  # l.156-160


def holding(state: AerState, seat: int, **held: int) -> AerState:
    """``seat`` takes tiles from the stacks: holding(state, 0, NF=2)."""
    names = {"DP": DP, "EM": EM, "IP": IP, "NF": NF, "RB": RB}
    adv = list(state.players[seat].advantages)
    supply = list(state.advantage_supply)
    for name, n in held.items():
        adv[names[name] - 2] += n
        supply[names[name] - 2] -= n
    state = set_player(state, seat, advantages=(adv[0], adv[1], adv[2], adv[3], adv[4]))
    return attrs.evolve(state, advantage_supply=(supply[0], supply[1], supply[2], supply[3], supply[4]))


def step_with(ctx: Context, state: AerState, action: A.AerAction) -> AerState:
    why = check(ctx, state, action)
    assert why is None, str(why)
    state = transition(ctx, state, action)
    assert problems(ctx, state) == []
    return state


def types_on_offer(state: AerState) -> list[int]:
    return [a.type for a in legal_actions(CTX, state) if isinstance(a, A.TakeAdvantage)]


# ---------------------------------------------------------------------------
# Action 4: buying (AER-R-39, R-40)
# ---------------------------------------------------------------------------


def test_the_stacks_are_five_types_of_six() -> None:
    """l.16: 30 advantage tiles, 6 of each of 5 types; l.154: numbered 2 to 6; l.156-160: first eras."""
    assert [(a.type, a.count, a.first_era) for a in CTX.pack.advantages] == [
        (2, 6, 1),
        (3, 6, 1),
        (4, 6, 2),
        (5, 6, 2),
        (6, 6, 3),
    ]
    assert started(3).advantage_supply == (6, 6, 6, 6, 6)


def test_take_one_tile_for_one_pound() -> None:
    """l.153: an advantage costs £1 to the bank; you take one tile of your choice.  The turn passes."""
    state = started(3)
    seat = state.to_move
    money = state.players[seat].money
    after = step(state, A.TakeAdvantage(DP))
    assert after.players[seat].money == money - 1
    assert after.players[seat].held(DP) == 1 and after.advantage_supply == (5, 6, 6, 6, 6)
    assert after.phase is Phase.ACTION and after.to_move == (seat + 1) % 3
    poor = set_player(state, seat, money=0)
    rejected(poor, A.TakeAdvantage(DP), "AER-R-39")
    rejected(poor, A.RollForAdvantages(), "AER-R-39")
    rejected(state, A.TakeAdvantage(7), "AER-R-39")  # l.154: numbered 2 to 6
    rejected(state, A.TakeAdvantage(1), "AER-R-39")


@pytest.mark.parametrize(("era", "offered"), [(1, [2, 3]), (2, [2, 3, 4, 5]), (3, [2, 3, 4, 5, 6])])
def test_availability_by_era(era: int, offered: list[int]) -> None:
    """l.156-160: Daring Pilot and Engine Maintenance from era 1, Increased Production and Night Flights
    from era 2, Radio Beacons in era 3 only."""
    state = attrs.evolve(started(3), era=era)
    assert types_on_offer(state) == offered
    for kind in set(range(2, 7)) - set(offered):
        rejected(state, A.TakeAdvantage(kind), "AER-R-40")


def test_a_type_all_in_hands_is_unavailable() -> None:
    """l.155: when all tiles of a type are in players' hands, that type is unavailable (6 a type, l.16)."""
    state = started(3)
    seat = state.to_move
    state = holding(holding(state, (seat + 1) % 3, DP=4), (seat + 2) % 3, DP=2)
    assert problems(CTX, state) == []
    rejected(state, A.TakeAdvantage(DP), "AER-R-40")
    assert "6" in str(check(CTX, state, A.TakeAdvantage(DP)))
    assert types_on_offer(state) == [EM]
    state = holding(state, seat, EM=6)
    rejected(state, A.RollForAdvantages(), "AER-R-40")  # AER-AMB-48: nothing could be taken
    assert types_on_offer(state) == []


# ---------------------------------------------------------------------------
# Action 4: rolling (AER-R-39(b)), exact odds
# ---------------------------------------------------------------------------


def rolled(era: int = 1) -> tuple[AerState, int]:
    state = attrs.evolve(started(3), era=era)
    seat = state.to_move
    money = state.players[seat].money
    state = step(state, A.RollForAdvantages())
    assert state.phase is Phase.ADVANTAGE_ROLL and state.players[seat].money == money - 1  # l.153: £1
    return state, seat


def test_the_advantage_throw_is_exact() -> None:
    """l.154: all three risk dice (faces skull, 2..6): 216 equally likely throws, 56 multisets."""
    outcomes = advantage_throw_outcomes(CTX)
    odds = {a.faces: p for a, p in outcomes}
    assert len(outcomes) == 56 and sum(odds.values()) == 1
    assert odds[("skull", 2, 3)] == Fraction(6, 216)  # three different faces: 3! orders
    assert odds[(2, 2, 5)] == Fraction(3, 216)
    assert odds[(6, 6, 6)] == Fraction(1, 216)
    assert sum(p for f, p in odds.items() if "skull" in f) == Fraction(91, 216)  # 1 - (5/6)^3
    state, _ = rolled()
    assert chance_outcomes(CTX, state) == outcomes
    rejected(state, A.AdvantageThrow(("skull", "skull", 1)), "AER-R-39")  # no face 1 (l.89)
    rejected(state, A.TakeSubsidy(), "AER-R-39")


def _after_throw(state: AerState, faces: tuple[A.Face, ...]) -> AerState:
    return step(state, A.AdvantageThrow(faces))


def _odds(era: int, wanted: object) -> Fraction:
    """P(the throw lets the player pick ``wanted`` (a sorted tuple of the types taken))."""
    state, _ = rolled(era)
    total = Fraction(0)
    for throw, p in advantage_throw_outcomes(CTX):
        after = transition(CTX, state, throw)
        results = {tuple(sorted(t for t in a.types if t is not None)) for a in legal_actions(CTX, after)}  # type: ignore[union-attr]
        if (callable(wanted) and wanted(results)) or wanted in results:
            total += p
    return total


def test_the_odds_of_a_pair() -> None:
    """l.154 with the era limits of l.156-160, exactly.  Era 2: two Night Flights need two dice of {5,
    skull}: 3(1/3)^2(2/3) + (1/3)^3 = 7/27.  Era 1: two tiles need two dice of {2, 3, skull}: 1/2; nothing
    at all when every die shows 4, 5 or 6: 1/8.  Radio Beacons cannot come in era 2, even by a skull."""
    assert _odds(2, (NF, NF)) == Fraction(7, 27)
    assert _odds(1, lambda r: any(len(t) == 2 for t in r)) == Fraction(1, 2)
    assert _odds(1, lambda r: r == {()}) == Fraction(1, 8)
    assert _odds(2, lambda r: any(RB in t for t in r)) == 0
    assert _odds(3, lambda r: any(len(t) == 2 for t in r)) == 1  # era 3, full stacks: always two


def test_the_odds_of_a_pair_by_brute_force() -> None:
    """Era 3, full stacks: (Daring Pilot, Radio Beacons) counted over the 216 ordered throws: a die gives
    Daring Pilot when it shows 2 or a skull, Radio Beacons when it shows 6 or a skull (l.154, l.156, l.160)."""
    faces = CTX.pack.supplies.risk_die_faces
    hits = 0
    for dice in itertools.product(faces, repeat=3):
        hits += any(
            (x in (2, "skull") and y in (6, "skull")) or (x in (6, "skull") and y in (2, "skull"))
            for x, y in itertools.combinations(dice, 2)
        )
    assert hits == 88
    assert _odds(3, (DP, RB)) == Fraction(88, 216) == Fraction(11, 27)


def test_pick_two_dice() -> None:
    """l.154: choose two of the three dice and take the tiles their results name; a type not available
    gives nothing (era 1: a 5 is Night Flights, from era 2)."""
    state, seat = rolled(1)
    state = _after_throw(state, (2, 2, 5))
    assert state.phase is Phase.ADVANTAGE_PICK
    assert legal_actions(CTX, state) == [
        A.PickAdvantages((0, 1), (2, 2)),  # AER-AMB-48: doubles give two tiles of the type
        A.PickAdvantages((0, 2), (2, None)),
        A.PickAdvantages((1, 2), (2, None)),
    ]
    rejected(state, A.PickAdvantages((0, 2), (2, 5)), "AER-R-40")  # Night Flights from era 2 (l.159)
    rejected(state, A.PickAdvantages((0, 1), (2, 3)), "AER-R-39")  # the die shows 2
    rejected(state, A.PickAdvantages((1, 0), (2, 2)), "AER-R-39")  # dice named in increasing order
    rejected(state, A.PickAdvantages((0, 0), (2, 2)), "AER-R-39")  # two different dice
    rejected(state, A.TakeAdvantage(2), "AER-R-39")
    after = step(state, A.PickAdvantages((0, 1), (2, 2)))
    assert after.players[seat].held(DP) == 2 and after.advantage_supply == (4, 6, 6, 6, 6)
    assert after.turn.advantage_dice is None and after.to_move == (seat + 1) % 3


def test_doubles_with_one_tile_left() -> None:
    """AER-AMB-48: two equal faces give two tiles only if two are left; l.154: maybe only 1 tile."""
    state, seat = rolled(1)
    state = holding(state, (seat + 1) % 3, DP=5)
    state = _after_throw(state, (2, 2, 4))
    assert legal_actions(CTX, state) == [
        A.PickAdvantages((0, 1), (2, None)),
        A.PickAdvantages((0, 2), (2, None)),
        A.PickAdvantages((1, 2), (2, None)),
    ]
    rejected(state, A.PickAdvantages((0, 1), (2, 2)), "AER-R-40")


def test_the_skull_is_wild_but_only_for_available_types() -> None:
    """l.154: a skull takes any available tile; era 1 (l.156-160): only types 2 and 3.  The skull of this
    roll is no engine failure (it is not an NCR roll, l.114)."""
    state, seat = rolled(1)
    state = _after_throw(state, ("skull", 4, 6))
    assert set(legal_actions(CTX, state)) == {
        A.PickAdvantages((0, 1), (2, None)),
        A.PickAdvantages((0, 1), (3, None)),
        A.PickAdvantages((0, 2), (2, None)),
        A.PickAdvantages((0, 2), (3, None)),
        A.PickAdvantages((1, 2), (None, None)),
    }
    rejected(state, A.PickAdvantages((0, 1), (4, None)), "AER-R-39")  # the skull names no era-2 type
    rejected(state, A.PickAdvantages((0, 1), (None, None)), "AER-R-39")  # a type is available: name it
    after = step(state, A.PickAdvantages((0, 1), (3, None)))
    assert after.players[seat].held(EM) == 1 and after.players[seat].engine_failures == 0
    two_skulls, _ = rolled(1)
    two_skulls = _after_throw(two_skulls, ("skull", "skull", 6))
    assert A.PickAdvantages((0, 1), (2, 3)) in legal_actions(CTX, two_skulls)
    assert A.PickAdvantages((0, 1), (3, 3)) in legal_actions(CTX, two_skulls)


# ---------------------------------------------------------------------------
# Engine Maintenance (AER-R-44)
# ---------------------------------------------------------------------------


def test_engine_maintenance_is_a_free_action_at_the_start_of_the_turn() -> None:
    """l.157: discard all engine-failure tiles; a free action, only at the start of one of your actions;
    discard the tile after use (l.161, AER-R-41: back to the supply).  AER-AMB-50 ``free``: the action follows."""
    state = started(3)
    seat = state.to_move
    rejected(state, A.PlayEngineMaintenance(), "AER-R-44")  # none held
    state = set_player(holding(state, seat, EM=1), seat, engine_failures=3)
    assert A.PlayEngineMaintenance() in legal_actions(CTX, state)
    after = step(state, A.PlayEngineMaintenance())
    assert after.players[seat].engine_failures == 0 and after.players[seat].held(EM) == 0
    assert after.advantage_supply == (6, 6, 6, 6, 6)
    assert after.phase is Phase.ACTION and after.to_move == seat  # the turn's action is still to come
    after = step(after, A.TakeSubsidy())
    assert after.to_move == (seat + 1) % 3


def test_engine_maintenance_as_the_turns_action() -> None:
    """AER-AMB-50 ``action`` (l.118 'special action'): playing it is the turn's action."""
    ctx = Context.printed(readings={"AER-AMB-50": "action"})
    state = started(3)
    seat = state.to_move
    state = set_player(holding(state, seat, EM=1), seat, engine_failures=2)
    after = step_with(ctx, state, A.PlayEngineMaintenance())
    assert after.players[seat].engine_failures == 0 and after.to_move == (seat + 1) % 3


def test_no_engine_maintenance_once_placing_began() -> None:
    """l.118, l.157: once you have begun placing airport tiles you can no longer use it."""
    state, me = example_state(False)
    state = holding(set_player(state, me, engine_failures=1), me, EM=1)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step(state, A.RiskThrow(11, 0))
    assert state.phase is Phase.COVER
    rejected(state, A.PlayEngineMaintenance(), "AER-R-44")
    state = step(state, A.CoverShortfall(1, 0))
    state = step(state, A.RiskThrow(12, 0))
    assert state.phase is Phase.PLACING
    rejected(state, A.PlayEngineMaintenance(), "AER-R-44")


# ---------------------------------------------------------------------------
# Night Flights (AER-R-46)
# ---------------------------------------------------------------------------


def night_state(night_flights: int) -> tuple[AerState, int, list[str], list[str]]:
    """Era 2; the seat to move owns card 10 (capacity 4) and airports at the destinations of the four
    passengers waiting at home: two bound outside Europe, two inside."""
    state = attrs.evolve(started(3, seed=4), era=2)
    seat = state.to_move
    home = state.players[seat].home
    assert home is not None
    state = with_card(state, seat, 10, 2, money=10)
    far: list[str] = []
    near: list[str] = []
    used: set[str] = {home}
    for p in CTX.pack.passengers:
        if p.id not in state.bag or p.capacity != 1 or p.destination in used:
            continue
        pile = near if CTX.europe(p.destination) else far
        if len(pile) < 2:
            pile.append(p.id)
            used.add(p.destination)
    section = next(w for w in state.waiting if w.city == home)
    chosen = [*far, *near]
    bag = sorted([t for t in state.bag if t not in chosen] + [t for t in section.slots if t is not None])
    waiting = tuple(Waiting(w.city, tuple(chosen)) if w.city == home else w for w in state.waiting)
    state = attrs.evolve(state, bag=tuple(bag), waiting=waiting)
    for t in chosen:
        state = give_airport(state, seat, CTX.pack.passenger(t).destination)
    state = holding(state, seat, NF=night_flights)
    assert problems(CTX, state) == []
    return state, seat, far, near


def test_night_flights_extra_claims_within_europe() -> None:
    """l.159: one extra passenger tile per Night Flights tile, only within Europe; several may be played in
    the same action; each goes back to the supply when played (l.161)."""
    state, seat, far, near = night_state(2)
    state = step(state, A.ClaimPassenger(far[0], 10))  # the action's own claim: any destination
    assert state.phase is Phase.CLAIMING and state.to_move == seat
    rejected(state, A.ClaimPassenger(near[0], 10), "AER-R-46")  # play a Night Flights tile first
    rejected(state, A.TakeSubsidy(), "AER-R-46")
    state = step(state, A.PlayNightFlights())
    assert state.turn.claims_left == 1 and state.players[seat].held(NF) == 1
    assert state.advantage_supply[NF - 2] == 5
    rejected(state, A.ClaimPassenger(far[1], 10), "AER-R-46")  # bound outside Europe
    state = step(state, A.ClaimPassenger(near[0], 10))
    assert state.phase is Phase.CLAIMING and state.turn.claims_left == 0
    state = step(state, A.PlayNightFlights())
    state = step(state, A.ClaimPassenger(near[1], 10))
    assert state.phase is Phase.ACTION and state.to_move == (seat + 1) % 3  # no tile left: the action ends
    assert state.players[seat].cards[0] == OwnedCard(10, 2, tuple(sorted([far[0], *near])))
    assert state.advantage_supply[NF - 2] == 6


def test_night_flights_both_played_first_leave_a_claim_open_aer_r_46() -> None:
    """AER-R-46 (l.159): one extra claim per Night Flights tile played, several in the same action: with both
    tiles played before either extra claim, the first extra claim leaves one open though no tile is held any
    more, so the action goes on (CLAIMING) until the second."""
    state, seat, far, near = night_state(2)
    state = step(state, A.ClaimPassenger(far[0], 10))
    state = step(state, A.PlayNightFlights())
    state = step(state, A.PlayNightFlights())
    assert state.turn.claims_left == 2 and state.players[seat].held(NF) == 0
    state = step(state, A.ClaimPassenger(near[0], 10))
    assert state.phase is Phase.CLAIMING and state.to_move == seat and state.turn.claims_left == 1
    state = step(state, A.ClaimPassenger(near[1], 10))
    assert state.phase is Phase.ACTION and state.to_move == (seat + 1) % 3


def test_night_flights_end_claims() -> None:
    """AER-R-46: a holder may end the claim action without playing (or after playing) Night Flights."""
    state, seat, far, _near = night_state(1)
    state = step(state, A.ClaimPassenger(far[0], 10))
    assert legal_actions(CTX, state) == [A.PlayNightFlights(), A.EndClaims()]
    after = step(state, A.EndClaims())
    assert after.to_move == (seat + 1) % 3 and after.players[seat].held(NF) == 1
    played = step(state, A.PlayNightFlights())
    assert A.EndClaims() in legal_actions(CTX, played)
    rejected(played, A.PlayNightFlights(), "AER-R-46")  # none left


def test_night_flights_trip_reading() -> None:
    """AER-AMB-33 ``trip`` (origin and destination in Europe): the same claims, every waiting city being a
    European start city."""
    ctx = Context.printed(readings={"AER-AMB-33": "trip"})
    state, _seat, far, near = night_state(1)
    state = step_with(ctx, state, A.ClaimPassenger(far[0], 10))
    state = step_with(ctx, state, A.PlayNightFlights())
    offered = {a.id for a in legal_actions(ctx, state) if isinstance(a, A.ClaimPassenger)}
    assert set(near) <= offered and far[1] not in offered
    assert all(CTX.europe(CTX.pack.passenger(t).destination) for t in offered)


# ---------------------------------------------------------------------------
# Radio Beacons (AER-R-47) and AER-AMB-26
# ---------------------------------------------------------------------------


def beacon_state(beacons: int, engine_failures: int) -> tuple[AerState, int]:
    state, me = example_state(False)
    state = attrs.evolve(state, era=3)
    state = holding(set_player(state, me, engine_failures=engine_failures), me, RB=beacons)
    assert problems(CTX, state) == []
    return state, me


def test_radio_beacons_rethrow_ignores_the_skulls() -> None:
    """l.160: throw all three dice again, ignoring the skull of the earlier throw; several tiles may be
    spent one after another.  AER-AMB-26 ``reroll``: the engine failures come with the kept throw, so a
    4th (l.114) collapses only a kept throw.  The calculator (risk.play) tells the same story."""
    state, me = beacon_state(2, 3)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step(state, A.RiskThrow(7, 1))  # (3, 4, skull)
    assert state.phase is Phase.COVER and state.players[me].engine_failures == 3  # not taken yet
    assert legal_actions(CTX, state) == [A.PlayRadioBeacons(), A.KeepThrow()]
    rejected(state, A.CoverShortfall(5, 0), "AER-R-47")
    rejected(state, A.Decline(), "AER-R-47")
    state = step(state, A.PlayRadioBeacons())
    assert state.phase is Phase.RISK_ROLL and state.players[me].held(RB) == 1 and state.advantage_supply[4] == 5
    state = step(state, A.RiskThrow(12, 0))  # (4, 4, 4)
    state = step(state, A.KeepThrow())
    assert state.players[me].engine_failures == 3
    assert legal_actions(CTX, state) == [A.CoverShortfall(0, 0), A.Abort()]  # passed 12+
    rejected(state, A.PlayRadioBeacons(), "AER-R-47")  # kept: too late to re-throw
    rejected(state, A.KeepThrow(), "AER-R-47")
    state = step(state, A.CoverShortfall(0, 0))
    state = step(state, A.RiskThrow(5, 1))  # (2, 3, skull): the 4th engine failure if kept
    state = step(state, A.KeepThrow())
    p = state.players[me]
    assert p.engine_failures == 0 and p.cards[0].tiles == 1 and p.supply[0] == 9 - 1 - 1  # l.115-116
    assert state.to_move != me and p.held(RB) == 1
    trace = play(
        CTX.pack,
        rolls_for(CTX.pack, route_from_pack(CTX.pack, "Ethiopia", "East Africa", "Kenya"), None),
        [(3, 4, "skull"), (4, 4, 4), (2, 3, "skull")],
        money=4,
        beacons=2,
        engine_failures=3,
        policy=ScriptedPolicy(rerolls=[True, False, False]),
    )
    assert trace.end == "collapsed" and trace.beacons_used == 1


def test_radio_beacons_at_once_reading() -> None:
    """AER-AMB-26 ``at-once``: the skull's engine failure is taken as it shows, so a 4th collapses the
    attempt before any re-throw; otherwise the re-throw keeps the skulls already taken."""
    ctx = Context.printed(readings={"AER-AMB-26": "at-once"})
    state, me = beacon_state(1, 3)
    state = step_with(ctx, state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    collapsed = step_with(ctx, state, A.RiskThrow(7, 1))
    assert collapsed.players[me].engine_failures == 0 and collapsed.to_move != me
    state, me = beacon_state(1, 0)
    state = step_with(ctx, state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step_with(ctx, state, A.RiskThrow(7, 1))
    assert state.players[me].engine_failures == 1
    assert A.PlayRadioBeacons() in legal_actions(ctx, state) and A.KeepThrow() not in legal_actions(ctx, state)
    rejected_here = check(ctx, state, A.KeepThrow())
    assert rejected_here is not None and rejected_here.rule == "AER-R-47"
    state = step_with(ctx, state, A.PlayRadioBeacons())
    assert state.phase is Phase.RISK_ROLL and state.players[me].engine_failures == 1


def test_radio_beacons_need_a_tile() -> None:
    state, _me = beacon_state(0, 0)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step(state, A.RiskThrow(7, 1))
    assert state.phase is Phase.COVER
    rejected(state, A.PlayRadioBeacons(), "AER-R-47")
    rejected(state, A.KeepThrow(), "AER-R-47")


def _best(ctx: Context, start: AerState, seat: int) -> Fraction:
    """P(the tile is placed) when the player chooses best at every step, over the model's own chance steps."""

    @cache
    def value(state: AerState) -> Fraction:
        if state.phase is Phase.PLACING:
            return Fraction(1)
        if state.to_move != seat or state.phase in (Phase.ACTION, Phase.ROUND_DIE):
            return Fraction(0)
        if state.phase is Phase.RISK_ROLL:
            return sum((p * value(transition(ctx, state, a)) for a, p in chance_outcomes(ctx, state)), Fraction(0))
        return max(value(transition(ctx, state, a)) for a in legal_actions(ctx, state))

    return value(start)


@pytest.mark.parametrize("reading", ["reroll", "at-once"])
@pytest.mark.parametrize(("beacons", "engine_failures", "money"), [(1, 3, 0), (2, 2, 1), (1, 0, 2)])
def test_the_model_and_the_calculator_agree_on_radio_beacons(
    reading: str, beacons: int, engine_failures: int, money: int
) -> None:
    """A red 12+ connection (Ethiopia - Kenya, l.87-88) with Radio Beacons held: the best play through the
    model's states and chance steps places the tile exactly as often as risk.success_probability says."""
    ctx = Context.printed(readings={"AER-AMB-26": reading})
    state, me = beacon_state(beacons, engine_failures)
    state = set_player(state, me, money=money)
    state = step_with(ctx, state, A.PlaceAirport(LR1, "Kenya", 0, "Ethiopia"))
    assert state.phase is Phase.RISK_ROLL
    rolls = rolls_for(CTX.pack, route_from_pack(CTX.pack, "Ethiopia", "Kenya"), None, ctx.readings)
    want = success_probability(
        CTX.pack, rolls, money=money, beacons=beacons, engine_failures=engine_failures, readings=ctx.readings
    )
    assert _best(ctx, state, me) == want


# ---------------------------------------------------------------------------
# Daring Pilot and Increased Production bought, then used
# ---------------------------------------------------------------------------


def test_a_daring_pilot_bought_covers_a_shortfall() -> None:
    """l.156: +3 after the throw, outside Europe (East Africa is in Africa)."""
    state, me = example_state(False)
    state = step(state, A.TakeAdvantage(DP))
    state = attrs.evolve(state, to_move=me, turns_in_round=0)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step(state, A.RiskThrow(9, 0))  # short 3 of 12
    assert A.CoverShortfall(0, 1) in legal_actions(CTX, state)
    state = step(state, A.CoverShortfall(0, 1))
    assert state.players[me].held(DP) == 0 and state.advantage_supply[0] == 6


def test_increased_production_bought_in_era_2() -> None:
    """l.158: from era 2; one more tile on the card just bought."""
    state = attrs.evolve(started(3), era=2)
    seat = state.to_move
    state = step(state, A.TakeAdvantage(IP))
    state = attrs.evolve(state, to_move=seat, turns_in_round=0)
    state = step(state, A.BuyPlane(2, increased_production=True))
    assert state.players[seat].cards == (OwnedCard(2, tiles=CTX.pack.card(2).tile_count + 1),)


# ---------------------------------------------------------------------------
# legal_actions == accepted by check, in games rich in advantages
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("era", "seed"), [(2, 1), (3, 2), (3, 3)])
def test_legal_actions_match_check_with_advantages(era: int, seed: int) -> None:
    rng = random.Random(seed)
    state = attrs.evolve(started(3, seed=seed), era=era)
    for seat in range(3):
        state = holding(state, seat, DP=1, EM=1, NF=2, **({"RB": 2} if era == 3 else {}))
        state = set_player(state, seat, money=25, engine_failures=seat)
    for seat in range(3):
        state = give_airport(state, seat, ("Frankfurt", "Madrid", "Vienna")[seat])
    assert problems(CTX, state) == []
    seen: set[type] = set()
    for _ in range(150):
        legal = legal_actions(CTX, state)
        assert len(set(legal)) == len(legal)
        for action in legal:
            assert check(CTX, state, action) is None, (action, check(CTX, state, action))
        accepted = {a for a in candidates(state) if check(CTX, state, a) is None}
        assert accepted <= set(legal), accepted - set(legal)
        if not legal:
            break
        nice = [a for a in legal if not isinstance(a, A.TakeSubsidy | A.StopPlacing | A.EndClaims)]
        action = rng.choice(nice if nice and rng.random() < 0.9 else legal)
        seen.add(type(action))
        state = transition(CTX, state, action)
        assert problems(CTX, state) == []
    assert {A.TakeAdvantage, A.RollForAdvantages, A.PickAdvantages, A.PlayEngineMaintenance} <= seen
    assert {A.PlayNightFlights, A.EndClaims} <= seen if era == 2 else {A.PlayRadioBeacons, A.KeepThrow} <= seen
