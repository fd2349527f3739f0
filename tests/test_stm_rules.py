"""Steamopolis turn rules (actions, legality, transitions): per rule a small
state built from the state classes, and the outcome the rulebook states,
with its page.  Printed examples are cited by their STM-EX IDs; expected
values come from the rulebook text, never from running the model.  The
last tests hold legal-move generation to the check on random small states.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.core import Chance, GameOver, Rejection
from rulecraft.model.steamopolis.actions import (
    BuildCapacity,
    BuyBanner,
    BuyBonusMarker,
    BuyMachine,
    ChannelPressure,
    DeclineCost,
    EndTurn,
    FlyToAllTargets,
    GainStone,
    LetLapse,
    MakeSteam,
    MoveArrowStones,
    MoveBaseMarker,
    MoveLeft,
    PassTurn,
    PayCost,
    PickUp,
    PlaceStone,
    RaisePressure,
    RevealPassenger,
    SetTarget,
    SkipPart,
    StmAction,
    StopBuying,
    Store,
    TakeBack,
    TakeResources,
    TurnArrows,
    UseDistrict,
    UsePart,
)
from rulecraft.model.steamopolis.catalogue import RULES
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import GainResources
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Stone, gauge_of, increment, values
from rulecraft.model.steamopolis.policies import purposeful
from rulecraft.model.steamopolis.readings import REGISTER
from rulecraft.model.steamopolis.rules import (
    check,
    destination,
    legal_actions,
    legal_actions_by_check,
    pressure_rejection,
)
from rulecraft.model.steamopolis.setup import chance_outcomes
from rulecraft.model.steamopolis.state import (
    BoardStone,
    BonusMarket,
    Market,
    Passengers,
    Phase,
    PlayerState,
    RoomTile,
    StmState,
    Supply,
    TurnState,
    new_player,
    problems,
)
from rulecraft.model.steamopolis.transitions import end_of_turn, transition
from rulecraft.ruleset import Ruleset

CTX = Context.printed()
PACK = CTX.pack
EMPTY_ROOM: tuple[RoomTile | None, ...] = (None,) * 7


def room(*tiles: tuple[int, RoomTile]) -> tuple[RoomTile | None, ...]:
    """A machine room from (position 1..7, tile) pairs."""
    out = list(EMPTY_ROOM)
    for position, tile in tiles:
        out[position - 1] = tile
    return tuple(out)


def machine(tile_id: str) -> RoomTile:
    return RoomTile("machine", tile_id)


def player(
    stones: Sequence[tuple[int, bool]], *, markers: Sequence[tuple[int, int]] = (), base: int = 0, **kw: Any
) -> PlayerState:
    """A player with stones on (space, arrow); the supply holds the other stones unless given."""
    p = attrs.evolve(new_player(1), gauge=gauge_of(stones, markers, base), supply=supply_stones(5 - len(stones)))
    return attrs.evolve(p, **kw)


def game(*players: PlayerState, phase: Phase = Phase.ACTION, **kw: Any) -> StmState:
    """A state whose general supply holds what the players do not (STM-R-21 conservation)."""
    crystals = 15 - sum(p.crystals for p in players)
    gears = 15 - sum(p.gears for p in players)
    state = StmState(players=players, phase=phase, supply=Supply(crystals=crystals, gears=gears))
    return attrs.evolve(state, **kw)


def reveal(state: StmState, tile: str) -> StmState:
    """The chance step that turns passenger tile ``tile`` face up (STM-R-51)."""
    action = RevealPassenger(tile)
    assert check(CTX, state, action) is None
    return transition(CTX, state, action)


def play(state: StmState, *actions: StmAction, ctx: Context = CTX) -> StmState:
    """Apply legal actions one by one; each must pass the check and be generated."""
    for action in actions:
        rejection = check(ctx, state, action)
        assert rejection is None, f"{action!r}: {rejection}"
        state = transition(ctx, state, action)
    return state


def refused(state: StmState, action: StmAction, rule: str, ctx: Context = CTX) -> Rejection:
    rejection = check(ctx, state, action)
    assert rejection is not None, f"{action!r} was accepted"
    assert rejection.rule == rule, str(rejection)
    assert rejection.page == RULES[rule].page
    return rejection


def supply_stones(n: int) -> tuple[Stone, ...]:
    return (Stone(),) * n


# ---------------------------------------------------------------------------
# STM-R-19: arrow stones at the start of the turn (p.31, solo turns p.36 ff.)
# ---------------------------------------------------------------------------


def test_r19_ex38_the_arrow_stone_jumps_the_others() -> None:
    """STM-EX-38 (p.36): 'VALUES: 1 with arrow, 1, 2' → she moves it → '1, 2, 2 with arrow'."""
    state = game(player([(1, True), (2, False), (3, False)]), phase=Phase.START_OF_TURN)
    after = play(state, MoveArrowStones((1,)))
    assert values(after.players[0].gauge) == ("1", "2", "2A")
    assert after.phase is Phase.ACTION


def test_r19_ex43_each_arrow_stone_moves_once_in_the_chosen_order() -> None:
    """STM-EX-43 (p.38): '2 with arrow, 2 with arrow, 3 with arrow' → '4 with arrow, 5 with arrow,
    6 with arrow'; every arrow stone must move (STM-AMB-07 'each')."""
    state = game(player([(3, True), (4, True), (5, True)]), phase=Phase.START_OF_TURN)
    assert values(play(state, MoveArrowStones((3, 4, 5))).players[0].gauge) == ("4A", "5A", "6A")
    refused(state, MoveArrowStones((3, 4)), "STM-R-19")
    refused(state, MakeSteam(()), "STM-R-23")


def test_r19_ex40_a_blocked_arrow_stone_stays() -> None:
    """STM-EX-40 (p.37): 'Since she has reached the end of the pressure gauge, she cannot move' it."""
    state = game(player([(9, True), (10, False)]), phase=Phase.START_OF_TURN)
    assert values(play(state, MoveArrowStones((9,))).players[0].gauge) == ("7A", "8")


# ---------------------------------------------------------------------------
# STM-R-15, R-24, R-25: MAKE STEAM (p.8-10)
# ---------------------------------------------------------------------------


