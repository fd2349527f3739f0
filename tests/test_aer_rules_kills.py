"""Aeroplanes legality, refusal by refusal, pinned to the rules digest (issue 22: a mutation score for
every module, here ``model/aeroplanes/rules.py``).

Each test builds a state through the rules layer (or a small edit of one, checked with ``problems``)
and asserts what the digest (/work/shared/rules/aeroplanes-aviation-ascendant.md) says: the rule ID a
refusal cites and the opening and meaningful words of its reason, or the exact legal options.  The
rare paths are the point: exact thresholds (money equal to a price, a supply equal to the load, a
throw equal to its target), the last roll of an attempt, the readings not at their defaults
(AER-AMB-06, -26, -33, -41, -42, -45, the placing readings), and ``rejections`` (every rule that
forbids an action, each condition judged apart).  Some tests use a context over a fresh copy of the
bundled pack: rules.py memoises routes and rolls per pack and per context, and a fresh one makes the
memoised computations run again.
"""

from __future__ import annotations

import attrs
import pytest
from test_aer_advantages import holding, night_state
from test_aer_era import era_3_end, era_end_state
from test_aer_placing import LR1, PLAIN1, STAGE2, example_state, with_card
from test_aer_rules import CTX, give_airport, set_player, started, step

from rulecraft.core import Rejection
from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.components import BUNDLED_SOURCE, PassengerTile, bundled_pack_data, pack_from_data
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.risk import RiskError
from rulecraft.model.aeroplanes.rules import (
    cached_route,
    check,
    legal_actions,
    plane_cost,
    reject,
    rejections,
    skipped,
)
from rulecraft.model.aeroplanes.setup import new_game
from rulecraft.model.aeroplanes.state import HOME, AerState, Airport, OwnedCard, Phase, Slots, problems
from rulecraft.model.aeroplanes.transitions import transition

DP, EM, IP, NF, RB = 2, 3, 4, 5, 6  # advantage types, l.156-160


def says(why: Rejection | None, rule: str, opening: str, *words: str) -> None:
    """``why`` is a refusal citing ``rule`` whose reason opens with ``opening`` and holds every one of ``words``."""
    assert why is not None, "accepted, expected a refusal"
    assert why.rule == rule, why
    assert isinstance(why.reason, str) and why.reason.startswith(opening), why.reason
    for word in words:
        assert word in why.reason, (word, why.reason)


def refused(state: AerState, action: A.AerAction, rule: str, opening: str, *words: str, ctx: Context = CTX) -> None:
    """``check`` refuses ``action`` so, and ``legal_actions`` does not offer it."""
    says(check(ctx, state, action), rule, opening, *words)
    assert action not in legal_actions(ctx, state)


def accepted(state: AerState, action: A.AerAction, ctx: Context = CTX) -> None:
    why = check(ctx, state, action)
    assert why is None, str(why)
    assert action in legal_actions(ctx, state)


def fresh_context(**readings: str) -> Context:
    """A context over a new copy of the bundled pack: no memo of rules.py knows it yet."""
    pack = pack_from_data(bundled_pack_data(), BUNDLED_SOURCE)
    return Context.printed(pack=pack, readings={k.replace("_", "-"): v for k, v in readings.items()})


def with_slots(state: AerState, destination: str, slots: tuple[Airport | None, ...]) -> AerState:
    """The map with ``destination``'s slots replaced (its other slots as they were)."""
    board = tuple(
        Slots(s.destination, (*slots, *s.slots[len(slots) :])) if s.destination == destination else s for s in state.map
    )
    return attrs.evolve(state, map=board)


def phase_step(state: AerState, ctx: Context, action: A.AerAction) -> AerState:
    why = check(ctx, state, action)
    assert why is None, str(why)
    state = transition(ctx, state, action)
    assert problems(ctx, state) == []
    return state


# ---------------------------------------------------------------------------
# The phase layer: the end of the game, set-up, and what each step of a turn admits
# ---------------------------------------------------------------------------


def test_nothing_is_legal_once_the_game_is_over_aer_r_63() -> None:
    """AER-R-63 (l.182-186): after era 3's scoring and final scoring the game is over."""
    _state, over = era_3_end((5, 9, 30))
    assert over.phase is Phase.OVER and legal_actions(CTX, over) == []
    for action in (A.TakeSubsidy(), A.RollFirstPlayerDie(1), A.ChooseHome("Paris")):
        says(check(CTX, over, action), "AER-R-63", "the game is over", "era 3", "final scoring")


def test_set_up_chance_steps_and_home_choices_aer_set_01_03() -> None:
    """AER-SET-01: the waiting area is filled from the bag; AER-SET-03: a random first player, then each
    player puts their home tile in a start city, only during set-up."""
    state = new_game(CTX, 3)
    assert state.phase is Phase.DEAL_PASSENGERS
    says(check(CTX, state, A.TakeSubsidy()), "AER-SET-01", "the waiting area is being filled from the bag")
    while state.phase is Phase.DEAL_PASSENGERS:
        state = step(state, legal_actions(CTX, state)[0])
    assert state.phase is Phase.FIRST_PLAYER
    says(check(CTX, state, A.ChooseHome("Paris")), "AER-SET-03", "the first player is chosen at random")
    state = step(state, legal_actions(CTX, state)[0])
    assert state.phase is Phase.CHOOSE_HOME
    refused(state, A.TakeSubsidy(), "AER-SET-03", "set-up: each player puts their home tile in a start city first")
    refused(state, A.ChooseHome("Madrid"), "AER-SET-03", "AER-SET-03: Madrid is not a start city")
    started_state = started(3)
    refused(started_state, A.ChooseHome("Paris"), "AER-SET-03", "home cities are chosen during set-up only")


def test_chance_steps_are_never_a_players_move_aer_r_05_10_58() -> None:
    """Only chance draws a card (AER-R-10), rolls the first-player die (AER-R-05) or refills the waiting
    area (AER-R-58): as a player's move, out of their step, each cites its own rule."""
    state = started(3)
    for action, rule in (
        (A.DrawCard(20), "AER-R-10"),
        (A.RollFirstPlayerDie(3), "AER-R-05"),
        (A.RefillWaiting("P01"), "AER-R-58"),
        (A.RiskThrow(12, 0), "AER-R-20"),
    ):
        refused(state, action, rule, "only chance makes this step, and it is not due now")


def test_the_display_refill_after_a_purchase_aer_r_10() -> None:
    """AER-R-10 (l.65): after a purchase the lowest deck card joins the display before anything else."""
    state = started(3)
    state = step(state, A.BuyPlane(state.display[0]))
    assert state.phase is Phase.CARD_DRAW
    lowest = min(state.deck)
    refused(state, A.TakeSubsidy(), "AER-R-10", "after a purchase the next deck card joins the display first")
    refused(state, A.DrawCard(lowest + 1), "AER-R-10", f"the next card in number order is {lowest}, not {lowest + 1}")
    # AER-R-10: a chance step is judged whole; the action's own rule is not asked (a plane off the display)
    assert [r.rule for r in rejections(CTX, state, A.BuyPlane(99))] == ["AER-R-10"]
    accepted(state, A.DrawCard(lowest))


