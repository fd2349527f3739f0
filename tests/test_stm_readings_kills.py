"""Steamopolis: the readings' own code (issue 22 part 3), played under each reading.

``bench/mutation/readings.py`` counts the mutants on the lines that name an ambiguity.  Here:

* STM-AMB-10 (digest /work/shared/rules/steamopolis.md; rulebook p.28 and p.31, STM-R-19; p.15, STM-R-34): a stone keeps
  its face everywhere, the supply included ('any', default), or loses its arrow on its way back to
  the supply ('reset').
* STM-AMB-11 'board' (p.20): the banner's 'pressure stone -1' paid with a chosen stone still on the
  board: exactly that one leaves.
* STM-AMB-37 'once' (p.32, STM-R-62): 'use all activation effects' uses every other machine's
  activation, right to left, each once.
* STM-AMB-26 (p.22-23: "If you buy the last bonus marker #2 and thereby reveal the statue, place it
  on the tower top"): the level-1 statue shows when both #2 are gone ('both-2', default) or when the
  first one is ('first-2').

The states come from the builders of tests/test_stm_readings.py; every action passes the check and
is generated (``play``).
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
import test_stm_parasites as par
import test_stm_solo as solo
from test_stm_readings import (
    CTX,
    FREE_ORDER,
    L6_L8,
    STEP_PASSENGERS,
    activate_state,
    game,
    play,
    player,
    reading,
    refused,
    solo_game,
    solo_play,
)

from rulecraft.invariants.steamopolis import check_sponsor_and_gala
from rulecraft.model.steamopolis.actions import (
    ActivateParasite,
    BuyBanner,
    BuyBonusMarker,
    BuyMachine,
    ChannelPressure,
    DeclineCost,
    EndTurn,
    FlyToAllTargets,
    LeaveParasites,
    LetLapse,
    MoveBaseMarker,
    ParasiteAt,
    PayCost,
    PickUp,
    PlaceParasite,
    PlacePinkMarker,
    PlaceStone,
    RaiseOneStone,
    RaisePressure,
    RevealPassenger,
    SkipPart,
    StmAction,
    TakeBack,
    TakeResources,
    TakeSponsor,
    UseDistrict,
    UseFaceUpTile,
    UsePart,
    UseRemovedTile,
)
from rulecraft.model.steamopolis.components import bundled_pack, bundled_pack_data, pack_from_data
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import (
    ActivateParasites,
    AdvanceBaseMarker,
    BuyTile,
    Envy,
    EnvyParasite,
    GainPinkMarker,
    GainResources,
    GainSponsor,
    IncreaseOneStone,
    IncreasePressure,
    LookAtMachine,
    PayCrystalsPerStone,
    PayResources,
    PlaceParasites,
    Step,
    VotePoints,
)
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.gauge import BonusMarker, Stone
from rulecraft.model.steamopolis.rules import at, legal_actions, legal_actions_by_check
from rulecraft.model.steamopolis.state import (
    BoardStone,
    BonusMarket,
    Market,
    Parasite,
    Phase,
    PlayerState,
    RoomTile,
    StmState,
    TurnState,
)
from rulecraft.tools import tools

# ---------------------------------------------------------------------------
# STM-AMB-10: a stone's face in the personal supply
# ---------------------------------------------------------------------------


def _banner_state(*board: BoardStone) -> StmState:
    """STM-EX-16 (p.20, rank 0): 2 gears for the banner M0-01 on level 5; seat 0 flies and takes back
    its stone on 5-left (STM-R-34: face unchanged, to the first free gauge space, space 1)."""
    buyer = player(gears=2, on_board=len(board))
    state = game(buyer, board=board, markets=(Market(5, ("M0-01",)),))
    return state


@pytest.mark.parametrize(("key", "face"), [("any", Stone(True)), ("reset", Stone(False))])
def test_amb10_a_stone_paid_for_a_banner_keeps_its_arrow_unless_reset(key: str, face: Stone) -> None:
    """p.20 'Pay ... 1 pressure stone' (STM-R-43): the stone just taken back, arrow side up, pays the
    banner and returns to the personal supply.  'any': it keeps its arrow there; 'reset': it is
    turned back to the plain side."""
    ctx = reading("STM-AMB-10", key)
    state = _banner_state(BoardStone(0, 5, "left", Stone(True)), BoardStone(0, 2, "left"))
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"), ctx=ctx)
    assert flown.players[0].gauge.spaces[1] == Stone(True)  # STM-R-34: the face is unchanged
    paid = play(flown, BuyBanner(1), ctx=ctx)
    p = paid.players[0]
    assert p.banners == ("M0-01",) and p.gauge.stones() == 0
    assert sorted(p.supply, key=lambda s: s.arrow) == sorted([Stone(), Stone(), Stone(), face], key=lambda s: s.arrow)


@pytest.mark.parametrize(("key", "face"), [("any", Stone(True)), ("reset", Stone(False))])
def test_amb10_a_board_stone_paid_for_a_banner_keeps_its_arrow_unless_reset(key: str, face: Stone) -> None:
    """STM-AMB-11 'board' (p.20): an arrow stone still on level 2 pays the banner; in the supply it
    keeps the arrow ('any') or loses it ('reset', STM-AMB-10)."""
    ctx = Context.printed(readings={"STM-AMB-10": key, "STM-AMB-11": "board"})
    state = _banner_state(BoardStone(0, 5, "left"), BoardStone(0, 2, "left", Stone(True)))
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"), ctx=ctx)
    paid = play(flown, BuyBanner(None, board=(2, "left")), ctx=ctx)
    assert paid.board == ()
    assert face in paid.players[0].supply
    assert len(paid.players[0].supply) == 4


def test_amb11_board_the_chosen_one_of_two_board_stones_pays() -> None:
    """STM-AMB-11 'board' (p.20): two own stones remain on the board (levels 2 and 3); the buyer names
    the one on level 3, so that one leaves and the one on level 2 stays."""
    ctx = reading("STM-AMB-11", "board")
    state = _banner_state(BoardStone(0, 5, "left"), BoardStone(0, 2, "left"), BoardStone(0, 3, "left"))
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"), ctx=ctx)
    paid = play(flown, BuyBanner(None, board=(3, "left")), ctx=ctx)
    assert paid.board == (BoardStone(0, 2, "left"),)
    assert paid.players[0].gauge.stone_spaces() == (1,)


# ---------------------------------------------------------------------------
# STM-AMB-26: when the level-1 statue shows
# ---------------------------------------------------------------------------


def _ex23(
    key: str, crystal_row: tuple[int, ...], gear_row: tuple[int, ...], crystals: int = 1, gears: int = 3
) -> tuple[Context, StmState]:
    """STM-EX-23's set-up (p.23): stones on gauge spaces 3..6, the stone on level 1 taken back to space
    1, 1 crystal and 3 gears; the bonus rows as given (foremost first)."""
    ctx = reading("STM-AMB-26", key)
    blue = player([(3, False), (4, False), (5, False), (6, False)], crystals=crystals, gears=gears)
    state = game(blue, board=(BoardStone(0, 1, "right"),), bonus=BonusMarket(crystal_row, gear_row))
    state = attrs.evolve(state, players=(attrs.evolve(state.players[0], supply=()),))
    return ctx, play(state, FlyToAllTargets(), TakeBack(1, "right"), ctx=ctx)


@pytest.mark.parametrize(("key", "erected"), [("both-2", False), ("first-2", True)])
def test_amb26_the_first_number_2_bought(key: str, erected: bool) -> None:
    """STM-EX-23 (p.23): the gear row's #2 is bought for 3 gears (+5 VP) while the crystal row still
    holds its #2.  'both-2': the statue stays in the market; 'first-2': it shows and goes to the
    tower top (p.22, the first of the 3 that end the game, so no 3 VP)."""
    ctx, state = _ex23(key, (5, 4, 3, 2), (2,))
    after = play(state, BuyBonusMarker("gear", 3), ctx=ctx)
    assert after.players[0].gauge.spaces[3] == BonusMarker(2)
    assert after.bonus.gear_row == () and after.bonus.crystal_row == (5, 4, 3, 2)
    assert after.bonus.statue is not erected
    assert after.tower_top == (1 if erected else 0)
    assert after.players[0].vp == 5 and not after.end_triggered


@pytest.mark.parametrize("key", ["both-2", "first-2"])
def test_amb26_the_last_number_2_bought_erects_the_statue_under_both_2(key: str) -> None:
    """p.22: "If you buy the last bonus marker #2 and thereby reveal the statue, place it on the tower
    top."  The gear row is already empty and the crystal row holds only its #2, bought as in STM-EX-23
    (3 of the row's resource, +5 VP) onto the left 2-space.  'both-2': this purchase reveals the
    statue.  'first-2': one #2 gone already shows it, two do as well: both readings erect it now."""
    ctx, state = _ex23(key, (2,), (), crystals=3, gears=0)
    assert state.bonus.statue
    after = play(state, BuyBonusMarker("crystal", 3), ctx=ctx)
    assert after.players[0].vp == 5
    assert after.bonus.crystal_row == () and after.bonus.gear_row == ()
    assert not after.bonus.statue and after.tower_top == 1


def test_amb26_only_a_number_2_counts_not_a_number_3_gone() -> None:
    """STM-AMB-26 'both-2' (p.22): the crystal row has lost its #5 to #3 (STM-AMB-13: foremost first) but
    still holds its #2; buying the gear row's #2 leaves one #2 in the market, so the statue stays."""
    ctx, state = _ex23("both-2", (2,), (2,), crystals=0, gears=3)
    after = play(state, BuyBonusMarker("gear", 3), ctx=ctx)
    assert after.bonus.crystal_row == (2,) and after.bonus.gear_row == ()
    assert after.bonus.statue and after.tower_top == 0


# ---------------------------------------------------------------------------
# STM-AMB-37: 'use all activation effects' (p.32)
# ---------------------------------------------------------------------------


def test_amb37_use_all_reaches_every_machine_right_to_left() -> None:
    """STM-R-62 (p.32, 'use all activation effects', as a value-8 stone channelled down to level 1):
    M3-01 on space 3 holds it; under STM-AMB-37 'once' it is not used again, and the machines on
    spaces 2 and 1, next to each other, are both used, right to left: M0-02's gear, then M0-01's
    crystal (their printed activations)."""
    every = par.player(
        [(6, False)],
        machine_room=par.room((1, par.machine("M0-01")), (2, par.machine("M0-02")), (3, par.machine("M3-01"))),
    )
    state = par.play(par.game(every, par.player(parasites_home=3)), ChannelPressure(6), UsePart())
    assert TakeResources(0, 1) in legal_actions(par.CTX, state)
    state = par.play(state, TakeResources(0, 1))
    assert TakeResources(1, 0) in legal_actions(par.CTX, state)
    state = par.play(state, TakeResources(1, 0))
    assert (state.players[0].crystals, state.players[0].gears) == (1, 1)


# ---------------------------------------------------------------------------
# STM-AMB-41: solo 'remove tiles', passenger tile boxed before the parasites ('box-first')
# ---------------------------------------------------------------------------

BOX_FIRST = SteamopolisGame.configured(readings={"STM-AMB-41": "box-first"})
SOLO_MARKETS = {**solo.MARKETS, 8: ["M0-06", "M1-02", "M2-02", "M3-02"]}
L4_LEFT = [{"seat": 0, "level": 4, "position": "left"}]


@pytest.mark.parametrize("game_", [solo.GAME, BOX_FIRST], ids=["parasites-first", "box-first"])
def test_amb41_without_parasites_beside_the_stack_both_box_at_once(game_: SteamopolisGame) -> None:
    """STM-R-71 (p.35): 'Afterwards return the face-up passenger tile to the box'; with no parasite beside
    the stack there is no parasites' step (STM-R-72: 'you may take back any number of parasites'), so
    under both readings P03 is boxed and the next tile revealed, then only the end of the turn is left."""
    start = solo.given(game_, phase="flight", board=L4_LEFT, markets=SOLO_MARKETS, passengers={"face_up": "P03"})
    boxed = solo.play(start, TakeBack(4, "left"), LetLapse(), game=game_)
    assert boxed.turn.removed == ("M0-06", "M0-01") and boxed.turn.removal == "done"
    assert boxed.phase is Phase.REVEAL and boxed.passengers.face_up is None
    revealed = solo.play(boxed, RevealPassenger("P04"), game=game_)
    assert game_.legal_actions(revealed) == [EndTurn()] and revealed.passengers.face_up == "P04"


def test_amb41_box_first_with_the_stack_used_up_goes_straight_to_the_parasites() -> None:
    """STM-R-71/73 (p.35): the last passenger tile goes to the box and, with no tile to reveal, the stack is
    used up and the end is triggered ('The end of the game is triggered ... if the passenger stack is used
    up'); under 'box-first' that comes first, and the parasites beside the stack then use the removed
    tiles with no chance step between (turn 5, p.37: 'She receives 1 crystal')."""
    spec = {"markets": SOLO_MARKETS, "passengers": {"face_up": "P03", "stack": []}, "parasites": solo.BESIDE}
    start = solo.given(BOX_FIRST, phase="flight", board=L4_LEFT, **spec)
    state = solo.play(start, TakeBack(4, "left"), LetLapse(), game=BOX_FIRST)
    assert state.phase is Phase.END_OF_TURN and state.turn.removal == "parasites"
    assert state.passengers.face_up is None and state.end_triggered
    state = solo.play(
        state, UseRemovedTile("M0-01", "activation"), TakeResources(1, 0), LeaveParasites(), game=BOX_FIRST
    )
    assert state.players[0].crystals == 1 and state.turn.removal == "done" and state.phase is Phase.END_OF_TURN
    assert BOX_FIRST.legal_actions(state) == [EndTurn()]


# ---------------------------------------------------------------------------
# STM-AMB-34: may character 5 hold two sponsors (p.29, p.31)
# ---------------------------------------------------------------------------

TWO = reading("STM-AMB-34", "two")


def _sponsor_gains(character: int, *parts: Step) -> StmState:
    """Set-up (STM-R-13): a seat with ``character`` carries out sponsor gains (the pack's character 5
    set-up takes two, STM-P-05)."""
    pending = ((*parts,),) if parts else ((GainSponsor(), GainSponsor(), GainSponsor()),)
    state = game(player(), player(), phase=Phase.SETUP_ROOM, turn=TurnState(pending=pending))
    return attrs.evolve(state, players=(attrs.evolve(state.players[0], character=character), state.players[1]))


def test_amb34_two_keeps_character_5s_second_sponsor_and_lets_a_third_lapse() -> None:
    """p.29 'Sponsor (Maximum: 1) ... If you would receive so many game materials that you would exceed the
    maximum, the surplus lapses'; p.31 'Only 1 sponsor, if you own character 5' (character 5 may own more).
    'one' (default): the second gain lapses.  'two': character 5 keeps a second sponsor, its chosen side up,
    from the supply (5 tiles, p.2); a third lapses; any other character still keeps one."""
    state = _sponsor_gains(5)
    first = play(state, TakeSponsor("crystal"))
    rejection = refused(first, TakeSponsor("gear"), "STM-R-57")
    assert "maximum 1" in rejection.reason and rejection.page
    assert legal_actions(CTX, first) == [SkipPart()]
    both = play(state, TakeSponsor("crystal"), TakeSponsor("gear"), ctx=TWO)
    p = both.players[0]
    assert (p.sponsor, p.sponsor2, p.sponsor_used, p.sponsor2_used) == ("crystal", "gear", False, False)
    assert both.supply.sponsors == 3
    refused(both, TakeSponsor("crystal"), "STM-R-57", ctx=TWO)  # a third lapses
    assert legal_actions(TWO, both) == [SkipPart()]
    for character in (1, 3, 7):
        other = play(_sponsor_gains(character), TakeSponsor("gear"), ctx=TWO)
        refused(other, TakeSponsor("gear"), "STM-R-57", ctx=TWO)
        assert other.players[0].sponsor2 is None


def _channel_into(tile: str, **kw: Any) -> StmState:
    """STM-EX-31 (p.29): Red (character 5) channels her g4 stone into ``tile`` on position 1; g1 stays."""
    red = attrs.evolve(player([(1, False), (4, False)], machine_room=(RoomTile("machine", tile), *(None,) * 6), **kw))
    red = attrs.evolve(red, character=5)
    state = game(red, player())
    held = sum(x is not None for x in (red.sponsor, red.sponsor2))
    return attrs.evolve(state, supply=attrs.evolve(state.supply, sponsors=5 - held))


def test_amb34_two_pays_with_the_second_sponsor_and_frees_it_at_the_next_turn() -> None:
    """STM-EX-31 (p.29) with two sponsors: 'pay 1 crystal: increase the pressure by 3' (M0-04), no crystal.
    Each sponsor gives its discount 'when paying ... 1 time per turn' and turns to the other side; the first
    leaves no crystal for the second ('only if the depicted resource is actually part of the costs').  The
    second alone pays, turns to its gear side, and is free again 'In her next turn'."""
    state = _channel_into("M0-04", sponsor="gear", sponsor2="crystal")
    state = attrs.evolve(state, players=(attrs.evolve(state.players[0], sponsor2=None), state.players[1]))
    state = attrs.evolve(state, supply=attrs.evolve(state.supply, sponsors=4))
    channelled = play(state, ChannelPressure(4))
    refused(channelled, PayCost(None, False, False, True), "STM-R-57")  # no second sponsor: 'one' plays as before
    two = _channel_into("M0-04", sponsor="crystal", sponsor2="crystal")
    channelled = play(two, ChannelPressure(4), ctx=TWO)
    assert channelled.turn.pending[0][0] == PayResources(crystals=1)
    rejection = refused(channelled, PayCost(None, True, False, True), "STM-R-57", ctx=TWO)
    assert "second sponsor" in rejection.reason
    paid = play(channelled, PayCost(None, False, False, True), ctx=TWO)
    p = paid.players[0]
    assert (p.sponsor, p.sponsor_used, p.sponsor2, p.sponsor2_used) == ("crystal", False, "gear", True)
    assert p.crystals == 0 and paid.turn.pending[0][0] == IncreasePressure(3)
    refused(paid, UsePart(sponsor2=True), "STM-R-22", ctx=TWO)  # this part raises the pressure
    done = play(paid, RaisePressure((1, 2, 3)), PlaceStone(1, "left"), ctx=TWO)
    after = play(done, EndTurn(), ctx=TWO).players[0]
    assert (after.sponsor2, after.sponsor2_used, after.sponsor_used) == ("gear", False, False)


def test_amb34_two_sponsors_may_pay_one_cost_together() -> None:
    """p.29: each sponsor gives 'a discount of 1 resource of the depicted type' when paying; a crystal and
    a gear sponsor both pay a 'pay 1 crystal and 1 gear' cost (nothing left to pay), each turning over; a
    sponsor showing a resource the cost does not hold cannot be used (here a second crystal sponsor on a
    gear-only cost)."""
    both = attrs.evolve(
        _sponsor_gains(5, PayResources(crystals=1, gears=1), VotePoints(2)).players[0],
        sponsor="crystal",
        sponsor2="gear",
    )
    state = _sponsor_gains(5, PayResources(crystals=1, gears=1), VotePoints(2))
    state = attrs.evolve(state, players=(both, state.players[1]), supply=attrs.evolve(state.supply, sponsors=3))
    paid = play(state, PayCost(None, True, False, True), ctx=TWO)
    p = paid.players[0]
    assert (p.sponsor, p.sponsor_used, p.sponsor2, p.sponsor2_used) == ("gear", True, "crystal", True)
    assert (p.crystals, p.gears) == (0, 0) and paid.turn.pending[0][0] == VotePoints(2)
    rejection = refused(paid, UsePart(sponsor2=True), "STM-R-57", ctx=TWO)  # only 'turn sponsor' names one
    assert "only 'turn sponsor'" in rejection.reason
    gears_only = _sponsor_gains(5, PayResources(gears=1), VotePoints(2))
    crystal2 = attrs.evolve(both, sponsor="gear", sponsor2="crystal", gears=0)
    gears_only = attrs.evolve(
        gears_only, players=(crystal2, gears_only.players[1]), supply=attrs.evolve(gears_only.supply, sponsors=3)
    )
    rejection = refused(gears_only, PayCost(None, True, False, True), "STM-R-57", ctx=TWO)
    assert "no crystal is left to pay" in rejection.reason
    assert PayCost(None, True) in legal_actions(TWO, gears_only)
    spent = attrs.evolve(state, players=(attrs.evolve(both, sponsor2_used=True), state.players[1]))
    rejection = refused(spent, PayCost(None, True, False, True), "STM-R-57", ctx=TWO)
    assert "already given its discount this turn" in rejection.reason
    assert legal_actions(TWO, spent) == [DeclineCost()]  # the first sponsor alone leaves 1 gear unpaid
    envy = _sponsor_gains(5, Envy(), VotePoints(2))
    envy = attrs.evolve(envy, players=(both, envy.players[1]), supply=attrs.evolve(envy.supply, sponsors=3))
    refused(envy, PayCost(None, False, False, True), "STM-R-57", ctx=TWO)  # no resource cost: no discount
    play(envy, PayCost(), ctx=TWO)


@pytest.mark.parametrize("second", [False, True])
def test_amb34_two_turn_sponsor_turns_the_one_sponsor_the_player_names(second: bool) -> None:
    """p.31 'Turn sponsor. You may turn your sponsor to the other side. (Only 1 sponsor, if you own
    character 5.)' (M1-11): with two sponsors, both crystal side up, exactly the one named turns to gear;
    with one sponsor there is no second to name."""
    state = _channel_into("M1-11", sponsor="crystal", sponsor2="crystal")
    turned = play(state, ChannelPressure(4), UsePart(sponsor2=second), ctx=TWO).players[0]
    assert (turned.sponsor, turned.sponsor2) == (("crystal", "gear") if second else ("gear", "crystal"))
    assert not turned.sponsor_used and not turned.sponsor2_used  # turning is no discount (STM-R-57)
    one = play(_channel_into("M1-11", sponsor="crystal"), ChannelPressure(4), ctx=TWO)
    refused(one, UsePart(sponsor2=True), "STM-R-57", ctx=TWO)
    assert [a for a in legal_actions(TWO, one) if isinstance(a, UsePart)] == [UsePart()]


def test_amb34_second_sponsor_invariants_and_json() -> None:
    """The sponsor-and-gala invariant (STM-R-21/57): the second sponsor counts among the 5 tiles, is held
    only by character 5 under 'two', only beside a first one, and is not marked used as a turn starts; its
    fields stay out of the JSON form while unused (docs/protocol/stm.md) and round-trip when used."""
    state = _channel_into("M1-11", sponsor="crystal", sponsor2="gear")
    assert list(check_sponsor_and_gala(TWO, state)) == []
    assert any("only character 5" in m for m in check_sponsor_and_gala(CTX, state))
    seat = state.players[0]
    lone = attrs.evolve(state, players=(attrs.evolve(seat, sponsor=None), state.players[1]))
    lone = attrs.evolve(lone, supply=attrs.evolve(lone.supply, sponsors=4))
    assert list(check_sponsor_and_gala(TWO, lone)) == ["seat 0 holds a second sponsor but no first"]
    seven = attrs.evolve(state, players=(attrs.evolve(seat, character=7), state.players[1]))
    assert any("character 7" in m for m in check_sponsor_and_gala(TWO, seven))
    counted = attrs.evolve(state, supply=attrs.evolve(state.supply, sponsors=4))
    assert any("supply 4 + players 2" in m for m in check_sponsor_and_gala(TWO, counted))
    ghost = attrs.evolve(state, players=(attrs.evolve(seat, sponsor2=None, sponsor2_used=True), state.players[1]))
    ghost = attrs.evolve(ghost, supply=attrs.evolve(ghost.supply, sponsors=4))
    assert list(check_sponsor_and_gala(TWO, ghost)) == ["seat 0 has used a second sponsor this turn but owns none"]
    used = attrs.evolve(state, players=(attrs.evolve(seat, sponsor2_used=True), state.players[1]))
    assert list(check_sponsor_and_gala(TWO, used)) == []
    stale = attrs.evolve(used, phase=Phase.START_OF_TURN)
    assert [m for m in check_sponsor_and_gala(TWO, stale) if "second sponsor is still marked" in m]
    g = SteamopolisGame.configured(readings={"STM-AMB-34": "two"})
    plain = g.state_to_json(_channel_into("M1-11", sponsor="crystal"))
    assert "sponsor2" not in plain["players"][0] and "sponsor2_used" not in plain["players"][0]
    data = g.state_to_json(used)
    assert (data["players"][0]["sponsor2"], data["players"][0]["sponsor2_used"]) == ("gear", True)
    assert g.state_from_json(data) == used
    assert g.action_to_json(UsePart()) == {"kind": "use-part"}
    for action in (UsePart(sponsor2=True), PayCost(None, True, False, True), BuyMachine(2, sponsor2=True)):
        assert g.action_from_json(json.loads(json.dumps(g.action_to_json(action)))) == action
    assert "sponsor2" not in g.action_to_json(BuyBonusMarker("gear", 3))
    spec = {"players": 2, "seats": {0: {"character": 5, "sponsor": "crystal", "sponsor2": "gear"}}}
    given = tools(g).scenario_state(spec)  # a scenario's seat may hold the second sponsor
    assert (given.players[0].sponsor2, given.supply.sponsors, tools(g).violations(given)) == ("gear", 3, [])
    assert tools(SteamopolisGame()).violations(given)  # 'one': no second sponsor


# ---------------------------------------------------------------------------
# STM-AMB-35: placing/moving or activating 'any number' of parasites (p.32-33)
# ---------------------------------------------------------------------------

REPEAT = reading("STM-AMB-35", "repeat")
BLUE_ROOM = (RoomTile("machine", "M0-01"), RoomTile("machine", "M0-04"), *(None,) * 5)


def _parasite_effect(part: Step, *placed: Parasite) -> StmState:
    """Red (seat 0, 3 parasites, p.32 'charging spaces') uses ``part`` followed by '1 VP'; Blue (seat 1)
    has M0-01 ('Receive 1 crystal', p.13/p.34) on position 1 and M0-04 (STM-EX-31) on position 2."""
    red = player(parasites_home=3 - len(placed))
    state = game(red, player(machine_room=BLUE_ROOM), parasites=placed)
    return attrs.evolve(state, phase=Phase.SETUP_ROOM, turn=TurnState(pending=((part, VotePoints(1)),)))


def test_amb35_repeat_places_and_moves_past_three_uses_until_the_player_stops() -> None:
    """p.32 'Place or move any number of own parasites' with 3 parasites each (p.32-33, 2 players: up to 2
    on one machine).  'each-once' (default): up to 3 uses, then the effect goes on to its next part (1 VP).
    'repeat': no bound; after 3 uses a 4th move is still offered, and only skipping ends the part."""
    state = _parasite_effect(PlaceParasites(None))
    uses = (PlaceParasite(1, 1), PlaceParasite(1, 2), PlaceParasite(1, 2, moved=(1, 1, "activation")))
    done = play(state, *uses[:2], PlaceParasite(1, 2))
    assert done.turn.pending[0][0] == VotePoints(1) and done.players[0].parasites_home == 0
    moved = play(state, *uses)
    assert moved.turn.pending[0][0] == VotePoints(1)
    assert sorted(at(x) for x in moved.parasites) == [(1, 2, "activation"), (1, 2, "activation")]
    again = play(state, *uses, ctx=REPEAT)
    assert again.turn.pending[0][0] == PlaceParasites(None)
    fourth = play(again, PlaceParasite(1, 1, moved=(1, 2, "activation")), ctx=REPEAT)
    assert sorted(at(x) for x in fourth.parasites) == [(1, 1, "activation"), (1, 2, "activation")]
    assert fourth.turn.pending[0][0] == PlaceParasites(None) and SkipPart() in legal_actions(REPEAT, fourth)
    stopped = play(fourth, SkipPart(), ctx=REPEAT)
    assert stopped.turn.pending[0][0] == VotePoints(1)


def test_amb35_repeat_activates_the_same_parasite_again_one_use_at_a_time() -> None:
    """p.32 'Activate any number of own parasites without taking them back' (STM-R-56: 'as if the
    corresponding effect had been triggered ... Leave the parasite in its place').  One of Red's parasites
    sits on Blue's M0-01 ('Receive 1 crystal').  'each-once' (default): it gives 1 crystal, once, in one
    answer naming it; 'repeat': one parasite per use, the same one again: two uses, 2 crystals, then skip."""
    on = Parasite(0, 1, 1, "activation")
    state = _parasite_effect(ActivateParasites(None), on)
    target: ParasiteAt = (1, 1, "activation")
    refused(state, ActivateParasite((target, target)), "STM-R-56")
    once = play(state, ActivateParasite((target,)), TakeResources(1, 0))
    assert once.players[0].crystals == 1 and once.turn.pending[0][0] == VotePoints(1)
    rejection = refused(state, ActivateParasite((target, target)), "STM-R-56", ctx=REPEAT)
    assert "STM-AMB-35 'repeat'" in rejection.reason
    twice = play(state, ActivateParasite((target,)), TakeResources(1, 0), ctx=REPEAT)
    assert twice.turn.pending[0][0] == ActivateParasites(None) and twice.parasites == (on,)
    twice = play(twice, ActivateParasite((target,)), TakeResources(1, 0), ctx=REPEAT)
    assert twice.players[0].crystals == 2 and twice.parasites == (on,)
    assert [a for a in legal_actions(REPEAT, twice) if isinstance(a, ActivateParasite)] == [ActivateParasite((target,))]
    assert play(twice, SkipPart(), ctx=REPEAT).turn.pending[0][0] == VotePoints(1)


def test_amb35_repeat_leaves_the_counted_parts_and_the_solo_game_alone() -> None:
    """'Place or move 1 own parasite' (p.32) is one use under both readings; two parasites activated in one
    answer stay the default's way ('each-once'), refused under 'repeat'; the solo 'any number' is
    STM-AMB-40's (one use per parasite beside the stack, p.35), so 'repeat' plays it as the default."""
    state = _parasite_effect(PlaceParasites(1))
    for ctx in (CTX, REPEAT):
        assert play(state, PlaceParasite(1, 1), ctx=ctx).turn.pending[0][0] == VotePoints(1)
    two = (Parasite(0, 1, 1, "activation"), Parasite(0, 1, 2, "activation"))
    first: ParasiteAt = (1, 1, "activation")
    pair = ActivateParasite((first, (1, 2, "activation")))
    both = _parasite_effect(ActivateParasites(None), *two)
    assert play(both, pair).turn.pending[0][0] == GainResources(crystals=1)
    refused(both, pair, "STM-R-56", ctx=REPEAT)
    second: ParasiteAt = (1, 2, "activation")
    singles = [ActivateParasite((first,)), ActivateParasite((second,))]
    assert [a for a in legal_actions(REPEAT, both) if isinstance(a, ActivateParasite)] == singles
    assert len([a for a in legal_actions(CTX, both) if isinstance(a, ActivateParasite)]) == 4  # 1 or 2, in order
    for ctx in (CTX, REPEAT):
        assert legal_actions(ctx, both) == legal_actions_by_check(ctx, both)
    counted = _parasite_effect(ActivateParasites(2), *two)
    assert play(counted, pair, ctx=REPEAT).turn.pending[0][0] == GainResources(crystals=1)
    for readings in ({}, {"STM-AMB-35": "repeat"}):
        g = solo_game(readings)
        beside = activate_state(g, 1, count=None)
        used = solo_play(g, beside, UseFaceUpTile(5), TakeResources(1, 0))
        assert not any(isinstance(a, UseFaceUpTile) for a in g.legal_actions(used))
        placing = attrs.evolve(beside, turn=attrs.evolve(beside.turn, pending=((PlaceParasites(None),),)))
        assert solo_play(g, placing, PlaceParasite(None, None)).turn.pending[0][0] == PlaceParasites(2)  # 3 uses


# ---------------------------------------------------------------------------
# STM-AMB-25: do the symbols of emptied market slots add up (p.18-20)
# ---------------------------------------------------------------------------

CUMULATIVE = reading("STM-AMB-25", "cumulative")


def _buyer_at(tile: str, room: tuple[str, ...] = (), stones: int = 0, **kw: Any) -> StmState:
    """A flight taking back the buyer's stone from L5-left, whose market shows ``tile`` face up; the
    machine room holds the rank-0 machines ``room`` from position 1; ``stones`` more stones on the gauge."""
    tiles = (*(RoomTile("machine", t) for t in room), *(None,) * (7 - len(room)))
    buyer = player([(s, False) for s in range(2, 2 + stones)], on_board=1, machine_room=tiles, **kw)
    state = game(buyer, player(), board=(BoardStone(0, 5, "left"),), markets=(Market(5, (tile,)),))
    return state


def _envies(state: StmState) -> int:
    return sum(isinstance(x, EnvyParasite) for q in state.turn.pending for x in q)


def test_amb25_cumulative_adds_the_emptied_rank_0_slot_to_a_rank_1_price() -> None:
    """p.18 'always consider only the visible symbols on the market (before you take the tile away)';
    STM-EX-12/13 (p.19) as the rank-0 and rank-1 slots: 'Pay 2 gears. Receive 1 vote point' and 'Pay 2
    crystals and 1 machine tile. Receive 2 vote points'.  A rank-1 tile (M1-04, no own costs): 'per-slot'
    charges 2 crystals and a machine for 2 VP; 'cumulative' adds the emptied rank-0 slot: 2 crystals and
    2 gears and the machine, for 3 VP."""
    for ctx, gears, vp in ((CTX, 2, 2), (CUMULATIVE, 0, 3)):
        flown = play(
            _buyer_at("M1-04", ("M0-02", "M0-03"), crystals=2, gears=2), FlyToAllTargets(), TakeBack(5, "left")
        )
        bought = play(flown, BuyMachine(3, 1), ctx=ctx).players[0]
        assert (bought.crystals, bought.gears, bought.vp) == (0, gears, vp)
        assert bought.machine_room[:3] == (None, RoomTile("machine", "M0-03"), RoomTile("machine", "M1-04"))
    poor = play(_buyer_at("M1-04", ("M0-02",), crystals=2), FlyToAllTargets(), TakeBack(5, "left"))
    play(poor, BuyMachine(2, 1))
    refused(poor, BuyMachine(2, 1), "STM-R-40", ctx=CUMULATIVE)  # the 2 gears of rank 0 are visible too


def test_amb25_cumulative_rank_2_machine_gives_up_two_machines_for_six_vp() -> None:
    """STM-EX-14 (p.19) as the rank-2 slot: 'Pay 3 crystals and 1 machine. Receive 3 vote points. Other
    players place 1 parasite each'.  'cumulative' adds ranks 0 and 1: 5 crystals, 2 gears, two machines
    (the rank-1 and rank-2 removal symbols), 1+2+3 = 6 VP, one envy; the tile may go where one was."""
    room = ("M0-02", "M0-03", "M0-05")
    state = _buyer_at("M2-02", room, crystals=5, gears=2)
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"))
    one = play(flown, BuyMachine(4, 1))
    p = one.players[0]
    assert (p.crystals, p.gears, p.vp, _envies(one)) == (2, 2, 3, 1)
    rejection = refused(flown, BuyMachine(4, 1), "STM-R-41", ctx=CUMULATIVE)
    assert "2 different machine tiles" in rejection.reason
    refused(flown, BuyMachine(4, 1, more=(1,)), "STM-R-41", ctx=CUMULATIVE)
    refused(flown, BuyMachine(4, 1, more=(6,)), "STM-R-41", ctx=CUMULATIVE)
    refused(flown, BuyMachine(4, 1, more=(2,)), "STM-R-41")  # 'per-slot': one removal, no more
    two = play(flown, BuyMachine(4, 1, more=(2,)), ctx=CUMULATIVE)
    p = two.players[0]
    assert (p.crystals, p.gears, p.vp, _envies(two)) == (0, 0, 6, 1)
    assert p.machine_room[:4] == (None, None, RoomTile("machine", "M0-05"), RoomTile("machine", "M2-02"))
    assert BuyMachine(2, 1, more=(2,)) in legal_actions(CUMULATIVE, flown)
    assert not [a for a in legal_actions(CUMULATIVE, flown) if isinstance(a, BuyMachine) and not a.more]
    assert legal_actions(CUMULATIVE, flown) == legal_actions_by_check(CUMULATIVE, flown)


def test_amb25_cumulative_rank_2_banner_returns_three_stones() -> None:
    """STM-EX-16..18 (p.20): every banner slot shows 'pressure stone -1' ('Pay 2 gears and 1 pressure stone',
    'Pay 2 crystals and 1 pressure stone', 'Pay 3 crystals and 1 pressure stone ... place 1 parasite').  A
    rank-2 banner (M2-03, blue: 0 passenger tiles, 0 VP) under 'cumulative' costs the three slots' stones,
    named on the gauge, and 'You cannot give up your last pressure stone' (p.20) needs a fourth; the rank-2
    envy symbol lets the other player place a parasite on the buyer's one machine."""
    flown = play(_buyer_at("M2-03", ("M0-02",), 3, crystals=5, gears=2), FlyToAllTargets(), TakeBack(5, "left"))
    assert flown.players[0].gauge.stone_spaces() == (1, 2, 3, 4)
    default = play(flown, BuyBanner(1)).players[0]
    assert default.gauge.stone_spaces() == (2, 3, 4) and (default.crystals, default.gears) == (2, 2)
    rejection = refused(flown, BuyBanner(1), "STM-R-43", ctx=CUMULATIVE)
    assert "cost 3 pressure stones" in rejection.reason
    refused(flown, BuyBanner(1, more=(2, 2)), "STM-R-43", ctx=CUMULATIVE)
    refused(flown, BuyBanner(1, more=(1, 2)), "STM-R-43", ctx=CUMULATIVE)
    refused(flown, BuyBanner(1, more=(2, 9)), "STM-R-43", ctx=CUMULATIVE)
    refused(flown, BuyBanner(1, more=(2, 3)), "STM-R-43")  # 'per-slot': one stone
    banners = [a for a in legal_actions(CUMULATIVE, flown) if isinstance(a, BuyBanner)]
    threes = [
        BuyBanner(1, more=(2, 3)),
        BuyBanner(1, more=(2, 4)),
        BuyBanner(1, more=(3, 4)),
        BuyBanner(2, more=(3, 4)),
    ]
    assert banners == threes  # every 3 of the 4 gauge stones, the first named as ``stone``
    assert legal_actions(CUMULATIVE, flown) == legal_actions_by_check(CUMULATIVE, flown)
    paid = play(flown, BuyBanner(1, more=(2, 3)), ctx=CUMULATIVE)
    p = paid.players[0]
    assert p.gauge.stone_spaces() == (4,) and len(p.supply) == 4 and p.banners == ("M2-03",)
    assert (p.crystals, p.gears, _envies(paid)) == (0, 0, 1)
    last = play(_buyer_at("M2-03", stones=2, crystals=5, gears=2), FlyToAllTargets(), TakeBack(5, "left"))
    refused(last, BuyBanner(1, more=(2, 3)), "STM-R-43", ctx=CUMULATIVE)  # the last stone stays
    assert not any(isinstance(a, BuyBanner) for a in legal_actions(CUMULATIVE, last))


def test_amb25_cumulative_rank_3_machine_doubles_the_envy() -> None:
    """STM-EX-15 (p.19) as the rank-3 slot: 'Pay 4 crystals, 1 gear and 1 machine. Receive 5 vote points. All
    other players may each place 1 parasite'.  'cumulative': ranks 0-3 add up to 9 crystals, 3 gears, three
    machines, 11 VP and two envy symbols (ranks 2 and 3): the other player may place two parasites."""
    room = ("M0-02", "M0-03", "M0-05")
    flown = play(_buyer_at("M3-03", room, crystals=9, gears=3), FlyToAllTargets(), TakeBack(5, "left"))
    one = play(flown, BuyMachine(4, 1))
    assert (one.players[0].vp, _envies(one)) == (5, 1)
    three = play(flown, BuyMachine(4, 1, more=(2, 3)), ctx=CUMULATIVE)
    p = three.players[0]
    assert (p.crystals, p.gears, p.vp, _envies(three)) == (0, 0, 11, 2)
    assert p.machine_room[:4] == (None, None, None, RoomTile("machine", "M3-03"))
    g = SteamopolisGame.configured(readings={"STM-AMB-25": "cumulative"})
    for action in (BuyMachine(4, 1, more=(2, 3)), BuyBanner(1, more=(2, 3))):
        assert g.action_from_json(json.loads(json.dumps(g.action_to_json(action)))) == action
    assert "more" not in g.action_to_json(BuyMachine(4, 1)) and "more" not in g.action_to_json(BuyBanner(1))


def test_amb25_cumulative_with_amb11_board_pays_the_first_stone_from_the_board() -> None:
    """STM-AMB-11 'board' (p.20): a banner's stone may be one still on the board; with STM-AMB-25
    'cumulative' the rank-2 banner M2-03 costs three stones: the board stone on L2-left and two named
    on the gauge; all three go to the personal supply."""
    ctx = Context.printed(readings={"STM-AMB-25": "cumulative", "STM-AMB-11": "board"})
    tiles = (RoomTile("machine", "M0-02"), *(None,) * 6)
    buyer = player([(2, False), (3, False)], on_board=2, machine_room=tiles, crystals=5, gears=2)
    board = (BoardStone(0, 5, "left"), BoardStone(0, 2, "left"))
    state = game(buyer, player(), board=board, markets=(Market(5, ("M2-03",)),))
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"), ctx=ctx)
    pay = BuyBanner(None, board=(2, "left"), more=(1, 2))
    assert pay in legal_actions(ctx, flown)
    assert legal_actions(ctx, flown) == legal_actions_by_check(ctx, flown)
    refused(flown, BuyBanner(None, board=(2, "left")), "STM-R-43", ctx=ctx)  # three stones are visible
    paid = play(flown, pay, ctx=ctx)
    p = paid.players[0]
    assert p.gauge.stone_spaces() == (3,) and len(p.supply) == 4 and paid.board == ()


def test_amb25_cumulative_rank_3_banner_returns_four_stones_and_doubles_the_envy() -> None:
    """STM-EX-19 (p.20) as the rank-3 banner slot: 'Pay 4 crystals, 1 gear and 1 pressure stone ... All other
    players may each place 1 parasite'.  'cumulative' (M3-02, blue: 0 VP): the four slots' 9 crystals, 3
    gears and four stones (the fifth, last one stays), and the envy symbols of ranks 2 and 3: two
    placements for the other player."""
    flown = play(_buyer_at("M3-02", ("M0-02",), 4, crystals=9, gears=3), FlyToAllTargets(), TakeBack(5, "left"))
    one = play(flown, BuyBanner(1))
    assert (one.players[0].crystals, one.players[0].gears, _envies(one)) == (5, 2, 1)
    paid = play(flown, BuyBanner(1, more=(2, 3, 4)), ctx=CUMULATIVE)
    p = paid.players[0]
    assert p.gauge.stone_spaces() == (5,) and len(p.supply) == 4
    assert (p.crystals, p.gears, p.vp, _envies(paid)) == (0, 0, 0, 2)


def test_amb25_cumulative_removals_name_machine_room_positions_1_to_7() -> None:
    """STM-R-41 (p.19 'return 1 arbitrary tile in the machine room'): under 'cumulative' the rank-2 tile's two
    removals may take the tiles on positions 1 and 7 (the room's last position, p.7); a position 8 does
    not exist."""
    tiles = (RoomTile("machine", "M0-02"), *(None,) * 5, RoomTile("machine", "M0-03"))
    buyer = player(on_board=1, machine_room=tiles, crystals=5, gears=2)
    state = game(buyer, player(), board=(BoardStone(0, 5, "left"),), markets=(Market(5, ("M2-02",)),))
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"))
    refused(flown, BuyMachine(4, 1, more=(8,)), "STM-R-41", ctx=CUMULATIVE)
    refused(flown, BuyMachine(4, 1, more=(0,)), "STM-R-41", ctx=CUMULATIVE)
    bought = play(flown, BuyMachine(7, 1, more=(7,)), ctx=CUMULATIVE).players[0]
    assert bought.machine_room == (None, *(None,) * 5, RoomTile("machine", "M2-02"))


# ---------------------------------------------------------------------------
# STM-AMB-25 'cumulative' through 'buy tile', with sponsors, a custom pack and the board (mutation kills)
# ---------------------------------------------------------------------------

TWO_CUMULATIVE = Context.printed(readings={"STM-AMB-25": "cumulative", "STM-AMB-34": "two"})
# A pack whose market slots show no 'pressure stone -1' (the printed ones always do, p.20): a banner free of stones.
NO_STONE_PACK = attrs.evolve(
    bundled_pack(), market_slots=tuple(attrs.evolve(s, banner_stone=False) for s in bundled_pack().market_slots)
)
EMPTY_ROOM = (None,) * 7


def _buy_tile(buyer: PlayerState, tile: str, *board: BoardStone) -> StmState:
    """STM-R-61 (p.31) 'buy tile' waits as an effect part; level 5's market shows ``tile`` face up."""
    state = game(buyer, player(), board=board, markets=(Market(5, (tile,)),))
    held = sum(x is not None for x in (buyer.sponsor, buyer.sponsor2))
    supply = attrs.evolve(state.supply, sponsors=5 - held)
    return attrs.evolve(state, supply=supply, turn=attrs.evolve(state.turn, pending=((BuyTile(),),)))


def _generated(ctx: Context, state: StmState) -> list[StmAction]:
    """``legal_actions``, held to the unpruned reference (every candidate ``check`` accepts, in order)."""
    found: list[StmAction] = legal_actions(ctx, state)
    assert found == legal_actions_by_check(ctx, state)
    return found


def test_amb25_cumulative_buy_tile_names_the_market_level() -> None:
    """STM-R-61 (p.31) 'buy tile' by the normal rules, with STM-AMB-25 'cumulative' (p.18 'the visible
    symbols'): M1-01 on level 5 shows the rank-0 slot (2 gears, 'pressure stone -1') and its own rank-1
    slot (2 crystals, 1 machine, 'pressure stone -1', STM-EX-13/16/17): a machine on any position once the
    one machine goes, or a banner paying two gauge stones (the third, last one stays, p.20); each purchase
    names level 5.  'per-slot' asks one stone."""
    room_1 = (RoomTile("machine", "M0-02"), *(None,) * 6)
    buyer = player([(4, False), (6, False), (7, False)], crystals=2, gears=2, machine_room=room_1)
    state = _buy_tile(buyer, "M1-01")
    machines = {BuyMachine(n, 1, False, 5) for n in range(1, 8)}
    assert set(_generated(CUMULATIVE, state)) == {
        SkipPart(),
        *machines,
        BuyBanner(4, False, 5, more=(6,)),
        BuyBanner(4, False, 5, more=(7,)),
        BuyBanner(6, False, 5, more=(7,)),
    }
    assert set(_generated(CTX, state)) == {SkipPart(), *machines, *(BuyBanner(g, False, 5) for g in (4, 6, 7))}
    paid = play(state, BuyBanner(4, False, 5, more=(6,)), ctx=CUMULATIVE).players[0]
    assert paid.gauge.stone_spaces() == (7,) and (paid.crystals, paid.gears) == (0, 0) and paid.banners == ("M1-01",)
    on_board = Context.printed(readings={"STM-AMB-25": "cumulative", "STM-AMB-11": "board"})
    lifted = _buy_tile(attrs.evolve(buyer, supply=buyer.supply[1:]), "M1-01", BoardStone(0, 3, "left"))
    from_board = {a for a in _generated(on_board, lifted) if isinstance(a, BuyBanner) and a.board is not None}
    assert from_board == {BuyBanner(None, False, 5, board=(3, "left"), more=(g,)) for g in (4, 6, 7)}


def test_amb25_cumulative_banner_without_a_stone_symbol_takes_every_discount() -> None:
    """A pack whose slots show no 'pressure stone -1' (p.20; the printed slots all do): under 'cumulative' the
    rank-1 banner M1-01 costs 2 crystals and 2 gears and no stone (STM-R-43: 'this banner costs no pressure
    stone').  Character 5 with two crystal sponsors (STM-AMB-34 'two', p.29/31: each 1 crystal off while
    crystals are still to pay) and the gear gala (STM-R-58: up to 2 gears off), 1 crystal in hand: the gala
    and one sponsor or both."""
    ctx = Context.printed(pack=NO_STONE_PACK, readings={"STM-AMB-25": "cumulative", "STM-AMB-34": "two"})
    buyer = attrs.evolve(
        player([(4, False)], crystals=1, sponsor="crystal", gala="gear", machine_room=EMPTY_ROOM),
        character=5,
        sponsor2="crystal",
    )
    state = _buy_tile(buyer, "M1-01")
    pays = ((True, False), (False, True), (True, True))
    banners = {a for a in _generated(ctx, state) if isinstance(a, BuyBanner)}
    assert banners == {BuyBanner(None, False, 5, sp, True, sponsor2=s2) for sp, s2 in pays}
    refused(state, BuyBanner(4, False, 5, True, True), "STM-R-43", ctx=ctx)  # no stone is visible
    refused(state, BuyBanner(None, False, 5, False, True), "STM-R-40", ctx=ctx)  # 1 crystal short


def test_amb34_two_sponsors_pay_a_tile_together() -> None:
    """STM-AMB-34 'two' (p.29/31): character 5's two gear sponsors each take 1 gear off M0-01's 2 gears (the
    rank-0 slot, STM-EX-12/16), nothing in hand: bought by 'buy tile' (STM-R-61, level 5 named) and in the
    flight (STM-R-40), as a machine or a banner; the machine scores 1 VP and both sponsors turn over."""
    sponsors: dict[str, Any] = {"sponsor": "gear", "sponsor2": "gear", "character": 5}
    buyer = attrs.evolve(player([(4, False), (6, False)], machine_room=EMPTY_ROOM), **sponsors)
    state = _buy_tile(buyer, "M0-01")
    assert set(_generated(TWO, state)) == {
        SkipPart(),
        *(BuyMachine(n, None, False, 5, True, False, True) for n in range(1, 8)),
        *(BuyBanner(g, False, 5, True, False, sponsor2=True) for g in (4, 6)),
    }
    lifted = _buy_tile(attrs.evolve(buyer, supply=buyer.supply[1:]), "M0-01", BoardStone(0, 3, "left"))
    on_board = Context.printed(readings={"STM-AMB-34": "two", "STM-AMB-11": "board"})
    assert BuyBanner(None, False, 5, True, False, (3, "left"), True) in _generated(on_board, lifted)
    flown = play(_buyer_at("M0-01", stones=1, **sponsors), FlyToAllTargets(), TakeBack(5, "left"), ctx=TWO)
    both = BuyMachine(1, None, False, None, True, False, True)
    assert both in _generated(TWO, flown) and BuyBanner(1, sponsor=True, sponsor2=True) in _generated(TWO, flown)
    refused(flown, BuyMachine(1, sponsor=True), "STM-R-40", ctx=TWO)  # one sponsor leaves 1 gear unpaid
    boarded = attrs.evolve(buyer, supply=buyer.supply[2:])
    board = (BoardStone(0, 5, "left"), BoardStone(0, 3, "left"))
    state = _sponsors_held(game(boarded, player(), board=board, markets=(Market(5, ("M0-01",)),)))
    from_board = play(state, FlyToAllTargets(), TakeBack(5, "left"), ctx=on_board)
    assert BuyBanner(None, sponsor=True, board=(3, "left"), sponsor2=True) in _generated(on_board, from_board)
    no_stone = Context.printed(pack=NO_STONE_PACK, readings={"STM-AMB-34": "two"})
    free = play(_buyer_at("M0-01", stones=1, **sponsors), FlyToAllTargets(), TakeBack(5, "left"), ctx=no_stone)
    assert BuyBanner(None, sponsor=True, sponsor2=True) in _generated(no_stone, free)  # a pack slot with no stone
    p = play(flown, both, ctx=TWO).players[0]
    assert p.machine_room[0] == RoomTile("machine", "M0-01") and p.vp == 1
    assert (p.sponsor, p.sponsor2, p.sponsor_used, p.sponsor2_used) == ("crystal", "crystal", True, True)


def test_amb25_cumulative_rank_0_machine_removes_only_from_a_full_room() -> None:
    """STM-R-42 (p.19): a rank-0 tile (M0-01, 2 gears, STM-EX-12) removes no machine while a position is
    free; with all seven positions taken one tile must go, the new one taking its place.  'cumulative'
    changes nothing at rank 0 (no slot lies to its left)."""
    some = play(_buyer_at("M0-01", ("M0-02",), gears=2), FlyToAllTargets(), TakeBack(5, "left"))
    machines = [a for a in _generated(CUMULATIVE, some) if isinstance(a, BuyMachine)]
    assert machines == [BuyMachine(n) for n in range(2, 8)]
    full = tuple(f"M0-0{n}" for n in range(2, 9))
    crowded = play(_buyer_at("M0-01", full, gears=2), FlyToAllTargets(), TakeBack(5, "left"))
    machines = [a for a in _generated(CUMULATIVE, crowded) if isinstance(a, BuyMachine)]
    assert machines == [BuyMachine(n, n) for n in range(1, 8)]


def test_amb25_cumulative_with_amb11_board_skips_the_stone_a_passenger_needs() -> None:
    """STM-R-36/37 with STM-AMB-11 'board' and 'cumulative': the banker, boarded for level 6, needs the
    buyer's last stone there; the board stone on L6-left cannot pay for the banner M0-01, the one on L7-left
    can (one stone: the rank-0 slot's 'pressure stone -1', p.20)."""
    ctx = Context.printed(readings={"STM-AMB-25": "cumulative", "STM-AMB-11": "board"})
    board = (BoardStone(0, 5, "left"), BoardStone(0, 6, "left"), BoardStone(0, 7, "left"))
    state = game(player(gears=2, on_board=3), player(), board=board, markets=(Market(5, ("M0-01",)),))
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"))
    aboard = attrs.evolve(flown.players[0], carrying=("banker",))
    turn = attrs.evolve(flown.turn, boarded=(("banker", 6),))
    carried = attrs.evolve(
        flown, players=(aboard, flown.players[1]), passengers=attrs.evolve(flown.passengers, banker=None), turn=turn
    )
    banners = [a for a in _generated(ctx, carried) if isinstance(a, BuyBanner) and a.board is not None]
    assert banners == [BuyBanner(None, board=(7, "left"))]
    refused(carried, BuyBanner(None, board=(6, "left")), "STM-R-36", ctx=ctx)


def test_amb25_cumulative_refusals_name_what_is_missing() -> None:
    """The refusals say what the visible symbols ask (p.18-20): the rank-2 banner M2-03 costs three stones
    (STM-EX-16..18), so two more are to be named, each a different own gauge stone; the rank-2 machine
    M2-02 costs two machines (STM-EX-13/14), the named positions must hold tiles (STM-R-41)."""
    flown = play(_buyer_at("M2-03", ("M0-02",), 3, crystals=5, gears=2), FlyToAllTargets(), TakeBack(5, "left"))
    assert "name 2 more" in refused(flown, BuyBanner(1), "STM-R-43", ctx=CUMULATIVE).reason
    twice = refused(flown, BuyBanner(1, more=(2, 2)), "STM-R-43", ctx=CUMULATIVE)
    assert "name 2 more different stones" in twice.reason
    room = ("M0-02", "M0-03", "M0-05")
    machine = play(_buyer_at("M2-02", room, crystals=5, gears=2), FlyToAllTargets(), TakeBack(5, "left"))
    refused(machine, BuyMachine(4, None, more=(2,)), "STM-R-41", ctx=CUMULATIVE)  # the first removal unnamed
    empty = refused(machine, BuyMachine(4, 1, more=(6,)), "STM-R-41", ctx=CUMULATIVE)
    assert "[1, 6]" in empty.reason


def test_amb34_the_turn_sponsor_refusal_cites_the_reading() -> None:
    """p.31 'Turn sponsor ... (Only 1 sponsor, if you own character 5.)': naming the second sponsor anywhere
    else is refused under STM-R-57, and the refusal names the reading it rests on (STM-AMB-34)."""
    state = _sponsor_gains(5, VotePoints(2))
    both = attrs.evolve(state.players[0], sponsor="crystal", sponsor2="gear")
    state = attrs.evolve(state, players=(both, state.players[1]), supply=attrs.evolve(state.supply, sponsors=3))
    rejection = refused(state, UsePart(sponsor2=True), "STM-R-57", ctx=TWO)
    assert rejection.reason.startswith("only 'turn sponsor' turns a second sponsor")
    assert rejection.reason.endswith("(STM-AMB-34)")
    alone = attrs.evolve(state, players=(attrs.evolve(both, sponsor2=None), state.players[1]))
    alone = _sponsors_held(attrs.evolve(alone, turn=attrs.evolve(alone.turn, pending=((PayResources(crystals=1),),))))
    rejection = refused(alone, PayCost(sponsor2=True), "STM-R-57", ctx=TWO)
    assert rejection.reason.startswith("you own no second sponsor") and "STM-AMB-34 'two', p.31" in rejection.reason
    spent = attrs.evolve(alone, players=(attrs.evolve(both, sponsor2_used=True), state.players[1]))
    rejection = refused(spent, PayCost(sponsor2=True), "STM-R-57", ctx=TWO)  # p.29: '1 time per turn'
    assert rejection.reason.startswith("your second sponsor has already given its discount")


def _character_5(p: PlayerState, **kw: Any) -> PlayerState:
    """Character 5 (p.31) holding two sponsors under STM-AMB-34 'two'."""
    return attrs.evolve(p, character=5, **kw)


def _sponsors_held(state: StmState) -> StmState:
    held = sum(x is not None for p in state.players for x in (p.sponsor, p.sponsor2))
    return attrs.evolve(state, supply=attrs.evolve(state.supply, sponsors=5 - held))


def test_amb34_two_sponsors_pay_a_banner_a_bonus_marker_and_a_crystal_per_stone() -> None:
    """STM-AMB-34 'two' (p.29/31): each of character 5's sponsors takes 1 of its resource off a cost still
    holding it, and turns over.  The banner M0-01 (2 gears, STM-EX-16) with no gear in hand; STM-EX-23's
    gear #2 (3 gears, p.23) with 1 gear; 'pay as many crystals as you own pressure stones' (STM-R-63, p.27:
    two stones) with no crystal."""
    sponsors: dict[str, Any] = {"sponsor": "gear", "sponsor2": "gear"}
    flown = play(_buyer_at("M0-01", stones=1, character=5, **sponsors), FlyToAllTargets(), TakeBack(5, "left"), ctx=TWO)
    p = play(flown, BuyBanner(1, sponsor=True, sponsor2=True), ctx=TWO).players[0]
    assert p.banners == ("M0-01",) and p.gears == 0
    assert (p.sponsor, p.sponsor2, p.sponsor_used, p.sponsor2_used) == ("crystal", "crystal", True, True)
    _ctx, ex23 = _ex23("both-2", (5, 4, 3, 2), (2,))
    blue = _character_5(ex23.players[0], gears=1, **sponsors)
    ex23 = _sponsors_held(attrs.evolve(ex23, players=(blue,), supply=attrs.evolve(ex23.supply, gears=14)))
    # Generated as the check accepts it, the unpruned candidates included (the second sponsor named in each).
    assert BuyBonusMarker("gear", 3, sponsor=True, sponsor2=True) in _generated(TWO, ex23)
    bought = play(ex23, BuyBonusMarker("gear", 3, sponsor=True, sponsor2=True), ctx=TWO).players[0]
    assert (bought.gears, bought.vp, bought.sponsor2, bought.sponsor2_used) == (0, 5, "crystal", True)
    red = _character_5(player([(4, False)], on_board=1), sponsor="crystal", sponsor2="crystal")
    state = game(red, player(), board=(BoardStone(0, 2, "left"),))
    state = _sponsors_held(attrs.evolve(state, turn=attrs.evolve(state.turn, pending=((PayCrystalsPerStone(),),))))
    refused(state, PayCost(sponsor=True), "STM-R-63", ctx=TWO)  # one sponsor leaves 1 crystal unpaid
    paid = play(state, PayCost(sponsor=True, sponsor2=True), ctx=TWO).players[0]
    assert (paid.crystals, paid.sponsor, paid.sponsor2, paid.sponsor2_used) == (0, "gear", "gear", True)


def test_r58_the_gala_goes_back_to_its_own_side_of_the_supply() -> None:
    """STM-R-58 (p.29-30): a used charity gala returns to the general supply.  Seat 0 pays the gears of
    M0-01 (2, STM-EX-12) with its gear gala while seat 1 holds a crystal gala: the supply then holds all
    4 gear galas and still 3 crystal ones."""
    buyer = player([(2, False)], on_board=1, gala="gear", machine_room=EMPTY_ROOM)
    state = game(buyer, player(gala="crystal"), board=(BoardStone(0, 5, "left"),), markets=(Market(5, ("M0-01",)),))
    assert state.supply.galas == (3, 3)
    flown = play(state, FlyToAllTargets(), TakeBack(5, "left"))
    assert BuyBanner(1, gala=True) in _generated(CTX, flown)  # or as a banner, the gauge stone on g1 paid
    after = play(flown, BuyMachine(1, gala=True))
    assert after.supply.galas == (3, 4) and after.players[0].gala is None and after.players[0].vp == 1


def test_amb03_separate_puts_the_pink_marker_on_the_packs_numeral() -> None:
    """STM-R-04 (p.2, character 7's pink bonus marker) placed as a bought one (STM-R-47, p.22: 'on the printed
    position'): under STM-AMB-03 'separate' a pack printing its #3 on g6 (value 3 on g5, STM-R-14) takes
    the pink #3 on g6, not on g5; 'value' the other way round."""
    data = bundled_pack_data()
    data["gauge"]["numerals"] = [None, None, 2, 2, 4, 3, None, 5, None, None]
    pack = pack_from_data(data, "<test>")
    seven = attrs.evolve(player([(1, False), (2, False), (3, False)]), character=7)
    state = game(seven, player(), phase=Phase.SETUP_ROOM, turn=TurnState(pending=((GainPinkMarker(),),)))
    for key, good, bad in (("value", 5, 6), ("separate", 6, 5)):
        ctx = Context.printed(pack, {"STM-AMB-03": key})
        assert pack.pink_numeral == 3
        refused(state, PlacePinkMarker(bad), "STM-R-47", ctx=ctx)
        after = play(state, PlacePinkMarker(good), ctx=ctx)
        assert after.players[0].gauge.spaces[good] == BonusMarker(3, pink=True)


def test_amb16_free_passenger_step_reveals_nothing_from_an_empty_stack() -> None:
    """STM-R-51 (p.24): a new passenger tile turns face up only while the stack holds one.  Under STM-AMB-16
    'free' the banker is dropped off on level 8 (P02 taken, solo turn 5's flight in a 2-player game) with
    the stack empty: the passenger step gives his 1 VP (p.24) and the turn stays at its end, the end-of-turn
    effects still to run, no reveal."""
    passengers = {"face_up": "P02", "banker": 6, "stack": []}
    # the other 15 tiles lie face down beside the airships (STM-R-51)
    spec = {
        "players": 2,
        "phase": "flight",
        "board": L6_L8,
        "passengers": passengers,
        "seats": {1: {"passenger_tiles": 15}},
    }
    flight = (TakeBack(6, "left"), PickUp("banker"), LetLapse(), TakeBack(8, "left"), UseDistrict())
    state = solo.play(tools(FREE_ORDER).scenario_state(spec), *flight, game=FREE_ORDER)
    vp = state.players[0].vp
    state = solo.play(state, STEP_PASSENGERS, game=FREE_ORDER)
    assert state.phase is Phase.END_OF_TURN and state.passengers.face_up is None
    assert state.turn.pending[0] == (VotePoints(1),)
    state = solo.play(state, UsePart(), game=FREE_ORDER)
    assert state.phase is Phase.END_OF_TURN and state.players[0].vp == vp + 1
    assert state.turn.pending[0][0] == LookAtMachine()  # the one step left, L8-left's effect, runs by itself


def test_r17_the_base_marker_stops_at_the_packs_value() -> None:
    """STM-R-17 (p.30-31 'move the base pressure marker 1 space to the right'): the marker goes no further
    than the first space of the pack's top base value (printed: 4, on g6).  A pack naming 5 (on g7) lets the
    marker on g6 move on to g7; with the printed pack the part lapses there."""
    data = bundled_pack_data()
    data["gauge"]["base_max_value"] = 5
    five = Context.printed(pack_from_data(data, "<test>"))
    p = player([(8, False)])
    p = attrs.evolve(p, gauge=attrs.evolve(p.gauge, base=6))
    state = game(p, player())
    state = attrs.evolve(state, turn=attrs.evolve(state.turn, pending=((AdvanceBaseMarker(),),)))
    assert play(state, MoveBaseMarker(), ctx=five).players[0].gauge.base == 7
    refused(state, MoveBaseMarker(), "STM-R-17")  # printed: on the value-4 space the part lapses


def test_r16_one_stone_rises_by_up_to_the_parts_n() -> None:
    """STM-R-16 ('increase the pressure of one stone by up to 5': one chosen stone, 0-5 increments, each to
    the next free space as in STM-R-15): the stone rises by as many spaces as chosen, up to the part's X.
    A part with X = 6 (the printed ones say 5) takes the stone on g1 six spaces on, to g7; 7 is refused."""
    state = game(player([(1, False)]), player())
    state = attrs.evolve(state, turn=attrs.evolve(state.turn, pending=((IncreaseOneStone(6),),)))
    refused(state, RaiseOneStone(1, 7), "STM-R-16")
    assert play(state, RaiseOneStone(1, 6)).players[0].gauge.stone_spaces() == (7,)