def test_r25_ex01_every_boiler_counts_piped_or_not() -> None:
    """STM-EX-01 (p.8): 2 built-in boilers and 3 on machines (one unpiped) → increase by 5."""
    yellow = player(
        [(1, False), (2, False), (3, False)], machine_room=room((1, machine("M1-03")), (2, machine("M0-01")))
    )
    assert CTX.boilers(yellow) == 5
    state = game(yellow)
    after = play(state, MakeSteam((3, 4, 5, 6, 7)))
    assert values(after.players[0].gauge) == ("1", "1", "6")
    refused(state, MakeSteam((3, 4, 5, 6)), "STM-R-15")  # pressure may not lapse voluntarily (p.9)


def test_r25_r32_equal_rooms_built_apart_count_alike_turn_after_turn() -> None:
    """STM-EX-01 (p.8): 2 built-in boilers and 3 on machines → 5; p.14: 3 built-in storage spaces.  The same
    room built twice from equal tiles (not the same objects), asked in turn with another seat's bare room
    (2 boilers, 3 spaces) as the seats take turns: each answer stays the room's own."""
    rooms = [room((1, machine("M1-03")), (2, machine("M0-01"))) for _ in range(2)]
    assert rooms[0] == rooms[1] and rooms[0] is not rooms[1] and rooms[0][0] is not rooms[1][0]
    yellow = [player([(1, False)], machine_room=r) for r in rooms]
    bare = player([(1, False)])
    # p.14: the 3 built-in spaces plus the storage spaces printed on the machines (pack data)
    spaces = 3 + PACK.machine("M1-03").face.storage + PACK.machine("M0-01").face.storage
    for p in (yellow[0], bare, yellow[1], bare, yellow[0], yellow[1]):
        assert CTX.boilers(p) == (2 if p is bare else 5)
        assert CTX.storage(p) == (3 if p is bare else spaces)
        assert [CTX.face(t) for t in p.machine_room if t is not None] == [
            PACK.machine(t.id).face for t in p.machine_room if t is not None
        ]


def test_r25_ex38_make_steam_with_four_boilers() -> None:
    """STM-EX-38 (p.36): 4 boilers; 'she chooses the left pressure stone each time and moves it over
    the two others' → '4, 5 with arrow, 6'; then the turn ends (p.8)."""
    black = player(
        [(2, False), (3, False), (4, True)],
        machine_room=room((1, RoomTile("starting", "S1", 0)), (2, RoomTile("capacity", "capacity", 0))),
    )
    after = play(game(black), MakeSteam((2, 3, 4, 5)))
    assert values(after.players[0].gauge) == ("4", "5A", "6")
    assert after.phase is Phase.END_OF_TURN
    assert play(after, EndTurn()).phase is Phase.START_OF_TURN


def test_r15_ex02_increments_beyond_the_end_lapse() -> None:
    """STM-EX-02 (p.10): increase by 6, the leftmost stone moves 4 times and reaches the end: 2 lapse."""
    black = player(
        [(4, False), (8, False), (9, False)], machine_room=room(*((i, machine("M0-08")) for i in (1, 2, 3, 4)))
    )
    assert CTX.boilers(black) == 6
    after = play(game(black), MakeSteam((4, 5, 6, 7)))
    assert values(after.players[0].gauge) == ("6", "7", "8")


def test_amb32_most_refuses_the_printed_ex02_order_and_generates_only_the_longest() -> None:
    """STM-EX-02 (p.10) prints an order using 4 of 6 increments, and says other orders were allowed.
    Under STM-AMB-32 'most' an order using all 6 exists (the 6 and the 7 first), so the printed one
    is refused: EX-02 is evidence for 'free-order'.  Generation offers only the longest orders."""
    most = Context.printed(readings={"STM-AMB-32": "most"})
    gauge = gauge_of([(4, False), (8, False), (9, False)])
    assert pressure_rejection(CTX, gauge, 6, (4, 5, 6, 7)) is None
    rejection = pressure_rejection(most, gauge, 6, (4, 5, 6, 7))
    assert rejection is not None and rejection.rule == "STM-R-15" and "6 increments" in rejection.reason
    black = player(
        [(4, False), (8, False), (9, False)], machine_room=room(*((i, machine("M0-08")) for i in (1, 2, 3, 4)))
    )
    steams = [a for a in legal_actions(most, game(black)) if isinstance(a, MakeSteam)]
    assert steams and {len(a.picks) for a in steams} == {6}


def test_r24_make_steam_needs_a_stone_that_can_move() -> None:
    """STM-R-24 (p.8): not if 'your pressure stones are already all the way to the right'."""
    state = game(player([(8, False), (9, False), (10, False)]))
    refused(state, MakeSteam(()), "STM-R-24")
    refused(game(player([])), MakeSteam(()), "STM-R-24")


# ---------------------------------------------------------------------------
# STM-R-26, R-27: SET 1 TARGET (p.11-12)
# ---------------------------------------------------------------------------


def _occupied(*districts: tuple[int, str], seat: int = 1) -> tuple[BoardStone, ...]:
    return tuple(BoardStone(seat, level, position) for level, position in districts)  # type: ignore[arg-type]


def test_r26_ex03_targets_of_a_value_4_stone() -> None:
    """STM-EX-03 (p.12): the stone on space 4 may go to levels 1-4 only, on free districts."""
    blue = player([(6, False)])
    red = player([], supply=supply_stones(1))
    board = _occupied((2, "left"), (3, "right"), (4, "left"), (4, "right"))
    state = game(blue, red, board=board)
    targets = {(a.level, a.position) for a in legal_actions(CTX, state) if isinstance(a, SetTarget)}
    assert targets == {(1, "left"), (1, "right"), (2, "right"), (3, "left")}
    refused(state, SetTarget(6, 5, "left"), "STM-R-26")
    refused(state, SetTarget(6, 2, "left"), "STM-R-27")
    after = play(state, SetTarget(6, 3, "left"))
    assert BoardStone(0, 3, "left") in after.board and after.players[0].gauge.stones() == 0
    assert after.phase is Phase.END_OF_TURN  # STM-R-31: no district effect now


def test_r27_own_stones_block_too() -> None:
    """STM-R-27 (p.11): 'Pressure stones of other players as well as your own pressure stones block'."""
    state = game(player([(3, False)], supply=supply_stones(1)), board=_occupied((1, "left"), seat=0))
    refused(state, SetTarget(3, 1, "left"), "STM-R-27")


def test_r24_without_a_gauge_stone_only_the_flight_remains() -> None:
    """STM-R-24 (p.8, p.11): with no stone on the gauge, you must FLY TO ALL TARGETS."""
    state = game(player([], supply=supply_stones(2)), board=_occupied((1, "left"), (2, "left"), (3, "left"), seat=0))
    kinds = {type(a) for a in legal_actions(CTX, state)}
    assert kinds == {FlyToAllTargets}
    refused(state, PassTurn(), "STM-R-23")


