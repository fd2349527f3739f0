"""Steamopolis legality, refusal by refusal (issue 22: a mutation score for every module, here
``model/steamopolis/rules.py``).

Each test builds a small state with the builders of tests/test_stm_parasites.py and
tests/test_stm_solo.py and asserts what the rules digest (/work/shared/rules/steamopolis.md) and the
rulebook say: the rule ID a refusal cites, with the page the catalogue gives it, and the reason in
full (the reason is the model's wording; the rule and the accepted/refused verdict are the
rulebook's), or the exact legal options.  The rare paths are the point: ``rejections`` (every rule
that forbids an action, each condition judged apart), the readings not at their defaults (STM-AMB-05,
-06, -09, -13, -15, -17, -20, -23, -28, -39), exact limits (a full gauge, the last stone, the value-4
base space), the solo game's own refusals (STM-R-72) and generation held to the plain reference
``legal_actions_by_check``.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from test_stm_parasites import BOILER, CTX, PACK, STORAGE, flying, game, machine, pack_ctx, play, player, room
from test_stm_solo import BESIDE, activate_state, fly_home, removal_stage
from test_stm_solo import flight as solo_flight
from test_stm_solo import play as solo_play

from rulecraft.core import Rejection
from rulecraft.model.steamopolis.actions import (
    ActivateParasite,
    BuildCapacity,
    BuildStartingRoom,
    BuyBanner,
    BuyBonusMarker,
    BuyMachine,
    ChannelPressure,
    ChooseSide,
    DealCharacter,
    DeclineCost,
    EndTurn,
    FlyToAllTargets,
    GainStone,
    LeaveParasites,
    LetLapse,
    LetPlayer,
    MakeSteam,
    MoveArrowStones,
    MoveBaseMarker,
    MoveLeft,
    ParasiteAt,
    PassTurn,
    PayCost,
    PickUp,
    PlaceParasite,
    PlacePinkMarker,
    PlaceStone,
    RaiseOneStone,
    RaisePressure,
    RevealPassenger,
    SetTarget,
    ShakeOffParasite,
    SkipPart,
    SkipStep,
    StmAction,
    StopBuying,
    Store,
    TakeBack,
    TakeGala,
    TakeResources,
    TakeSponsor,
    TurnArrows,
    UseDistrict,
    UseFaceUpTile,
    UseOtherDistrict,
    UsePart,
    UseRemovedTile,
)
from rulecraft.model.steamopolis.catalogue import RULES
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import (
    ActivateParasites,
    AdvanceBaseMarker,
    BuyTile,
    Either,
    Envy,
    EnvyParasite,
    GainCapacityTile,
    GainCharityGala,
    GainPinkMarker,
    GainPressureStone,
    GainResources,
    GainSponsor,
    Handover,
    IncreaseOneStone,
    IncreasePressure,
    NextSharer,
    PayCrystalsPerStone,
    PayResources,
    PlaceParasites,
    ReturnStone,
    ShakeOff,
    Step,
    StoneToEight,
    TurnSponsor,
    TurnStones,
    UseAnotherDistrict,
    VotePoints,
)
from rulecraft.model.steamopolis.gauge import BonusMarker, GaugeError, Stone, gauge_of, increase
from rulecraft.model.steamopolis.rules import (
    SOLO_RANKS,
    _pressure_verdict,
    _raises_for,
    _walk_ends,
    can_place,
    check,
    legal_actions,
    legal_actions_by_check,
    rejections,
    solo_lost,
)
from rulecraft.model.steamopolis.setup import room_rejection
from rulecraft.model.steamopolis.state import (
    SHADOW,
    BoardStone,
    BonusMarket,
    FinalStep,
    Market,
    Parasite,
    Passengers,
    Phase,
    PlayerState,
    RoomTile,
    Solo,
    StmState,
    TurnState,
)
from rulecraft.model.steamopolis.transitions import end_of_turn

NO_SYMBOL: Any = "boiler"  # neither symbol a parasite or an effect use may name
NO_RESOURCE: Any = "steam"  # neither resource


def says(why: Rejection | None, rule: str, reason: str) -> None:
    """``why`` cites ``rule`` (with the catalogue's page) for exactly ``reason``."""
    assert why is not None, "accepted, expected a refusal"
    assert (why.rule, why.reason) == (rule, reason), why
    assert why.page == RULES[rule].page


def generated(state: StmState, ctx: Context = CTX) -> list[StmAction]:
    """``legal_actions``, held to the plain reference: every candidate ``check`` accepts, in order."""
    found = legal_actions(ctx, state)
    assert found == legal_actions_by_check(ctx, state)
    return found


def refused(state: StmState, action: StmAction, rule: str, reason: str, ctx: Context = CTX) -> None:
    """``check`` refuses ``action`` so, and ``legal_actions`` does not offer it."""
    says(check(ctx, state, action), rule, reason)
    assert action not in generated(state, ctx)


def accepted(state: StmState, action: StmAction, ctx: Context = CTX) -> None:
    why = check(ctx, state, action)
    assert why is None, why
    assert action in generated(state, ctx)


def rules_of(state: StmState, action: StmAction, ctx: Context = CTX) -> list[str]:
    return [r.rule for r in rejections(ctx, state, action)]


def reading(key: str, value: str) -> Context:
    return Context.printed(None, {key: value})


def pending(state: StmState, *parts: Step, **turn: Any) -> StmState:
    """``state`` with one effect program waiting, its parts in order (STM-R-22)."""
    return attrs.evolve(state, turn=attrs.evolve(state.turn, pending=(tuple(parts),), **turn))


# ---------------------------------------------------------------------------
# rejections: every rule that forbids an action, each condition judged apart
# ---------------------------------------------------------------------------


def test_r26_r27_a_too_high_taken_district_breaks_both_rules() -> None:
    """STM-R-26 (p.11): a stone of value v reaches levels <= v; STM-R-27: only a free district.  The
    stone on g4 has value 2 (STM-R-14); L3-left is too high and taken: both rules forbid it."""
    state = game(player([(4, False)]), player(on_board=1), board=(BoardStone(1, 3, "left"),))
    found = rejections(CTX, state, SetTarget(4, 3, "left"))
    assert [r.rule for r in found] == ["STM-R-26", "STM-R-27"]
    says(found[0], "STM-R-26", "a stone of pressure value 2 reaches level 2 at most, not 3")
    says(found[1], "STM-R-27", "the left district of level 3 is not free")
    # too high only, taken only, neither
    assert rules_of(state, SetTarget(4, 3, "right")) == ["STM-R-26"]
    low = game(player([(4, False)]), player(on_board=1), board=(BoardStone(1, 2, "left"),))
    found = rejections(CTX, low, SetTarget(4, 2, "left"))
    assert [r.rule for r in found] == ["STM-R-27"]
    says(found[0], "STM-R-27", "the left district of level 2 is not free")
    assert rejections(CTX, low, SetTarget(4, 2, "right")) == ()
    # a district the side does not have: STM-R-01 alone (its level and freedom are not judged)
    assert rules_of(state, SetTarget(4, 9, "left")) == ["STM-R-01"]
    says(check(CTX, state, SetTarget(4, 9, "left")), "STM-R-01", "the 2-3-player side has no left district on level 9")
    # no stone on the named space: STM-R-26 alone
    found = rejections(CTX, state, SetTarget(5, 1, "left"))
    assert [r.rule for r in found] == ["STM-R-26"]
    says(found[0], "STM-R-26", "no pressure stone of yours on gauge space 5")


def test_r26_r27_judged_out_of_step() -> None:
    """Out of its step a target still breaks STM-R-26/27: the flight (STM-R-33) is cited first."""
    state = flying(4, "left", player([(4, False)]), player(on_board=1), board=(BoardStone(1, 3, "left"),))
    state = attrs.evolve(state, turn=attrs.evolve(state.turn, step="next"))
    found = rejections(CTX, state, SetTarget(4, 3, "left"))
    assert [r.rule for r in found] == ["STM-R-33", "STM-R-26", "STM-R-27"]
    says(found[0], "STM-R-33", "take back one of your stones first")


def test_r29_a_channelled_stone_placed_too_high_on_a_taken_district() -> None:
    """STM-R-29 (p.13): the channelled stone of current value w goes on a free district of a level <= w."""
    state = game(player([(6, False)]), player(on_board=1), board=(BoardStone(1, 3, "left"),), phase=Phase.CHANNEL)
    state = attrs.evolve(state, turn=TurnState(channel=2))
    found = rejections(CTX, state, PlaceStone(3, "left"))
    assert [r.rule for r in found] == ["STM-R-26", "STM-R-27"]
    says(found[1], "STM-R-27", "the left district of level 3 is not free")
    assert rules_of(state, PlaceStone(9, "left")) == ["STM-R-01"]
    # Outside the channel step nothing is being channelled: only the step refuses.
    acting = attrs.evolve(state, phase=Phase.ACTION, turn=TurnState())
    found = rejections(CTX, acting, PlaceStone(1, "left"))
    assert [r.rule for r in found] == ["STM-R-23"]
    says(found[0], "STM-R-23", "choose MAKE STEAM, SET 1 TARGET or FLY TO ALL TARGETS")


def test_r40_r41_unpaid_rank_1_machine_without_a_removal() -> None:
    """STM-R-40 (p.18): no purchase without the full price; STM-R-41 (p.19): from rank 1 a machine-room
    tile is removed.  M1-01 costs 2 crystals (STM-EX-13); the buyer has none and removes nothing."""
    buyer = player(crystals=0, machine_room=room((1, STORAGE)))
    state = flying(5, "left", buyer, player(), markets=(Market(5, ("M1-01", "M2-01")),))
    found = rejections(CTX, state, BuyMachine(2))
    assert [r.rule for r in found] == ["STM-R-40", "STM-R-41"]
    says(found[0], "STM-R-40", "the tile costs 2 crystals and 0 gears: you cannot pay it all")
    says(found[1], "STM-R-41", "from rank 1 a machine tile must be removed from your machine room")
    # paid in full, removal named: only the price was missing
    assert rules_of(state, BuyMachine(2, 1)) == ["STM-R-40"]
    # an empty market: only STM-R-40 (no slot to judge the room against)
    bare = attrs.evolve(state, markets=(Market(5, ()),))
    found = rejections(CTX, bare, BuyMachine(2))
    assert [r.rule for r in found] == ["STM-R-40"]
    says(found[0], "STM-R-40", "no face-up tile on the market of level 5")
    says(check(CTX, bare, BuyMachine(2, extra=True)), "STM-R-40", "no face-up tile on the extra market of level 5")


def test_r41_judged_apart_only_in_a_flight_step() -> None:
    """The room condition of a purchase is judged apart in the flight step of the active level; with an
    effect waiting (STM-R-22) the price (STM-R-40) is still judged, the room no longer."""
    buyer = player(crystals=0, machine_room=room((1, STORAGE)))
    state = flying(5, "left", buyer, player(), markets=(Market(5, ("M1-01",)),))
    waiting = pending(state, VotePoints(1))
    found = rejections(CTX, waiting, BuyMachine(2))
    assert [r.rule for r in found] == ["STM-R-22", "STM-R-40"]
    says(found[0], "STM-R-22", "finish the effect first: VotePoints(n=1) waits for a decision")
    acting = game(buyer, player())
    assert rules_of(acting, BuyMachine(2)) == ["STM-R-23"]


def test_r46_r47_unpaid_marker_on_a_wrong_space() -> None:
    """STM-R-46 (p.22): the crystal row's foremost #5 costs 1 crystal (STM-EX-23); STM-R-47: it goes on a
    #5 space (g7) right of the base marker.  No crystal and space 2: both rules forbid it."""
    state = flying(1, "left", player(), player())
    found = rejections(CTX, state, BuyBonusMarker("crystal", 2))
    assert [r.rule for r in found] == ["STM-R-46", "STM-R-47"]
    says(found[0], "STM-R-46", "the #5 marker costs 1 crystals; you have 0")
    says(found[1], "STM-R-47", "space 2 is not a #5 space right of the base marker")
    empty = attrs.evolve(state, bonus=BonusMarket(crystal_row=()))
    found = rejections(CTX, empty, BuyBonusMarker("crystal", 2))
    assert [r.rule for r in found] == ["STM-R-46"]
    says(found[0], "STM-R-46", "the crystal row is empty")
    # the gear row is judged on its own: its #5 costs 1 gear
    geared = attrs.evolve(state, bonus=BonusMarket(gear_row=(3, 2)))
    found = rejections(CTX, geared, BuyBonusMarker("gear", 7))
    assert [r.rule for r in found] == ["STM-R-46", "STM-R-47"]
    says(found[0], "STM-R-46", "the #3 marker costs 2 gears; you have 0")
    says(found[1], "STM-R-47", "space 7 is not a #3 space right of the base marker")
    # not on level 1: STM-R-38 only
    high = flying(5, "left", player(), player())
    found = rejections(CTX, high, BuyBonusMarker("crystal", 2))
    assert [r.rule for r in found] == ["STM-R-38"]
    says(found[0], "STM-R-38", "bonus markers are sold on level 1 only")


def test_rejections_of_a_legal_action_is_empty() -> None:
    state = flying(1, "left", player(crystals=1), player())
    assert rejections(CTX, state, BuyBonusMarker("crystal", 7)) == ()
    assert check(CTX, state, BuyBonusMarker("crystal", 7)) is None


# ---------------------------------------------------------------------------
# The step layer
# ---------------------------------------------------------------------------


def test_r03_r51_only_chance_deals() -> None:
    """STM-R-03 (p.4): tiles and characters are dealt at random; STM-R-51 (p.24): the next passenger tile
    is revealed from the stack.  A deal that is not one of chance's outcomes is refused."""
    reveal = game(player(), phase=Phase.REVEAL)
    reveal = attrs.evolve(reveal, passengers=attrs.evolve(reveal.passengers, stack=("P02",), face_up=None))
    says(check(CTX, reveal, RevealPassenger("P09")), "STM-R-51", "chance cannot deal RevealPassenger(id='P09') now")
    assert check(CTX, reveal, RevealPassenger("P02")) is None
    deal = attrs.evolve(reveal, phase=Phase.DEAL)
    says(check(CTX, deal, RevealPassenger("P02")), "STM-R-03", "chance cannot deal RevealPassenger(id='P02') now")
    acting = game(player([(4, False)]))
    says(check(CTX, acting, DealCharacter(3)), "STM-R-03", "only chance deals tiles and characters")


def test_r32_no_store_step_is_due() -> None:
    """STM-R-32 (p.14): a store step comes after a placement or a flight step, never at will."""
    state = game(player([(4, False)], crystals=1))
    refused(state, Store(1, 0), "STM-R-32", "no store step is due")


def test_r67_nothing_after_the_game() -> None:
    state = game(player([(4, False)]), phase=Phase.OVER)
    refused(state, EndTurn(), "STM-R-67", "the game is over")
    assert legal_actions(CTX, state) == []


def test_r33_the_next_stone_waits_for_the_current_one() -> None:
    """STM-R-33 (p.15): 'do steps 1-4 completely' before the next stone is taken back."""
    two = game(player(on_board=2), player(), board=(BoardStone(0, 4, "left"), BoardStone(0, 5, "left")))
    state = play(two, FlyToAllTargets(), TakeBack(4, "left"))
    refused(state, TakeBack(5, "left"), "STM-R-33", "finish the steps of the current stone before taking back the next")
    says(check(CTX, state, StopBuying()), "STM-R-38", "choose the district effect, a purchase, or nothing")


def test_r19_the_arrow_order_names_arrow_stones_once() -> None:
    """STM-R-19 (p.31): each arrow stone on the gauge moves once, in an order you choose."""
    state = game(player([(2, True), (4, False), (6, True)]), phase=Phase.START_OF_TURN)
    refused(state, MoveArrowStones((2, 2)), "STM-R-19", "the order [2, 2] must name arrow stones [2, 6], each once")
    refused(state, MoveArrowStones((2, 4)), "STM-R-19", "the order [2, 4] must name arrow stones [2, 6], each once")
    assert check(CTX, state, MoveArrowStones((6, 2))) is None


# ---------------------------------------------------------------------------
# STM-R-66 / STM-AMB-17: the final turn
# ---------------------------------------------------------------------------

COMPULSORY = reading("STM-AMB-17", "compulsory")


def final(state: StmState, step: FinalStep) -> StmState:
    return attrs.evolve(state, turn=TurnState(final_step=step))


def test_amb17_compulsory_set_target_with_a_free_district_in_reach() -> None:
    """STM-AMB-17 'compulsory': SET 1 TARGET is possible (the g1 stone of value 1 reaches a free level-1
    district; it cannot channel, STM-R-28), so it cannot be skipped; 'optional' lets it be skipped."""
    state = final(game(player([(1, False)]), player()), "target")
    says(
        check(COMPULSORY, state, SkipStep()),
        "STM-R-66",
        "SET 1 TARGET is possible, so it is compulsory (STM-AMB-17)",
    )
    assert SkipStep() not in legal_actions(COMPULSORY, state)
    assert check(CTX, state, SkipStep()) is None
    refused(
        state,
        MakeSteam(()),
        "STM-R-66",
        "the final turn is MAKE STEAM, then SET 1 TARGET, then FLY TO ALL TARGETS: now SET 1 TARGET or skip it",
    )
    says(check(CTX, state, PassTurn()), "STM-R-66", check(CTX, state, MakeSteam(())).reason)  # type: ignore[union-attr]


def test_amb17_compulsory_set_target_impossible_may_be_skipped() -> None:
    """STM-R-66 (p.25): in the final turn own stones still block.  The g1 stone (value 1) finds both
    level-1 districts under own stones and cannot channel: SET 1 TARGET is impossible, the skip stands."""
    me = player([(1, False)], on_board=2)
    state = final(game(me, player(), board=(BoardStone(0, 1, "left"), BoardStone(0, 1, "right"))), "target")
    assert check(COMPULSORY, state, SkipStep()) is None
    assert legal_actions(COMPULSORY, state) == [SkipStep()]


def test_amb17_compulsory_fly_and_steam() -> None:
    """STM-AMB-17 'compulsory': FLY is possible with an own stone on the board, MAKE STEAM with a gauge
    stone that can move; without them the step is skipped."""
    flier = final(game(player(on_board=1), player(), board=(BoardStone(0, 2, "left"),)), "fly")
    says(
        check(COMPULSORY, flier, SkipStep()),
        "STM-R-66",
        "FLY TO ALL TARGETS is possible, so it is compulsory (STM-AMB-17)",
    )
    grounded = final(game(player([(4, False)]), player()), "fly")
    assert check(COMPULSORY, grounded, SkipStep()) is None
    steamer = final(game(player([(4, False)]), player()), "steam")
    says(check(COMPULSORY, steamer, SkipStep()), "STM-R-66", "MAKE STEAM is possible, so it is compulsory (STM-AMB-17)")
    stuck = final(game(player([(10, False)]), player()), "steam")
    assert check(COMPULSORY, stuck, SkipStep()) is None


# ---------------------------------------------------------------------------
# STM-R-20 / R-18: gaining a stone
# ---------------------------------------------------------------------------


def _gaining(stones: list[tuple[int, bool]], markers: list[tuple[int, int]], base: int = 0, **kw: Any) -> StmState:
    p = player(stones, **kw)
    p = attrs.evolve(p, gauge=gauge_of(stones, markers, base))
    return pending(game(p, player()), GainPressureStone())


def test_r20_the_stone_gained_shows_the_face_asked_for() -> None:
    """STM-R-20 (p.10): take 1 stone from your personal supply (faces kept there, STM-AMB-10)."""
    plain = _gaining([(4, False)], [])
    refused(plain, GainStone(True), "STM-R-20", "no stone showing an arrow in your personal supply")
    accepted(plain, GainStone(False))
    arrows = pending(game(attrs.evolve(player([(4, False)]), supply=(Stone(True),)), player()), GainPressureStone())
    refused(arrows, GainStone(False), "STM-R-20", "no stone showing no arrow in your personal supply")
    accepted(arrows, GainStone(True))


def test_r18_a_free_space_returns_no_marker() -> None:
    """STM-R-18 (p.10): only with no free space is a bonus marker returned to the box."""
    state = _gaining([(4, False)], [(7, 5)])
    refused(
        state, GainStone(False, 7), "STM-R-18", "no bonus marker goes to the box: a space is free or none lies there"
    )


def test_r18_a_full_gauge_returns_a_marker_of_your_choice() -> None:
    """STM-R-18 (p.10): base marker on g2 (STM-R-17), g3..g10 full: 4 markers and 4 stones; the fifth stone
    is in the supply.  A marker of the player's choice goes to the box; a stone space is no marker."""
    state = _gaining([(7, False), (8, False), (9, False), (10, False)], [(3, 2), (4, 2), (5, 3), (6, 4)], base=2)
    refused(state, GainStone(False), "STM-R-18", "no free gauge space: return one of the bonus markers on [3, 4, 5, 6]")
    refused(
        state, GainStone(False, 8), "STM-R-18", "no free gauge space: return one of the bonus markers on [3, 4, 5, 6]"
    )
    for space in (3, 4, 5, 6):
        accepted(state, GainStone(False, space))


def test_r18_a_full_gauge_without_markers_sends_the_stone_to_the_supply() -> None:
    """STM-R-18: no free space and no marker: the stone stays in the supply; nothing goes to the box.
    Base on g6 (value 4), stones on g7..g10: the fifth stone is in the supply."""
    state = _gaining([(7, False), (8, False), (9, False), (10, False)], [], base=6)
    accepted(state, GainStone(False))
    refused(
        state, GainStone(False, 7), "STM-R-18", "no bonus marker goes to the box: a space is free or none lies there"
    )


# ---------------------------------------------------------------------------
# STM-R-61: use another district
# ---------------------------------------------------------------------------


def _other_district(**turn: object) -> StmState:
    """Seat 0 took back its stone on L3-left (S0) and uses 'use another district'; seat 1's stone lies on
    L4-left, seat 1's on L5-right, a shadow stone on L6-left."""
    board = (BoardStone(1, 4, "left"), BoardStone(1, 5, "right"), BoardStone(SHADOW, 6, "left"))
    state = flying(3, "left", player(), player(on_board=2), board=board)
    return pending(state, UseAnotherDistrict(), **turn)


def test_r61_another_district_exists_was_not_activated_nor_in_s0() -> None:
    """STM-R-61 (p.28): 'the effect of one district that you have not activated in this turn, that is not
    in S0, and without your stone'; other players' stones do not matter (STM-AMB-23)."""
    state = _other_district(activated=((2, "left"),))
    refused(state, UseOtherDistrict(9, "left"), "STM-R-01", "the 2-3-player side has no left district on level 9")
    refused(state, UseOtherDistrict(2, "left"), "STM-R-61", "you have already activated L2-left this turn")
    refused(state, UseOtherDistrict(3, "left"), "STM-R-61", "your stone lay on L3-left as the flight started (S0)")
    accepted(state, UseOtherDistrict(4, "left"))  # another player's stone
    accepted(state, UseOtherDistrict(2, "right"))


def test_amb23_a_shadow_stone_district() -> None:
    """STM-AMB-23 'yes' (default): shadow stones are not the player's; 'no': such a district is refused."""
    state = _other_district()
    accepted(state, UseOtherDistrict(6, "left"))
    refused(
        state,
        UseOtherDistrict(6, "left"),
        "STM-R-61",
        "a shadow stone lies there (STM-AMB-23 'no')",
        reading("STM-AMB-23", "no"),
    )


def test_r61_another_player_using_another_district() -> None:
    """A parasite's owner (seat 1, the decider) uses 'use another district' in seat 0's turn: seat 0's
    activations and S0 are not seat 1's; seat 1's own stone and seat 1's earlier use this turn refuse."""
    state = _other_district(activated=((2, "left"),), decider=1, others_activated=((1, 2, "right"), (0, 7, "left")))
    accepted(state, UseOtherDistrict(2, "left"))
    accepted(state, UseOtherDistrict(3, "left"))
    accepted(state, UseOtherDistrict(7, "left"))
    refused(state, UseOtherDistrict(2, "right"), "STM-R-61", "you have already used L2-right this turn")
    refused(state, UseOtherDistrict(4, "left"), "STM-R-61", "one of your stones lies on L4-left")


# ---------------------------------------------------------------------------
# STM-R-72: the solo parasites
# ---------------------------------------------------------------------------


def test_r72_removed_tiles_only_in_remove_tiles() -> None:
    """STM-R-72 (p.35): parasites beside the stack come back only 'during remove tiles'."""
    state = game(player([(4, False)]))
    message = "parasites beside the stack are taken back only in 'remove tiles' at the end of FLY"
    refused(state, UseRemovedTile("M0-01"), "STM-R-72", message)
    refused(state, LeaveParasites(), "STM-R-72", message)


def test_r72_remove_tiles_refusals() -> None:
    """STM-R-72 (p.35): take back a parasite for the activation or passive effect of a tile removed in this
    step (M0-01: activation only; M0-06: passive only)."""
    state = removal_stage()
    assert sorted(state.turn.removed) == ["M0-01", "M0-06"]
    state = attrs.evolve(state, turn=attrs.evolve(state.turn, removed=("M0-01", "M0-06")))
    refused(state, UseRemovedTile("M0-03"), "STM-R-72", "M0-03 was not removed in this step (removed: M0-01, M0-06)")
    refused(state, UseRemovedTile("M0-06"), "STM-R-72", "the removed tile M0-06 shows no activation effect")
    refused(state, UseRemovedTile("M0-01", "passive"), "STM-R-72", "the removed tile M0-01 shows no passive effect")
    refused(state, UseRemovedTile("M0-01", NO_SYMBOL), "STM-R-72", "the removed tile M0-01 shows no boiler effect")
    none = attrs.evolve(state, turn=attrs.evolve(state.turn, removed=()))
    refused(none, UseRemovedTile("M0-01"), "STM-R-72", "M0-01 was not removed in this step (removed: none)")
    alone = attrs.evolve(state, solo=Solo(parasites_beside_stack=0))
    refused(alone, UseRemovedTile("M0-01"), "STM-R-72", "no parasite lies beside the passenger stack")
    accepted(alone, LeaveParasites())
    says(
        check(CTX, state, EndTurn()),
        "STM-R-72",
        "remove tiles: take back a parasite to use a removed tile's effect, or leave them",
    )


def test_r72_activate_parasite_refusals() -> None:
    """STM-R-72 (p.35): P01 face up: the banker's printed destination is 5 (alternate 6), the stoker's 1;
    level 1 sells bonus markers; the face-up M0-01 on level 5 shows an activation effect only."""
    state = activate_state(BESIDE[:1])
    refused(
        state,
        UseFaceUpTile(6),
        "STM-R-72",
        "level 6 is no passenger's destination now: levels 5 and 1 (alternate destinations are ignored)",
    )
    refused(state, UseFaceUpTile(1), "STM-R-72", "level 1 shows no face-up machine tile")
    refused(state, UseFaceUpTile(5, "passive"), "STM-R-72", "the face-up tile M0-01 shows no passive effect")
    refused(state, UseFaceUpTile(5, NO_SYMBOL), "STM-R-72", "the face-up tile M0-01 shows no boiler effect")
    refused(
        state,
        ActivateParasite(((0, 1, "activation"),)),
        "STM-R-72",
        "solo: activating a parasite uses the face-up tile of a destination level instead",
    )
    refused(state, UsePart(), "STM-R-72", "solo: use the face-up tile of a destination level, or skip the part")
    empty = activate_state([])
    refused(empty, UseFaceUpTile(5), "STM-R-72", "you have placed no parasite (none lies beside the passenger stack)")


def test_amb39_the_face_up_tiles_passive_effect() -> None:
    """STM-AMB-39: 'either' (default) lets 'activate parasite' use a face-up tile's passive effect;
    'activation' does not.  M0-06 (passive: 1 VP) lies face up on level 5, a printed destination."""
    state = activate_state(BESIDE[:1])
    state = attrs.evolve(state, markets=(Market(5, ("M0-06", "M1-05")),))
    accepted(state, UseFaceUpTile(5, "passive"))
    only = reading("STM-AMB-39", "activation")
    refused(
        state,
        UseFaceUpTile(5, "passive"),
        "STM-R-72",
        "'activate parasite' uses the face-up tile's activation effect only (STM-AMB-39)",
        only,
    )
    assert [a for a in legal_actions(only, state) if isinstance(a, UseFaceUpTile)] == []


def test_r56_face_up_tiles_are_solo_only() -> None:
    """STM-R-56 (p.34): in the multiplayer game 'activate parasite' uses your placed parasites."""
    host = player(machine_room=room((1, machine("M0-01"))))
    state = pending(game(player(parasites_home=2), host, parasites=(Parasite(0, 1, 1),)), ActivateParasites(1))
    refused(
        state, UseFaceUpTile(5), "STM-R-56", "only the solo game uses a face-up tile: activate your placed parasites"
    )
    refused(state, UsePart(), "STM-R-56", "name the placed parasites of yours to activate, or skip the part")
    accepted(state, ActivateParasite(((1, 1, "activation"),)))


def test_r56_how_many_parasites_are_activated() -> None:
    """STM-R-56 (p.34): 'activate 1 parasite' names one of yours; 'any number' each at most once."""
    host = player(machine_room=room((1, machine("M0-01")), (2, machine("M0-02"))))
    parasites = (Parasite(0, 1, 1), Parasite(0, 1, 2))
    one = pending(game(player(parasites_home=1), host, parasites=parasites), ActivateParasites(1))
    both: tuple[ParasiteAt, ...] = ((1, 1, "activation"), (1, 2, "activation"))
    refused(one, ActivateParasite(both), "STM-R-56", "activate 1 to 1 of your placed parasites, not 2")
    refused(one, ActivateParasite(()), "STM-R-56", "activate 1 to 1 of your placed parasites, not 0")
    refused(
        one,
        ActivateParasite(((1, 3, "activation"),)),
        "STM-R-56",
        "[(1, 3, 'activation')] are not all parasites of yours on others' machines",
    )
    many = pending(game(player(parasites_home=1), host, parasites=parasites), ActivateParasites(None))
    why = check(CTX, many, ActivateParasite(()))
    assert why is not None and why.rule == "STM-R-56" and why.reason.startswith("activate any number of")
    assert why.reason.endswith(", not 0")
    twice: tuple[ParasiteAt, ...] = ((1, 1, "activation"), (1, 1, "activation"))
    refused(
        many, ActivateParasite(twice), "STM-R-56", f"{list(twice)} are not all parasites of yours on others' machines"
    )
    activations = {a for a in legal_actions(CTX, many) if isinstance(a, ActivateParasite)}
    assert activations == {
        ActivateParasite((both[0],)),
        ActivateParasite((both[1],)),
        ActivateParasite(both),
        ActivateParasite((both[1], both[0])),
    }
    assert {a for a in legal_actions(CTX, one) if isinstance(a, ActivateParasite)} == {
        ActivateParasite((both[0],)),
        ActivateParasite((both[1],)),
    }


# ---------------------------------------------------------------------------
# STM-R-52..55: placing parasites, envy, the order of sharers, shaking off
# ---------------------------------------------------------------------------

HOSTED = room((1, machine("M0-01")), (2, machine("M1-01")), (3, STORAGE))  # activation / passive / storage


def _placing(*players: PlayerState, parasites: tuple[Parasite, ...] = (), part: Step | None = None) -> StmState:
    state = game(*players, parasites=parasites)
    return pending(state, part if part is not None else PlaceParasites(1))


def test_r52_per_owner_limit_with_3_players() -> None:
    """STM-R-52 (p.33): 3 or more players: at most 1 of your parasites on one machine; others' do not
    count (STM-AMB-20 'per-owner'); 'total' counts every parasite there."""
    state = _placing(player(parasites_home=2), player(machine_room=HOSTED), player(), parasites=(Parasite(0, 1, 1),))
    refused(
        state,
        PlaceParasite(1, 1),
        "STM-R-52",
        "at most 1 of your parasites on one machine with 3 players (STM-AMB-20 'per-owner')",
    )
    joined = _placing(player(), player(machine_room=HOSTED), player(parasites_home=2), parasites=(Parasite(2, 1, 1),))
    accepted(joined, PlaceParasite(1, 1))
    refused(
        joined,
        PlaceParasite(1, 1),
        "STM-R-52",
        "at most 1 parasites on one machine with 3 players (STM-AMB-20 'total')",
        reading("STM-AMB-20", "total"),
    )


def test_r52_two_players_two_per_machine() -> None:
    """STM-R-52 (p.33): '2 players: You may place up to 2 parasites on the same machine.'"""
    state = _placing(player(parasites_home=2), player(machine_room=HOSTED), parasites=(Parasite(0, 1, 1),))
    accepted(state, PlaceParasite(1, 1))
    full = _placing(player(parasites_home=1), player(machine_room=HOSTED), parasites=(Parasite(0, 1, 1),) * 2)
    refused(
        full,
        PlaceParasite(1, 1),
        "STM-R-52",
        "at most 2 of your parasites on one machine with 2 players (STM-AMB-20 'per-owner')",
    )


def test_r52_a_moved_parasite_frees_only_its_own_machine() -> None:
    """STM-R-52 (p.33, 'place or move'; 3 or more players: at most 1 of your parasites on one machine): a
    placed parasite moved onto a machine that holds another of yours is still refused; only the machine it
    leaves loses it (seat 1's position 2 here, not seat 2's)."""
    hosts = (player(machine_room=HOSTED), player(machine_room=HOSTED))
    state = _placing(player(), *hosts, parasites=(Parasite(0, 1, 2, "passive"), Parasite(0, 2, 2, "passive")))
    refused(
        state,
        PlaceParasite(2, 2, "passive", (1, 2, "passive")),
        "STM-R-52",
        "at most 1 of your parasites on one machine with 3 players (STM-AMB-20 'per-owner')",
    )


def test_r52_where_a_parasite_may_sit() -> None:
    """STM-R-52 (p.33): on another player's machine-room tile, on its activation (boiler) or passive
    symbol, never on storage spaces."""
    state = _placing(player(), player(machine_room=HOSTED))
    refused(
        state, PlaceParasite(1, 1, "passive"), "STM-R-52", "M0-01 shows no passive symbol (never on storage spaces)"
    )
    refused(state, PlaceParasite(1, 2), "STM-R-52", "M1-01 shows no activation symbol (never on storage spaces)")
    refused(state, PlaceParasite(1, 3), "STM-R-52", "capacity shows no activation symbol (never on storage spaces)")
    refused(
        state,
        PlaceParasite(1, 1, NO_SYMBOL),
        "STM-R-52",
        "a parasite sits on the activation or the passive symbol, not 'boiler'",
    )
    refused(state, PlaceParasite(1, 4), "STM-R-52", "seat 1 has no machine-room tile at position 4")
    refused(
        state, PlaceParasite(0, 1), "STM-R-52", "a parasite goes onto another player's machine, never onto your own"
    )
    refused(
        state, PlaceParasite(2, 1), "STM-R-52", "a parasite goes onto another player's machine, never onto your own"
    )
    accepted(state, PlaceParasite(1, 2, "passive"))
    assert {a for a in legal_actions(CTX, state) if isinstance(a, PlaceParasite)} == {
        PlaceParasite(1, 1, "activation"),
        PlaceParasite(1, 2, "passive"),
    }


def test_r72_solo_placement_goes_beside_the_stack() -> None:
    """STM-R-72 (p.35): 'Placed parasites go beside the passenger stack.'"""
    state = attrs.evolve(_placing(player(machine_room=HOSTED)), solo=Solo())
    refused(state, PlaceParasite(1, 1), "STM-R-72", "solo: a placed parasite goes beside the passenger stack")
    accepted(state, PlaceParasite(None, None))
    none_left = attrs.evolve(
        _placing(player(machine_room=HOSTED, parasites_home=0)), solo=Solo(parasites_beside_stack=3)
    )
    refused(none_left, PlaceParasite(None, None), "STM-R-72", "no parasite left in your supply")


def test_r53_envy_places_from_the_supply_on_the_envied_players_machines() -> None:
    """STM-R-53 (p.33): each other player may place 1 parasite (from their supply) on the envied
    player's machines."""
    state = _placing(player(), player(machine_room=HOSTED), player(machine_room=HOSTED), part=EnvyParasite(2))
    refused(state, PlaceParasite(1, 1), "STM-R-53", "the envious place on the machines of seat 2, who lured them")
    accepted(state, PlaceParasite(2, 1))
    moved = _placing(
        player(parasites_home=2),
        player(machine_room=HOSTED),
        player(machine_room=HOSTED),
        parasites=(Parasite(0, 1, 1),),
        part=EnvyParasite(2),
    )
    refused(
        moved,
        PlaceParasite(2, 1, moved=(1, 1, "activation")),
        "STM-R-53",
        "envy places a parasite from your supply; it does not move one",
    )
    empty = _placing(
        player(parasites_home=0), player(machine_room=HOSTED), player(machine_room=HOSTED), part=EnvyParasite(2)
    )
    refused(empty, PlaceParasite(2, 1), "STM-R-53", "no parasite left in your supply")


def test_amb21_owner_chooses_who_is_next() -> None:
    """STM-AMB-21 'owner-chooses': the deciding player names the next of the seats sharing; for envy
    placements the rule is STM-R-53, for parasite effects STM-R-54."""
    envy = pending(game(player(), player(), player()), NextSharer((2, 1), ((EnvyParasite(0),),)))
    refused(envy, LetPlayer(0), "STM-R-53", "choose who goes next among seats [1, 2] (STM-AMB-21 'owner-chooses')")
    assert [a for a in legal_actions(CTX, envy)] == [LetPlayer(1), LetPlayer(2)]
    shared = pending(game(player(), player(), player()), NextSharer((2, 1), ((VotePoints(1),),)))
    refused(shared, LetPlayer(0), "STM-R-54", "choose who goes next among seats [1, 2] (STM-AMB-21 'owner-chooses')")


def test_r55_shake_off() -> None:
    """STM-R-55 (p.34): shake off opposing parasites on your tiles: all (use the part) or one chosen."""
    mine = room((1, machine("M0-01")))
    bare = pending(game(player(machine_room=mine), player()), ShakeOff())
    refused(bare, UsePart(), "STM-R-55", "no opposing parasite sits on your machines")
    refused(bare, ShakeOffParasite(1, 1), "STM-R-55", "shake off all opposing parasites (use the part)")
    one = pending(
        game(player(machine_room=mine), player(parasites_home=2), parasites=(Parasite(1, 0, 1),)), ShakeOff(all=False)
    )
    refused(one, UsePart(), "STM-R-55", "shake off one chosen parasite")
    refused(one, ShakeOffParasite(1, 1, "passive"), "STM-R-55", "no parasite of seat 1 on your machine 1")
    accepted(one, ShakeOffParasite(1, 1))


# ---------------------------------------------------------------------------
# STM-R-22: the effect's head part
# ---------------------------------------------------------------------------


def test_r22_a_slash_takes_a_side() -> None:
    """STM-R-22 (p.9): 'A / B' = A or B."""
    state = pending(game(player([(4, False)]), player()), Either((VotePoints(1),), (VotePoints(2),)))
    refused(state, ChooseSide(2), "STM-R-22", "a slash: choose the parts above it (0) or those below it (1)")
    refused(state, UsePart(), "STM-R-22", "a slash: choose the parts above it (0) or those below it (1)")
    accepted(state, ChooseSide(0))
    accepted(state, ChooseSide(1))
    accepted(state, SkipPart())


def test_r54_a_handover_is_no_decision() -> None:
    state = pending(game(player([(4, False)]), player()), Handover(1))
    refused(state, SkipPart(), "STM-R-54", "the decision passes to seat 1 first")
    assert legal_actions(CTX, state) == []


def test_r22_costs() -> None:
    """STM-R-22 (p.9): a black cost is paid in full or declined; a stone cost names the stone given up,
    never the last one (STM-R-43, p.20); no discount on a cost that is not resources (STM-R-57/58)."""
    state = pending(game(player([(4, False)], sponsor="crystal", gala="gear"), player()), ReturnStone(), VotePoints(2))
    refused(state, PayCost(), "STM-R-22", "name the gauge space of the pressure stone you give up")
    refused(state, PayCost(5), "STM-R-22", "name the gauge space of the pressure stone you give up")
    refused(state, PayCost(4), "STM-R-43", "you cannot give up your last pressure stone")
    refused(state, PayCost(4, sponsor=True), "STM-R-57", "ReturnStone() is not a resource cost: no discount")
    refused(state, PayCost(4, gala=True), "STM-R-58", "ReturnStone() is not a resource cost: no discount")
    refused(
        state, UsePart(), "STM-R-22", "ReturnStone() is a cost: pay it in full or let it and everything beneath lapse"
    )
    accepted(state, DeclineCost())
    two = pending(game(player([(4, False), (6, False)]), player()), ReturnStone())
    accepted(two, PayCost(6))
    paid = pending(game(player([(4, False)], gears=1), player()), PayResources(0, 2))
    refused(paid, PayCost(4), "STM-R-22", "this cost takes no pressure stone")
    refused(paid, PayCost(), "STM-R-22", "you cannot pay 0 crystals and 2 gears")


# ---------------------------------------------------------------------------
# Single parts: stones, the base marker, arrows, capacity, sponsor, gala, resources, the pink marker
# ---------------------------------------------------------------------------


def test_r16_one_stone_up_to_n() -> None:
    """STM-R-16 (p.10): 'increase the pressure of one stone by up to 5': exactly one gauge stone, 0-5."""
    state = pending(game(player([(1, False), (4, False)]), player()), IncreaseOneStone(5))
    refused(state, RaiseOneStone(2, 1), "STM-R-16", "no pressure stone of yours on gauge space 2")
    refused(state, RaiseOneStone(1, 6), "STM-R-16", "one stone rises by 0 to 5, not 6")
    refused(state, RaiseOneStone(1, -1), "STM-R-16", "one stone rises by 0 to 5, not -1")
    accepted(state, RaiseOneStone(1, 5))
    # one representative per end gauge: g1 reaches g2,g3,g5,g6,g7 (g4 is taken); g4 reaches g5..g9
    raises = [a for a in legal_actions(CTX, state) if isinstance(a, RaiseOneStone)]
    assert raises == [RaiseOneStone(1, n) for n in range(6)] + [RaiseOneStone(4, n) for n in range(1, 6)]
    two = pending(game(player([(1, False)]), player()), IncreaseOneStone(2))
    assert [a for a in legal_actions(CTX, two) if isinstance(a, RaiseOneStone)] == [
        RaiseOneStone(1, n) for n in range(3)
    ]


def test_r61_stone_to_8_needs_the_stone_taken_back() -> None:
    """STM-R-61 (p.28): 'stone to 8': the stone just taken back for this district goes to the value-8 space."""
    state = flying(4, "left", player(), player())
    space = state.turn.active_space
    assert space is not None
    waiting = pending(state, StoneToEight())
    accepted(waiting, UsePart())
    message = "the stone you took back for this district is not (or no longer) on your gauge"
    refused(pending(state, StoneToEight(), active_space=None), UsePart(), "STM-R-61", message)
    refused(pending(state, StoneToEight(), decider=1), UsePart(), "STM-R-61", message)
    refused(pending(state, StoneToEight(), active_space=space + 1), UsePart(), "STM-R-61", message)
    refused(waiting, TakeResources(1, 0), "STM-R-61", "StoneToEight() needs no choice: use it or skip it")


def test_r57_turn_sponsor_needs_a_sponsor() -> None:
    state = pending(game(player([(4, False)]), player()), TurnSponsor())
    refused(state, UsePart(), "STM-R-57", "you own no sponsor to turn")


def test_r17_base_marker() -> None:
    """STM-R-17 (p.10): the base marker never goes beyond g6 (value 4); a stone on the new base space may
    be bumped +1 (STM-AMB-05 'optional'; 'compulsory' when it can move)."""
    high = attrs.evolve(player([(8, False)]), gauge=gauge_of([(8, False)], (), 6))
    top = pending(game(high, player()), AdvanceBaseMarker())
    refused(
        top,
        MoveBaseMarker(),
        "STM-R-17",
        "the base pressure marker already stands on the value-4 space: the effect lapses",
    )
    empty = pending(game(player([(4, False)]), player()), AdvanceBaseMarker())
    accepted(empty, MoveBaseMarker())
    refused(empty, MoveBaseMarker(False), "STM-R-17", "no stone on the new base space: there is no bump to decline")
    stone = pending(game(player([(1, False)]), player()), AdvanceBaseMarker())
    accepted(stone, MoveBaseMarker(False))
    refused(
        stone,
        MoveBaseMarker(False),
        "STM-R-17",
        "the stone on the new base space must be increased (STM-AMB-05 'compulsory')",
        reading("STM-AMB-05", "compulsory"),
    )
    stuck = attrs.evolve(
        player([(1, False)]),
        gauge=gauge_of(
            [(1, False), (7, False), (8, False), (9, False), (10, False)], [(2, 5), (3, 2), (4, 2), (5, 3), (6, 4)]
        ),
        supply=(),
    )
    blocked = pending(game(stuck, player()), AdvanceBaseMarker())
    assert check(reading("STM-AMB-05", "compulsory"), blocked, MoveBaseMarker(False)) is None


def test_r19_turn_arrows() -> None:
    """STM-R-19 (p.28): 'turn 1 / turn 3 pressure stones' arrow side up: own arrowless stones on the gauge
    or the board (STM-AMB-10), each once, 1 to N of them."""
    me = player([(2, True), (4, False)], on_board=1)
    state = pending(
        game(me, player(on_board=1), board=(BoardStone(0, 3, "left"), BoardStone(1, 5, "left"))), TurnStones(1)
    )
    refused(state, TurnArrows(), "STM-R-19", "turn 1 to 1 different stones")
    refused(state, TurnArrows((4,), ((3, "left"),)), "STM-R-19", "turn 1 to 1 different stones")
    refused(state, TurnArrows((2,)), "STM-R-19", "the stones to turn lie on arrowless gauge spaces 4")
    refused(state, TurnArrows((), ((5, "left"),)), "STM-R-19", "the districts must hold your own arrowless stones")
    accepted(state, TurnArrows((4,)))
    accepted(state, TurnArrows((), ((3, "left"),)))
    three = pending(state, TurnStones(3))
    refused(three, TurnArrows((4, 4)), "STM-R-19", "turn 1 to 3 different stones")
    refused(
        three,
        TurnArrows((4,), ((3, "left"), (3, "left"))),
        "STM-R-19",
        "the districts must hold your own arrowless stones",
    )
    accepted(three, TurnArrows((4,), ((3, "left"),)))


def test_r59_capacity_tile() -> None:
    """STM-R-59 (p.29) with STM-R-21: a capacity tile from the supply on any of the 7 positions, either side."""
    state = pending(game(player([(4, False)]), player()), GainCapacityTile())
    refused(state, BuildCapacity(8, 0), "STM-R-59", "no machine-room position 8 / side 0")
    refused(state, BuildCapacity(0, 0), "STM-R-59", "no machine-room position 0 / side 0")
    refused(state, BuildCapacity(1, 2), "STM-R-59", "no machine-room position 1 / side 2")
    accepted(state, BuildCapacity(7, 1))
    gone = attrs.evolve(state, supply=attrs.evolve(state.supply, capacity_tiles=0))
    refused(gone, BuildCapacity(1, 0), "STM-R-21", "no capacity tile is left in the supply")


def test_r57_r58_taking_a_sponsor_or_a_gala() -> None:
    """STM-R-57/58 (p.29): one of each at most; a crystal or gear side; the supply is limited (STM-R-21)."""
    sponsor = pending(game(player([(4, False)]), player()), GainSponsor())
    refused(sponsor, TakeSponsor(NO_RESOURCE), "STM-R-57", "a sponsor shows a crystal or a gear, not 'steam'")
    accepted(sponsor, TakeSponsor("gear"))
    gala = pending(game(player([(4, False)], gala="gear"), player()), GainCharityGala())
    refused(gala, TakeGala(NO_RESOURCE), "STM-R-58", "a charity gala solicits crystals or gears, not 'steam'")
    refused(gala, TakeGala("crystal"), "STM-R-58", "you already host a charity gala (maximum 1: the surplus lapses)")
    free = pending(game(player([(4, False)]), player()), GainCharityGala())
    no_gears = attrs.evolve(free, supply=attrs.evolve(free.supply, galas=(1, 0)))
    refused(no_gears, TakeGala("gear"), "STM-R-21", "no gear charity gala is left in the supply")
    accepted(no_gears, TakeGala("crystal"))
    no_crystals = attrs.evolve(free, supply=attrs.evolve(free.supply, galas=(0, 1)))
    refused(no_crystals, TakeGala("crystal"), "STM-R-21", "no crystal charity gala is left in the supply")


def test_r21_resources_the_supply_no_longer_has() -> None:
    """STM-R-21 (p.9): gaining what the supply no longer has lapses."""
    state = pending(game(player([(4, False)]), player()), GainResources(crystals=2))
    state = attrs.evolve(state, supply=attrs.evolve(state.supply, crystals=1, gears=0))
    refused(state, TakeResources(2, 0), "STM-R-21", "the supply holds 1 crystals and 0 gears")
    accepted(state, TakeResources(1, 0))
    gears = pending(attrs.evolve(state, supply=attrs.evolve(state.supply, crystals=5, gears=1)), GainResources(gears=2))
    refused(gears, TakeResources(0, 2), "STM-R-21", "the supply holds 5 crystals and 1 gears")


def test_r04_the_pink_marker() -> None:
    """STM-R-04 (p.5): character 7's one pink bonus marker, placed like a bought marker (STM-R-47) on a
    space with its numeral (STM-P-08: #3, g5)."""
    other = pending(game(player([(4, False)], character=3), player()), GainPinkMarker())
    refused(other, PlacePinkMarker(5), "STM-R-04", "the pink bonus marker is used only with character 7")
    undealt = pending(game(player([(4, False)], character=0), player()), GainPinkMarker())
    refused(undealt, PlacePinkMarker(5), "STM-R-04", "the pink bonus marker is used only with character 7")
    seven = pending(game(player([(5, False)], character=7), player()), GainPinkMarker())
    assert [a for a in legal_actions(CTX, seven) if isinstance(a, PlacePinkMarker)] == [
        PlacePinkMarker(5),
        PlacePinkMarker(5, False),
    ]
    refused(seven, PlacePinkMarker(None), "STM-R-47", "bonus marker #3 goes on one of the spaces 5")
    refused(seven, PlacePinkMarker(6), "STM-R-47", "space 6 is not a #3 space right of the base marker")
    other_gauge = attrs.evolve(
        player(),
        gauge=attrs.evolve(
            gauge_of([]), spaces=(None, None, None, None, None, BonusMarker(3, pink=True), None, None, None, None, None)
        ),
    )
    taken = pending(game(player([(5, False)], character=7), other_gauge), GainPinkMarker())
    refused(taken, PlacePinkMarker(5), "STM-R-21", "the one pink bonus marker already lies on a gauge")
    free = pending(game(player([(4, False)], character=7), player()), GainPinkMarker())
    assert [a for a in legal_actions(CTX, free) if isinstance(a, PlacePinkMarker)] == [PlacePinkMarker(5)]
    refused(
        free, PlacePinkMarker(5, False), "STM-R-47", "no stone on space 5 that could be increased: nothing to decline"
    )
    based = attrs.evolve(player([(7, False)], character=7), gauge=gauge_of([(7, False)], (), 5))
    beyond = pending(game(based, player()), GainPinkMarker())
    assert [a for a in legal_actions(CTX, beyond) if isinstance(a, PlacePinkMarker)] == [PlacePinkMarker(None)]
    refused(beyond, PlacePinkMarker(None, False), "STM-R-47", "no stone to leave where it is")


# ---------------------------------------------------------------------------
# STM-R-69 / R-73: the solo game's loss and ranks
# ---------------------------------------------------------------------------


def test_r69_only_the_solo_game_is_lost_at_0_vp() -> None:
    """STM-R-69 (p.35) is a solo rule: a multiplayer player at 0 VP has not lost."""
    assert solo_lost(CTX, game(player(vp=0), player())) is False
    assert solo_lost(CTX, attrs.evolve(game(player(vp=0)), solo=Solo())) is True


def test_r73_the_rank_table() -> None:
    """STM-R-73 (p.36): 'Compare your total score with the table': 0, 7, ... 49 VP (the highest reached)."""
    assert SOLO_RANKS == (
        (0, "Nothing but hot air"),
        (7, "Hobby mechanic"),
        (14, "Tinkerer"),
        (21, "Engineer"),
        (28, "Chief engineer"),
        (35, "Airship pirate"),
        (42, "Master of steam"),
        (49, "Deus Ex Machina"),
    )


# ---------------------------------------------------------------------------
# The steps of the turn, each refusing what it does not admit
# ---------------------------------------------------------------------------


def test_steps_refuse_what_they_do_not_admit() -> None:
    """STM-R-23 (p.8): the turn's order; STM-R-29 (p.13) the channelled stone; STM-R-49 (p.24) the end of
    the turn; STM-R-13 (p.6) the set-up room; STM-R-32 (p.14) the store step; STM-R-22 (p.9) effects."""
    me = player([(4, False)], crystals=4)
    storing = attrs.evolve(game(me, player()), turn=TurnState(storing=True))
    refused(storing, EndTurn(), "STM-R-32", "store your resources first: you hold more than your storage spaces")
    refused(game(me, player()), SkipPart(), "STM-R-22", "no effect is being carried out")
    start = game(player([(4, True)]), player(), phase=Phase.START_OF_TURN)
    refused(start, MakeSteam(()), "STM-R-23", "the turn starts by moving the arrow stones")
    channel = attrs.evolve(game(me, player(), phase=Phase.CHANNEL), turn=TurnState(channel=3))
    refused(channel, EndTurn(), "STM-R-29", "the channelled stone must be moved left or placed")
    end = game(me, player(), phase=Phase.END_OF_TURN)
    refused(end, MakeSteam(()), "STM-R-49", "the action is over: only the end of the turn remains")
    setup = game(player(), player(), phase=Phase.SETUP_ROOM)
    refused(setup, MakeSteam(()), "STM-R-13", "build the starting machine and the capacity tile into your machine room")
    refused(game(me, player()), SkipStep(), "STM-R-66", "only a final turn lets you skip an action")


def test_r13_the_starting_room_cites_its_rule_with_the_set_up_reason() -> None:
    """STM-R-13 (p.6): the starting machine and the capacity tile on two different free positions."""
    setup = game(player(), player(), phase=Phase.SETUP_ROOM)
    same = BuildStartingRoom(1, 0, 1, 0)
    why = room_rejection(CTX, setup, same)
    assert why is not None
    refused(setup, same, "STM-R-13", why)
    accepted(setup, BuildStartingRoom(1, 0, 2, 1))


def test_r46_the_buying_step_takes_markers_or_stops() -> None:
    """STM-R-46 (p.22): 'any number, one at a time', then stop."""
    state = flying(1, "left", player(crystals=3), player())
    state = play(state, BuyBonusMarker("crystal", 7))
    assert state.turn.step == "buying"
    refused(state, PickUp("stoker"), "STM-R-46", "buy another bonus marker or stop buying")
    # the #4 now foremost costs 2 crystals (STM-P-08), placed on g6 (its numeral)
    buys = [a for a in legal_actions(CTX, state) if isinstance(a, BuyBonusMarker)]
    assert buys == [BuyBonusMarker("crystal", 6)]
    assert legal_actions(CTX, state) == [StopBuying(), BuyBonusMarker("crystal", 6)]
    assert legal_actions_by_check(CTX, state) == legal_actions(CTX, state)


def test_amb07_every_arrow_stone_moves() -> None:
    """STM-AMB-07 'each' (default): each arrow stone on the gauge moves; 'optional' lets some stay."""
    state = game(player([(2, True), (4, False), (6, True)]), player(), phase=Phase.START_OF_TURN)
    refused(
        state, MoveArrowStones((2,)), "STM-R-19", "every arrow stone on the gauge moves: [2, 6] (STM-AMB-07 'each')"
    )
    assert check(reading("STM-AMB-07", "optional"), state, MoveArrowStones((2,))) is None


def test_r23_r24_the_three_actions() -> None:
    """STM-R-24 (p.8): FLY needs an own stone on the board, MAKE STEAM a gauge stone that can move; the
    turn passes only when no action is possible (STM-AMB-12)."""
    state = game(player([(10, False)]), player())
    refused(state, FlyToAllTargets(), "STM-R-24", "FLY TO ALL TARGETS needs at least one of your stones on the board")
    refused(state, MakeSteam(()), "STM-R-24", "MAKE STEAM needs a stone on the gauge that can still move")
    refused(state, PassTurn(), "STM-R-23", "you must perform one of the three actions")  # g10 reaches level 8
    refused(state, ChannelPressure(5), "STM-R-28", "no pressure stone of yours on gauge space 5")
    final_turn = final(state, "steam")
    assert rules_of(final_turn, PassTurn()) == ["STM-R-66"]


def test_r15_an_illegal_order_of_increments() -> None:
    """STM-R-15 (p.9): an increment moves a stone of yours; the gauge says why an order is impossible."""
    state = game(player([(4, False)]), player())
    with pytest.raises(GaugeError) as err:
        increase(state.players[0].gauge, 2, (5, 5))
    refused(state, MakeSteam((5, 5)), err.value.rule, err.value.message)


def test_amb32_most_increments() -> None:
    """STM-AMB-32 'most': stones on g8 and g9, +2 (the 2 built-in boilers, STM-R-25): g9 then g8 uses
    both increments; g8 first jumps to g10 and the second lapses."""
    state = game(player([(8, False), (9, False)]), player())
    most = reading("STM-AMB-32", "most")
    refused(state, MakeSteam((8,)), "STM-R-15", "another order uses 2 increments (STM-AMB-32 'most'), this one 1", most)
    assert check(CTX, state, MakeSteam((8,))) is None
    assert check(most, state, MakeSteam((9, 8))) is None
    # An arrow stone on g8 tells the two ends apart (STM-R-19: a stone keeps its face): g9 then g8 ends
    # with the arrow on g9, g8 first with the arrow on g10.  'free-order' offers both, 'most' the longer.
    arrow = game(player([(8, True), (9, False)]), player())
    steams = {a for a in generated(arrow) if isinstance(a, MakeSteam)}
    assert steams == {MakeSteam((9, 8)), MakeSteam((8,))}
    assert [a for a in generated(arrow, most) if isinstance(a, MakeSteam)] == [MakeSteam((9, 8))]


def test_r29_moving_the_channelled_stone_left() -> None:
    """STM-R-29 (p.13): move left only from w >= 2, and (STM-AMB-06) only with a free district at or
    below the new value."""
    me = player([(6, False)])
    leftmost = attrs.evolve(game(me, player(), phase=Phase.CHANNEL), turn=TurnState(channel=1))
    refused(leftmost, MoveLeft(), "STM-R-29", "the stone is at the leftmost position: it must be placed")
    low = tuple(BoardStone(1, level, side) for level in (1, 2) for side in ("left", "right"))
    blocked = attrs.evolve(game(me, player(on_board=4), board=low, phase=Phase.CHANNEL), turn=TurnState(channel=3))
    refused(
        blocked, MoveLeft(), "STM-R-29", "no free district on levels 1-2: the stone could not be placed (STM-AMB-06)"
    )
    assert legal_actions(CTX, blocked) == [PlaceStone(3, "left"), PlaceStone(3, "right")]


def test_amb06_forbidden_channelling_without_a_machine() -> None:
    """STM-AMB-06 'forbidden': no channelling without a machine at the entry position (g6 value 4 enters
    position 3, STM-R-29)."""
    state = game(player([(6, False)]), player())
    forbidden = reading("STM-AMB-06", "forbidden")
    refused(state, ChannelPressure(6), "STM-R-28", "no machine at position 3 (STM-AMB-06 'forbidden')", forbidden)
    accepted(state, ChannelPressure(6))
    built = game(player([(6, False)], machine_room=room((3, BOILER))), player())
    accepted(built, ChannelPressure(6), forbidden)


# ---------------------------------------------------------------------------
# The flight: take back, pick up, buy (STM-R-33..43)
# ---------------------------------------------------------------------------


def _flight(p: PlayerState, *board: BoardStone, **kw: Any) -> StmState:
    """Seat 0 starts FLY TO ALL TARGETS with its stones on ``board``."""
    return play(game(p, player(), board=board, **kw), FlyToAllTargets())


def fly_from(
    level: int, position: str, p: PlayerState, *others: PlayerState, board: tuple[BoardStone, ...] = (), **kw: Any
) -> StmState:
    """Seat 0's flight with its stone on (level, position) taken back, its other stones on ``board``."""
    state = game(p, *others, board=(BoardStone(0, level, position), *board), **kw)  # type: ignore[arg-type]
    return play(state, FlyToAllTargets(), TakeBack(level, position))  # type: ignore[arg-type]


def test_r33_r18_taking_back() -> None:
    """STM-R-33 (p.15): take back one of your stones; STM-R-18 (p.10): to the first free space, or, with
    none free, in place of a bonus marker of your choice; with neither the stone goes to the supply."""
    free = _flight(player([(4, False)], on_board=1), BoardStone(0, 3, "left"))
    refused(free, TakeBack(2, "left"), "STM-R-33", "you have no stone on the left district of level 2")
    refused(
        free, TakeBack(3, "left", 5), "STM-R-18", "a gauge space is free: no bonus marker goes to the box to make room"
    )
    stones = [(7, False), (8, False), (9, False), (10, False)]
    marked = attrs.evolve(player(stones, on_board=1), gauge=gauge_of(stones, [(3, 2), (4, 2), (5, 3), (6, 4)], 2))
    full = _flight(marked, BoardStone(0, 3, "left"))
    message = "no free gauge space: return one of the bonus markers on [3, 4, 5, 6]"
    refused(full, TakeBack(3, "left"), "STM-R-18", message)
    refused(full, TakeBack(3, "left", 7), "STM-R-18", message)
    assert [a for a in legal_actions(CTX, full)] == [TakeBack(3, "left", m) for m in (3, 4, 5, 6)]
    assert legal_actions_by_check(CTX, full) == legal_actions(CTX, full)
    bare = attrs.evolve(player(stones, on_board=1), gauge=gauge_of(stones, [], 6))
    stuck = _flight(bare, BoardStone(0, 3, "left"))
    refused(stuck, TakeBack(3, "left", 7), "STM-R-18", "there is no bonus marker on your gauge to return")
    assert legal_actions(CTX, stuck) == [TakeBack(3, "left")]


def test_r36_pick_up_limits() -> None:
    """STM-R-36 (p.16): a passenger once per turn, onto one of the 2 passenger spaces."""
    state = fly_from(4, "left", player(on_board=2), player(), board=(BoardStone(0, 2, "left"),))
    moved = attrs.evolve(state, turn=attrs.evolve(state.turn, transported=("stoker",)))
    refused(moved, PickUp("stoker"), "STM-R-36", "you have already transported the stoker this turn")
    seated = attrs.evolve(state.players[0], carrying=("banker", "banker"))
    full = attrs.evolve(state, players=(seated, state.players[1]))
    refused(full, PickUp("stoker"), "STM-R-36", "both passenger spaces are taken")


def test_r38_r40_which_market_a_flight_step_buys_from() -> None:
    """STM-R-38 (p.18): the flight step buys on the active level; level 1 sells bonus markers."""
    state = flying(5, "left", player(gears=2), player(), markets=(Market(5, ("M0-01",)), Market(6, ("M0-02",))))
    refused(
        state,
        BuyMachine(2, level=6),
        "STM-R-38",
        "a flight step buys on the active level's market: name no other level",
    )
    one = flying(1, "left", player(gears=2), player(), markets=(Market(5, ("M0-01",)),))
    refused(one, BuyMachine(2), "STM-R-38", "the level-1 market sells bonus markers, not tiles")


def test_r61_buy_tile_names_its_level() -> None:
    """STM-R-61 (p.28): 'buy tile': one face-up tile on any level by the normal rules, no bonus markers."""
    p = player([(4, False)], gears=2, machine_room=room((1, STORAGE)))
    state = pending(game(p, player(), markets=(Market(5, ("M0-01",)), Market(6, ()))), BuyTile())
    refused(state, BuyMachine(2), "STM-R-61", "'buy tile': name the level of the face-up tile you buy")
    refused(state, BuyMachine(2, level=1), "STM-R-61", "the level-1 market sells bonus markers, not tiles")
    refused(state, BuyMachine(2, level=6), "STM-R-40", "no face-up tile on the market of level 6")
    refused(state, TakeGala("crystal"), "STM-R-22", "TakeGala(resource='crystal') does not carry out BuyTile()")
    tiles = [a for a in legal_actions(CTX, state) if not isinstance(a, SkipPart)]
    # M0-01: 2 gears (rank 0, STM-EX-12): as a machine on each free position; not as a banner, which
    # would cost the only stone the player owns (STM-R-43)
    assert tiles == [BuyMachine(n, level=5) for n in range(2, 8)]
    refused(state, BuyBanner(4, level=5), "STM-R-43", "you cannot give up your last pressure stone")
    assert legal_actions_by_check(CTX, state) == legal_actions(CTX, state)


def test_r43_a_banner_stone_from_the_board() -> None:
    """STM-AMB-11 'gauge' (default): a banner's stone comes from the gauge; 'board': also an own stone
    still on the board, never the last one owned, nor the one a carried passenger needs (STM-R-36/37)."""
    board = (BoardStone(0, 6, "left"),)
    state = fly_from(5, "left", player(gears=2, on_board=2), player(), board=board, markets=(Market(5, ("M0-01",)),))
    on_board = reading("STM-AMB-11", "board")
    refused(
        state,
        BuyBanner(None, board=(6, "left")),
        "STM-R-43",
        "a banner's stone comes from your gauge, not the board (STM-AMB-11 'gauge')",
    )
    accepted(state, BuyBanner(None, board=(6, "left")), on_board)
    refused(
        state,
        BuyBanner(state.turn.active_space, board=(6, "left")),
        "STM-R-43",
        "a banner costs one pressure stone: name a gauge space or a district",
        on_board,
    )
    refused(
        state,
        BuyBanner(None, board=(7, "left")),
        "STM-R-43",
        "none of your stones lies on district (7, 'left')",
        on_board,
    )
    refused(state, BuyBanner(None), "STM-R-43", "a banner costs a pressure stone from your gauge (STM-AMB-11)")
    refused(state, BuyBanner(9), "STM-R-43", "a banner costs a pressure stone from your gauge (STM-AMB-11)")
    carrying = attrs.evolve(state.players[0], carrying=("banker",))
    boarded = attrs.evolve(
        state, players=(carrying, state.players[1]), turn=attrs.evolve(state.turn, boarded=(("banker", 6),))
    )
    refused(
        boarded,
        BuyBanner(None, board=(6, "left")),
        "STM-R-36",
        "your last stone on level 6 is where the banker you carry gets off: it cannot pay",
        on_board,
    )
    lone = flying(5, "left", player(gears=2), player(), markets=(Market(5, ("M0-01",)),))
    refused(lone, BuyBanner(lone.turn.active_space), "STM-R-43", "you cannot give up your last pressure stone")


def test_r57_r58_discounts() -> None:
    """STM-R-57 (p.29): the sponsor, once per turn, takes 1 off a cost holding its resource; STM-R-58:
    the gala takes up to 2 of its resource off a cost still holding it."""
    markets = (Market(5, ("M0-01",)),)
    state = flying(5, "left", player(gears=2), player(), markets=markets)
    refused(state, BuyMachine(2, sponsor=True), "STM-R-57", "you own no sponsor")
    refused(state, BuyMachine(2, gala=True), "STM-R-58", "you own no charity gala")
    used = flying(5, "left", player(gears=2, sponsor="gear", sponsor_used=True), player(), markets=markets)
    refused(used, BuyMachine(2, sponsor=True), "STM-R-57", "your sponsor has already given its discount this turn")
    crystal = flying(5, "left", player(gears=2, sponsor="crystal", gala="crystal"), player(), markets=markets)
    refused(crystal, BuyMachine(2, sponsor=True), "STM-R-57", "the sponsor shows a crystal, and this cost holds none")
    refused(
        crystal, BuyMachine(2, gala=True), "STM-R-58", "your charity gala gives crystals, and no crystal is left to pay"
    )
    # a gear sponsor and a gear gala cover M0-01's 2 gears together or alone (the gala: 2 off)
    poor = flying(5, "left", player(gears=1, sponsor="gear", gala="gear"), player(), markets=markets)
    refused(poor, BuyMachine(2), "STM-R-40", "the tile costs 0 crystals and 2 gears: you cannot pay it all")
    accepted(poor, BuyMachine(2, sponsor=True))
    accepted(poor, BuyMachine(2, gala=True))
    accepted(poor, BuyMachine(2, sponsor=True, gala=True))
    broke = flying(5, "left", player(sponsor="gear", gala="gear"), player(), markets=markets)
    refused(
        broke, BuyMachine(2, sponsor=True), "STM-R-40", "the tile costs 0 crystals and 1 gears: you cannot pay it all"
    )
    accepted(broke, BuyMachine(2, gala=True))


def test_r41_r42_building_in() -> None:
    """STM-R-41 (p.19): from rank 1 a machine-room tile is removed; STM-R-42 (p.21): the tile goes on a
    free position; only a full room gives one up for a rank-0 tile."""
    markets = (Market(5, ("M0-01",)),)
    state = flying(5, "left", player(gears=2, machine_room=room((1, STORAGE))), player(), markets=markets)
    refused(state, BuyMachine(2, 3), "STM-R-41", "no tile at machine-room position 3 to remove")
    refused(state, BuyMachine(2, 8), "STM-R-41", "no tile at machine-room position 8 to remove")
    refused(state, BuyMachine(2, 0), "STM-R-41", "no tile at machine-room position 0 to remove")
    refused(
        state, BuyMachine(2, 1), "STM-R-42", "a free position exists and this tile costs no machine: nothing is removed"
    )
    refused(state, BuyMachine(1), "STM-R-42", "machine-room position 1 is not free")
    refused(state, BuyMachine(8), "STM-R-42", "machine-room position 8 is not free")
    refused(state, BuyMachine(0), "STM-R-42", "machine-room position 0 is not free")
    accepted(state, BuyMachine(7))
    full_room = room(*((i, STORAGE) for i in range(1, 8)))
    full = flying(5, "left", player(gears=2, machine_room=full_room), player(), markets=markets)
    refused(full, BuyMachine(3), "STM-R-42", "every position is taken: remove a tile to make room")
    refused(full, BuyMachine(3, 4), "STM-R-42", "machine-room position 3 is not free")
    accepted(full, BuyMachine(4, 4))
    ranked = flying(
        5, "left", player(crystals=2, machine_room=room((1, STORAGE))), player(), markets=(Market(5, ("M1-01",)),)
    )
    accepted(ranked, BuyMachine(1, 1))  # the removed tile's position is free again (STM-R-42)
    accepted(ranked, BuyMachine(4, 1))
    buys = [a for a in legal_actions(CTX, ranked) if isinstance(a, BuyMachine)]
    assert buys == [BuyMachine(n, 1) for n in range(1, 8)]


def test_amb13_amb15_bonus_marker_readings() -> None:
    """STM-AMB-13 'foremost' (default): only a row's foremost marker, named by no numeral; 'any': name any
    marker left.  STM-AMB-15 'box' (default): a marker with no usable space is bought and boxed; 'no-buy'
    refuses it (base marker on g6: the #3 space g5 lies left of it)."""
    state = flying(1, "left", player(crystals=3), player())
    refused(
        state,
        BuyBonusMarker("crystal", 7, numeral=5),
        "STM-R-46",
        "only a row's foremost marker is sold: name no numeral (STM-AMB-13 'foremost')",
    )
    anyone = reading("STM-AMB-13", "any")
    refused(
        state,
        BuyBonusMarker("crystal", 7),
        "STM-R-46",
        "name a marker left in the crystal row [5, 4, 3, 2] (STM-AMB-13 'any')",
        anyone,
    )
    accepted(state, BuyBonusMarker("crystal", 5, numeral=3), anyone)  # #3: 2 crystals, its space g5
    base6 = attrs.evolve(player(crystals=3), gauge=gauge_of([], (), 6))
    late = flying(1, "left", base6, player(), bonus=BonusMarket(crystal_row=(3, 2)))
    accepted(late, BuyBonusMarker("crystal", None))
    no_buy = reading("STM-AMB-15", "no-buy")
    refused(
        late,
        BuyBonusMarker("crystal", None),
        "STM-R-47",
        "no #3 space right of the base marker (STM-AMB-15 'no-buy')",
        no_buy,
    )


def test_r63_pay_a_crystal_per_stone_owned() -> None:
    """STM-R-63 (p.27): 'pay as many crystals as you own pressure stones' counts gauge and board."""
    p = player([(4, False)], crystals=1, on_board=1)
    state = pending(game(p, player(), board=(BoardStone(0, 2, "left"),)), PayCrystalsPerStone(), VotePoints(3))
    refused(state, PayCost(), "STM-R-63", "you own 2 pressure stones and have 1 crystals")
    rich = pending(
        game(attrs.evolve(p, crystals=2), player(), board=(BoardStone(0, 2, "left"),)), PayCrystalsPerStone()
    )
    accepted(rich, PayCost())


def test_r57_taking_a_sponsor() -> None:
    """STM-R-57 (p.29): at most 1 sponsor; the supply is limited (STM-R-21)."""
    owner = pending(game(player([(4, False)], sponsor="gear"), player()), GainSponsor())
    refused(owner, TakeSponsor("crystal"), "STM-R-57", "you already own a sponsor (maximum 1: the surplus lapses)")
    none = pending(game(player([(4, False)]), player()), GainSponsor())
    none = attrs.evolve(none, supply=attrs.evolve(none.supply, sponsors=0))
    refused(none, TakeSponsor("crystal"), "STM-R-21", "no sponsor tile is left in the supply")
    refused(none, TakeGala("crystal"), "STM-R-22", "TakeGala(resource='crystal') does not carry out GainSponsor()")


def test_r52_r53_what_a_placement_part_takes() -> None:
    """STM-R-52/53 (p.33): a placement part takes a placement (or is skipped); a move needs a placed one."""
    place = _placing(player(), player(machine_room=HOSTED))
    refused(place, UsePart(), "STM-R-52", "name the machine and symbol the parasite goes on, or skip the part")
    refused(
        place,
        PlaceParasite(1, 1, moved=(1, 2, "passive")),
        "STM-R-52",
        "you have no parasite placed at (1, 2, 'passive') to move",
    )
    envy = _placing(player(), player(machine_room=HOSTED), part=EnvyParasite(1))
    refused(envy, UsePart(), "STM-R-53", "name the machine and symbol the parasite goes on, or skip the part")


def test_r22_resources_a_part_gives() -> None:
    """STM-R-22 (p.9): 'N resources' gives at most what it shows (white parts may be done partly)."""
    state = pending(game(player([(4, False)]), player()), GainResources(crystals=1))
    refused(
        state,
        TakeResources(2, 0),
        "STM-R-22",
        "GainResources(crystals=1, gears=0, either=0, any_number=False) does not give 2 crystals and 0 gears",
    )
    refused(state, TakeResources(0, 0), "STM-R-22", "take at least one resource, or skip the part")
    assert legal_actions(CTX, state) == [SkipPart(), TakeResources(1, 0)]


def test_r32_storing() -> None:
    """STM-R-32 (p.14): one resource per storage space (3 built in); the rest goes back to the supply."""
    p = player([(4, False)], crystals=3, gears=2)
    state = attrs.evolve(game(p, player()), turn=TurnState(storing=True))
    refused(state, Store(4, 0), "STM-R-32", "you hold 3 crystals and 2 gears")
    refused(state, Store(0, 3), "STM-R-32", "you hold 3 crystals and 2 gears")
    refused(state, Store(-1, 0), "STM-R-32", "you hold 3 crystals and 2 gears")
    refused(state, Store(2, 2), "STM-R-32", "you have 3 storage spaces")
    accepted(state, Store(3, 0))
    stores = legal_actions(CTX, state)
    assert len(stores) == 9 and all(isinstance(a, Store) and a.crystals + a.gears <= 3 for a in stores)
    assert legal_actions_by_check(CTX, state) == stores


# ---------------------------------------------------------------------------
# Generation: the options each decision offers, exactly
# ---------------------------------------------------------------------------


def options(state: StmState, ctx: Context = CTX) -> set[StmAction]:
    return set(generated(state, ctx))


def test_r23_the_options_of_an_ordinary_turn() -> None:
    """STM-R-26 (p.11): g1 (value 1) reaches level 1, g4 (value 2) levels 1-2; STM-R-28: only g4 may
    channel (v >= 2); STM-R-24: FLY only with an own stone on the board."""
    state = game(player([(1, False), (4, False)]), player())
    found = {a for a in options(state) if not isinstance(a, MakeSteam)}
    assert found == {
        SetTarget(1, 1, "left"),
        SetTarget(1, 1, "right"),
        *(SetTarget(4, level, side) for level in (1, 2) for side in ("left", "right")),
        ChannelPressure(4),
    }
    flier = game(player([(1, False)], on_board=1), player(), board=(BoardStone(0, 1, "left"),))
    assert {a for a in options(flier) if not isinstance(a, MakeSteam)} == {
        SetTarget(1, 1, "right"),
        FlyToAllTargets(),
    }


def test_r19_arrow_orders_one_per_outcome() -> None:
    """STM-R-19 (p.31): arrow stones on g2 and g3: g2 first jumps g3 to g4, then g3 goes to g5; g3 first
    goes to g4, then g2 to g3: two outcomes.  Apart (g2, g6) the order does not matter: one outcome."""
    near = game(player([(2, True), (3, True)]), player(), phase=Phase.START_OF_TURN)
    assert options(near) == {MoveArrowStones((2, 3)), MoveArrowStones((3, 2))}
    apart = game(player([(2, True), (6, True)]), player(), phase=Phase.START_OF_TURN)
    assert len(generated(apart)) == 1
    none = game(player([(2, False)]), player(), phase=Phase.START_OF_TURN)
    assert generated(none) == [MoveArrowStones()]


def test_r13_the_starting_room_options() -> None:
    """STM-R-13 (p.6): two different free positions of 7, each tile on side 0 or 1: 7 * 6 * 4 = 168."""
    setup = game(player(), player(), phase=Phase.SETUP_ROOM)
    found = generated(setup)
    assert len(found) == 168 and BuildStartingRoom(7, 1, 6, 0) in found
    gone = attrs.evolve(setup, supply=attrs.evolve(setup.supply, capacity_tiles=0))
    assert generated(gone) == []


def test_r29_r49_the_channel_and_the_end_of_turn_options() -> None:
    me = player([(6, False)])
    channel = attrs.evolve(game(me, player(), phase=Phase.CHANNEL), turn=TurnState(channel=2))
    assert options(channel) == {
        MoveLeft(),
        *(PlaceStone(level, side) for level in (1, 2) for side in ("left", "right")),
    }
    assert generated(game(me, player(), phase=Phase.END_OF_TURN)) == [EndTurn()]


def test_r22_the_generic_answers_of_each_kind_of_part() -> None:
    """STM-R-22 (p.9): a part may be skipped (it lapses); a cost is paid or declined; a slash takes a side;
    a part without choices is used."""
    me = player([(4, False)])
    assert options(pending(game(me, player()), VotePoints(2))) == {SkipPart(), UsePart()}
    assert options(pending(game(me, player()), Either((VotePoints(1),), (VotePoints(2),)))) == {
        SkipPart(),
        ChooseSide(0),
        ChooseSide(1),
    }
    rich = player([(4, False)], gears=2, sponsor="gear", gala="gear")
    assert options(pending(game(rich, player()), PayResources(0, 2))) == {
        DeclineCost(),
        PayCost(),
        PayCost(None, True, False),
        PayCost(None, False, True),
        PayCost(None, True, True),
    }
    assert options(pending(game(me, player()), GainSponsor())) == {
        SkipPart(),
        TakeSponsor("crystal"),
        TakeSponsor("gear"),
    }
    assert options(pending(game(me, player()), GainCharityGala())) == {
        SkipPart(),
        TakeGala("crystal"),
        TakeGala("gear"),
    }
    capacity = options(pending(game(me, player()), GainCapacityTile()))
    assert capacity == {SkipPart(), *(BuildCapacity(p, side) for p in range(1, 8) for side in (0, 1))}
    either = options(pending(game(me, player()), GainResources(either=1)))
    assert either == {SkipPart(), TakeResources(1, 0), TakeResources(0, 1)}
    scarce = pending(game(me, player()), GainResources(any_number=True))
    scarce = attrs.evolve(scarce, supply=attrs.evolve(scarce.supply, crystals=1, gears=1))
    assert options(scarce) == {SkipPart(), TakeResources(1, 0), TakeResources(0, 1), TakeResources(1, 1)}


def test_r17_r20_r19_part_options() -> None:
    """STM-R-20 (p.10): a stone of either face from the supply; STM-R-17: the bump may be declined only
    with a stone on the new base space; STM-R-19 'turn N stones': 1..N own arrowless stones."""
    mixed = attrs.evolve(player([(4, False)]), supply=(Stone(), Stone(True)))
    assert options(pending(game(mixed, player()), GainPressureStone())) == {
        SkipPart(),
        GainStone(False),
        GainStone(True),
    }
    assert options(pending(game(player([(1, False)]), player()), AdvanceBaseMarker())) == {
        SkipPart(),
        MoveBaseMarker(),
        MoveBaseMarker(False),
    }
    assert options(pending(game(player([(4, False)]), player()), AdvanceBaseMarker())) == {SkipPart(), MoveBaseMarker()}
    me = player([(2, True), (4, False)], on_board=1)
    board = (BoardStone(0, 3, "left"), BoardStone(1, 5, "left"))
    one = pending(game(me, player(on_board=1), board=board), TurnStones(1))
    assert options(one) == {SkipPart(), TurnArrows((4,)), TurnArrows((), ((3, "left"),))}
    three = pending(game(me, player(on_board=1), board=board), TurnStones(3))
    assert options(three) == {
        SkipPart(),
        TurnArrows((4,)),
        TurnArrows((), ((3, "left"),)),
        TurnArrows((4,), ((3, "left"),)),
    }


def test_r55_r61_part_options() -> None:
    """STM-R-55 (p.34): shake off one chosen opposing parasite; STM-R-61: another district not activated,
    not in S0, without an own stone."""
    mine = room((1, machine("M0-01")), (2, machine("M1-01")))
    parasites = (Parasite(1, 0, 1), Parasite(1, 0, 2, "passive"), Parasite(0, 1, 1))
    shaking = pending(
        game(
            player(machine_room=mine, parasites_home=2),
            player(parasites_home=1, machine_room=mine),
            parasites=parasites,
        ),
        ShakeOff(all=False),
    )
    assert options(shaking) == {SkipPart(), ShakeOffParasite(1, 1), ShakeOffParasite(1, 2, "passive")}
    state = _other_district(activated=((2, "left"),))
    found = options(state)
    districts = {(d.level, d.position) for d in CTX.pack.side("2-3")}
    assert found == {
        SkipPart(),
        *(UseOtherDistrict(level, side) for level, side in districts - {(2, "left"), (3, "left")}),
    }


def test_r38_the_flight_step_options_on_level_1() -> None:
    """STM-R-36..38 (p.16-18): the stoker stands on level 4 and the banker on 6; on level 1 the step
    offers the district effect, nothing, and the bonus markers the player can pay (1 crystal: the #5 of
    the crystal row on g7, its numeral, STM-R-47)."""
    state = flying(1, "left", player(crystals=1), player())
    assert options(state) == {UseDistrict(), LetLapse(), BuyBonusMarker("crystal", 7)}
    bumping = flying(1, "left", player([(7, False)], crystals=1), player())
    assert {a for a in options(bumping) if isinstance(a, BuyBonusMarker)} == {
        BuyBonusMarker("crystal", 7),
        BuyBonusMarker("crystal", 7, False),
    }
    gears = flying(1, "left", player(gears=1, sponsor="gear"), player())
    assert {a for a in options(gears) if isinstance(a, BuyBonusMarker)} == {
        BuyBonusMarker("gear", 7),
        BuyBonusMarker("gear", 7, sponsor=True),
    }


def test_r38_the_flight_step_options_on_a_market_level() -> None:
    """STM-R-40..43 (p.18-20): on level 5 with M0-01 face up (2 gears): as a machine on any free position,
    as a banner for a gauge stone (2 owned); the extra market of a 4-player level 2 sells too (STM-R-38)."""
    p = player([(4, False)], gears=2, machine_room=room((1, STORAGE)))
    state = flying(5, "left", p, player(), markets=(Market(5, ("M0-01",)),))
    space = state.turn.active_space
    assert {a for a in options(state) if isinstance(a, BuyMachine | BuyBanner)} == {
        *(BuyMachine(n) for n in range(2, 8)),
        BuyBanner(4),
        BuyBanner(space),
    }
    four = [player(gears=2), player(), player(), player()]
    markets = (Market(2, ()), Market(2, ("M0-02",), statue=False, extra=True))
    extra = flying(2, "left", *four, markets=markets)
    assert {a for a in options(extra) if isinstance(a, BuyMachine | BuyBanner)} == {
        *(BuyMachine(n, extra=True) for n in range(1, 8)),
    }


# ---------------------------------------------------------------------------
# Exact limits
# ---------------------------------------------------------------------------


def test_r22_resources_up_to_what_the_part_shows() -> None:
    """STM-R-22 (p.9): '1 crystal, 1 gear, 1 of either' gives at most 2 crystals, 2 gears, 3 in all."""
    state = pending(game(player([(4, False)]), player()), GainResources(crystals=1, gears=1, either=1))
    for c, g in ((2, 1), (1, 2), (0, 2), (2, 0), (1, 1), (1, 0)):
        accepted(state, TakeResources(c, g))
    for c, g in ((3, 0), (0, 3), (2, 2)):
        refused(
            state,
            TakeResources(c, g),
            "STM-R-22",
            f"GainResources(crystals=1, gears=1, either=1, any_number=False) does not give {c} crystals and {g} gears",
        )
    refused(state, TakeResources(-1, 2), "STM-R-22", "take at least one resource, or skip the part")
    refused(state, TakeResources(2, -1), "STM-R-22", "take at least one resource, or skip the part")
    many = pending(game(player([(4, False)]), player()), GainResources(any_number=True))
    accepted(many, TakeResources(13, 0))  # the supply holds 15, the part no limit


def test_r36_one_passenger_aboard_leaves_a_space() -> None:
    """STM-R-36 (p.16): 2 passenger spaces; with one taken the stoker may board (his destination level 3
    on the board's print, STM-P-12, holds an own stone)."""
    state = fly_from(4, "left", player(on_board=2), player(), board=(BoardStone(0, 3, "left"),))
    aboard = attrs.evolve(state.players[0], carrying=("banker",))
    passengers = attrs.evolve(state.passengers, banker=None)
    turn = attrs.evolve(state.turn, boarded=(("banker", 7),))
    state = attrs.evolve(state, players=(aboard, state.players[1]), passengers=passengers, turn=turn)
    accepted(state, PickUp("stoker"))
    refused(state, PickUp("banker"), "STM-R-36", "the banker is not on level 4")


def test_r28_channelling_needs_a_free_district_up_to_the_entry() -> None:
    """STM-R-28 (p.12): a stone of value 3 (g5) enters position 2 and must find a free district on levels
    1-2: one free level-2 district suffices; with levels 1-2 full it cannot channel."""
    low = tuple(BoardStone(1, 1, side) for side in ("left", "right"))
    ok = game(player([(5, False)]), player(on_board=2), board=(*low, BoardStone(1, 2, "left")))
    accepted(ok, ChannelPressure(5))
    full = game(
        player([(5, False)]), player(on_board=3), board=(*low, BoardStone(1, 2, "left"), BoardStone(1, 2, "right"))
    )
    refused(
        full, ChannelPressure(5), "STM-R-28", "no free district on levels 1-2: the channelled stone could not be placed"
    )
    single = game(player([(2, False)]), player())
    refused(
        single, ChannelPressure(2), "STM-R-28", "a stone of pressure value 1 cannot channel pressure into the machine"
    )


def test_r29_moving_left_from_2_to_1() -> None:
    """STM-R-29 (p.13): from w = 2 the stone may still move left to position 1 (a level-1 district free)."""
    state = attrs.evolve(game(player([(6, False)]), player(), phase=Phase.CHANNEL), turn=TurnState(channel=2))
    accepted(state, MoveLeft())


def test_r17_the_base_marker_reaches_g6() -> None:
    """STM-R-17 (p.10): from g5 the marker still moves to g6 (value 4), the last space it may reach."""
    five = attrs.evolve(player([(8, False)]), gauge=gauge_of([(8, False)], (), 5))
    accepted(pending(game(five, player()), AdvanceBaseMarker()), MoveBaseMarker())


def test_r14_no_stone_outside_the_gauge() -> None:
    state = game(player([(4, False)]), player())
    refused(state, SetTarget(11, 1, "left"), "STM-R-26", "no pressure stone of yours on gauge space 11")
    refused(state, SetTarget(-1, 1, "left"), "STM-R-26", "no pressure stone of yours on gauge space -1")
    refused(state, ChannelPressure(11), "STM-R-28", "no pressure stone of yours on gauge space 11")


def test_r15_increase_the_pressure_part() -> None:
    """STM-R-15 (p.9): 'increase the pressure by 3' moves stones of yours, one increment at a time."""
    state = pending(game(player([(4, False)]), player()), IncreasePressure(3))
    with pytest.raises(GaugeError) as err:
        increase(state.players[0].gauge, 3, (2,))
    refused(state, RaisePressure((2,)), err.value.rule, err.value.message)
    accepted(state, RaisePressure((4, 5, 6)))
    assert [a for a in generated(state) if isinstance(a, RaisePressure)] == [RaisePressure((4, 5, 6))]


def test_r52_moving_a_placed_parasite() -> None:
    """STM-R-52 (p.33): 'place or move' may move a placed parasite to another place; with 3 players at
    most 1 of yours per machine, the moved one no longer counting where it was."""
    hosted = player(machine_room=HOSTED)
    mine = (Parasite(0, 1, 1), Parasite(0, 1, 2, "passive"))
    state = _placing(player(parasites_home=1), hosted, player(machine_room=HOSTED), parasites=mine)
    refused(
        state,
        PlaceParasite(1, 1, moved=(1, 1, "activation")),
        "STM-R-52",
        "a moved parasite changes its place",
    )
    refused(
        state,
        PlaceParasite(1, 2, "passive", moved=(1, 1, "activation")),
        "STM-R-52",
        "at most 1 of your parasites on one machine with 3 players (STM-AMB-20 'per-owner')",
    )
    accepted(state, PlaceParasite(2, 1, moved=(1, 1, "activation")))
    accepted(state, PlaceParasite(2, 2, "passive", moved=(1, 2, "passive")))
    moves = {a for a in options(state) if isinstance(a, PlaceParasite)}
    assert moves == {
        PlaceParasite(2, 1, "activation", source) for source in (None, (1, 1, "activation"), (1, 2, "passive"))
    } | {PlaceParasite(2, 2, "passive", source) for source in (None, (1, 1, "activation"), (1, 2, "passive"))}


def test_r53_can_place_needs_a_machine_of_the_envied_player() -> None:
    """STM-R-53 (p.33): an envious player places on the envied player's machines: with none there, envy
    offers nothing (another player's machines do not count)."""
    state = _placing(player(), player(machine_room=HOSTED), player(), part=EnvyParasite(2))
    assert can_place(CTX, state, 2) is False
    assert can_place(CTX, state, 1) is True
    empty = _placing(player(parasites_home=0), player(machine_room=HOSTED), player(), part=EnvyParasite(1))
    assert can_place(CTX, empty, 1) is False


def test_amb13_any_marker_options() -> None:
    """STM-AMB-13 'any': any marker left, at its own cost (STM-P-08: #5 1, #4 2, #3 2, #2 3), on its
    numeral's space (g7, g6, g5, g3/g4); 2 crystals pay all but the #2."""
    anyone = reading("STM-AMB-13", "any")
    state = flying(1, "left", player(crystals=2), player())
    assert {a for a in options(state, anyone) if isinstance(a, BuyBonusMarker)} == {
        BuyBonusMarker("crystal", 7, numeral=5),
        BuyBonusMarker("crystal", 6, numeral=4),
        BuyBonusMarker("crystal", 5, numeral=3),
    }
    refused(
        state, BuyBonusMarker("crystal", 3, numeral=2), "STM-R-46", "the #2 marker costs 3 crystals; you have 2", anyone
    )
    refused(
        state,
        BuyBonusMarker("crystal", 3, numeral=6),
        "STM-R-46",
        "name a marker left in the crystal row [5, 4, 3, 2] (STM-AMB-13 'any')",
        anyone,
    )


# ---------------------------------------------------------------------------
# From the first re-test of the survivors
# ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fresh_memos() -> None:
    """rules.py memoises the pressure walks (by reading, gauge and increments): clear them so each test
    computes what it asks, whatever ran before in the process."""
    _pressure_verdict.cache_clear()
    _walk_ends.cache_clear()
    _raises_for.cache_clear()


def test_amb09_each_level_rereads_the_destination_of_a_banner_stone() -> None:
    """STM-AMB-11 'board' with STM-AMB-09: the banker boarded for level 6 ('pick-up' fixes it); 'each-level'
    re-reads the board's print (STM-P-12: banker 7) since he stands nowhere.  The last own stone on the
    level he gets off at cannot pay for a banner (STM-R-36/37)."""
    board = (BoardStone(0, 6, "left"), BoardStone(0, 7, "left"))
    state = fly_from(5, "left", player(gears=2, on_board=3), player(), board=board, markets=(Market(5, ("M0-01",)),))
    aboard = attrs.evolve(state.players[0], carrying=("banker",))
    passengers = attrs.evolve(state.passengers, banker=None)
    turn = attrs.evolve(state.turn, boarded=(("banker", 6),))
    state = attrs.evolve(state, players=(aboard, state.players[1]), passengers=passengers, turn=turn)
    fixed = Context.printed(None, {"STM-AMB-11": "board"})
    reread = Context.printed(None, {"STM-AMB-11": "board", "STM-AMB-09": "each-level"})
    six, seven = BuyBanner(None, board=(6, "left")), BuyBanner(None, board=(7, "left"))
    waits = "your last stone on level {} is where the banker you carry gets off: it cannot pay"
    refused(state, six, "STM-R-36", waits.format(6), fixed)
    accepted(state, seven, fixed)
    refused(state, seven, "STM-R-36", waits.format(7), reread)
    accepted(state, six, reread)


def test_r72_no_parasite_beside_the_stack_outside_the_solo_game() -> None:
    """STM-R-72 is solo only: in a multiplayer state no parasite lies beside the passenger stack."""
    state = game(player([(4, False)]), player(), phase=Phase.END_OF_TURN)
    state = attrs.evolve(state, turn=TurnState(removal="parasites", removed=("M0-01",)))
    refused(state, UseRemovedTile("M0-01"), "STM-R-72", "no parasite lies beside the passenger stack")


def test_conditions_judged_apart_only_for_their_own_actions() -> None:
    """A district named by another action (STM-R-61 'use another district') is not judged by STM-R-26
    against the channelled stone; a marker's space is judged with the marker it buys (STM-AMB-13 'any':
    the one named) and with the bump as chosen."""
    channel = attrs.evolve(game(player([(6, False)]), player(), phase=Phase.CHANNEL), turn=TurnState(channel=2))
    assert rules_of(channel, UseOtherDistrict(3, "left")) == ["STM-R-22"]
    state = flying(1, "left", player(), player())
    anyone = reading("STM-AMB-13", "any")
    found = rejections(anyone, state, BuyBonusMarker("crystal", 2, numeral=4))
    assert [r.rule for r in found] == ["STM-R-46", "STM-R-47"]
    says(found[1], "STM-R-47", "space 2 is not a #4 space right of the base marker")
    assert rules_of(state, BuyBonusMarker("crystal", 7)) == ["STM-R-46"]
    # a district the side does not have is not judged for its level
    acting = game(player([(4, False)]), player())
    assert rules_of(acting, SetTarget(4, 3, "third")) == ["STM-R-01"]


def test_amb39_activation_keeps_the_activation_effect() -> None:
    """STM-AMB-39 'activation': the face-up tile's activation effect stays usable."""
    state = activate_state(BESIDE[:1])
    accepted(state, UseFaceUpTile(5), reading("STM-AMB-39", "activation"))


def test_r61_buy_tile_options_with_discounts_and_stones() -> None:
    """STM-R-61 'buy tile' by the normal rules: M0-01 (2 gears) with no gear in hand is paid only with the
    gear gala (2 off, STM-R-58), with or without the gear sponsor (1 off, STM-R-57); as a machine on a
    free position, as a banner for the gauge stone or (STM-AMB-11 'board') the board stone."""
    p = player([(4, False)], on_board=1, sponsor="gear", gala="gear", machine_room=room((1, STORAGE)))
    state = pending(game(p, player(), board=(BoardStone(0, 3, "left"),), markets=(Market(5, ("M0-01",)),)), BuyTile())
    on_board = reading("STM-AMB-11", "board")
    pays = ((False, True), (True, True))
    assert options(state, on_board) == {
        SkipPart(),
        *(BuyMachine(n, None, False, 5, sp, ga) for n in range(2, 8) for sp, ga in pays),
        *(BuyBanner(4, False, 5, sp, ga) for sp, ga in pays),
        *(BuyBanner(None, False, 5, sp, ga, (3, "left")) for sp, ga in pays),
    }
    sponsor_only = attrs.evolve(p, gala=None, gears=1)
    state = pending(
        game(sponsor_only, player(), board=(BoardStone(0, 3, "left"),), markets=(Market(5, ("M0-01",)),)), BuyTile()
    )
    assert options(state) == {
        SkipPart(),
        *(BuyMachine(n, None, False, 5, True, False) for n in range(2, 8)),
        BuyBanner(4, False, 5, True, False),
    }


def test_r61_buy_tile_options_of_a_rank_1_tile() -> None:
    """STM-R-41/42 via 'buy tile': M1-01 (2 crystals) removes a machine-room tile; the tile may go where
    the removed one stood or on any free position."""
    p = player([(4, False), (6, False)], crystals=2, machine_room=room((1, STORAGE)))
    state = pending(game(p, player(), markets=(Market(5, ("M1-01",)),)), BuyTile())
    assert options(state) == {
        SkipPart(),
        *(BuyMachine(n, 1, False, 5) for n in range(1, 8)),
        BuyBanner(4, False, 5),
        BuyBanner(6, False, 5),
    }


def test_r56_two_parasites_on_one_machine_are_activated_once_each() -> None:
    """STM-R-56 with 2 players (2 of yours may share a machine, STM-R-52): 'any number' activates one or
    both, each parasite once: two options, not more."""
    host = player(machine_room=room((1, machine("M0-01"))))
    twins = (Parasite(0, 1, 1), Parasite(0, 1, 1))
    state = pending(game(player(parasites_home=1), host, parasites=twins), ActivateParasites(None))
    found = [a for a in generated(state) if isinstance(a, ActivateParasite)]
    one: ParasiteAt = (1, 1, "activation")
    assert found == [ActivateParasite((one,)), ActivateParasite((one, one))]


def test_r36_the_pick_up_options() -> None:
    """STM-R-36 (p.16): the banker stands on level 6, the stoker on 4 (STM-R-05); with the stack used up
    the board's print gives their destinations (STM-P-12: banker 7, stoker 3).  Each boards where he
    stands if an own stone lies on his destination level."""
    banker = fly_from(6, "left", player(on_board=2), player(), board=(BoardStone(0, 7, "left"),))
    assert PickUp("banker") in generated(banker)
    stoker = fly_from(4, "left", player(on_board=2), player(), board=(BoardStone(0, 3, "left"),))
    assert PickUp("stoker") in generated(stoker)
    refused(stoker, PickUp("banker"), "STM-R-36", "the banker is not on level 4")
    lonely = fly_from(4, "left", player(on_board=1), player())
    refused(lonely, PickUp("stoker"), "STM-R-36", "the stoker wants to go to level 3 and you have no stone left there")


def test_r47_declining_needs_a_stone_that_could_move() -> None:
    """STM-R-47 (p.23): declining the bump sends the new marker to the box; it is a choice only when the
    stone on the space could be increased.  The g5 stone is blocked (g6..g10 full): no choice."""
    stuck = attrs.evolve(
        player([(5, False)], character=7),
        gauge=gauge_of([(5, False), (8, False), (9, False), (10, False)], [(6, 4), (7, 5)]),
        supply=(Stone(),),
    )
    state = pending(game(stuck, player()), GainPinkMarker())
    refused(
        state, PlacePinkMarker(5, False), "STM-R-47", "no stone on space 5 that could be increased: nothing to decline"
    )
    accepted(state, PlacePinkMarker(5))


def _stoneless_banners(data: dict[str, Any]) -> None:
    data["market_slots"][0]["banner"]["stone"] = False


def test_r43_a_banner_slot_without_a_stone() -> None:
    """STM-R-40/43 (p.18-20): a banner costs a stone only where the slot shows one (STM-P-03, per-slot data,
    STM-AMB-25).  In a pack whose rank-0 slot shows none, naming a stone is refused, and the buyer's only
    stone stays his."""
    ctx = pack_ctx(_stoneless_banners)
    state = flying(5, "left", player(gears=2), player(), markets=(Market(5, ("M0-01",)),), ctx=ctx)
    space = state.turn.active_space
    refused(state, BuyBanner(space), "STM-R-43", "this banner costs no pressure stone", ctx)
    refused(state, BuyBanner(None, board=(6, "left")), "STM-R-43", "this banner costs no pressure stone", ctx)
    accepted(state, BuyBanner(None), ctx)
    assert {a for a in options(state, ctx) if isinstance(a, BuyBanner)} == {BuyBanner(None)}
    tile = pending(game(player([(4, False)], gears=2), player(), markets=(Market(5, ("M0-01",)),)), BuyTile())
    assert {a for a in options(tile, ctx) if isinstance(a, BuyBanner)} == {BuyBanner(None, level=5)}


def _taxed_tile(data: dict[str, Any]) -> None:
    data["machines"][0]["costs"] = {"crystals": 1, "gears": 1}  # M0-01 prints 1 crystal and 1 gear of its own


def test_r40_the_price_adds_the_tiles_own_costs() -> None:
    """STM-R-40 (p.18): 'the visible symbols on the market plus the costs on the tile'.  M0-01 in the
    rank-0 slot (2 gears) printing 1 crystal and 1 gear of its own costs 1 crystal and 3 gears."""
    ctx = pack_ctx(_taxed_tile)
    markets = (Market(5, ("M0-01",)),)
    short = flying(5, "left", player(crystals=1, gears=2), player(), markets=markets, ctx=ctx)
    refused(short, BuyMachine(1), "STM-R-40", "the tile costs 1 crystals and 3 gears: you cannot pay it all", ctx)
    paid = flying(5, "left", player(crystals=1, gears=3), player(), markets=markets, ctx=ctx)
    accepted(paid, BuyMachine(1), ctx)


def test_r57_r58_both_discounts_never_below_0() -> None:
    """STM-R-57/58 (p.29): sponsor 1 off, then the gala up to 2 off 'not below 0': 2 gears cost nothing;
    a #5 bonus marker (1 crystal) costs nothing with a crystal sponsor."""
    markets = (Market(5, ("M0-01",)),)
    broke = flying(5, "left", player(sponsor="gear", gala="gear"), player(), markets=markets)
    accepted(broke, BuyMachine(2, sponsor=True, gala=True))
    free_marker = flying(1, "left", player(sponsor="crystal"), player())
    accepted(free_marker, BuyBonusMarker("crystal", 7, sponsor=True))
    refused(free_marker, BuyBonusMarker("crystal", 7), "STM-R-46", "the #5 marker costs 1 crystals; you have 0")
    refused(
        free_marker,
        BuyBonusMarker("gear", 7, sponsor=True),
        "STM-R-57",
        "the sponsor shows a crystal, and this cost holds none",
    )


def test_r63_r57_a_counted_cost_with_a_discount() -> None:
    """STM-R-63 with STM-R-57: 2 stones owned cost 2 crystals; the crystal sponsor pays one."""
    p = player([(4, False)], crystals=1, on_board=1, sponsor="crystal")
    state = pending(game(p, player(), board=(BoardStone(0, 2, "left"),)), PayCrystalsPerStone())
    accepted(state, PayCost(None, True))
    refused(state, PayCost(), "STM-R-63", "you own 2 pressure stones and have 1 crystals")


def test_r53_envy_is_a_cost_without_a_price() -> None:
    """STM-R-22/53 (p.9, p.33): the black envy symbol is 'paid' by letting the others place parasites:
    nothing to name, no discount."""
    state = pending(game(player([(4, False)], sponsor="crystal"), player()), Envy(), VotePoints(2))
    accepted(state, PayCost())
    accepted(state, DeclineCost())
    refused(state, PayCost(None, True), "STM-R-57", "Envy() is not a resource cost: no discount")
    refused(state, PayCost(4), "STM-R-22", "this cost takes no pressure stone")


def test_r21_the_last_tile_of_a_supply_may_be_taken() -> None:
    """STM-R-21 (p.9): the supply's last capacity tile, sponsor or gala can still be taken."""
    one = pending(game(player([(4, False)]), player()), GainCapacityTile())
    one = attrs.evolve(one, supply=attrs.evolve(one.supply, capacity_tiles=1, sponsors=1))
    accepted(one, BuildCapacity(1, 0))
    accepted(pending(one, GainSponsor()), TakeSponsor("crystal"))
    setup = attrs.evolve(game(player(), player(), phase=Phase.SETUP_ROOM), supply=one.supply)
    assert len(generated(setup)) == 168


def test_r57_turning_the_sponsor() -> None:
    """STM-R-57 (p.29): 'turn sponsor' flips an owned sponsor."""
    state = pending(game(player([(4, False)], sponsor="gear"), player()), TurnSponsor())
    accepted(state, UsePart())
    refused(state, TakeSponsor("gear"), "STM-R-61", "TurnSponsor() needs no choice: use it or skip it")


def test_r22_a_part_answered_by_another_kind_of_action() -> None:
    state = pending(game(player([(4, False)]), player()), IncreasePressure(2))
    refused(
        state,
        TakeResources(1, 0),
        "STM-R-22",
        "TakeResources(crystals=1, gears=0) does not carry out IncreasePressure(n=2)",
    )


def test_r33_after_the_step_the_stone_is_done() -> None:
    """STM-R-33 (p.15): while the current stone's steps resolve, neither the next stone nor a new step."""
    state = fly_from(4, "left", player(on_board=2), player(), board=(BoardStone(0, 5, "left"),))
    after = attrs.evolve(state, turn=attrs.evolve(state.turn, step="after"))
    refused(after, TakeBack(5, "left"), "STM-R-33", "finish the steps of the current stone before taking back the next")
    refused(after, UseDistrict(), "STM-R-33", "take back one of your stones first")


def test_r66_the_final_turn_options() -> None:
    """STM-R-66 (p.25): the final turn's steps in order, each optional (STM-AMB-17 'optional')."""
    flier = final(game(player([(10, False)], on_board=1), player(), board=(BoardStone(0, 2, "left"),)), "fly")
    assert generated(flier) == [FlyToAllTargets(), SkipStep()]
    target = final(game(player([(1, False)]), player()), "target")
    assert options(target) == {SetTarget(1, 1, "left"), SetTarget(1, 1, "right"), SkipStep()}
    refused(
        target,
        FlyToAllTargets(),
        "STM-R-66",
        "the final turn is MAKE STEAM, then SET 1 TARGET, then FLY TO ALL TARGETS: now SET 1 TARGET or skip it",
    )


def _numeral_5_on_g8(data: dict[str, Any]) -> None:
    data["gauge"]["numerals"] = [None, None, 2, 2, 3, 4, None, 5, None, None]


def test_amb03_the_numerals_come_from_the_pack() -> None:
    """STM-R-47 (p.23) with STM-AMB-03 'separate': the spaces a bonus marker may go on are the gauge's
    printed numerals, given by the pack (the bundled one gives none: 'value' reads them off the values), so
    a pack printing the #5 on g8 puts the crystal row's #5 there."""
    ctx = pack_ctx(_numeral_5_on_g8, {"STM-AMB-03": "separate"})
    state = flying(1, "left", player(crystals=1), player(), ctx=ctx)
    accepted(state, BuyBonusMarker("crystal", 8), ctx)
    refused(state, BuyBonusMarker("crystal", 7), "STM-R-47", "space 7 is not a #5 space right of the base marker", ctx)


def test_r66_no_pass_in_the_final_turns_flight() -> None:
    """STM-R-66 (p.25, "FINAL ROUND"): the final turn is the steps in order, each skipped rather than
    passed (STM-AMB-17).  A pass in the final turn's FLY step is refused by the flight step (STM-R-33,
    then R-38 once a stone is taken back) and, judged apart, by the final turn's own rule."""
    flier = final(game(player([(10, False)], on_board=1), player(), board=(BoardStone(0, 2, "left"),)), "fly")
    flying_now = play(flier, FlyToAllTargets())
    skip_instead = ("STM-R-66", "in the final turn, skip the action instead")
    found = rejections(CTX, flying_now, PassTurn())
    assert [(r.rule, r.reason) for r in found] == [("STM-R-33", "take back one of your stones first"), skip_instead]
    assert found[1].page == RULES["STM-R-66"].page
    taken = play(flying_now, TakeBack(2, "left"))
    assert [(r.rule, r.reason) for r in rejections(CTX, taken, PassTurn())] == [
        ("STM-R-38", "choose the district effect, a purchase, or nothing"),
        skip_instead,
    ]


def test_amb13_any_crystal_markers_with_the_gear_row_sold_out() -> None:
    """STM-R-04 (p.5): the level-1 market has a crystal row and a gear row; STM-AMB-13 'any' (STM-R-46,
    p.23): any marker left in a row, on its numeral's space (#5 g7, #4 g6, #3 g5), a stone there bumped
    or, declined, left (STM-R-47).  The gear row sold out takes nothing from the crystal row."""
    anyone = reading("STM-AMB-13", "any")
    state = flying(1, "left", player([(6, False)], crystals=2), player())
    state = attrs.evolve(state, bonus=attrs.evolve(state.bonus, gear_row=()))
    assert {a for a in generated(state, anyone) if isinstance(a, BuyBonusMarker)} == {
        BuyBonusMarker("crystal", 7, numeral=5),
        BuyBonusMarker("crystal", 6, numeral=4),
        BuyBonusMarker("crystal", 6, False, numeral=4),
        BuyBonusMarker("crystal", 5, numeral=3),
    }


def _dear_crystal_5(data: dict[str, Any]) -> None:
    data["bonus_rows"][0]["slots"][0]["cost"] = 3


def test_r46_each_marker_at_its_own_rows_price() -> None:
    """STM-R-46 (p.23) / STM-P-08: a marker costs what its own row shows for it; the slots between the
    printed #5 and #2 are reconstructed, so a pack may price the crystal #5 above the #4.  With 2
    crystals the #5 (3 crystals) is refused, the #4 (2) bought under STM-AMB-13 'any'; the gear row
    still sells its #5 for 1 gear."""
    anyone = pack_ctx(_dear_crystal_5, {"STM-AMB-13": "any"})
    state = flying(1, "left", player(crystals=2, gears=1), player())
    refused(
        state, BuyBonusMarker("crystal", 7, numeral=5), "STM-R-46", "the #5 marker costs 3 crystals; you have 2", anyone
    )
    assert {a for a in generated(state, anyone) if isinstance(a, BuyBonusMarker) and a.row == "crystal"} == {
        BuyBonusMarker("crystal", 6, numeral=4),
        BuyBonusMarker("crystal", 5, numeral=3),
    }
    foremost = pack_ctx(_dear_crystal_5)
    refused(state, BuyBonusMarker("crystal", 7), "STM-R-46", "the #5 marker costs 3 crystals; you have 2", foremost)
    accepted(state, BuyBonusMarker("gear", 7), foremost)


def test_r52_an_empty_supply_may_still_move_a_placed_parasite() -> None:
    """STM-R-52 (p.33): your parasites are in your supply or on other players' tiles, and 'place or move'
    may move a placed one: with none left in the supply a placement is refused, pointing to the move."""
    state = _placing(player(parasites_home=0), player(machine_room=HOSTED), parasites=(Parasite(0, 1, 1),) * 3)
    refused(state, PlaceParasite(1, 1), "STM-R-52", "no parasite left in your supply: move a placed one instead")


def test_r52_a_place_names_a_machine_and_its_position() -> None:
    """STM-R-52 (p.33) with STM-AMB-02 (a): a parasite goes onto another player's machine-room tile, named
    by seat and position m1..m7; a seat without a position, or m0 / m8, names no tile, and the tile on
    m7, the last position, takes one like any other."""
    last = room((1, machine("M1-01")), (7, machine("M0-01")))
    state = _placing(player(), player(machine_room=last))
    refused(
        state, PlaceParasite(1, None), "STM-R-52", "a parasite goes onto another player's machine, never onto your own"
    )
    refused(state, PlaceParasite(1, 0), "STM-R-52", "seat 1 has no machine-room tile at position 0")
    refused(state, PlaceParasite(1, 8), "STM-R-52", "seat 1 has no machine-room tile at position 8")
    accepted(state, PlaceParasite(1, 7))
    assert {a for a in generated(state) if isinstance(a, PlaceParasite)} == {
        PlaceParasite(1, 7, "activation"),
        PlaceParasite(1, 1, "passive"),
    }


def test_r43_r57_r58_a_stoneless_banner_with_each_discount() -> None:
    """STM-R-43 (p.20) in a pack whose rank-0 slot shows no stone (STM-P-03, STM-AMB-25), paid as STM-R-40
    asks, with the gear sponsor (STM-R-57, 1 off) and the gear gala (STM-R-58, 2 off) used or not: M0-01's
    2 gears are paid with 2 gears in hand whichever discounts the buyer takes."""
    ctx = pack_ctx(_stoneless_banners)
    p = player(gears=2, sponsor="gear", gala="gear")
    state = flying(5, "left", p, player(), markets=(Market(5, ("M0-01",)),), ctx=ctx)
    assert {a for a in generated(state, ctx) if isinstance(a, BuyBanner)} == {
        BuyBanner(None, sponsor=sp, gala=ga) for sp in (False, True) for ga in (False, True)
    }


def test_amb13_foremost_a_named_marker_is_still_the_foremost_one() -> None:
    """STM-AMB-13 'foremost' (STM-R-46, p.23): only the row's foremost marker, the #5, is sold, so naming
    the #4 is refused, and judged apart its space is the #5's (g7, STM-R-47): g6 is refused too."""
    state = flying(1, "left", player(crystals=3), player())
    found = rejections(CTX, state, BuyBonusMarker("crystal", 6, numeral=4))
    assert [(r.rule, r.reason) for r in found] == [
        ("STM-R-46", "only a row's foremost marker is sold: name no numeral (STM-AMB-13 'foremost')"),
        ("STM-R-47", "space 6 is not a #5 space right of the base marker"),
    ]


def test_r58_the_gala_pays_for_a_bonus_marker() -> None:
    """STM-R-58 (p.29): the charity gala takes up to 2 of its resource off a cost holding it, a bonus
    marker's too (STM-R-46): the crystal #5 (1 crystal) is bought with no crystal in hand."""
    state = flying(1, "left", player(gala="crystal"), player())
    accepted(state, BuyBonusMarker("crystal", 7, gala=True))
    refused(state, BuyBonusMarker("crystal", 7), "STM-R-46", "the #5 marker costs 1 crystals; you have 0")


def _both_symbols(data: dict[str, Any]) -> None:
    m1 = next(m for m in data["machines"] if m["id"] == "M1-01")
    data["machines"][0]["passive"] = m1["passive"]  # M0-01 shows a boiler and a passive symbol


def test_r52_moving_a_parasite_to_the_other_symbol_of_its_machine() -> None:
    """STM-R-52 (p.33): a parasite sits on a tile's activation or passive symbol, and 'place or move' may
    move a placed one; with 3 players at most 1 of yours per machine, the moved one no longer counting
    where it was.  On a machine showing both symbols (the Technician's Handbook is not printed: a pack
    may give one both), yours moves from the boiler to the passive symbol of the same machine."""
    ctx = pack_ctx(_both_symbols)
    hosted = player(machine_room=room((1, machine("M0-01"))))
    state = _placing(player(parasites_home=2), hosted, player(), parasites=(Parasite(0, 1, 1),))
    accepted(state, PlaceParasite(1, 1, "passive", moved=(1, 1, "activation")), ctx)
    refused(
        state,
        PlaceParasite(1, 1, "passive"),
        "STM-R-52",
        "at most 1 of your parasites on one machine with 3 players (STM-AMB-20 'per-owner')",
        ctx,
    )


# ---------------------------------------------------------------------------
# model/steamopolis/transitions.py: effects the rules above admit, carried out (issue 22, session 11)
# ---------------------------------------------------------------------------


def test_r22_a_slash_resolves_the_chosen_side_then_the_parts_beneath_it() -> None:
    """STM-R-22 (p.26-27): 'A / B' = A or B; the parts beneath the slash follow whichever side."""
    base = pending(game(player([(1, False)]), player()), Either((VotePoints(1),), (VotePoints(3),)), VotePoints(2))
    for side, vp in ((0, 1 + 2), (1, 3 + 2)):
        state = play(base, ChooseSide(side), UsePart(), UsePart())
        assert (state.players[0].vp, state.turn.pending) == (vp, ())


def test_r22_r43_a_stone_cost_returns_the_named_stone_with_its_face() -> None:
    """STM-R-22 (p.26-27): the black cost 'pressure stone -1' is paid in full to use the parts beneath
    it; the stone named leaves the gauge for the personal supply (STM-R-43, p.20), keeping its face
    (STM-R-18, p.15; STM-AMB-10 'any')."""
    me = player([(1, False), (3, True)])
    state = play(pending(game(me, player()), ReturnStone(), VotePoints(2)), PayCost(stone=3), UsePart())
    p = state.players[0]
    assert p.gauge == gauge_of([(1, False)])
    assert p.supply == (*me.supply, Stone(True))
    assert p.vp == 2


def test_r63_r57_the_sponsor_takes_one_off_the_counted_crystals() -> None:
    """STM-R-63 (p.27): as many crystals as stones owned on the gauge and the board (3 here); STM-R-57
    (p.29): the crystal sponsor takes 1 off and turns over."""
    me = player([(1, False), (2, False)], on_board=1, crystals=3, sponsor="crystal")
    state = pending(game(me, player(), board=(BoardStone(0, 5, "left"),)), PayCrystalsPerStone(), VotePoints(1))
    state = play(state, PayCost(sponsor=True), UsePart())
    p = state.players[0]
    assert (p.crystals, p.sponsor, p.vp) == (1, "gear", 1)


def _arrow_flight(level: int, position: str, stones: list[tuple[int, bool]], base: int = 0) -> StmState:
    """Seat 0 flies from one arrow stone on (level, position) and takes it back: its other stones on
    ``stones`` (base marker on ``base``), none in the supply."""
    supply = (Stone(),) * (4 - len(stones))
    me = attrs.evolve(player(stones, on_board=1), gauge=gauge_of(stones, base=base), supply=supply)
    board = (BoardStone(0, level, position, Stone(True)),)  # type: ignore[arg-type]
    return play(game(me, player(), board=board), FlyToAllTargets(), TakeBack(level, position))  # type: ignore[arg-type]


def test_r19_static_discharge_turns_the_stone_taken_back_arrow_down() -> None:
    """STM-R-19 (p.28,31): using the district effect of a static-discharge district (level 7 right)
    turns the stone just taken back arrow side down, on the gauge where it went (STM-R-18, p.15)."""
    state = _arrow_flight(7, "right", [(1, False)])
    assert state.players[0].gauge.spaces[2] == Stone(True)  # the first free space right of g1
    state = play(state, UseDistrict())
    assert state.players[0].gauge == gauge_of([(1, False), (2, False)])


def test_r19_r18_static_discharge_reaches_the_stone_in_the_supply() -> None:
    """STM-R-18 (p.15): a full gauge without bonus markers sends the stone taken back to the personal
    supply, face kept (STM-AMB-10 'any'); STM-R-19 (p.28,31): the static discharge of level 6 left
    still turns that stone arrow side down."""
    full = [(7, False), (8, False), (9, False), (10, False)]
    state = _arrow_flight(6, "left", full, base=6)
    assert state.players[0].supply == (Stone(True),)
    state = play(state, UseDistrict())
    p = state.players[0]
    assert (p.supply, p.gauge) == ((Stone(False),), gauge_of(full, base=6))


def _gaining_stone(stones: list[tuple[int, bool]], markers: list[tuple[int, int]] = (), base: int = 0) -> StmState:  # type: ignore[assignment]
    supply = (Stone(True), *(Stone(),) * (4 - len(stones)))
    me = attrs.evolve(player(stones), gauge=gauge_of(stones, markers, base), supply=supply)
    return pending(game(me, player()), GainPressureStone())


def test_r20_a_gained_arrow_stone_goes_as_if_taken_back() -> None:
    """STM-R-20 (p.29): a stone from the personal supply is placed as in STM-R-18 (p.15), keeping its
    face: the arrow stone lands on the first free space right of the base marker."""
    state = play(_gaining_stone([(1, False)]), GainStone(arrow=True))
    assert (state.players[0].gauge, state.players[0].supply) == (gauge_of([(1, False), (2, True)]), (Stone(),) * 3)


def test_r20_r18_a_full_gauge_boxes_the_marker_chosen() -> None:
    """STM-R-18 (p.15): no free space: one bonus marker of your choice goes to the box and the stone
    takes its space (here the #5 marker on g7, right of the base marker on g6)."""
    state = play(_gaining_stone([(8, False), (9, False), (10, False)], [(7, 5)], base=6), GainStone(True, 7))
    assert state.players[0].gauge == gauge_of([(7, True), (8, False), (9, False), (10, False)], base=6)
    assert state.players[0].supply == (Stone(),)


def test_r20_r18_a_full_gauge_without_markers_keeps_the_stone_in_the_supply() -> None:
    """STM-R-18 (p.15): no free space and no marker: the stone goes (back) to the personal supply,
    face kept (STM-AMB-10 'any')."""
    full = [(7, False), (8, False), (9, False), (10, False)]
    state = play(_gaining_stone(full, base=6), GainStone(arrow=True))
    assert (state.players[0].gauge, state.players[0].supply) == (gauge_of(full, base=6), (Stone(True),))


def test_r19_turn_stones_turns_only_the_chosen_own_board_stone() -> None:
    """STM-R-19 (p.28,31) with STM-AMB-10 'any': 'turn 1 pressure stone' may turn an own stone on the
    board arrow side up; the player's other stone and the opponent's stay as they are."""
    board = (BoardStone(0, 5, "left"), BoardStone(0, 6, "right"), BoardStone(1, 7, "left"))
    state = pending(game(player([], on_board=2), player(on_board=1), board=board), TurnStones(1))
    state = play(state, TurnArrows(districts=((5, "left"),)))
    assert state.board == (BoardStone(0, 5, "left", Stone(True)), board[1], board[2])


def test_r26_a_target_keeps_the_face_of_its_stone() -> None:
    """STM-R-26 (p.11-12): the stone leaves the gauge for the district as it is; an arrow stone lies
    there arrow side up (taken back face unchanged, STM-R-34, p.15)."""
    state = play(game(player([(3, True)]), player()), SetTarget(3, 1, "left"))
    assert state.board == (BoardStone(0, 1, "left", Stone(True)),)


def test_r51_r64_taking_the_last_passenger_tile_triggers_the_end() -> None:
    """STM-R-51 (p.24): the taken tile goes face down beside the airship and the top tile of the stack
    is revealed; none left: the stack is used up and the end is triggered (STM-R-64, p.25)."""
    flown = game(player([(1, False)]), player(), phase=Phase.FLIGHT, turn=TurnState(transported=("banker",)))
    for stack, triggered in (((), True), (("P03",), False)):
        state = attrs.evolve(flown, passengers=Passengers(banker=6, stoker=3, stack=stack, taken="P02"))
        state = end_of_turn(CTX, state)
        assert (state.end_triggered, state.players[0].passenger_tiles) == (triggered, 1)
        assert state.passengers.taken is None


def test_r23_the_player_to_the_left_is_up_and_rounds_start_with_the_start_player() -> None:
    """STM-R-23 (p.7): after the end of the turn the player to the left is up; a round starts with the
    start player (3 players, seats clockwise)."""
    three = game(player(), player(), player(), phase=Phase.END_OF_TURN, start_player=0, round=2)
    first = play(three, EndTurn())
    assert (first.to_move, first.round) == (1, 2)
    last = play(attrs.evolve(three, to_move=2), EndTurn())
    assert (last.to_move, last.round) == (0, 3)


def test_r61_r54_another_players_use_of_another_district() -> None:
    """STM-R-61 (p.30-31): 'use another district' in another player's effect (a parasite's use,
    STM-R-54, p.33-34): that player uses the district's effect at once, and it counts as used by them
    this turn, not as activated in the active player's flight."""
    state = pending(game(player([(1, False)]), player([(1, False)])), UseAnotherDistrict(), decider=1)
    state = play(state, UseOtherDistrict(1, "right"))
    assert state.turn.others_activated == ((1, 1, "right"),) and state.turn.activated == ()
    assert state.turn.pending[0] == PACK.district("2-3", 1, "right").effect
    refused(
        pending(state, UseAnotherDistrict(), decider=1),
        UseOtherDistrict(1, "right"),
        "STM-R-61",
        "you have already used L1-right this turn",
    )


def test_r61_amb33_another_districts_static_discharge_turns_the_current_stone() -> None:
    """STM-R-61 (p.30-31) with STM-AMB-33 'current': a static-discharge district reached through 'use
    another district' turns the stone of the current flight step arrow down (STM-R-19, p.28,31); a
    district without the symbol leaves it; an 'end of turn' district waits for the end (STM-R-49, p.24)."""
    state = pending(_arrow_flight(1, "right", [(1, False)]), UseAnotherDistrict())
    static = play(state, UseOtherDistrict(7, "right"))
    assert static.players[0].gauge.spaces[2] == Stone(False)
    plain = play(state, UseOtherDistrict(2, "right"))
    assert plain.players[0].gauge.spaces[2] == Stone(True)
    later = play(state, UseOtherDistrict(8, "left"))
    assert later.turn.end_of_turn == ((8, "left"),) and later.turn.activated[-1] == (8, "left")


def test_amb33_lapse_keeps_the_other_parts() -> None:
    """STM-AMB-33 'lapse': only the parts naming the stone taken back lapse; level 4 left's base marker
    and gear (STM-R-61, p.30-31) are used as printed."""
    ctx = reading("STM-AMB-33", "lapse")
    state = pending(_arrow_flight(1, "right", [(1, False)]), UseAnotherDistrict())
    state = play(state, UseOtherDistrict(4, "left"), ctx=ctx)
    assert state.turn.pending[0] == PACK.district("2-3", 4, "left").effect


def test_r16_one_stone_moves_the_steps_chosen() -> None:
    """STM-R-16 (p.9,31): 'increase the pressure of one stone by up to 5': the stone makes the number
    of increments chosen, here 2 (g1 -> g3), not 5."""
    state = play(pending(game(player([(1, False)]), player()), IncreaseOneStone(5)), RaiseOneStone(1, 2))
    assert state.players[0].gauge == gauge_of([(3, False)])


def _envious(envied_room: tuple[RoomTile | None, ...]) -> StmState:
    """3 players, seat 1 to move with an envy symbol (then 1 VP) waiting; seats 0 and 2 have parasites."""
    envied = player([(1, False)], machine_room=envied_room)
    return pending(game(player(), envied, player(), to_move=1), Envy(), VotePoints(1))


def test_r53_amb21_envy_goes_clockwise_from_the_active_players_left() -> None:
    """STM-R-53 (p.19-20,32) with STM-AMB-21 'clockwise': once the effect is done the other players may
    place a parasite, clockwise from the active player's left: seat 2 before seat 0 when seat 1 is
    active."""
    state = play(_envious(room((1, machine("M0-01")))), PayCost(), UsePart())
    assert state.players[1].vp == 1
    assert state.turn.decider == 2 and state.turn.pending[0] == (EnvyParasite(1),)


def test_r53_no_machine_of_the_envied_player_no_envy() -> None:
    """STM-R-53 (p.19-20,32): the envious place on the envied player's machines; the envied player has
    none (seat 0's machine does not count), so every envy placement lapses."""
    state = _envious(room())
    state = attrs.evolve(
        state, players=(attrs.evolve(state.players[0], machine_room=room((1, machine("M0-01")))), *state.players[1:])
    )
    state = play(state, PayCost(), UsePart())
    assert state.turn.pending == () and state.turn.decider is None


def test_r29_r54_moving_left_wakes_the_parasite_there() -> None:
    """STM-R-29 (p.12-13): the channelled stone moves left and activates the machine there; STM-R-54
    (p.33-34): a parasite on that machine's activation goes home and its owner shares the effect."""
    me = player([(5, False)], machine_room=room((1, machine("M0-01")), (2, machine("M0-02"))))
    state = game(me, player(parasites_home=2), parasites=(Parasite(1, 0, 1),))
    state = play(state, ChannelPressure(5), TakeResources(0, 1), MoveLeft())
    assert state.parasites == () and state.players[1].parasites_home == 3
    assert state.turn.pending[1:3] == ((Handover(1),), PACK.machine("M0-01").face.boilers[0].effect)


def test_r66_the_final_turn_channels_then_flies() -> None:
    """STM-R-66 (p.25): the final turn's SET 1 TARGET may channel (STM-R-29, p.12-13); once the stone is
    placed the turn goes on to FLY TO ALL TARGETS."""
    me = player([(3, False)], on_board=1, machine_room=room((1, machine("M0-01"))))
    state = game(me, player(), board=(BoardStone(0, 8, "left"),), final_round=True)
    state = attrs.evolve(state, turn=TurnState(final_step="target"))
    state = play(state, ChannelPressure(3), TakeResources(1, 0), PlaceStone(1, "left"))
    assert (state.phase, state.turn.final_step) == (Phase.ACTION, "fly")
    assert (state.turn.channel, state.turn.channel_stone) == (None, None)  # the stone left the machine room
    accepted(state, FlyToAllTargets())


def test_r66_r32_the_final_turn_stores_what_the_channel_gave_before_it_flies() -> None:
    """STM-R-66 (p.25): the final turn's SET 1 TARGET channels (STM-R-29, p.12-13), the machine gives a
    crystal (STM-R-30) with every storage space full; p.14: after the stone is placed comes the store step
    (STM-R-31/32: one resource per space, the rest back to the supply), so FLY waits until it is done."""
    spaces = 3 + PACK.machine("M0-01").face.storage  # p.14: 3 built in, plus the machine's own
    me = player([(3, False)], on_board=1, machine_room=room((1, machine("M0-01"))), crystals=spaces)
    state = game(me, player(), board=(BoardStone(0, 8, "left"),), final_round=True)
    state = attrs.evolve(state, turn=TurnState(final_step="target"))
    state = play(state, ChannelPressure(3), TakeResources(1, 0), PlaceStone(1, "left"))
    assert (state.phase, state.turn.final_step, state.turn.storing) == (Phase.ACTION, "fly", True)
    assert check(CTX, state, FlyToAllTargets()) is not None  # the store step comes first
    state = play(state, Store(spaces, 0))
    assert (state.players[0].crystals, state.supply.crystals) == (spaces, 15 - spaces)
    accepted(state, FlyToAllTargets())


def test_r04_r47_the_pink_marker_bumps_the_stone_only_when_asked() -> None:
    """STM-R-04 (p.4) with STM-R-47 (p.22): the pink #3 marker goes on a #3 space; a stone there is
    increased by 1 to make room (g5 -> g6), or, if it is not, the marker goes to the box."""
    state = pending(game(player([(5, False)], character=7), player()), GainPinkMarker())
    bumped = play(state, PlacePinkMarker(5, bump=True))
    assert bumped.players[0].gauge.spaces[5:7] == (BonusMarker(3, pink=True), Stone(False))
    boxed = play(state, PlacePinkMarker(5, bump=False))
    assert boxed.players[0].gauge == gauge_of([(5, False)])


def test_r52_place_two_parasites_then_the_rest_of_the_effect() -> None:
    """STM-R-52 (p.32-33): 'place 2 parasites' one at a time, on the activation or the passive symbol
    chosen; STM-R-22 (p.26-27): then the part beneath it."""
    hosted = player(machine_room=room((1, machine("M0-06")), (2, machine("M0-01"))))
    state = pending(game(player([(1, False)]), hosted), PlaceParasites(2), VotePoints(1))
    state = play(state, PlaceParasite(1, 1, "passive"), PlaceParasite(1, 2, "activation"), UsePart())
    assert state.parasites == (Parasite(0, 1, 1, "passive"), Parasite(0, 1, 2, "activation"))
    assert state.players[0].vp == 1


def test_r44_amb14_single_every_banner_counts_one() -> None:
    """STM-R-44 (p.21): purple scores the banners owned, the new one included; STM-AMB-14 'single':
    every banner tile counts 1 (2 purple banners: 2 VP), 'double' (default): a purple tile counts 2."""
    me = player([(1, False)], gears=2, banners=("M0-03",))
    state = flying(5, "left", me, player(), markets=(Market(5, ("M0-05",)),))
    single = play(state, BuyBanner(1), ctx=reading("STM-AMB-14", "single"))
    assert single.players[0].vp == 2
    double = play(state, BuyBanner(1))
    assert double.players[0].vp == 4


def test_r47_a_bonus_marker_not_bumping_the_stone_goes_to_the_box() -> None:
    """STM-R-47 (p.22): a stone on the chosen space may be increased by 1 to make room; if it is not,
    the marker goes to the box (the stone on g7 stays, the #5 marker is bought and boxed)."""
    state = flying(1, "left", player([(7, False)], crystals=1), player())
    state = play(state, BuyBonusMarker("crystal", 7, bump=False))
    p = state.players[0]
    assert p.gauge.spaces[7] == Stone(False) and not any(isinstance(x, BonusMarker) for x in p.gauge.spaces)
    assert p.crystals == 0


def _buy_passive(*ids: str) -> Any:
    """These machines' passives fire when their owner buys a tile (STM-R-60, p.27: 'the action with
    which you buy the tile can likewise trigger the effect'; the Technician's Handbook is not printed,
    so no printed tile shows the trigger)."""

    def change(data: dict[str, Any]) -> None:
        for m in data["machines"]:
            if m["id"] in ids:
                m["passive"] = {"trigger": {"kind": "buy"}, "effect": [{"vp": 1}]}

    return change


def test_r60_buying_fires_every_buy_passive_the_new_tile_included() -> None:
    """STM-R-60 (p.27): a passive fires each time its trigger occurs, also in the turn the tile was
    bought, even by that action: buying M0-02 fires its own passive and M0-06's (1 VP each)."""
    ctx = pack_ctx(_buy_passive("M0-02", "M0-06"))
    me = player([(1, False)], gears=2, machine_room=room((1, machine("M0-06"))))
    state = flying(5, "left", me, player(), markets=(Market(5, ("M0-02",)),), ctx=ctx)
    state = play(state, BuyMachine(2), ctx=ctx)
    assert state.turn.pending == (((VotePoints(1),),) * 2)
    assert play(state, UsePart(), UsePart(), ctx=ctx).players[0].vp == state.players[0].vp + 2


def test_r61_r60_buy_tile_fires_the_buy_passive_then_the_effect_is_done() -> None:
    """STM-R-61 (p.30-31): 'buy tile' (level 4 right) buys on any level by the normal rules; the buy
    passive fires (STM-R-60, p.27) and the 'buy tile' part is done."""
    ctx = pack_ctx(_buy_passive("M0-02"))
    state = flying(4, "right", player([(1, False)], gears=2), player(), markets=(Market(5, ("M0-02",)),), ctx=ctx)
    state = play(state, UseDistrict(), BuyMachine(2, level=5), ctx=ctx)
    assert state.turn.pending == ((VotePoints(1),),)
    assert state.players[0].machine_room[1] == machine("M0-02")


def test_r61_r53_envy_after_a_stone_to_8_hands_the_decision_back() -> None:
    """STM-R-53 (p.19-20,32): the envious place once the effect is done, then the decision returns to
    the active player, whose next effect may send the stone just taken back to the value-8 space
    (STM-R-61, p.30-31: g10)."""
    me = player([(1, False)], on_board=1, machine_room=room((1, machine("M0-01"))))
    board = (BoardStone(0, 1, "right", Stone(True)),)
    state = play(game(me, player(), board=board), FlyToAllTargets(), TakeBack(1, "right"))
    state = attrs.evolve(state, turn=attrs.evolve(state.turn, pending=((Envy(),), (StoneToEight(),))))
    state = play(state, PayCost(), PlaceParasite(0, 1, "activation"))
    assert state.turn.decider is None
    state = play(state, UsePart())
    assert state.players[0].gauge == gauge_of([(1, False), (10, True)])
    assert state.turn.active_space == 10


def test_amb22_bump_sends_the_stone_on_8_to_the_supply() -> None:
    """STM-AMB-22 'bump': 'stone to 8' on an occupied value-8 space sends its occupant to the personal
    supply, face kept (STM-R-18, p.15; STM-AMB-10 'any')."""
    ctx = reading("STM-AMB-22", "bump")
    me = attrs.evolve(player([(1, False), (10, True)], on_board=1), supply=(Stone(),) * 2)
    board = (BoardStone(0, 1, "right"),)
    state = play(game(me, player(), board=board), FlyToAllTargets(), TakeBack(1, "right"), ctx=ctx)
    state = play(pending(state, StoneToEight(), **{"active_space": state.turn.active_space}), UsePart(), ctx=ctx)
    p = state.players[0]
    assert p.gauge == gauge_of([(1, False), (10, False)])
    assert p.supply == (Stone(), Stone(), Stone(True))


def test_r61_buy_tile_as_a_banner_finishes_the_effect() -> None:
    """STM-R-61 (p.30-31): 'buy tile' (level 4 right) buys one face-up tile on any level by the normal
    rules, here level 5's as a banner (STM-R-43, p.20: a stone from the gauge); then the effect is done."""
    state = flying(4, "right", player([(1, False)], gears=2), player(), markets=(Market(5, ("M0-02",)),))
    state = play(state, UseDistrict(), BuyBanner(1, level=5))
    assert state.players[0].banners == ("M0-02",) and state.turn.pending == ()


def test_r52_r56_place_and_at_once_activate_on_the_passive_symbol() -> None:
    """STM-R-52 (p.32-33): a parasite goes on the activation or the passive symbol chosen; 'place or
    move and immediately activate' uses the effect under it (STM-R-56, p.34: a passive as if
    triggered, its prerequisite ignored): M0-06's passive, 1 VP."""
    hosted = player(machine_room=room((1, machine("M0-06"))))
    state = pending(game(player([(1, False)]), hosted), PlaceParasites(1, activate=True))
    state = play(state, PlaceParasite(1, 1, "passive"))
    assert state.turn.pending == ((VotePoints(1),),)
    assert play(state, UsePart()).players[0].vp == 1


def test_r13_r32_a_room_built_over_capacity_stores_first() -> None:
    """STM-R-13 (p.6-7): the character's set-up, then the starting room; STM-R-32 (p.14,23): more
    resources than storage spaces (3 built in; boiler sides store nothing) are stored before the next
    seat sets up."""
    state = game(player(gears=4, starting="S1"), player(starting="S2"), phase=Phase.SETUP_ROOM)
    built = play(state, BuildStartingRoom(1, 0, 2, 0))
    assert built.turn.storing and built.to_move == 0
    stored = play(built, Store(0, 3))
    assert stored.to_move == 1 and stored.players[0].gears == 3


def test_r71_removed_statues_leave_their_markets() -> None:
    """STM-R-71 (p.35): the statue revealed by 'remove tiles' goes to the tower top: the emptied
    level-5 market and the level-1 market (both #2 markers gone) show no statue any more; the other
    markets keep theirs."""
    state = solo_flight(
        passengers={"face_up": "P01"}, markets={5: ["M3-05"]}, bonus={"crystal_row": [2], "gear_row": [2]}
    )
    done = fly_home(state)
    statues = {m.level: m.statue for m in done.markets}
    assert not statues[5] and not done.bonus.statue
    assert {k: v for k, v in statues.items() if k != 5} == {m.level: m.statue for m in state.markets if m.level != 5}


def test_r72_a_removed_tile_with_only_a_passive_is_usable() -> None:
    """STM-R-72 (p.35): during 'remove tiles' a parasite beside the stack may be taken back to use a
    removed tile's activation or passive effect: M0-06 (passive only) removed on level 8 waits for it."""
    markets = {2: [], 8: ["M0-06", "M1-02", "M2-02", "M3-02"]}
    done = fly_home(solo_flight(markets=markets, passengers={"face_up": "P03"}, parasites=BESIDE))
    assert done.turn.removed == ("M0-06",) and done.turn.removal == "parasites"


def test_r72_a_face_up_tile_first_then_the_rest_of_the_effect() -> None:
    """STM-R-72 (p.35): 'activate a parasite' uses the face-up tile's effect now; STM-R-22 (p.26-27):
    the parts beneath it follow."""
    state = activate_state(BESIDE)
    state = attrs.evolve(state, turn=attrs.evolve(state.turn, pending=((ActivateParasites(1), VotePoints(1)),)))
    state = solo_play(state, UseFaceUpTile(5))
    assert state.turn.pending[-1] == (VotePoints(1),)


def test_r61_r53_a_rank_2_banner_bought_through_buy_tile_lures_the_envious() -> None:
    """STM-R-61 (p.30-31): 'buy tile' buys by the normal rules, so a rank-2 banner (3 crystals, STM-R-43,
    p.20) brings envy (STM-R-53, p.19-20,32): the other player may place a parasite on the buyer's
    machines once the tile is bought."""
    me = player([(1, False)], crystals=3, machine_room=room((1, machine("M0-01"))))
    state = flying(4, "right", me, player(), markets=(Market(5, ("M2-01",)),))
    state = play(state, UseDistrict(), BuyBanner(1, level=5))
    assert state.turn.decider == 1 and state.turn.pending[0] == (EnvyParasite(0),)


def _slashed_stone_to_8(data: dict[str, Any]) -> None:
    district = next(d for d in data["districts"] if (d["side"], d["level"], d["position"]) == ("2-3", 2, "right"))
    district["effect"] = [{"either": [["stone-to-8", {"vp": 1}], [{"vp": 2}]]}]


def test_amb33_lapse_reaches_into_both_sides_of_a_slash() -> None:
    """STM-AMB-33 'lapse': a 'stone to 8' part of the district reached through 'use another district'
    (STM-R-61, p.30-31) lapses on either side of a slash (STM-R-22, p.26-27), the rest of each side
    stays; 'current' keeps it.  (The Technician's Handbook is not printed: a pack gives level 2 right
    the slashed effect.)"""
    stone_to_8 = (StoneToEight(), VotePoints(1))
    for value, first in (("lapse", stone_to_8[1:]), ("current", stone_to_8)):
        ctx = pack_ctx(_slashed_stone_to_8, {"STM-AMB-33": value})
        state = pending(_arrow_flight(1, "right", [(1, False)]), UseAnotherDistrict())
        state = play(state, UseOtherDistrict(2, "right"), ctx=ctx)
        assert state.turn.pending[0] == (Either(first, (VotePoints(2),)),)


def test_r63_r58_the_gala_takes_two_off_the_counted_crystals() -> None:
    """STM-R-63 (p.27): as many crystals as stones owned (3); STM-R-58 (p.29): the crystal charity gala
    takes up to 2 off and returns to the supply: 1 crystal paid."""
    me = player([(1, False), (2, False)], on_board=1, crystals=1, gala="crystal")
    state = pending(game(me, player(), board=(BoardStone(0, 5, "left"),)), PayCrystalsPerStone(), VotePoints(1))
    state = play(state, PayCost(gala=True), UsePart())
    p = state.players[0]
    assert (p.crystals, p.gala, p.vp) == (0, None, 1)


def test_r36_the_banker_picked_up_leaves_his_level_the_stoker_stays() -> None:
    """STM-R-36 (p.16-17), STM-EX-09: the banker picked up on level 7 is aboard (on no level); the
    stoker still stands on level 2."""
    board = (BoardStone(0, 6, "left"), BoardStone(0, 7, "right"))
    pax = Passengers(banker=7, stoker=2, stack=("P03",), face_up="P02")
    state = game(player([], on_board=2), player(), board=board, passengers=pax)
    state = play(state, FlyToAllTargets(), TakeBack(7, "right"), PickUp("banker"))
    assert (state.passengers.banker, state.passengers.stoker) == (None, 2)
    assert state.players[0].carrying == ("banker",)


def test_r55_shake_off_one_parasite_on_a_passive_symbol() -> None:
    """STM-R-55 (p.33): 'shake off' returns the one chosen opposing parasite, here the one on M0-06's
    passive symbol, to its owner unactivated."""
    me = player([(1, False)], machine_room=room((1, machine("M0-06"))))
    state = game(me, player(parasites_home=2), parasites=(Parasite(1, 0, 1, "passive"),))
    state = play(pending(state, ShakeOff(all=False)), ShakeOffParasite(1, 1, "passive"))
    assert state.parasites == () and state.players[1].parasites_home == 3