def test_the_first_player_die_aer_r_05_and_after_the_update_aer_r_62() -> None:
    """AER-R-05 (l.48): the first player rolls a d6 once every player has acted; AER-R-62 (l.181): after an
    era's update the marker-taker rolls it."""
    state = started(3)
    for _ in range(3):
        state = step(state, A.TakeSubsidy())
    assert state.phase is Phase.ROUND_DIE and state.marker_in_pool
    refused(state, A.TakeSubsidy(), "AER-R-05", "the first player rolls the first-player die now")
    refused(state, A.RollFirstPlayerDie(7), "AER-R-05", "the first-player die shows one of [1, 2, 3, 4, 5, 6], not 7")
    end = step(era_end_state(), A.TakeSubsidy())
    while end.phase is not Phase.ROUND_DIE:
        end = step(end, legal_actions(CTX, end)[0])
    assert not end.marker_in_pool
    refused(end, A.TakeSubsidy(), "AER-R-62", "the marker-taker rolls the first-player die now")
    refused(end, A.RollFirstPlayerDie(0), "AER-R-62", "the first-player die shows one of [1, 2, 3, 4, 5, 6], not 0")


def test_the_update_draw_and_refill_steps_aer_r_53_58() -> None:
    """AER-R-53 (l.172): update step 1 draws the next deck cards in number order; AER-R-58 (l.178): step 6
    refills the empty waiting slots from the bag."""
    state = step(era_end_state(), A.TakeSubsidy())
    assert state.phase is Phase.UPDATE_DRAW
    lowest = min(state.deck)
    refused(state, A.TakeSubsidy(), "AER-R-53", "update step 1: the next deck cards join the display first")
    refused(state, A.DrawCard(lowest + 2), "AER-R-53", f"the next card in number order is {lowest}, not {lowest + 2}")
    while state.phase is not Phase.REFILL:
        state = step(state, legal_actions(CTX, state)[0])
    refused(state, A.TakeSubsidy(), "AER-R-58", "update step 6: the empty waiting slots are refilled from the bag")
    refused(state, A.RefillWaiting("NOPE"), "AER-R-58", "NOPE is not in the bag")
    accepted(state, legal_actions(CTX, state)[0])


def test_an_action_step_admits_the_five_actions_only_aer_r_07() -> None:
    """AER-R-07 (l.55-60): one of the five actions; the steps inside an action wait for it to be open."""
    state = started(3)
    refused(state, A.StopPlacing(), "AER-R-13", "a placement action starts with an attempt", "AER-AMB-09 'attempt'")
    refused(
        state,
        A.PickAdvantages((0, 1), (2, 2)),
        "AER-R-39",
        "two dice are picked only after an advantage roll",
        "RollForAdvantages",
    )
    refused(
        state, A.PlayNightFlights(), "AER-R-46", "Night Flights is played inside a claim action, after its first claim"
    )
    refused(state, A.EndClaims(), "AER-R-46", "no claim action is open to end")
    refused(state, A.PlayRadioBeacons(), "AER-R-47", "Radio Beacons re-throws an NCR roll", "no roll is waiting")
    for action, rule in (
        (A.CoverShortfall(1, 0), "AER-R-23"),
        (A.KeepThrow(), "AER-R-28"),
        (A.Abort(), "AER-R-27"),
        (A.Decline(), "AER-R-26"),
    ):
        refused(
            state,
            action,
            rule,
            "no NCR roll waits for a decision",
            f"{action.kind} is not one of the five actions",
        )


# ---------------------------------------------------------------------------
# Inside an action: placing (AER-R-13, R-44), the advantage pick, claiming
# ---------------------------------------------------------------------------


def placing_state() -> tuple[AerState, int]:
    """Risk example 2 (l.120) played to its end: the tile placed, the placement action still open."""
    state, me = example_state(True)
    state = holding(state, me, EM=1)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step(state, A.RiskThrow(11, 0))
    state = step(state, A.CoverShortfall(0, 0))
    state = step(state, A.RiskThrow(12, 0))  # the last roll passed: placed at once
    assert state.phase is Phase.PLACING and state.to_move == me
    return state, me


def test_inside_a_placement_action_aer_r_13_and_r_44() -> None:
    """AER-R-13: inside a placement action, another attempt or stop; AER-R-44 (l.118, l.157): Engine
    Maintenance only at the start of a turn, before its action."""
    state, _me = placing_state()
    refused(state, A.TakeSubsidy(), "AER-R-13", "inside a placement action", "PlaceAirport", "StopPlacing")
    refused(state, A.PlayEngineMaintenance(), "AER-R-44", "Engine Maintenance is played only at the start of a turn")
    accepted(state, A.StopPlacing())


def test_after_an_advantage_roll_only_the_pick_aer_r_39() -> None:
    """AER-R-39(b) (l.154): after the roll, two of the three dice are chosen; nothing else."""
    state = started(3)
    state = step(state, A.RollForAdvantages())
    refused(state, A.TakeSubsidy(), "AER-R-39", "an advantage roll is due", "AdvantageThrow")
    state = step(state, A.AdvantageThrow((2, 3, 6)))
    assert state.phase is Phase.ADVANTAGE_PICK
    refused(
        state, A.TakeSubsidy(), "AER-R-39", "after an advantage roll: choose two of the three dice", "PickAdvantages"
    )


def test_advantage_pick_refusals_aer_r_39_40() -> None:
    """AER-R-39(b): two different dice by index, each giving its own type; AER-R-40 (l.160): Radio Beacons
    (type 6) only from era 3, so in era 1 a 6 gives nothing."""
    state = started(3)
    state = step(state, A.RollForAdvantages())
    state = step(state, A.AdvantageThrow((2, 3, 6)))
    refused(state, A.PickAdvantages((1, 3), (3, None)), "AER-R-39", "use two different dice of [2, 3, 6]", "(1, 3)")
    refused(state, A.PickAdvantages((1, 1), (3, 3)), "AER-R-39", "use two different dice")
    refused(
        state,
        A.PickAdvantages((0, 2), (2, 6)),
        "AER-R-40",
        "die 2 shows 6: Radio Beacons (type 6) is available from era 3; this is era 1",
        "gives nothing (None)",
    )
    refused(state, A.PickAdvantages((0, 1), (2, 2)), "AER-R-39", "die 1 shows 3: it takes a type-3 tile, not 2")
    accepted(state, A.PickAdvantages((0, 2), (2, None)))
    accepted(state, A.PickAdvantages((0, 1), (2, 3)))


def test_the_skull_is_wild_among_available_types_aer_r_39() -> None:
    """l.154: a skull names any available type (era 1: types 2 and 3, AER-R-40)."""
    state = started(3)
    state = step(state, A.RollForAdvantages())
    state = step(state, A.AdvantageThrow(("skull", 4, 5)))
    refused(state, A.PickAdvantages((0, 1), (6, None)), "AER-R-39", "the skull (die 0) is wild", "(2, 3)")
    accepted(state, A.PickAdvantages((0, 1), (3, None)))


def test_inside_a_claim_action_aer_r_46() -> None:
    """AER-R-46 (l.159): after the first claim a Night Flights holder plays tiles, claims one passenger per
    tile played, or ends the action; nothing else."""
    state, _seat, far, near = night_state(1)
    state = step(state, A.ClaimPassenger(far[0], 10))
    assert state.phase is Phase.CLAIMING and state.turn.claims_left == 0
    refused(state, A.TakeSubsidy(), "AER-R-46", "inside a claim action", "Night Flights", "EndClaims")
    refused(
        state, A.ClaimPassenger(near[0], 10), "AER-R-46", "each extra claim needs a Night Flights tile played first"
    )
    state = step(state, A.PlayNightFlights())
    refused(state, A.PlayNightFlights(), "AER-R-46", "you hold no Night Flights tile")
    refused(
        state,
        A.ClaimPassenger(far[1], 10),
        "AER-R-46",
        f"a Night Flights claim stays within Europe (l.159): {far[1]} flies to",
        CTX.pack.passenger(far[1]).destination,
    )
    accepted(state, A.ClaimPassenger(near[0], 10))