def test_amb12_the_turn_passes_when_no_action_is_possible() -> None:
    """STM-AMB-12 'pass': stones stuck at the right end, every district taken, none of yours on the board."""
    everywhere = [(d.level, d.position) for d in PACK.side("2-3")]
    state = game(player([(9, False), (10, False)], supply=supply_stones(3)), player([]), board=_occupied(*everywhere))
    assert legal_actions(CTX, state) == [PassTurn()]
    refused(state, MakeSteam(()), "STM-R-24")
    refused(state, SetTarget(10, 8, "left"), "STM-R-27")
    refused(state, FlyToAllTargets(), "STM-R-24")
    assert play(state, PassTurn()).phase is Phase.END_OF_TURN


# ---------------------------------------------------------------------------
# STM-R-28..31: channelling (p.12-14)
# ---------------------------------------------------------------------------


def test_r28_ex05_who_may_channel() -> None:
    """STM-EX-05 (p.13): the stones on the positions marked 1 and 2 cannot channel; the third only if a
    level-1 district is free ('the pressure would drop to 1 and she must still place')."""
    blue = player([(1, False), (2, False), (3, False)])
    state = game(blue, player([], supply=supply_stones(2)), board=_occupied((1, "left"), (1, "right")))
    refused(state, ChannelPressure(1), "STM-R-28")
    refused(state, ChannelPressure(2), "STM-R-28")
    refused(state, ChannelPressure(3), "STM-R-28")
    open_l1 = attrs.evolve(state, board=state.board[:1])
    after = play(open_l1, ChannelPressure(3))
    assert after.phase is Phase.CHANNEL and after.turn.channel == 1


def test_r29_ex04_moving_left_activates_the_machine_there() -> None:
    """STM-EX-04 (p.13): place the value-3 stone or move it left; moving activates the machine there:
    +1 crystal, value 2; then again place or move."""
    black = player([(6, False)], machine_room=room((2, machine("M0-01"))))
    state = play(game(black), ChannelPressure(6))
    assert state.turn.channel == 3 and not state.turn.pending  # position 3 is empty: nothing happens
    state = play(state, MoveLeft())
    assert state.turn.channel == 2
    state = play(state, TakeResources(1, 0))
    assert state.players[0].crystals == 1
    moves = legal_actions(CTX, state)
    assert MoveLeft() in moves and PlaceStone(2, "left") in moves and PlaceStone(3, "left") not in moves


def test_r29_ex39_channelling_a_4_down_to_1() -> None:
    """STM-EX-39 (p.36 f.): '4, 6, 7 with arrow'; the stone on space 4 goes down the pipe and all the way
    left, activating two boilers (+1 each) → '7 with arrow, 8'; placed with value 1 on L1-left."""
    black = player(
        [(6, False), (8, False), (9, True)],
        machine_room=room((1, RoomTile("starting", "S1", 0)), (2, RoomTile("capacity", "capacity", 0))),
    )
    state = play(game(black), ChannelPressure(6), MoveLeft(), RaisePressure((8,)), MoveLeft())
    refused(state, RaisePressure((9,)), "STM-R-15")  # the 7 is blocked by the 8 on the last space
    state = play(state, RaisePressure(()), PlaceStone(1, "left"))
    assert values(state.players[0].gauge) == ("7A", "8")
    assert BoardStone(0, 1, "left") in state.board and state.phase is Phase.END_OF_TURN


def test_r29_the_stone_must_stay_placeable() -> None:
    """STM-R-29 / STM-AMB-06 (p.13): moving left needs a free district at or below the new value;
    the stone at the leftmost position must be placed; it never returns to the gauge."""
    state = game(player([(5, False)]), player([], supply=supply_stones(3)), board=_occupied((1, "left"), (1, "right")))
    state = play(state, ChannelPressure(5))  # value 3 enters position 2; position 1 would leave no district
    assert state.turn.channel == 2
    refused(state, MoveLeft(), "STM-R-29")
    refused(state, FlyToAllTargets(), "STM-R-29")
    free = game(player([(4, False)]))
    at_one = play(free, ChannelPressure(4))
    refused(at_one, MoveLeft(), "STM-R-29")


def test_r30_only_piped_boilers_activate() -> None:
    """STM-R-30 (p.13, p.26): a second boiler piped to the first activates too; an unpiped one never."""
    both = play(game(player([(4, False)], machine_room=room((1, machine("M0-10"))))), ChannelPressure(4))
    assert [p[0] for p in both.turn.pending] == [GainResources(crystals=1), GainResources(gears=1)]
    one = play(game(player([(4, False)], machine_room=room((1, machine("M1-03"))))), ChannelPressure(4))
    assert [p[0] for p in one.turn.pending] == [GainResources(crystals=1)]


def test_r32_ex06_channel_a_7_then_store() -> None:
    """STM-EX-06 (p.14): value 7 channelled: +2 gears, +1 crystal, pays 2 crystals for 2 VP, value 2,
    placed on level 1; stores 2 gears and puts down 1 crystal (3 spaces: crystal, crystal, gear before)."""
    yellow = player(
        [(9, False)],
        crystals=2,
        gears=1,
        machine_room=room((6, machine("M0-03")), (4, machine("M0-01")), (3, machine("M1-02"))),
    )
    state = play(game(yellow), ChannelPressure(9), TakeResources(0, 2), MoveLeft(), MoveLeft(), TakeResources(1, 0))
    state = play(state, MoveLeft(), PayCost(), UsePart(), MoveLeft(), PlaceStone(1, "left"))
    assert state.turn.storing  # STM-R-31/32: store only after the placement
    refused(state, Store(2, 2), "STM-R-32")
    state = play(state, Store(0, 3))
    p = state.players[0]
    assert (p.crystals, p.gears, p.vp) == (0, 3, 2)
    assert (state.supply.crystals, state.supply.gears) == (15, 12)
    assert problems(state, PACK) == []


# ---------------------------------------------------------------------------
# STM-R-33, R-34, R-18: the flight and taking back (p.15)
# ---------------------------------------------------------------------------


