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

import attrs
import pytest
import test_stm_parasites as par
import test_stm_solo as solo
from test_stm_readings import game, play, player, reading

from rulecraft.model.steamopolis.actions import (
    BuyBanner,
    BuyBonusMarker,
    ChannelPressure,
    EndTurn,
    FlyToAllTargets,
    LeaveParasites,
    LetLapse,
    RevealPassenger,
    TakeBack,
    TakeResources,
    UsePart,
    UseRemovedTile,
)
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.gauge import BonusMarker, Stone
from rulecraft.model.steamopolis.rules import legal_actions
from rulecraft.model.steamopolis.state import BoardStone, BonusMarket, Market, Phase, StmState

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