def test_a_night_flights_holder_with_a_claim_open_aer_r_46() -> None:
    """AER-R-46: with a tile played and one more still held, the extra claim, another tile and the end of
    the action are all offered."""
    state, _seat, far, near = night_state(2)
    state = step(step(state, A.ClaimPassenger(far[0], 10)), A.PlayNightFlights())
    assert state.turn.claims_left == 1
    legal = legal_actions(CTX, state)
    assert legal[0] == A.PlayNightFlights() and legal[-1] == A.EndClaims()
    assert {A.ClaimPassenger(near[0], 10), A.ClaimPassenger(near[1], 10)} <= set(legal)
    assert A.ClaimPassenger(far[1], 10) not in legal


def night_state_with_a_european_overflow_tile() -> tuple[AerState, int, PassengerTile, list[str], list[str]]:
    """``night_state(1)`` with one more one-passenger tile bound for Europe moved from the bag to the
    overflow, and the seat holding an airport at its destination: (state, seat, the tile, far, near)."""
    state, seat, far, near = night_state(1)
    extra = next(
        p
        for p in CTX.pack.passengers
        if p.id in state.bag and CTX.europe(p.destination) and p.capacity == 1 and p.destination != far[0]
    )
    state = attrs.evolve(state, bag=tuple(t for t in state.bag if t != extra.id), overflow=(extra.id,))
    if extra.destination not in state.airports(seat):
        state = give_airport(state, seat, extra.destination)
    return state, seat, extra, far, near


def test_night_flights_trip_reading_refuses_an_overflow_tile_aer_amb_33() -> None:
    """AER-AMB-33 ``trip``: the extra passenger's start city must be European too, so an overflow tile
    (waiting at no city) never qualifies; under ``destination`` it does when bound for Europe."""
    state, _seat, extra, far, near = night_state_with_a_european_overflow_tile()
    trip = fresh_context(AER_AMB_33="trip")
    for ctx in (CTX, trip):
        assert problems(ctx, state) == []
    claim = A.ClaimPassenger(extra.id, 10, overflow=True)
    for ctx in (CTX, trip):
        s = phase_step(state, ctx, A.ClaimPassenger(far[0], 10))
        s = phase_step(s, ctx, A.PlayNightFlights())
        if ctx is trip:
            refused(
                s,
                claim,
                "AER-R-46",
                "AER-AMB-33 'trip':",
                f"{extra.id} does not wait at a European start city",
                ctx=ctx,
            )
            accepted(s, A.ClaimPassenger(near[0], 10), ctx=ctx)  # waiting at the home city, in Europe
        else:
            accepted(s, claim, ctx=ctx)


def test_each_pack_is_judged_on_its_own_map_aer_r_14() -> None:
    """AER-R-14 (l.77): a new airport is reached from an own airport along a connection of the map.  The
    printed map has no Ethiopia - Persia connection, so that attempt is refused; a pack whose map adds a
    red one offers it.  Each pack answers from its own map, whichever pack was asked first."""
    state, _me = example_state(False)
    attempt = A.PlaceAirport(LR1, "Persia", 0, "Ethiopia")
    refused(state, attempt, "AER-R-14", "no connection on the map along Ethiopia")
    data = bundled_pack_data()
    added: dict[str, object] = {"between": ["Ethiopia", "Persia"], "colour": "red"}
    added["provenance"] = {"source": "reconstructed", "page": "l.77", "why": "a test map with one more connection"}
    data["connections"] = [*data["connections"], added]
    wider = Context.printed(pack=pack_from_data(data, BUNDLED_SOURCE))
    accepted(state, attempt, ctx=wider)
    refused(state, attempt, "AER-R-14", "no connection on the map along Ethiopia")  # the printed map again


def test_night_flights_trip_reading_finds_the_start_city_of_the_claimed_tile_aer_amb_33() -> None:
    """AER-AMB-33 ``trip`` (AER-R-46, l.159: the extra passenger flies within Europe): the start city
    judged is the one where *this* tile waits.  The first claim takes an overflow tile, so every
    waiting section stays full (no empty slot anywhere); the Night Flights claim of a tile waiting at
    the home city (European) bound for a European destination is accepted."""
    state, seat, extra, _far, near = night_state_with_a_european_overflow_tile()
    trip = fresh_context(AER_AMB_33="trip")
    s = phase_step(state, trip, A.ClaimPassenger(extra.id, 10, overflow=True))
    s = phase_step(s, trip, A.PlayNightFlights())
    assert all(None not in w.slots for w in s.waiting)  # the set-up: every waiting slot still full
    home = state.players[seat].home
    assert home is not None and trip.europe(home) and trip.europe(CTX.pack.passenger(near[0]).destination)
    accepted(s, A.ClaimPassenger(near[0], 10), ctx=trip)


# ---------------------------------------------------------------------------
# After an NCR roll: Radio Beacons, cover, decline, abort (AER-R-23, R-26, R-27, R-47)
# ---------------------------------------------------------------------------


def cover_state(throw: int, beacons: int = 0) -> tuple[AerState, int]:
    """Risk example 1 (l.119, an opponent in East Africa: 12+ then 10+) after the first throw."""
    state, me = example_state(False)
    if beacons:
        state = holding(attrs.evolve(state, era=3), me, RB=beacons)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step(state, A.RiskThrow(throw, 0))
    assert state.phase is Phase.COVER
    return state, me


def test_a_skull_on_a_last_roll_that_passes_still_gives_an_ef_tile_aer_r_28() -> None:
    """AER-R-28 (l.113-114): each skull thrown on the risk dice while trying a new connection makes the
    player take an Engine Failure tile, a throw that passes too; AER-R-24/25: the last roll passed, the
    tile is placed.  Risk example 2 (l.120) with (6, 6, skull) = 12 on its last roll."""
    state, me = example_state(True)
    before = state.players[me].engine_failures
    assert before + 1 < CTX.pack.risk.engine_failure_limit  # four EF tiles collapse the attempt (l.114)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = step(state, A.RiskThrow(11, 0))
    state = step(state, A.CoverShortfall(0, 0))
    state = step(state, A.RiskThrow(12, 1))
    assert state.phase is Phase.PLACING and state.to_move == me
    placed = state.slots("East Africa")[1]
    assert placed is not None and placed.owner == me
    assert state.players[me].engine_failures == before + 1


def test_a_shortfall_is_covered_in_full_aer_r_23() -> None:
    """AER-R-23 (l.106-108): a roll short by 1 is kept by paying £1 a point, in full; a partial cover or
    a cover of a roll that passed is refused."""
    state, _me = cover_state(11)
    refused(
        state,
        A.CoverShortfall(0, 0),
        "AER-R-23",
        "the shortfall of 1 is covered in full by one of [CoverShortfall(money=1, pilots=0)]",
        "£1 a point",
        "Daring Pilots +3 only outside Europe",
        "no more pilots than needed",
    )
    why = check(CTX, state, A.CoverShortfall(0, 0))
    assert why is not None and why.reason.endswith("no more pilots than needed)")
    refused(state, A.CoverShortfall(2, 0), "AER-R-23", "the shortfall of 1")
    accepted(state, A.CoverShortfall(1, 0))
    accepted(state, A.Decline())