def test_r34_ex07_take_back_to_the_first_free_spaces() -> None:
    """STM-EX-07 (p.15): the first stone goes to the first free space right of the base marker, the next
    to the next free one; the stone keeps its arrow."""
    yellow = player([(1, False), (3, False)], supply=())
    board = (BoardStone(0, 2, "left", Stone(True)), BoardStone(0, 5, "right"))
    state = play(game(yellow, board=board), FlyToAllTargets(), TakeBack(2, "left"), LetLapse())
    assert values(state.players[0].gauge) == ("1", "1A", "2")
    state = play(state, TakeBack(5, "right"), LetLapse())
    assert values(state.players[0].gauge) == ("1", "1A", "2", "2")
    assert state.phase is Phase.END_OF_TURN  # every stone taken back: the action is finished


def test_r18_full_gauge_returns_a_bonus_marker_or_the_stone() -> None:
    """STM-R-18 (p.15): no free space → return 1 bonus marker to the box; if you cannot, the stone goes to
    your supply."""
    full = [(i, False) for i in range(1, 11) if i != 7]
    state = game(player(full, markers=[(7, 5)], supply=()), board=(BoardStone(0, 1, "left"),))
    state = play(state, FlyToAllTargets())
    refused(state, TakeBack(1, "left"), "STM-R-18")
    after = play(state, TakeBack(1, "left", discard=7))
    assert after.players[0].gauge.stones() == 10
    no_marker = game(player([(i, False) for i in range(1, 11)], supply=()), board=(BoardStone(0, 1, "left"),))
    after = play(no_marker, FlyToAllTargets(), TakeBack(1, "left"))
    assert after.players[0].supply == (Stone(),)


def test_r33_fly_needs_a_stone_on_the_board() -> None:
    """STM-R-24 (p.15): 'If you currently have no pressure stone placed, you cannot choose this action.'"""
    refused(game(player([(1, False)])), FlyToAllTargets(), "STM-R-24")


# ---------------------------------------------------------------------------
# STM-R-35..37, R-49..51: passengers (p.16-17, p.24)
# ---------------------------------------------------------------------------


def test_r35_ex08_destination_and_alternate() -> None:
    """STM-EX-08 (p.16): banker 5 (alternate 6), stoker 1 (alternate 4); a passenger already on his
    destination goes to the alternate."""
    base = game(player([]), passengers=Passengers(banker=6, stoker=4, face_up="P01"))
    assert destination(CTX, base, "banker") == 5 and destination(CTX, base, "stoker") == 1
    there = attrs.evolve(base, passengers=Passengers(banker=5, stoker=1, face_up="P01"))
    assert destination(CTX, there, "banker") == 6 and destination(CTX, there, "stoker") == 4


def _ex09(*extra: BoardStone) -> StmState:
    """STM-EX-09 (p.17): Yellow's stones on L2, L6, L7; stoker on L2 wants L3, banker on L7 wants L6
    (tile P02: banker 6, stoker 3)."""
    board = (BoardStone(0, 2, "left"), BoardStone(0, 6, "left"), BoardStone(0, 7, "right"), *extra)
    yellow = player([], supply=supply_stones(5 - len(board)))
    pax = Passengers(banker=7, stoker=2, stack=("P03", "P04"), face_up="P02")
    return play(game(yellow, board=board, passengers=pax), FlyToAllTargets())


def test_r36_ex09_pick_up_needs_a_stone_on_the_destination_level() -> None:
    """STM-EX-09 (p.17): no stone on L3 → the stoker may not be picked up; the banker only if the stone
    on L7 is taken back before the one on L6."""
    state = play(_ex09(), TakeBack(2, "left"))
    refused(state, PickUp("stoker"), "STM-R-36")
    late = play(state, LetLapse(), TakeBack(6, "left"), LetLapse(), TakeBack(7, "right"))
    refused(late, PickUp("banker"), "STM-R-36")
    early = play(state, LetLapse(), TakeBack(7, "right"), PickUp("banker"), LetLapse(), TakeBack(6, "left"))
    assert early.passengers.banker == 6 and early.players[0].carrying == ()
    assert early.turn.transported == ("banker",) and early.passengers.taken == "P02"


def test_r37_ex10_both_passengers_one_tile_and_the_rewards() -> None:
    """STM-EX-10 (p.17): L2 (take the stoker), L7 (take the banker), L6 (drop the banker, take the tile),
    L3 (drop the stoker): both transported, one passenger tile; at the end of the turn 1 VP for the
    banker and +3 pressure for the stoker (p.24), the tile face down and a new one revealed."""
    state = _ex09(BoardStone(0, 3, "right"))
    state = play(state, TakeBack(2, "left"), PickUp("stoker"), LetLapse(), TakeBack(7, "right"), PickUp("banker"))
    state = play(state, LetLapse(), TakeBack(6, "left"))
    assert state.players[0].carrying == ("stoker",) and state.passengers.face_up is None
    state = play(state, LetLapse(), TakeBack(3, "right"), LetLapse())
    assert state.passengers.banker == 6 and state.passengers.stoker == 3
    # The tile goes face down and the next one is revealed, before the rewards are used (p.24, p.37):
    # a chance step over the face-down stack (STM-R-51).
    assert state.phase is Phase.REVEAL and state.passengers.stack == ("P03", "P04")
    p = state.players[0]
    assert p.passenger_tiles == 1 and state.passengers.face_up is None and state.passengers.taken is None
    state = reveal(state, "P03")
    assert state.phase is Phase.END_OF_TURN and state.passengers.face_up == "P03"
    assert values(p.gauge) == ("1", "1", "2", "2")  # the four stones taken back, spaces 1-4
    state = play(state, UsePart())  # the banker's 1 VP
    state = play(state, RaisePressure((1, 5, 6)))  # the stoker's +3: the leftmost stone three times
    assert state.players[0].vp == 1 and values(state.players[0].gauge) == ("1", "2", "2", "5")
    ended = play(state, EndTurn())
    assert ended.to_move == 0 and ended.phase is Phase.START_OF_TURN and ended.passengers.stack == ("P04",)


def _leftmost(gauge: Gauge, n: int) -> tuple[int, ...]:
    """Move the leftmost stone n times (the picks are the stone's current spaces)."""
    assert isinstance(gauge, Gauge)
    picks: list[int] = []
    for _ in range(n):
        space = gauge.stone_spaces()[0]
        target = gauge.next_free_right(space)
        if target is None:
            break
        picks.append(space)
        gauge = increment(gauge, space)
    return tuple(picks)


def test_r36_a_passenger_travels_once_per_turn() -> None:
    """STM-R-36 (p.16): 'A passenger whom you have already transported in this turn cannot be picked up
    again.'"""
    state = _ex09(BoardStone(0, 6, "right"))
    state = play(state, TakeBack(7, "right"), PickUp("banker"), LetLapse(), TakeBack(6, "left"), LetLapse())
    state = play(state, TakeBack(6, "right"))
    refused(state, PickUp("banker"), "STM-R-36")


def test_r50_ex25_passenger_machines_add_to_the_tile_reward() -> None:
    """STM-EX-25 (p.24): per passenger the tile's reward plus the machines' '+2 pressure, 1 VP':
    banker 1 VP + 2 pressure, 1 VP; stoker +3 pressure + 2 pressure, 1 VP → 3 VP, +7 pressure."""
    yellow = player([(1, False), (2, False), (3, False)], supply=(), machine_room=room((1, machine("M1-01"))))
    state = game(yellow, phase=Phase.FLIGHT, turn=TurnState(transported=("banker", "stoker")))
    state = attrs.evolve(state, passengers=Passengers(banker=6, stoker=3, stack=("P03",), taken="P02"))
    state = reveal(end_of_turn(CTX, state), "P03")
    increments = 0
    while state.turn.pending:
        gauge = state.players[0].gauge
        choices = [a for a in legal_actions(CTX, state) if isinstance(a, RaisePressure | UsePart)]
        action = max(choices, key=lambda a: len(a.picks) if isinstance(a, RaisePressure) else 0)
        if isinstance(action, RaisePressure):
            increments += len(action.picks)
            assert len(action.picks) == len(_leftmost(gauge, len(action.picks)))
        state = play(state, action)
    assert state.players[0].vp == 3 and increments == 7


# ---------------------------------------------------------------------------
# STM-R-38: district effect, buy, or nothing (p.18)
# ---------------------------------------------------------------------------


def _at(level: int, position: str, p: PlayerState, **kw: Any) -> StmState:
    """The flight with one stone on (level, position), taken back: step 2/3 of that stone."""
    board = (BoardStone(0, level, position),)  # type: ignore[arg-type]
    p = attrs.evolve(p, supply=supply_stones(5 - p.gauge.stones() - 1))
    return play(game(p, board=board, **kw), FlyToAllTargets(), TakeBack(level, position))  # type: ignore[arg-type]


def _markets(level: int, *tiles: str) -> tuple[Market, ...]:
    return (Market(level, tiles),)


def test_r38_ex11_exactly_one_of_district_buy_or_nothing() -> None:
    """STM-EX-11 (p.18): on L3-right: take up to 3 resources, or buy 1 tile on L3, or nothing."""
    state = _at(3, "right", player([(6, False)], gears=2), markets=_markets(3, "M0-01", "M1-01"))
    choices = {type(a) for a in legal_actions(CTX, state)}
    assert {UseDistrict, BuyMachine, BuyBanner, LetLapse} <= choices
    used = play(state, UseDistrict())
    refused(used, BuyMachine(1), "STM-R-22")
    refused(used, TakeResources(4, 0), "STM-R-22")
    refused(used, TakeResources(0, 4), "STM-R-22")
    after = play(used, TakeResources(2, 1))
    assert (after.players[0].crystals, after.players[0].gears) == (2, 3)


def test_r19_static_discharge_only_with_the_district_effect() -> None:
    """STM-R-19 (p.28): using a static-discharge district turns the taken-back stone arrow side down;
    buying there ignores the symbol (solo turn 5, p.37: 'Therefore the arrow also stays')."""
    board = (BoardStone(0, 6, "left", Stone(True)),)
    base = game(player([], supply=supply_stones(4), gears=2), board=board, markets=_markets(6, "M0-05", "M1-05"))
    taken = play(base, FlyToAllTargets(), TakeBack(6, "left"))
    used = play(taken, UseDistrict())
    assert values(used.players[0].gauge) == ("1",)
    bought = play(taken, BuyMachine(1))
    assert values(bought.players[0].gauge) == ("1A",)


# ---------------------------------------------------------------------------
# STM-R-40..45: buying tiles (p.18-21)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "crystals", "gears", "vp", "example"),
    [
        ("M0-01", 0, 2, 1, "STM-EX-12"),
        ("M1-01", 2, 0, 2, "STM-EX-13"),
        ("M2-01", 3, 0, 3, "STM-EX-14"),
        ("M3-01", 4, 1, 5, "STM-EX-15"),
    ],
)
def test_r41_ex12_to_15_buying_as_a_machine(tile: str, crystals: int, gears: int, vp: int, example: str) -> None:
    """STM-EX-12..15 (p.19): pay 2 gears → 1 VP; 2 crystals + a machine → 2 VP; 3 crystals + a machine →
    3 VP; 4 crystals, 1 gear + a machine → 5 VP."""
    rank = int(tile[1])
    buyer = player([], crystals=4, gears=2, machine_room=room((1, RoomTile("capacity", "capacity", 1))))
    state = _at(5, "left", buyer, markets=_markets(5, tile, "M0-02") if rank < 3 else _markets(5, tile))
    remove = 1 if rank else None
    if rank:
        refused(state, BuyMachine(2), "STM-R-41")  # from rank 1 a machine-room tile is given up
    after = play(state, BuyMachine(3, remove))
    p = after.players[0]
    assert (p.crystals, p.gears, p.vp) == (4 - crystals, 2 - gears, vp), example
    assert p.machine_room[2] == machine(tile)
    assert (p.machine_room[0] is None) == bool(rank)
    if rank == 3:
        assert after.tower_top == 1 and after.markets[0] == Market(5, (), statue=False)
    else:
        assert after.markets[0].tiles == ("M0-02",)


def test_r40_no_purchase_without_the_full_price() -> None:
    """STM-R-40 (p.18): 'You may only decide to buy a tile if you can pay the complete costs.'"""
    state = _at(
        5,
        "left",
        player([], crystals=3, gears=1, machine_room=room((1, machine("M0-01")))),
        markets=_markets(5, "M3-02"),
    )
    refused(state, BuyMachine(2, 1), "STM-R-40")


def test_r42_a_full_machine_room_gives_up_a_tile() -> None:
    """STM-R-42 (p.21): no free position → remove 1 tile and build into the freed position; a capacity
    tile goes back to the general supply."""
    full = room(*((i, RoomTile("capacity", "capacity", 1)) for i in range(1, 8)))
    state = _at(
        5,
        "left",
        player([], gears=2, machine_room=full),
        markets=_markets(5, "M0-01"),
        supply=Supply(capacity_tiles=13),
    )
    state = attrs.evolve(state, supply=attrs.evolve(state.supply, crystals=15, gears=13))
    refused(state, BuyMachine(3), "STM-R-42")
    refused(state, BuyMachine(3, 4), "STM-R-42")
    after = play(state, BuyMachine(4, 4))
    assert after.players[0].machine_room[3] == machine("M0-01") and after.supply.capacity_tiles == 14