def test_a_roll_met_exactly_has_nothing_to_cover_or_decline_aer_r_23_26() -> None:
    """A throw equal to its target (12 for 12+) passes: nothing to cover (AER-R-23) and nothing to decline
    (AER-R-26); the player goes on (CoverShortfall(0, 0)) or aborts before the later roll (AER-R-27)."""
    state, _me = cover_state(12)
    refused(state, A.CoverShortfall(1, 0), "AER-R-23", "the roll passed: nothing to cover")
    refused(state, A.Decline(), "AER-R-26", "the roll passed: there is nothing to decline")
    assert legal_actions(CTX, state) == [A.CoverShortfall(0, 0), A.Abort()]
    accepted(state, A.CoverShortfall(0, 0))


def test_no_abort_before_the_last_roll_aer_r_27() -> None:
    """AER-R-27 (l.112): abort only before a later roll; on the attempt's last roll, cover or decline."""
    state, _me = cover_state(11)
    accepted(state, A.Abort())
    state = step(state, A.CoverShortfall(1, 0))
    state = step(state, A.RiskThrow(9, 0))  # 10+: short by 1 on the last roll
    refused(state, A.Abort(), "AER-R-27", "no later roll to abort before: cover or decline")
    assert legal_actions(CTX, state) == [A.CoverShortfall(1, 0), A.Decline()]


def test_after_an_ncr_roll_no_other_action_aer_r_23() -> None:
    """After an NCR roll: Radio Beacons, cover, decline or abort; another action cites its own rule."""
    state, _me = cover_state(11)
    refused(
        state, A.TakeSubsidy(), "AER-R-48", "after an NCR roll: Radio Beacons, cover, decline or abort", "take-subsidy"
    )
    refused(state, A.BuyPlane(state.display[0]), "AER-R-08", "after an NCR roll", "buy-plane")
    refused(state, A.KeepThrow(), "AER-R-47", "no throw waits to be kept: KeepThrow follows a throw made holding Radio")
    refused(state, A.PlayRadioBeacons(), "AER-R-47", "you hold no Radio Beacons tile")