@pytest.mark.parametrize(
    ("tile", "crystals", "gears", "example"),
    [
        ("M0-01", 0, 2, "STM-EX-16"),
        ("M1-01", 2, 0, "STM-EX-17"),
        ("M2-01", 3, 0, "STM-EX-18"),
        ("M3-01", 4, 1, "STM-EX-19"),
    ],
)
def test_r43_ex16_to_19_buying_as_a_banner(tile: str, crystals: int, gears: int, example: str) -> None:
    """STM-EX-16..19 (p.20): the same resources plus 1 pressure stone back to the supply."""
    state = _at(5, "left", player([(4, False)], crystals=4, gears=2), markets=_markets(5, tile))
    refused(state, BuyBanner(None), "STM-R-43")
    after = play(state, BuyBanner(1))
    p = after.players[0]
    assert (p.crystals, p.gears) == (4 - crystals, 2 - gears), example
    assert p.banners == (tile,) and p.gauge.stones() == 1 and len(p.supply) == 4


def test_r43_never_the_last_stone() -> None:
    """STM-R-43 (p.20): 'You cannot give up your last pressure stone.'"""
    state = _at(5, "left", player([], gears=2), markets=_markets(5, "M0-01"))
    refused(state, BuyBanner(1), "STM-R-43")


def test_r44_ex20_to_22_banner_vote_points() -> None:
    """STM-EX-20..22 (p.21): purple: banners owned incl. the new one, purple counts 2 (1 purple + 1 orange
    before, a purple bought → 5); orange: machines owned (4 → 4); blue: passenger tiles (2 → 2)."""
    yellow = player([(4, False)], gears=2, banners=("M0-03", "M0-01"))
    assert play(_at(5, "left", yellow, markets=_markets(5, "M0-05")), BuyBanner(1)).players[0].vp == 5
    four = room(*((i, RoomTile("capacity", "capacity", 1)) for i in range(1, 5)))
    red = player([(4, False)], gears=2, machine_room=four)
    state = _at(5, "left", red, markets=_markets(5, "M0-01"), supply=Supply(capacity_tiles=16))
    assert play(state, BuyBanner(1)).players[0].vp == 4
    black = player([(4, False)], gears=2, passenger_tiles=2)
    assert play(_at(5, "left", black, markets=_markets(5, "M0-02")), BuyBanner(1)).players[0].vp == 2


def test_r45_the_third_statue_gives_3_vp_and_triggers_the_end() -> None:
    """STM-R-45/64 (p.18, p.25): taking a market's last tile erects its statue; the 3rd gives 3 VP."""
    state = _at(
        5,
        "left",
        player([], crystals=4, gears=1, machine_room=room((1, machine("M0-01")))),
        markets=_markets(5, "M3-01"),
        tower_top=2,
    )
    after = play(state, BuyMachine(1, 1))
    assert after.tower_top == 3 and after.end_triggered and after.players[0].vp == 5 + 3


# ---------------------------------------------------------------------------
# STM-R-46..48: bonus markers (p.22-23)
# ---------------------------------------------------------------------------


def test_r46_ex23_buying_two_bonus_markers() -> None:
    """STM-EX-23 (p.23): #5 of the crystal row for 1 crystal onto the 5-space; then #2 for 3 gears,
    +5 VP; on the left 2-space the stone moves to the next free space, the 6; #2 goes there."""
    blue = player([(3, False), (4, False), (5, False), (6, False)], crystals=1, gears=3)
    state = game(blue, board=(BoardStone(0, 1, "right"),), bonus=BonusMarket(gear_row=(2,)))
    state = attrs.evolve(state, players=(attrs.evolve(state.players[0], supply=()),))
    # The stone taken back lands on space 1, so the bonus spaces 3..7 are as in the example.
    state = play(state, FlyToAllTargets(), TakeBack(1, "right"))
    refused(state, BuyBonusMarker("crystal", 3), "STM-R-47")
    state = play(state, BuyBonusMarker("crystal", 7))
    state = play(state, BuyBonusMarker("gear", 3))
    gauge = state.players[0].gauge
    assert gauge.spaces[3] == BonusMarker(2) and gauge.spaces[7] == BonusMarker(5)
    assert isinstance(gauge.spaces[8], Stone) and state.players[0].vp == 5
    assert (state.players[0].crystals, state.players[0].gears) == (0, 0)
    assert state.bonus.statue  # the crystal row still holds its #2 (STM-AMB-26 'both-2')
    refused(state, BuyBonusMarker("gear", 3), "STM-R-46")
    assert play(state, StopBuying()).phase is Phase.END_OF_TURN


# ---------------------------------------------------------------------------
# STM-R-17, R-20, R-22, R-59, R-60, R-63: effect parts (symbol pages p.26-31)
# ---------------------------------------------------------------------------


def test_r17_ex33_base_marker_bumps_the_stone() -> None:
    """STM-EX-33 (p.31): the base marker moves 1 space right; the stone there moves ahead (1, 2, 2)."""
    state = _at(4, "left", player([(1, False), (2, False), (3, False)]))
    state = play(state, UseDistrict())
    # The taken-back stone went to space 4, so the bump of the stone on space 1 jumps to space 5.
    after = play(state, MoveBaseMarker(True))
    g = after.players[0].gauge
    assert g.base == 1 and g.stone_spaces() == (2, 3, 4, 5)
    declined = play(state, MoveBaseMarker(False))  # STM-AMB-05 'optional': the stone goes to the supply
    assert declined.players[0].gauge.stones() == 3 and len(declined.players[0].supply) == 2


def test_r20_ex29_pay_crystals_per_stone_owned() -> None:
    """STM-EX-29 (p.27): 1 stone on the gauge (taken back for this district) and 2 on the board: pay 3
    crystals, gain 1 stone on the first free space right of the base marker."""
    yellow = player([], crystals=3, supply=supply_stones(2))
    board = (BoardStone(0, 3, "left"), BoardStone(0, 5, "left"), BoardStone(0, 7, "left"))
    state = play(game(yellow, board=board), FlyToAllTargets(), TakeBack(3, "left"), UseDistrict())
    state = play(state, PayCost())
    assert state.players[0].crystals == 0
    state = play(state, GainStone(False))
    assert state.players[0].gauge.stone_spaces() == (1, 2) and len(state.players[0].supply) == 1


def test_r22_ex27_a_black_cost_gates_only_what_lies_beneath() -> None:
    """STM-EX-27 (p.27): the upper effect needs no payment; the black cost gates only the lower one."""
    black = player([(4, False)], machine_room=room((1, machine("M0-09"))))
    state = play(game(black), ChannelPressure(4), TakeResources(0, 1))  # value 2 enters position 1
    refused(state, PayCost(), "STM-R-22")
    state = play(state, DeclineCost())
    assert not state.turn.pending and state.players[0].gears == 1 and state.players[0].vp == 0


def test_r60_ex30_a_passive_fires_per_take_back() -> None:
    """STM-EX-30 (p.27): Purple takes back 2 stones from level 7 → 1 VP each."""
    purple = player([], supply=supply_stones(3), machine_room=room((1, machine("M0-06"))))
    board = (BoardStone(0, 7, "left"), BoardStone(0, 7, "right"))
    state = play(game(purple, board=board), FlyToAllTargets(), TakeBack(7, "left"), UsePart(), LetLapse())
    state = play(state, TakeBack(7, "right"), UsePart(), LetLapse())
    assert state.players[0].vp == 2


def test_r59_capacity_tile_replaces_a_tile() -> None:
    """STM-R-59 (p.30): pay 2 gears → 1 capacity tile on any position; a tile there leaves the game."""
    state = _at(2, "left", player([], gears=2, machine_room=room((1, machine("M0-01")))))
    state = play(state, UseDistrict(), PayCost(), BuildCapacity(1, 1))
    p = state.players[0]
    assert p.machine_room[0] == RoomTile("capacity", "capacity", 1) and p.gears == 0
    assert state.supply.capacity_tiles == 19 and CTX.storage(p) == 4


def test_r49_ex42_end_of_turn_district_waits_for_the_rewards() -> None:
    """STM-EX-42 (solo turn 5, p.37 f.; multiplayer parts only): stones on L6-left, L1-left, L8-left.
    L6: back to space 1 ('1 with arrow'), the banker (on L6, tile says 6) wants the alternate 8, a stone
    is there → picked up; buy L6's tile for the 2 stored gears, +1 VP, first free machine position.
    L1: '1 with arrow, 1', district effect (parasites: not modelled, forgone). L8: '1 with arrow, 1, 2',
    the banker is dropped off, the tile taken; L8-left waits for the end of the turn.  End of turn: +1 VP
    for the banker, tile face down, next tile; then +2 pressure and the two arrowless stones turned →
    '2 with arrow, 2 with arrow, 3 with arrow'."""
    black = player(
        [],
        gears=2,
        vp=2,
        supply=supply_stones(2),
        machine_room=room((1, RoomTile("starting", "S1", 0)), (2, RoomTile("capacity", "capacity", 0))),
    )
    board = (BoardStone(0, 6, "left", Stone(True)), BoardStone(0, 1, "left"), BoardStone(0, 8, "left"))
    pax = Passengers(banker=6, stoker=4, stack=("P03", "P04"), face_up="P02")
    state = game(black, board=board, passengers=pax, markets=_markets(6, "M0-05", "M1-05"))
    state = play(state, FlyToAllTargets(), TakeBack(6, "left"))
    assert values(state.players[0].gauge) == ("1A",)
    state = play(state, PickUp("banker"), BuyMachine(3))
    assert state.players[0].vp == 3 and state.players[0].gears == 0 and values(state.players[0].gauge) == ("1A",)
    state = play(state, TakeBack(1, "left"), UseDistrict(), SkipPart())
    assert values(state.players[0].gauge) == ("1A", "1")
    state = play(state, TakeBack(8, "left"), UseDistrict())
    assert values(state.players[0].gauge) == ("1A", "1", "2")
    assert state.phase is Phase.REVEAL and state.players[0].passenger_tiles == 1
    state = reveal(state, "P03")  # 'She turns the next tile face up' before the end-of-turn effects (p.37)
    state = play(state, UsePart())  # banker: 1 VP
    assert state.players[0].vp == 4 and state.passengers.face_up == "P03"
    state = play(state, UsePart(), RaisePressure((1, 2)), TurnArrows((3, 5)))  # look, +2, turn 3 stones
    assert values(state.players[0].gauge) == ("2A", "2A", "3A")
    assert problems(state, PACK) == []


def test_r52_placing_parasites_needs_another_players_machine() -> None:
    """STM-R-52 (p.32): parasites go on other players' machines; alone at the table there is none,
    so 'place 2 parasites' (level 1 left, solo turn 5) can only be forgone."""
    state = play(_at(1, "left", player([])), UseDistrict())
    refused(state, UsePart(), "STM-R-52")
    assert legal_actions(CTX, state) == [SkipPart()]


# ---------------------------------------------------------------------------
# Legality layers agree: every generated action passes the check (random small states)
# ---------------------------------------------------------------------------


def _random_state(rng: random.Random) -> StmState:
    """A small 2-player state from the state classes: random gauges, rooms, resources, board stones."""
    players = []
    board: list[BoardStone] = []
    free = [(d.level, d.position) for d in PACK.side("2-3")]
    rng.shuffle(free)
    tiles = [m.id for m in PACK.machines]
    for seat in range(2):
        spaces = sorted(rng.sample(range(1, 11), rng.randint(0, 4)))
        on_board = rng.randint(0 if spaces else 1, 5 - len(spaces))
        for _ in range(on_board):
            level, position = free.pop()
            board.append(BoardStone(seat, level, position, Stone(rng.random() < 0.3)))
        tiles_in = {rng.randint(1, 7): machine(rng.choice(tiles)) for _ in range(rng.randint(0, 4))}
        p = player(
            [(s, rng.random() < 0.3) for s in spaces],
            markers=[(7, 5)] if 7 not in spaces and rng.random() < 0.3 else [],
            supply=supply_stones(5 - len(spaces) - on_board),
            machine_room=room(*tiles_in.items()),
            crystals=rng.randint(0, 4),
            gears=rng.randint(0, 4),
        )
        players.append(p)
    markets = tuple(
        Market(level, tuple(PACK.rank(r)[level].id for r in range(rng.randint(0, 3), 4))) for level in range(2, 9)
    )
    ids = [t.id for t in PACK.passengers]
    rng.shuffle(ids)
    pax = Passengers(banker=rng.randint(5, 8), stoker=rng.randint(1, 4), stack=tuple(ids[1:4]), face_up=ids[0])
    phase = rng.choice([Phase.START_OF_TURN, Phase.ACTION])
    return game(*players, phase=phase, board=tuple(board), markets=markets, passengers=pax)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_generated_actions_pass_the_check_along_random_turns(seed: int) -> None:
    """``legal_actions`` lists only actions ``check`` accepts, in every sub-step reached by random play;
    the state invariants hold after every step; some action is always available."""
    rng = random.Random(seed)
    state = _random_state(rng)
    assert problems(state, PACK) == []
    for _ in range(60):
        if state.phase is Phase.REVEAL:  # chance turns the next passenger tile face up (STM-R-51)
            state = transition(CTX, state, rng.choice(chance_outcomes(CTX, state))[0])
            continue
        actions = legal_actions(CTX, state)
        assert actions, state
        for action in actions:
            assert check(CTX, state, action) is None, action
        state = transition(CTX, state, rng.choice(actions))
        assert problems(state, PACK) == [], state