@pytest.mark.parametrize("reading", ["reroll", "at-once"])
def test_radio_beacons_after_the_throw_is_kept_aer_r_47_amb_26(reading: str) -> None:
    """AER-AMB-26 ``reroll``: a holder's throw waits (re-throw or KeepThrow) before anything else; once
    kept, its engine failures are taken and a re-throw is too late.  ``at-once``: the re-throw stays
    offered beside the cover choices."""
    ctx = fresh_context(AER_AMB_26=reading)
    state, me = example_state(False)
    state = holding(attrs.evolve(state, era=3), me, RB=1)
    state = phase_step(state, ctx, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    state = phase_step(state, ctx, A.RiskThrow(11, 0))
    if reading == "reroll":
        refused(
            state,
            A.TakeSubsidy(),
            "AER-R-47",
            "the throw is not kept yet: throw again with Radio Beacons or keep it (KeepThrow)",
            "its engine failures come with keeping it (AER-AMB-26 'reroll')",
            ctx=ctx,
        )
        state = phase_step(state, ctx, A.KeepThrow())
        refused(
            state,
            A.PlayRadioBeacons(),
            "AER-R-47",
            "the throw is kept and its engine failures taken: re-throws come before (AER-AMB-26)",
            ctx=ctx,
        )
        assert legal_actions(ctx, state) == [A.CoverShortfall(1, 0), A.Decline(), A.Abort()]
    else:
        assert legal_actions(ctx, state) == [A.CoverShortfall(1, 0), A.Decline(), A.Abort(), A.PlayRadioBeacons()]
        refused(state, A.KeepThrow(), "AER-R-47", "no throw waits to be kept", ctx=ctx)


def test_an_own_tile_on_the_hop_gives_no_bonus_aer_r_22() -> None:
    """AER-R-22 (l.109-110): +2 only for an opponent's tile.  The player's own tile in Kenya (the hopped
    destination) leaves risk example 1's targets as they are: 12+ then 10+, so a throw of 11 is short by 1."""
    state, me = example_state(False)
    state = give_airport(state, me, "Kenya")
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    assert state.turn.attempt is not None and state.turn.attempt.rolls == ((12, 0), (12, 2))
    state = step(state, A.RiskThrow(11, 0))
    assert legal_actions(CTX, state) == [A.CoverShortfall(1, 0), A.Decline(), A.Abort()]


def test_one_tile_per_destination_aer_r_29c() -> None:
    """AER-R-29(c) (l.124): a player holds one tile per destination; another goes there only as an upgrade
    (a fresh context: the slot rule judged without any memo)."""
    ctx = fresh_context()
    state, me = example_state(False)
    state = with_card(state, me, PLAIN1, 1)
    state = give_airport(state, me, "Kenya")
    state = with_slots(state, "Cairo", (Airport(me, 1), None))
    state = attrs.evolve(
        state,
        players=tuple(
            attrs.evolve(p, supply=(p.supply[0] - 1, *p.supply[1:])) if i == me else p
            for i, p in enumerate(state.players)
        ),
    )
    assert problems(ctx, state) == []
    direct = A.PlaceAirport(PLAIN1, "Cairo", 1, "Ethiopia")
    refused(state, direct, "AER-R-29", "(c) you already have a tile in Cairo; only an upgrade may go there", ctx=ctx)


# ---------------------------------------------------------------------------
# Action 4: the price and availability of advantages (AER-R-39, R-40)
# ---------------------------------------------------------------------------


def test_an_advantage_costs_one_pound_exactly_aer_r_39() -> None:
    """AER-R-39 (l.153): £1 to the bank.  With exactly £1 the tile and the roll are offered; with £0 not."""
    state = started(3)
    seat = state.to_move
    one = set_player(state, seat, money=1)
    accepted(one, A.TakeAdvantage(DP))
    accepted(one, A.RollForAdvantages())
    broke = set_player(state, seat, money=0)
    refused(broke, A.TakeAdvantage(DP), "AER-R-39", "buying an advantage costs £1 (l.153); you have £0")
    refused(broke, A.RollForAdvantages(), "AER-R-39", "buying an advantage costs £1")


def test_advantage_types_and_availability_aer_r_39_40() -> None:
    """l.154: types 2 to 6; AER-R-40 (l.156-160): Increased Production from era 2, Radio Beacons from era 3,
    and a type whose six tiles are all in hands is not available."""
    state = started(3)
    refused(state, A.TakeAdvantage(7), "AER-R-39", "advantages are numbered 2 to 6 (l.154), not 7")
    refused(
        state, A.TakeAdvantage(IP), "AER-R-40", "Increased Production (type 4) is available from era 2; this is era 1"
    )
    gone = holding(state, (state.to_move + 1) % 3, DP=6)
    refused(gone, A.TakeAdvantage(DP), "AER-R-40", "all 6 Daring Pilot tiles (type 2) are in players' hands (l.155)")


def test_rejections_of_an_advantage_judge_price_and_availability_apart_aer_r_39_40() -> None:
    """With £0 and no type available, both rules forbid the advantage: the price (AER-R-39, cited first)
    and availability (AER-R-40, AER-AMB-48: a roll that could give nothing)."""
    state = started(3)
    seat = state.to_move
    others = (seat + 1) % 3
    bare = set_player(holding(state, others, DP=6, EM=6), seat, money=0)
    assert problems(CTX, bare) == []
    take = rejections(CTX, bare, A.TakeAdvantage(DP))
    assert [r.rule for r in take] == ["AER-R-39", "AER-R-40"]
    says(take[1], "AER-R-40", "all 6 Daring Pilot tiles (type 2) are in players' hands")
    roll = rejections(CTX, bare, A.RollForAdvantages())
    assert [r.rule for r in roll] == ["AER-R-39", "AER-R-40"]
    says(roll[1], "AER-R-40", "no advantage type is available now, so the roll could give nothing (AER-AMB-48)")
    # with money, only availability forbids them; a type 2..6 available: no refusal at all
    rich = set_player(bare, seat, money=5)
    says(check(CTX, rich, A.RollForAdvantages()), "AER-R-40", "no advantage type is available now", "(AER-AMB-48)")
    # an action refused for its own reason is not refused for availability too
    assert [r.rule for r in rejections(CTX, rich, A.BuyPlane(99))] == ["AER-R-08"]
    assert rejections(CTX, set_player(state, seat, money=0), A.TakeAdvantage(EM))[1:] == ()
    assert rejections(CTX, state, A.TakeAdvantage(EM)) == ()
    assert [r.rule for r in rejections(CTX, set_player(state, seat, money=0), A.TakeAdvantage(9))] == ["AER-R-39"]


def test_engine_maintenance_needs_a_tile_aer_r_44() -> None:
    """AER-R-44 (l.157): Engine Maintenance is played holding a tile."""
    state = started(3)
    refused(state, A.PlayEngineMaintenance(), "AER-R-44", "you hold no Engine Maintenance tile")


# ---------------------------------------------------------------------------
# Action 1: buying a plane (AER-R-08, R-45) and skip pricing under AER-AMB-06
# ---------------------------------------------------------------------------


def gapped_display() -> AerState:
    """Cards 1, 2, 4, 5, 6 and 8 out of the game: the display is 3, 7, 9, 10, ... 18."""
    state = started(3)
    display = (3, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)
    state = attrs.evolve(
        state, display=display, deck=tuple(n for n in state.deck if n > 18), removed_cards=(1, 2, 4, 5, 6, 8)
    )
    assert problems(CTX, state) == []
    return state


@pytest.mark.parametrize(("reading", "passed"), [("position", 2), ("gap", 6)])
def test_skip_pricing_readings_aer_r_08_amb_06(reading: str, passed: int) -> None:
    """AER-R-08 (l.62): the price plus £1 per display card skipped.  Card 9 (£5) on the display 3, 7, 9:
    AER-AMB-06 ``position`` skips the two cards before it (£7); ``gap`` the six numbers 3..8 (£11).
    Exactly enough money buys it; £1 less does not."""
    ctx = fresh_context(AER_AMB_06=reading)
    state = gapped_display()
    seat = state.to_move
    assert skipped(ctx, state, 9) == passed and plane_cost(ctx, state, 9) == 5 + passed
    assert skipped(ctx, state, 3) == 0
    exact = set_player(state, seat, money=5 + passed)
    accepted(exact, A.BuyPlane(9), ctx=ctx)
    short = set_player(state, seat, money=4 + passed)
    refused(
        short,
        A.BuyPlane(9),
        "AER-R-08",
        f"card 9 costs £5 + £{passed} for the cards skipped = £{5 + passed}; you have £{4 + passed}",
        ctx=ctx,
    )
    refused(short, A.BuyPlane(8), "AER-R-08", "card 8 is not on the display [3, 7, 9,", ctx=ctx)


def ip_state(spare: int) -> tuple[AerState, int]:
    """Era 2, the seat to move holds Increased Production and ``spare`` stage-1 tiles more than card 2
    shows (it shows 2)."""
    state = attrs.evolve(started(3), era=2)
    seat = state.to_move
    state = holding(state, seat, IP=1)
    state = set_player(state, seat, supply=(2 + spare, 9, 9), money=20)
    state = attrs.evolve(state, removed_cards=())  # the other tiles are simply not in the supply
    return state, seat


def test_increased_production_needs_the_extra_tile_exactly_aer_r_45() -> None:
    """AER-R-45 (l.158), AER-AMB-51: one more tile than the card shows must be in the supply: with exactly
    3 stage-1 tiles card 2 (2 tiles) loads 3; with 2 the boosted purchase is refused, the plain one not."""
    state, seat = ip_state(1)
    boosted = A.BuyPlane(2, increased_production=True)
    accepted(state, boosted)
    after = transition(CTX, state, boosted)
    assert after.players[seat].cards == (OwnedCard(2, tiles=3),)
    short, _ = ip_state(0)
    refused(short, boosted, "AER-R-45", "the extra stage-1 tile is not in your supply (2 left for a card showing 2)")
    accepted(short, A.BuyPlane(2))


def test_increased_production_refusals_aer_r_45() -> None:
    """AER-R-45: from era 2 (l.158) and holding the tile; ``rejections`` judges the price apart."""
    state = started(3)
    seat = state.to_move
    boosted = A.BuyPlane(2, increased_production=True)
    refused(state, boosted, "AER-R-45", "Increased Production is available from era 2")
    era2 = attrs.evolve(state, era=2)
    refused(era2, boosted, "AER-R-45", "you hold no Increased Production tile")
    poor = set_player(era2, seat, money=0)
    both = rejections(CTX, poor, boosted)
    assert [r.rule for r in both] == ["AER-R-08", "AER-R-45"]
    says(both[1], "AER-R-45", "you hold no Increased Production tile")
    assert [r.rule for r in rejections(CTX, poor, A.BuyPlane(2))] == ["AER-R-08"]


# ---------------------------------------------------------------------------
# Action 3: claiming (AER-R-34..37), face-down cards (AER-AMB-42), capacity exactly met
# ---------------------------------------------------------------------------


def claim_state() -> tuple[AerState, int, str]:
    """Seat to move owns card 1 (capacity 2) and airports at both ends of a capacity-2 passenger waiting
    at its home."""
    state = started(3, seed=4)
    seat = state.to_move
    home = state.players[seat].home
    assert home is not None
    section = next(w for w in state.waiting if w.city == home)
    two = next(p for p in CTX.pack.passengers if p.id in state.bag and p.capacity == 2 and p.destination != home)
    slots = tuple(two.id if i == 0 else t for i, t in enumerate(section.slots))
    bag = tuple(sorted([t for t in state.bag if t != two.id] + [t for t in section.slots[:1] if t is not None]))
    state = attrs.evolve(
        state, bag=bag, waiting=tuple(attrs.evolve(w, slots=slots) if w.city == home else w for w in state.waiting)
    )
    state = with_card(state, seat, 1, 1, money=10)
    state = give_airport(state, seat, two.destination)
    assert problems(CTX, state) == []
    return state, seat, two.id


def test_a_card_with_room_exactly_takes_the_tile_aer_r_36() -> None:
    """AER-R-36 (l.146-148): card 1 (capacity 2) takes a capacity-2 tile: the room is exactly enough."""
    state, _seat, tile = claim_state()
    accepted(state, A.ClaimPassenger(tile, 1))


def test_claim_refusals_name_the_tile_aer_r_34_36() -> None:
    """AER-R-34: a tile of the pack; AER-R-36: a card owned, with the room the tile needs."""
    state, seat, tile = claim_state()
    refused(state, A.ClaimPassenger("P999", 1), "AER-R-34", "there is no passenger tile 'P999'")
    refused(state, A.ClaimPassenger(tile, 2), "AER-R-36", "you do not own card 2")
    one = next(p.id for p in CTX.pack.passengers if p.id in state.bag and p.capacity == 1)
    card = attrs.evolve(state.players[seat].cards[0], passengers=(one,))
    full = attrs.evolve(set_player(state, seat, cards=(card,)), bag=tuple(t for t in state.bag if t != one))
    assert problems(CTX, full) == []
    refused(full, A.ClaimPassenger(tile, 1), "AER-R-36", f"card 1 has 1 unused capacity; {tile} needs 2 on one card")
    found = rejections(CTX, full, A.ClaimPassenger(tile, 1))
    assert [r.rule for r in found] == ["AER-R-36"]
    assert rejections(CTX, state, A.ClaimPassenger(tile, 1)) == ()


def test_rejections_of_a_claim_judge_airports_and_room_apart_aer_r_34_36() -> None:
    """A claim with no airport at the destination and too little room: both AER-R-34 and AER-R-36."""
    state, seat, tile = claim_state()
    dest = CTX.pack.passenger(tile).destination
    no_airport = with_slots(state, dest, tuple(None if a == Airport(seat, 1) else a for a in state.slots(dest)))
    no_airport = set_player(no_airport, seat, supply=(8, 9, 9))
    assert problems(CTX, no_airport) == []
    small = [p.id for p in CTX.pack.passengers if p.id in state.bag and p.capacity == 1][:1]
    card = attrs.evolve(no_airport.players[seat].cards[0], passengers=tuple(small))
    both = attrs.evolve(set_player(no_airport, seat, cards=(card,)), bag=tuple(t for t in state.bag if t not in small))
    assert problems(CTX, both) == []
    found = rejections(CTX, both, A.ClaimPassenger(tile, 1))
    assert [r.rule for r in found] == ["AER-R-34", "AER-R-36"]
    says(found[1], "AER-R-36", "card 1 has 1 unused capacity")
    assert [r.rule for r in rejections(CTX, both, A.ClaimPassenger("P999", 1))] == ["AER-R-34"]


@pytest.mark.parametrize("reading", ["reuse", "closed"])
def test_a_face_down_card_and_amb_42(reading: str) -> None:
    """AER-AMB-42 ``reuse``: a face-down card (flipped at an update, AER-R-55) takes passengers up to its
    excess; ``closed``: none."""
    ctx = fresh_context(AER_AMB_42=reading)
    state, seat, tile = claim_state()
    card = attrs.evolve(state.players[seat].cards[0], excess=2)
    flipped = set_player(state, seat, cards=(card,))
    assert problems(ctx, flipped) == []
    if reading == "closed":
        refused(
            flipped,
            A.ClaimPassenger(tile, 1),
            "AER-R-55",
            "card 1 is face down and takes no passengers (AER-AMB-42 closed)",
            ctx=ctx,
        )
    else:
        accepted(flipped, A.ClaimPassenger(tile, 1), ctx=ctx)


# ---------------------------------------------------------------------------
# Action 5: the subsidy (AER-R-48) and the readings whose end-of-era steps are not built
# ---------------------------------------------------------------------------


def test_the_last_note_is_a_subsidy_not_the_marker_aer_r_48() -> None:
    """AER-R-48 (l.163): £1 while the section holds a note, the last one included."""
    state = attrs.evolve(started(3), subsidy_pool=1)
    seat = state.to_move
    after = step(state, A.TakeSubsidy())
    assert after.players[seat].money == state.players[seat].money + 1
    assert after.subsidy_pool == 0 and after.marker_in_pool and after.phase is Phase.ACTION


@pytest.mark.parametrize("reading", ["keep", "lost"])
def test_the_marker_under_amb_41_readings(reading: str) -> None:
    """AER-AMB-41 ``keep``/``lost`` (tiles on a discarded card) are built: the marker is taken
    (tests/test_aer_readings_play.py plays the update under each)."""
    ctx = fresh_context(AER_AMB_41=reading)
    state = era_end_state()
    accepted(state, A.TakeSubsidy(), ctx=ctx)


@pytest.mark.parametrize("era", [2, 3])
def test_the_marker_under_amb_45_run(era: int) -> None:
    """AER-AMB-45 ``run`` (an update after era 3) is built: the marker is taken in any era
    (tests/test_aer_readings_play.py plays the update after era 3)."""
    ctx = fresh_context(AER_AMB_45="run")
    state = attrs.evolve(era_end_state(), era=era)
    accepted(state, A.TakeSubsidy(), ctx=ctx)


# ---------------------------------------------------------------------------
# Action 2: the slot (AER-R-29, R-30), the card and the reach (R-14..17)
# ---------------------------------------------------------------------------


def london_full() -> tuple[AerState, int]:
    """Risk example 1's state (4 players, the seat to move in Paris and Ethiopia, LR card 6 with two
    stage-1 tiles) plus stage-2 card 17 with one tile; London holds seat 0's home tile and a stage-1 tile
    of seats 2 and 3: its three slots in play (4 players) are full."""
    state, me = example_state(False)
    state = with_card(state, me, STAGE2, 1, money=20)
    state = give_airport(give_airport(state, 2, "London"), 3, "London")
    assert state.slots("London") == (Airport(0, HOME), Airport(2, 1), Airport(3, 1))
    assert problems(CTX, state) == []
    return state, me


def test_the_slot_rules_aer_r_29_30() -> None:
    """AER-R-29 (l.122-129): (c) one tile per destination, (d) no replacement while a slot is empty,
    (e) only by a higher stage, (f) never a home tile; AER-R-30: an upgrade replaces one's own tile."""
    state, _me = london_full()
    refused(state, A.PlaceAirport(STAGE2, "London", 0, "Paris"), "AER-R-29", "(f) slot 0 of London holds a home tile")
    refused(
        state,
        A.PlaceAirport(LR1, "London", 1, "Paris"),
        "AER-R-29",
        "(e) a stage-1 tile replaces only a lower stage, not stage 1",
    )
    accepted(state, A.PlaceAirport(STAGE2, "London", 1, "Paris"))
    refused(
        state,
        A.PlaceAirport(LR1, "East Africa", 0, "Ethiopia", "Kenya"),
        "AER-R-29",
        "(d) East Africa has an empty slot [1]: no replacement while one is empty",
    )
    refused(state, A.PlaceAirport(LR1, "London", 3, "Paris"), "AER-R-29", "London has slots 0..2 in play, not 3")
    refused(
        state,
        A.PlaceAirport(STAGE2, "Kenya", 0, None),
        "AER-R-30",
        "an upgrade replaces your own tile; you have none in Kenya",
    )


def test_an_upgrade_goes_onto_the_own_tile_aer_r_29_30() -> None:
    """AER-R-30 (l.85, l.128): an upgrade needs no reach and replaces the player's own tile, in its slot;
    a non-LR stage-2 card upgrades too (a fresh context lists the moves afresh)."""
    ctx = fresh_context()
    state, me = london_full()
    state = give_airport(state, me, "Kenya")
    state = give_airport(state, 0, "Kenya")
    assert state.slots("Kenya")[:2] == (Airport(me, 1), Airport(0, 1))
    refused(
        state,
        A.PlaceAirport(STAGE2, "Kenya", 1, None),
        "AER-R-29",
        "(c) you may hold one tile in Kenya: an upgrade replaces yours (slot 0)",
        ctx=ctx,
    )
    accepted(state, A.PlaceAirport(STAGE2, "Kenya", 0, None), ctx=ctx)
    refused(
        state,
        A.PlaceAirport(LR1, "Kenya", 0, None),
        "AER-R-29",
        "(e) a stage-1 tile replaces only a lower stage",
        ctx=ctx,
    )


@pytest.mark.parametrize(("players", "in_play"), [(3, 2), (5, 3)])
def test_the_slots_in_play_by_player_count_aer_set_04_r_29(players: int, in_play: int) -> None:
    """AER-SET-04: with 3 players the "4/5" slots are blocked, so a start city has two slots in play,
    with five three (AER-R-29: a tile goes into a slot in play)."""
    state = started(players)
    seat = state.to_move
    state = with_card(state, seat, LR1, 1)
    home = state.players[seat].home
    city = next(c for c in CTX.pack.start_cities if c != home)
    refused(
        state,
        A.PlaceAirport(LR1, city, in_play, home),
        "AER-R-29",
        f"{city} has slots 0..{in_play - 1} in play, not {in_play}",
    )


def test_the_card_and_the_destination_aer_r_13_14() -> None:
    """AER-R-13: the tile comes from an own card holding one; AER-R-14: a destination of the map."""
    state, me = example_state(False)
    refused(state, A.PlaceAirport(STAGE2, "Kenya", 0, "Ethiopia"), "AER-R-13", "you do not own card 17")
    empty = with_card(state, me, PLAIN1, 0)
    refused(empty, A.PlaceAirport(PLAIN1, "Kenya", 0, "Ethiopia"), "AER-R-13", "card 1 holds no airport tile")
    refused(state, A.PlaceAirport(LR1, "Atlantis", 0, "Ethiopia"), "AER-R-14", "there is no destination 'Atlantis'")


def test_the_reach_refusals_aer_r_14_16_17() -> None:
    """AER-R-14: from an own airport along a connection of the map; AER-R-16: an LR connection needs a
    tile from an LR card; AER-R-17: only an LR card's tile hops, over one other destination."""
    ctx = fresh_context()
    state, me = example_state(False)
    state = with_card(state, me, PLAIN1, 1)
    for c in (CTX, ctx):
        refused(
            state,
            A.PlaceAirport(LR1, "India", 0, "Kenya"),
            "AER-R-14",
            "you have no airport in Kenya to start from",
            ctx=c,
        )
        refused(
            state,
            A.PlaceAirport(LR1, "East Africa", 1, "Paris"),
            "AER-R-14",
            "no connection on the map along Paris ->  -> East Africa (AER-R-14, AER-R-15)",
            ctx=c,
        )
        refused(
            state,
            A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "India"),
            "AER-R-17",
            "no connection on the map along Ethiopia -> India -> East Africa",
            ctx=c,
        )
        refused(
            state,
            A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Ethiopia"),
            "AER-R-17",
            "a hop goes over one other destination",
            ctx=c,
        )
        refused(
            state,
            A.PlaceAirport(PLAIN1, "East Africa", 1, "Ethiopia", "Kenya"),
            "AER-R-17",
            "only a tile from an LR card hops; card 1 is not one",
            ctx=c,
        )
        refused(
            state,
            A.PlaceAirport(PLAIN1, "North America", 0, "Paris"),
            "AER-R-16",
            "a connection on this route needs a tile from an LR card; card 1 is not one",
            ctx=c,
        )
        accepted(state, A.PlaceAirport(LR1, "North America", 0, "Paris"), ctx=c)
        accepted(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"), ctx=c)


def test_a_missing_connection_is_a_risk_error_aer_r_14_15() -> None:
    """AER-R-14/15: no arc on the map (Casablanca -> London is one-way the other way), no route."""
    ctx = fresh_context()
    assert [leg.long_range for leg in cached_route(ctx, "London", "North America", None).legs] == [True]
    assert len(cached_route(ctx, "Ethiopia", "East Africa", "Kenya").legs) == 2
    for _ in range(2):  # the second time from the memo: the same answer
        with pytest.raises(RiskError, match=r"no connection on the map along Casablanca ->  -> London"):
            cached_route(ctx, "Casablanca", "London", None)


def test_rejections_of_a_placement_judge_slot_and_reach_apart_aer_r_14_29() -> None:
    """A placement into an occupied slot beside an empty one (AER-R-29 (d)) from a city without a
    connection (AER-R-14): both rules, the slot's cited first (checked before any roll, AER-AMB-13)."""
    state, _me = example_state(False)
    action = A.PlaceAirport(LR1, "East Africa", 0, "Paris")
    found = rejections(CTX, state, action)
    assert [r.rule for r in found] == ["AER-R-29", "AER-R-14"]
    says(found[0], "AER-R-29", "(d) East Africa has an empty slot [1]")
    says(found[1], "AER-R-14", "no connection on the map along Paris ->  -> East Africa")
    assert rejections(CTX, state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya")) == ()
    assert [r.rule for r in rejections(CTX, state, A.PlaceAirport(LR1, "Kenya", 0, "Ethiopia", "Kenya"))] == [
        "AER-R-17"
    ]


def test_generated_placements_from_a_fresh_context_aer_r_14_18() -> None:
    """AER-R-14..18 on a context no memo knows: from both own airports (Paris, Ethiopia), direct along the
    arcs and, with the LR card, over one hop; a non-LR card takes no hop and no LR connection but every
    other route; a full destination where the player has no tile takes a higher stage (AER-R-29 (e))."""
    ctx = fresh_context()
    state, me = london_full()
    state = with_card(state, me, PLAIN1, 1)
    legal = [a for a in legal_actions(ctx, state) if isinstance(a, A.PlaceAirport)]
    assert len(legal) == len(set(legal))
    for a in legal:
        assert check(ctx, state, a) is None, a
    expected = {
        A.PlaceAirport(LR1, "Kenya", 0, "Ethiopia"),  # direct from Ethiopia
        A.PlaceAirport(LR1, "Frankfurt", 0, "Paris"),  # direct from Paris
        A.PlaceAirport(LR1, "North America", 0, "Paris"),  # an LR connection, LR card
        A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"),  # a hop (risk example 1)
        A.PlaceAirport(PLAIN1, "Kenya", 0, "Ethiopia"),
        A.PlaceAirport(PLAIN1, "Frankfurt", 0, "Paris"),
        A.PlaceAirport(STAGE2, "London", 1, "Paris"),  # a higher stage replaces seat 2's tile
    }
    assert expected <= set(legal), expected - set(legal)
    forbidden = {
        A.PlaceAirport(PLAIN1, "North America", 0, "Paris"),
        A.PlaceAirport(PLAIN1, "East Africa", 1, "Ethiopia", "Kenya"),
        A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia"),
        A.PlaceAirport(LR1, "London", 1, "Paris"),
        A.PlaceAirport(STAGE2, "London", 0, "Paris"),
    }
    assert not forbidden & set(legal)
    assert all(a.origin in ("Paris", "Ethiopia") and a.destination not in ("Paris", "Ethiopia") for a in legal)
    assert all(a.via is None or a.card == LR1 for a in legal)
    assert all(a.via not in (a.origin, a.destination) for a in legal if a.via is not None)
    assert legal_actions(ctx, state) == legal_actions(ctx, state)  # from the memo: the same list


# ---------------------------------------------------------------------------
# Second batch: the paths the first run left open
# ---------------------------------------------------------------------------


def test_an_ncr_roll_is_due_aer_r_20() -> None:
    """AER-R-20 (l.89-90): after an attempt is declared, its roll of the three risk dice comes first."""
    state, _me = example_state(False)
    state = step(state, A.PlaceAirport(LR1, "East Africa", 1, "Ethiopia", "Kenya"))
    assert state.phase is Phase.RISK_ROLL
    refused(state, A.TakeSubsidy(), "AER-R-20", "an NCR roll is due: a RiskThrow of the three risk dice")


def test_doubles_with_one_tile_left_judge_the_second_die_after_the_first_aer_r_39_40() -> None:
    """AER-R-39(b) (l.154), AER-R-40 (l.155): the dice are used one after the other, so with one Daring
    Pilot left two 2s give one tile; the second 2 finds the stack empty and gives nothing."""
    state = started(3)
    state = holding(state, (state.to_move + 1) % 3, DP=5)
    state = step(state, A.RollForAdvantages())
    state = step(state, A.AdvantageThrow((2, 2, 3)))
    refused(
        state,
        A.PickAdvantages((0, 1), (2, 2)),
        "AER-R-40",
        "die 1 shows 2: all 6 Daring Pilot tiles (type 2) are in players' hands (l.155), so it gives nothing",
    )
    accepted(state, A.PickAdvantages((0, 1), (2, None)))
    accepted(state, A.PickAdvantages((0, 2), (2, 3)))


def test_claim_refusals_say_where_the_tile_is_aer_r_34_37() -> None:
    """AER-R-34 (l.141-143): a waiting tile, an airport where it waits and at its destination; AER-R-37
    (l.151): an overflow tile, an airport at its destination."""
    state, seat, tile = claim_state()
    dest = CTX.pack.passenger(tile).destination
    refused(state, A.ClaimPassenger(tile, 1, overflow=True), "AER-R-37", f"{tile} is not in the overflow area")
    in_bag = next(t for t in state.bag if CTX.pack.passenger(t).capacity <= 2)
    refused(state, A.ClaimPassenger(in_bag, 1), "AER-R-34", f"{in_bag} is not in the waiting area")
    elsewhere = next(w for w in state.waiting if w.city not in state.airports(seat))
    far_tile = next(t for t in elsewhere.slots if t is not None)
    refused(
        state,
        A.ClaimPassenger(far_tile, 1),
        "AER-R-34",
        f"{far_tile} waits in {elsewhere.city}: you need an airport there",
    )
    bare = with_slots(state, dest, tuple(None if a == Airport(seat, 1) else a for a in state.slots(dest)))
    bare = set_player(bare, seat, supply=(8, 9, 9))
    assert problems(CTX, bare) == []
    refused(bare, A.ClaimPassenger(tile, 1), "AER-R-34", f"{tile} flies to {dest}: you need an airport there")
    lost = next(
        p
        for p in CTX.pack.passengers
        if p.id in state.bag and p.destination not in state.airports(seat) and p.capacity <= 2
    )
    spilled = attrs.evolve(state, era=2, bag=tuple(t for t in state.bag if t != lost.id), overflow=(lost.id,))
    assert problems(CTX, spilled) == []
    refused(
        spilled,
        A.ClaimPassenger(lost.id, 1, overflow=True),
        "AER-R-37",
        f"an overflow claim needs your airport at its destination, {lost.destination}",
    )


def test_the_last_note_under_amb_41_keep_is_still_a_subsidy_aer_r_48() -> None:
    """AER-AMB-41 concerns only the marker's era end: with one note left the subsidy is a plain £1."""
    ctx = fresh_context(AER_AMB_41="keep")
    state = attrs.evolve(era_end_state(), subsidy_pool=1)
    accepted(state, A.TakeSubsidy(), ctx=ctx)


@pytest.mark.parametrize(("reading", "rolls"), [("hop", ((12, 0), (10, 2))), ("symmetric", ((12, 0),))])
def test_the_white_second_leg_of_a_hop_under_amb_16(reading: str, rolls: tuple[tuple[int, int], ...]) -> None:
    """AER-R-21, AER-AMB-16: Rome -> Paris over Madrid (a red leg, then a white one into Paris, where
    seat 1's home tile gives +2, AER-R-22).  ``hop``: the white second leg of a hop is rolled (10+);
    ``symmetric``: only when the first leg is white too, so only the red leg's 12+.  Both readings are
    asked in turn, so a memo shared between contexts would show."""
    state = attrs.evolve(started(4), to_move=0)
    assert state.players[0].home != "Paris" and state.slots("Paris")[0] == Airport(1, HOME)
    state = with_card(give_airport(state, 0, "Rome"), 0, LR1, 1)
    assert problems(CTX, state) == []
    for r in ("hop", "symmetric", reading):
        ctx = Context.printed(readings={"AER-AMB-16": r})
        after = phase_step(state, ctx, A.PlaceAirport(LR1, "Paris", 1, "Rome", "Madrid"))
        assert after.turn.attempt is not None
        if r == reading:
            assert after.turn.attempt.rolls == rolls


def test_the_map_is_the_packs_aer_r_14_21() -> None:
    """AER-R-14/21: a route and its rolls follow the pack's map.  Ethiopia-Kenya is red in the bundled
    pack (risk example 1, l.119): an attempt needs a roll.  In a pack where it is white, a single white
    connection needs no roll (l.86): the tile is placed at once."""
    data = bundled_pack_data()
    for c in data["connections"]:
        if set(c["between"]) == {"Ethiopia", "Kenya"}:
            c["colour"] = "white"
    ctx = Context.printed(pack=pack_from_data(data, "<white Ethiopia-Kenya>"))
    state, me = example_state(False)
    direct = A.PlaceAirport(LR1, "Kenya", 0, "Ethiopia")
    assert step(state, direct).phase is Phase.RISK_ROLL
    assert [leg.colour for leg in cached_route(CTX, "Ethiopia", "Kenya", None).legs] == ["red"]
    assert [leg.colour for leg in cached_route(ctx, "Ethiopia", "Kenya", None).legs] == ["white"]
    placed = phase_step(state, ctx, direct)
    assert placed.phase is Phase.PLACING and placed.slots("Kenya")[0] == Airport(me, 1)


def test_routes_of_an_airport_are_the_same_from_another_set_of_airports_aer_r_14_17() -> None:
    """AER-R-14..17: the routes out of Paris do not depend on the player's other airports: after a third
    airport (Kenya) the direct routes and hops out of Paris and Ethiopia are still offered."""
    ctx = fresh_context()
    state, me = london_full()
    state = with_card(state, me, PLAIN1, 1)
    more = give_airport(state, me, "Kenya")
    for s in (state, more):
        legal = set(legal_actions(ctx, s))
        for a in (
            A.PlaceAirport(PLAIN1, "Frankfurt", 0, "Paris"),
            A.PlaceAirport(PLAIN1, "Cairo", 0, "Ethiopia"),
            A.PlaceAirport(LR1, "India", 0, "Ethiopia"),
            A.PlaceAirport(LR1, "Persia", 0, "Ethiopia", "India"),
            A.PlaceAirport(LR1, "Amsterdam", 1, "Paris", "Frankfurt"),
        ):
            assert a in legal, a
        assert A.PlaceAirport(PLAIN1, "Persia", 0, "Ethiopia", "India") not in legal


def test_rejections_of_a_boosted_purchase_short_of_money_and_tiles_aer_r_08_45() -> None:
    """AER-R-08 and AER-R-45 judged apart: a holder of Increased Production in era 2 with too little money
    and no extra tile in the supply is refused for both, the price first."""
    state, seat = ip_state(0)
    poor = set_player(state, seat, money=0)
    found = rejections(CTX, poor, A.BuyPlane(2, increased_production=True))
    assert [r.rule for r in found] == ["AER-R-08", "AER-R-45"]
    says(found[1], "AER-R-45", "the extra stage-1 tile is not in your supply (2 left for a card showing 2)")


def test_a_rejection_cites_its_rules_seed_lines_and_an_unknown_id_is_refused() -> None:
    """A rule of play and a set-up step cite their own catalogue's lines (one dict holds both); an ID of
    neither is a programming error, named as the catalogue names it."""
    from rulecraft.model.aeroplanes.catalogue import RULES, SETUP

    assert reject("AER-R-63", "why") == Rejection("AER-R-63", "why", RULES["AER-R-63"].page)
    assert reject("AER-SET-03", "why") == Rejection("AER-SET-03", "why", SETUP["AER-SET-03"].page)
    with pytest.raises(KeyError, match="AER-R-99 is not a rule of aer"):
        reject("AER-R-99", "why")