def test_r32_ex24_store_any_number_of_resources() -> None:
    """STM-EX-24 (p.23): 'any number of resources': Red takes 3 crystals and puts down 1 gear to store
    them all (3 spaces, 1 gear stored before)."""
    state = play(_at(5, "left", player([], gears=1)), UseDistrict(), TakeResources(3, 0))
    assert state.turn.storing
    refused(state, TakeBack(5, "left"), "STM-R-32")
    state = play(state, Store(3, 0))
    p = state.players[0]
    assert (p.crystals, p.gears) == (3, 0) and (state.supply.crystals, state.supply.gears) == (12, 15)


# ---------------------------------------------------------------------------
# Readings of the register change what the check accepts
# ---------------------------------------------------------------------------


def test_amb02_v2_entry_bars_the_value_2_stones() -> None:
    """STM-AMB-02 'v-2': positions 1..6 with entry v-2, so a value-2 stone cannot channel; 'v-1' lets it."""
    state = game(player([(3, False)]))
    assert check(CTX, state, ChannelPressure(3)) is None
    refused(state, ChannelPressure(3), "STM-R-28", ctx=Context.printed(readings={"STM-AMB-02": "v-2"}))
    v2 = play(game(player([(6, False)])), ChannelPressure(6), ctx=Context.printed(readings={"STM-AMB-02": "v-2"}))
    assert v2.turn.channel == 2


def test_amb32_most_keeps_only_the_orders_using_most_increments() -> None:
    """STM-AMB-32 (p.9-10): under 'free-order' the EX-39 order that gets stuck sooner is legal; under
    'most' a +2 from '7 with arrow' (space 9) and the 6 (space 8) must use both increments."""
    gauge_state = game(player([(8, False), (9, True)]))
    most = Context.printed(readings={"STM-AMB-32": "most"})
    stuck = (8,)  # 6 → 8 over the 7: then nothing can move
    assert pressure_rejection(CTX, gauge_state.players[0].gauge, 2, stuck) is None
    rejection = pressure_rejection(most, gauge_state.players[0].gauge, 2, stuck)
    assert rejection is not None and rejection.rule == "STM-R-15"
    assert pressure_rejection(most, gauge_state.players[0].gauge, 2, (9, 8)) is None


def test_amb07_optional_lets_arrow_stones_stay() -> None:
    """STM-AMB-07 'optional' ('could move', solo turn 3): an arrow stone may stay; 'each' forbids it."""
    state = game(player([(3, True), (5, True)]), phase=Phase.START_OF_TURN)
    refused(state, MoveArrowStones((3,)), "STM-R-19")
    assert check(Context.printed(readings={"STM-AMB-07": "optional"}), state, MoveArrowStones((3,))) is None


BUSY = (BuyMachine, BuyBanner, BuyBonusMarker, PickUp, UseDistrict)


@pytest.mark.parametrize(
    "readings",
    [
        {},
        {"STM-AMB-13": "any", "STM-AMB-11": "board"},
        {"STM-AMB-06": "forbidden", "STM-AMB-32": "most"},
        {"STM-AMB-15": "no-buy", "STM-AMB-11": "board", "STM-AMB-09": "each-level"},
    ],
)
def test_generation_equals_the_candidates_the_check_accepts(readings: dict[str, str]) -> None:
    """python-chess style: the generator that lists the frequent decisions by construction (the
    ordinary action, take-backs, pick-ups, tile purchases, raises, resource gains) and prunes the
    rest lists exactly what the check accepts among every candidate, in the same order, along random
    2-4 player games played busily or purposefully (so purchases, carried passengers and full rooms
    occur)."""
    game = SteamopolisGame(Ruleset.from_overrides(REGISTER, readings))
    seen = 0
    kinds: set[type] = set()
    for seed in range(10):
        rng = random.Random(seed)
        state = game.new_game(2 + seed % 3)
        for _ in range(500):
            mover = game.to_move(state)
            if isinstance(mover, GameOver):
                break
            if isinstance(mover, Chance):
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            fast = legal_actions(game.ctx, state)
            assert fast == legal_actions_by_check(game.ctx, state), f"seed {seed}, {state.phase}"
            seen += 1
            kinds |= {type(a) for a in fast}
            if seed % 2:
                action = purposeful(game, state, rng)
            else:
                busy = [a for a in fast if isinstance(a, BUSY)]
                action = rng.choice(busy or fast)
            state = game.apply(state, action)
    assert seen > 1000
    compared = {SetTarget, MakeSteam, TakeBack, PickUp, BuyMachine, BuyBanner, BuyBonusMarker, RaisePressure}
    assert compared <= kinds, sorted(k.__name__ for k in compared - kinds)


def test_every_kind_of_action_has_an_effect() -> None:
    """The transition picks the effect by the action's kind in one ``match`` (issue 17): a class pattern
    for every kind of action, ending in ``assert_never`` (mypy --strict proves the branches exhaustive);
    a value that is no Steamopolis action reaches that end and is refused."""
    import ast
    import inspect
    import textwrap
    from typing import get_args

    from rulecraft.model.steamopolis import transitions

    tree = ast.parse(textwrap.dedent(inspect.getsource(transitions._effect)))
    named = {n.cls.id for n in ast.walk(tree) if isinstance(n, ast.MatchClass) and isinstance(n.cls, ast.Name)}
    kinds = {k.__name__ for k in get_args(StmAction)}
    assert kinds and named == kinds, (sorted(kinds - named), sorted(named - kinds))
    with pytest.raises(AssertionError, match="unreachable, but got: <object object"):
        transition(CTX, StmState(players=(new_player(1), new_player(3))), object())  # type: ignore[arg-type]
