"""The Steamopolis solo game (STM-R-68..73, rulebook p.35-36; example turns p.36-38).

Each test names its rule and quotes the printed text it checks.  States come from the scenario
vocabulary (``SteamopolisGame.scenario_state``), every step passes the check, is listed by the
move generator (or is a chance outcome), and keeps every invariant and step invariant.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs
import pytest

from rulecraft.core import CHANCE, Chance, RulecraftError
from rulecraft.invariants.steamopolis import check_step
from rulecraft.model.steamopolis.actions import (
    ActivateParasite,
    BuyMachine,
    ChannelPressure,
    EndTurn,
    FlyToAllTargets,
    LeaveParasites,
    LetLapse,
    MakeSteam,
    MoveArrowStones,
    PlaceParasite,
    RaisePressure,
    RevealPassenger,
    SetTarget,
    SkipPart,
    SkipStep,
    StmAction,
    TakeBack,
    TakeResources,
    UseDistrict,
    UseFaceUpTile,
    UsePart,
    UseRemovedTile,
)
from rulecraft.model.steamopolis.effects import ActivateParasites, EnvyParasite, PlaceParasites, walk
from rulecraft.model.steamopolis.game import SOLO_LOST, SteamopolisGame
from rulecraft.model.steamopolis.rules import SOLO_RANKS
from rulecraft.model.steamopolis.state import SHADOW, BoardStone, Phase, Solo, StmState, TurnState
from rulecraft.tools import tools

GAME = SteamopolisGame()
# Actions of which the generator lists one representative per outcome (the pressure increments).
REPRESENTATIVE = (MakeSteam, RaisePressure)


SEAT_KEYS = {"vp", "gauge", "crystals", "gears", "machine_room", "character"}


def given(game: SteamopolisGame = GAME, **spec: Any) -> StmState:
    """A solo state from the scenario vocabulary (VP default: the solo start, STM-R-68); the seat's
    own fields (vp, gauge, ...) may be given at the top level."""
    seat = {**spec.pop("seats", {}).get(0, {}), **{k: spec.pop(k) for k in SEAT_KEYS & set(spec)}}
    state = tools(game).scenario_state({"players": 1, "seats": {0: seat}, **spec})
    assert tools(game).violations(state) == []
    return state


def play(state: StmState, *actions: StmAction, game: SteamopolisGame = GAME) -> StmState:
    """Apply actions one by one: each passes the check, is generated (or a chance outcome), and the
    state after it keeps every invariant and step invariant."""
    for action in actions:
        rejection = game.check(state, action)
        assert rejection is None, f"{action!r}: {rejection}"
        if game.to_move(state) is CHANCE or isinstance(game.to_move(state), Chance):
            assert action in [a for a, _ in game.chance_outcomes(state)]
        elif not isinstance(action, REPRESENTATIVE):
            assert action in game.legal_actions(state), f"{action!r} passes the check but is not generated"
        before, state = state, game.apply(state, action)
        problems = [*tools(game).violations(state), *check_step(game, before, state)]
        assert not problems, "\n".join(map(str, problems))
    return state


def refused(state: StmState, action: StmAction, rule: str, *, game: SteamopolisGame = GAME, words: str = "") -> None:
    rejection = game.check(state, action)
    assert rejection is not None and rejection.rule == rule, f"{action!r}: {rejection}"
    assert words in rejection.reason, rejection.reason
    assert action not in game.legal_actions(state)


def steam(state: StmState) -> MakeSteam:
    """One legal MAKE STEAM (any order of increments)."""
    return next(a for a in GAME.legal_actions(state) if isinstance(a, MakeSteam))


def reveal(state: StmState) -> RevealPassenger:
    assert state.phase is Phase.REVEAL
    return min((a for a, _ in GAME.chance_outcomes(state) if isinstance(a, RevealPassenger)), key=lambda a: a.id)


def districts(state: StmState, seat: int) -> list[str]:
    return sorted(f"L{s.level}-{s.position}" for s in state.board if s.seat == seat)


def face_up(state: StmState, level: int) -> str | None:
    market = next(m for m in state.markets if m.level == level and not m.extra)
    return market.tiles[0] if market.tiles else None


# The solo example's start (STM-AMB-30, p.36): character 13, stones 1A, 1, 2, a starting machine and a
# capacity tile with one piped boiler each, 2 gears, 4 VP.
EXAMPLE_START: dict[str, Any] = {
    "phase": "start-of-turn",
    "seats": {0: {"character": 13, "gauge": "g1A g2 g3", "gears": 2, "machine_room": {1: "S1", 2: "capacity"}}},
}


# ---------------------------------------------------------------------------
# STM-R-68: set-up (p.35)
# ---------------------------------------------------------------------------


def deal_all(game: SteamopolisGame, state: StmState, seed: int) -> StmState:
    rng = random.Random(seed)
    while game.to_move(state) is CHANCE and state.phase is Phase.DEAL:
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def test_r68_solo_setup_on_the_2_3_player_side_with_4_vp() -> None:
    """STM-R-68 (p.35): 'Set up the game on the 2/3-player side, then prepare the pressure stones of an
    unused player colour (your shadow). At the start of the game you receive 4 vote points.'"""
    assert GAME.min_players == 1
    state = GAME.new_game(1)
    assert state.board_side == "2-3" and state.solo == Solo() and state.players[0].vp == 4
    state = deal_all(GAME, state, seed=3)
    assert len(state.markets) == 7 and not any(m.extra for m in state.markets)  # no 4-player extra markets
    assert not [s for s in state.board if s.seat == SHADOW]  # the shadow's stones wait beside the board
    assert tools(GAME).violations(state) == []
    assert GAME.new_game(2).solo is None and GAME.new_game(2).players[0].vp == 0


@pytest.mark.parametrize("vp", [2, 3, 4, 5])
def test_r68_harder_and_easier_start_scores_are_the_parameter(vp: int) -> None:
    """STM-R-68 (p.35): 'To make the game more difficult you can start with only 3 or 2 vote points.
    For an easy game, receive 5 vote points instead.'  Parameter ``solo_start_vp``."""
    game = SteamopolisGame.configured(parameters={"solo_start_vp": vp})
    assert game.new_game(1).players[0].vp == vp
    assert game.new_game(3).players[0].vp == 0


def test_r68_no_player_count_outside_1_to_4() -> None:
    with pytest.raises(RulecraftError, match="STM-R-01"):
        GAME.new_game(0)


# ---------------------------------------------------------------------------
# STM-R-69: time pressure (p.35; turns 1 and 5, p.36-37)
# ---------------------------------------------------------------------------


def test_r69_make_steam_costs_1_vp() -> None:
    """STM-R-69, solo turn 1 (p.36): 'Black loses 1 VP and now has 3 VP'."""
    state = play(given(**EXAMPLE_START), MoveArrowStones((1,)))
    state = play(state, MakeSteam((2, 3, 4, 5)))
    assert state.players[0].vp == 3 and state.phase is Phase.END_OF_TURN


def test_r69_fly_costs_1_vp_and_set_1_target_is_free() -> None:
    """STM-R-69 (p.35) 'As soon as you choose either the action FLY TO ALL TARGETS or the action MAKE
    STEAM, you lose 1 VP'; solo turn 5 (p.37): 'She loses 1 VP and now has 2 VP.'  SET 1 TARGET costs
    nothing (turns 2-4 keep 3 VP)."""
    state = given(vp=3, gauge="g1 g2", board=[{"seat": 0, "level": 6, "position": "left"}])
    assert play(state, SetTarget(2, 1, "left")).players[0].vp == 3
    flown = play(state, FlyToAllTargets())
    assert flown.players[0].vp == 2 and flown.phase is Phase.FLIGHT and flown.turn.time_paid


def test_r69_reaching_0_vp_loses_at_once() -> None:
    """STM-R-69 (p.35): 'If you thereby have 0 vote points, you lose the game immediately.'  The action
    is not carried out; the game is over with no winner and no rank."""
    state = given(vp=1, board=[{"seat": 0, "level": 3, "position": "left"}])
    lost = play(state, steam(state))
    assert lost.phase is Phase.OVER and lost.players[0].vp == 0
    assert lost.turn == TurnState()  # the game is over: no turn in progress (the 1 VP paid is not kept as one)
    assert lost.players[0].gauge == state.players[0].gauge  # no pressure was made
    assert GAME.winners(lost) == () and GAME.solo_lost(lost) and GAME.solo_rank(lost) == SOLO_LOST
    assert tools(GAME).facts(lost)["rank"] == "lost"
    flown = play(state, FlyToAllTargets())
    assert flown.phase is Phase.OVER and flown.board == state.board  # no shadow stone, no flight


def test_amb28_below_zero_loses_only_under_0() -> None:
    """STM-AMB-28 'below-zero': 0 VP plays on, the next MAKE STEAM or FLY loses at -1."""
    game = SteamopolisGame.configured(readings={"STM-AMB-28": "below-zero"})
    state = given(game, vp=1, board=[{"seat": 0, "level": 3, "position": "left"}])
    zero = play(state, FlyToAllTargets(), game=game)
    assert zero.phase is Phase.FLIGHT and zero.players[0].vp == 0 and not game.solo_lost(zero)
    again = play(given(game, vp=0, board=[{"seat": 0, "level": 3, "position": "left"}]), FlyToAllTargets(), game=game)
    assert again.phase is Phase.OVER and again.players[0].vp == -1 and game.winners(again) == ()


# ---------------------------------------------------------------------------
# STM-R-70: shadow stones (p.35)
# ---------------------------------------------------------------------------

EX37: dict[str, Any] = {
    "gauge": "g1 g2 g3",
    "board": [
        {"seat": 0, "level": 3, "position": "left"},
        {"seat": 0, "level": 5, "position": "right"},
        {"seat": "shadow", "level": 1, "position": "left"},
        {"seat": "shadow", "level": 2, "position": "right"},
        {"seat": "shadow", "level": 4, "position": "left"},
        {"seat": "shadow", "level": 6, "position": "right"},
    ],
}


def test_r70_shadow_stones_follow_your_stones() -> None:
    """STM-EX-37 (p.35): 'Blue has pressure stones on the left district of level 3 and the right
    district of level 5. 4 shadow pressure stones from the previous round still lie on 4 other
    districts. She places 1 shadow pressure stone each on the districts with her pressure stones and
    returns the other two to the supply.'"""
    state = given(**EX37)
    assert len(districts(state, SHADOW)) == 4
    flown = play(state, FlyToAllTargets())
    assert districts(flown, SHADOW) == ["L3-left", "L5-right"]  # 2 placed, the other 2 back
    assert districts(flown, 0) == ["L3-left", "L5-right"]  # sharing until she takes hers back


def test_r70_shadow_stones_block_until_the_next_fly() -> None:
    """STM-EX-37 (p.35): 'Until she next FLIES TO ALL TARGETS, Blue cannot use the two districts.'"""
    state = play(given(**EX37), FlyToAllTargets(), TakeBack(3, "left"), LetLapse(), TakeBack(5, "right"), LetLapse())
    state = play(state, reveal(state), EndTurn(), MoveArrowStones(()))
    assert state.players[0].gauge.stone_spaces() == (1, 2, 3, 4, 5)
    refused(state, SetTarget(5, 3, "left"), "STM-R-27", words="not free")  # g5: value 3
    assert "L3-left" not in tools(GAME).facts(state)["targets"][5]
    state = play(state, SetTarget(5, 1, "left"), EndTurn(), MoveArrowStones(()))
    assert districts(state, SHADOW) == ["L3-left", "L5-right"]
    state = play(state, FlyToAllTargets())
    assert districts(state, SHADOW) == ["L1-left"]  # the next FLY moves them


@pytest.mark.parametrize(("reading", "free"), [("yes-printed", True), ("no-printed", False)])
def test_amb31_shadow_stones_in_the_final_turn(reading: str, free: bool) -> None:
    """STM-AMB-31: in the final turn other colours do not block (STM-R-66); 'yes-printed' lets the
    target go on a shadow stone's district, 'no-printed' keeps it blocked 'as usual' (STM-R-70)."""
    game = SteamopolisGame.configured(readings={"STM-AMB-31": reading})
    shadow = [{"seat": "shadow", "level": 1, "position": "left"}, {"seat": 0, "level": 2, "position": "left"}]
    triggered: dict[str, Any] = {"markets": {2: [], 3: [], 4: []}, "end_triggered": True, "final_round": True}
    state = given(game, phase="start-of-turn", gauge="g1", board=shadow, **triggered)
    state = play(state, MoveArrowStones(()), SkipStep(), game=game)
    if free:
        assert game.check(state, SetTarget(1, 1, "left")) is None
    else:
        refused(state, SetTarget(1, 1, "left"), "STM-R-27", game=game)


# ---------------------------------------------------------------------------
# STM-R-71: remove tiles (p.35; turn 5, p.37)
# ---------------------------------------------------------------------------

MARKETS = {
    2: ["M0-01", "M1-01", "M2-01", "M3-01"],
    7: ["M0-03", "M1-03", "M2-03", "M3-03"],
    8: ["M0-02", "M1-02", "M2-02", "M3-02"],
}


def flight(**spec: Any) -> StmState:
    """A solo flight with one stone on L4-left, whose effect is let lapse (the flight then ends)."""
    spec.setdefault("board", [{"seat": 0, "level": 4, "position": "left"}])
    return given(phase="flight", **spec)


def fly_home(state: StmState) -> StmState:
    """Take back every own stone, letting each district lapse; the FLY ends."""
    for s in [s for s in state.board if s.seat == 0]:
        state = play(state, TakeBack(s.level, s.position), LetLapse())
    return state


def test_r71_remove_the_face_up_tiles_of_both_printed_destinations() -> None:
    """STM-R-71, turn 5 (p.37): 'the passenger tile indicates that the face-up tile of level 2 and
    level 8 is removed from the game' (P03: banker 8, stoker 2).  The banker already stands on level 8,
    so his alternate (7) would apply to a transport; 'remove tiles' uses the printed destination.
    Then 'She returns the passenger tile to the box and reveals 1 new one.'"""
    state = flight(markets=MARKETS, passengers={"face_up": "P03", "banker": 8})
    done = fly_home(state)
    assert done.turn.removed == ("M0-02", "M0-01")
    assert (face_up(done, 8), face_up(done, 2), face_up(done, 7)) == ("M1-02", "M1-01", "M0-03")
    assert done.phase is Phase.REVEAL and done.passengers.face_up is None and "P03" not in done.passengers.stack
    assert done.players[0].vp == 4 and not done.turn.pending  # costs, effects and envy are ignored
    after = play(done, RevealPassenger("P04"))
    assert after.phase is Phase.END_OF_TURN and after.passengers.face_up == "P04"
    assert play(after, EndTurn()).phase is Phase.START_OF_TURN


def test_r71_an_empty_market_gives_nothing() -> None:
    """STM-R-71 (p.35): 'If the market on the destination level of a passenger is already empty,
    nothing happens (ignore the alternate destination).'"""
    state = flight(markets={**MARKETS, 8: []}, passengers={"face_up": "P03"})
    done = fly_home(state)
    assert done.turn.removed == ("M0-01",) and face_up(done, 7) == "M0-03" and face_up(done, 8) is None
    assert done.tower_top == state.tower_top == 1


def test_r71_level_1_loses_the_highest_bonus_marker_of_each_row() -> None:
    """STM-R-71 (p.35): 'On level 1, instead of a tile, remove in each of the two rows the bonus marker
    with the highest number.'  (P01: banker 5, stoker 1.)"""
    state = flight(passengers={"face_up": "P01"}, bonus={"crystal_row": [5, 4, 3, 2], "gear_row": [3, 2]})
    done = fly_home(state)
    assert (done.bonus.crystal_row, done.bonus.gear_row) == ((4, 3, 2), (2,))
    assert len(done.turn.removed) == 1  # the level-5 tile; markers are no tiles to use


def test_r71_a_revealed_statue_goes_to_the_tower_top_and_nobody_scores() -> None:
    """STM-R-71 (p.35): 'If applicable, place the statue tile on the tower top (nobody receives VP).'"""
    state = flight(passengers={"face_up": "P01"}, markets={5: ["M3-05"]}, bonus={"crystal_row": [2], "gear_row": [2]})
    done = fly_home(state)
    assert face_up(done, 5) is None and not done.bonus.crystal_row and not done.bonus.gear_row
    assert done.tower_top == 2 and done.solo == Solo(removed_markets=2)
    assert done.players[0].vp == 4 and not done.end_triggered


def test_r71_the_last_passenger_tile_ends_the_stack() -> None:
    """STM-R-71 with STM-R-73 (p.35): the face-up passenger tile goes to the box; with none left to
    reveal the passenger stack is used up and the end is triggered."""
    done = fly_home(flight(markets=MARKETS, passengers={"face_up": "P03", "stack": []}))
    assert done.phase is Phase.END_OF_TURN and done.passengers.face_up is None and done.end_triggered


def test_r71_with_the_stack_used_up_the_board_destinations_apply() -> None:
    """STM-AMB-31: with the passenger stack used up, 'remove tiles' uses the destinations printed on
    the board (banker 7, stoker 3 in this pack) and boxes no passenger tile."""
    markets = {3: ["M0-04", "M1-04", "M2-04", "M3-04"], 7: MARKETS[7]}
    state = flight(markets=markets, passengers={"face_up": None, "stack": []}, end_triggered=True)
    done = fly_home(state)
    assert done.turn.removed == ("M0-03", "M0-04") and done.phase is Phase.END_OF_TURN


# ---------------------------------------------------------------------------
# STM-R-72: solo parasites (p.35; turn 5, p.37)
# ---------------------------------------------------------------------------

BESIDE = [{"owner": 0, "host": None}, {"owner": 0, "host": None}]


def removal_stage() -> StmState:
    """P03 removes M0-01 (activation: 1 crystal) on level 2 and M0-06 (passive: 1 VP) on level 8, with
    2 parasites beside the stack."""
    markets = {**MARKETS, 8: ["M0-06", "M1-02", "M2-02", "M3-02"]}
    state = fly_home(flight(markets=markets, passengers={"face_up": "P03"}, parasites=BESIDE))
    assert state.turn.removal == "parasites" and state.phase is Phase.END_OF_TURN
    return state


def test_r72_take_back_a_parasite_to_use_a_removed_tile() -> None:
    """STM-R-72, turn 5 (p.37): 'Black has placed 2 parasites. She takes one of them back to use the
    activation effect of a removed tile. (She receives 1 crystal ...) She leaves the other next to the
    stack.'"""
    state = removal_stage()
    assert tools(GAME).facts(state)["legal"] == ["leave-parasites", "use-removed-tile"]
    refused(state, EndTurn(), "STM-R-72")
    refused(state, UseRemovedTile("M0-06", "activation"), "STM-R-72", words="no activation effect")
    refused(state, UseRemovedTile("M0-03", "activation"), "STM-R-72", words="not removed in this step")
    state = play(state, UseRemovedTile("M0-01", "activation"))
    assert state.players[0].parasites_home == 2 and state.solo == Solo(parasites_beside_stack=1)
    state = play(state, TakeResources(1, 0), LeaveParasites())
    assert state.players[0].crystals == 1 and state.solo == Solo(parasites_beside_stack=1)
    assert state.phase is Phase.REVEAL and state.passengers.face_up is None


def test_amb41_box_first_reveals_the_next_passenger_tile_before_the_parasites() -> None:
    """STM-AMB-41 (p.35): 'Return in each case the face-up machine tile of the destination level of both
    passengers to the box. ... Afterwards return the face-up passenger tile to the box.', then the
    parasites 'As soon as you carry out the step "REMOVE TILES"'; turn 5 (p.37) uses the parasite first:
    'She takes one of them back ... She returns the passenger tile to the box and reveals 1 new one.'
    'parasites-first' (default): the parasites' step comes with P03 still face up.  'box-first': P03 goes
    to the box and the next tile is revealed (a chance step) before the parasites' step, which then sees
    P04 face up.  Alike: the same tiles are removed, the parasite's use gives 1 crystal (p.37), P03 is
    boxed once, and no further tile is revealed after the parasites."""
    box_first = SteamopolisGame.configured(readings={"STM-AMB-41": "box-first"})
    default = removal_stage()
    assert default.passengers.face_up == "P03" and default.turn.removed == ("M0-06", "M0-01")

    markets = {**MARKETS, 8: ["M0-06", "M1-02", "M2-02", "M3-02"]}
    board = [{"seat": 0, "level": 4, "position": "left"}]
    spec = {"markets": markets, "passengers": {"face_up": "P03"}, "parasites": BESIDE}
    start = given(box_first, phase="flight", board=board, **spec)
    boxed = play(start, TakeBack(4, "left"), LetLapse(), game=box_first)
    assert boxed.turn.removed == default.turn.removed  # the same tiles leave the markets
    assert boxed.phase is Phase.REVEAL and boxed.passengers.face_up is None
    assert "P03" not in boxed.passengers.stack
    refused(boxed, UseRemovedTile("M0-01", "activation"), "STM-R-51", game=box_first)  # the reveal comes first
    revealed = play(boxed, RevealPassenger("P04"), game=box_first)
    assert revealed.phase is Phase.END_OF_TURN and revealed.turn.removal == "parasites"
    assert revealed.passengers.face_up == "P04"
    refused(revealed, EndTurn(), "STM-R-72", game=box_first)
    used = play(revealed, UseRemovedTile("M0-01", "activation"), TakeResources(1, 0), LeaveParasites(), game=box_first)
    assert used.players[0].crystals == 1 and used.solo == Solo(parasites_beside_stack=1)
    assert used.phase is Phase.END_OF_TURN and used.passengers.face_up == "P04"  # P04 stays face up
    assert used.passengers.stack == revealed.passengers.stack and used.turn.removal == "done"
    assert play(used, EndTurn(), game=box_first).phase is Phase.START_OF_TURN

    after = play(default, UseRemovedTile("M0-01", "activation"), TakeResources(1, 0), LeaveParasites())
    assert after.players[0].crystals == 1 and after.phase is Phase.REVEAL and after.passengers.face_up is None


def test_r72_several_parasites_may_use_the_same_effect_or_the_passive() -> None:
    """STM-R-72 (p.35): 'You may also take back several parasites in order to use the same effect
    several times.' and 'Decide whether you carry out the active or the passive effect.'  With the
    last parasite back, remove tiles goes on by itself."""
    state = removal_stage()
    twice = play(state, UseRemovedTile("M0-01"), TakeResources(1, 0), UseRemovedTile("M0-01"), TakeResources(1, 0))
    assert twice.players[0].crystals == 2 and twice.phase is Phase.REVEAL and twice.parasites == ()
    passive = play(state, UseRemovedTile("M0-06", "passive"), UsePart())
    assert passive.players[0].vp == 5


def test_r72_no_parasite_step_without_parasites_or_usable_tiles() -> None:
    """STM-R-72: with no parasite beside the stack, or no effect on the removed tiles, 'remove tiles'
    needs no decision."""
    assert fly_home(flight(markets=MARKETS, passengers={"face_up": "P03"})).phase is Phase.REVEAL
    empty = flight(markets={5: []}, passengers={"face_up": "P01"}, parasites=BESIDE)
    done = fly_home(empty)
    assert done.turn.removed == () and done.phase is Phase.REVEAL and done.solo == Solo(parasites_beside_stack=2)


def activate_state(parasites: list[dict[str, Any]]) -> StmState:
    """Level 5 right ('activate parasite'), P01 face up (banker 5 / alternate 6, stoker 1 / 4)."""
    markets = {5: ["M0-01", "M1-05", "M2-05", "M3-05"], 6: ["M0-02", "M1-06", "M2-06", "M3-06"]}
    board = [{"seat": 0, "level": 5, "position": "right"}]
    state = given(phase="flight", board=board, markets=markets, parasites=parasites, passengers={"face_up": "P01"})
    state = play(state, TakeBack(5, "right"), UseDistrict())
    assert state.turn.pending[0][0] == ActivateParasites(1)
    return state


def test_r72_activate_parasite_uses_a_face_up_tile_of_a_destination_level() -> None:
    """STM-R-72 (p.35): 'Activate parasite: If an effect allows you to activate a parasite (level 5
    right or level 7 left), you may, if you have placed a parasite, use the effect of 1 face-up tile of
    those levels that are currently the destination of a passenger (ignore alternate destinations).'"""
    state = activate_state(BESIDE[:1])
    assert [a for a in GAME.legal_actions(state) if isinstance(a, UseFaceUpTile)] == [UseFaceUpTile(5)]
    refused(state, UseFaceUpTile(6), "STM-R-72", words="no passenger's destination")  # banker's alternate
    refused(state, UseFaceUpTile(1), "STM-R-72", words="no face-up machine tile")  # level 1: bonus markers
    refused(state, UseFaceUpTile(5, "passive"), "STM-R-72", words="no passive effect")
    refused(state, ActivateParasite(((0, 1, "activation"),)), "STM-R-72")
    used = play(state, UseFaceUpTile(5), TakeResources(1, 0))
    assert used.players[0].crystals == 1 and used.solo == Solo(parasites_beside_stack=1)  # it stays there


def test_r72_activate_parasite_needs_a_placed_parasite() -> None:
    """STM-R-72 (p.35): '... you may, if you have placed a parasite, ...'."""
    state = activate_state([])
    refused(state, UseFaceUpTile(5), "STM-R-72", words="placed no parasite")
    assert play(state, SkipPart()).turn.pending == ()


def test_r72_activate_any_number_gives_one_use_per_parasite() -> None:
    """STM-AMB-35 'each-once' in solo: 'activate any number' uses a face-up tile once per parasite
    beside the stack; 'place and immediately activate' places beside the stack, then one use."""
    state = activate_state(BESIDE)
    state = attrs.evolve(state, turn=attrs.evolve(state.turn, pending=((ActivateParasites(None),),)))
    state = play(state, UseFaceUpTile(5), TakeResources(1, 0))
    assert state.turn.pending == ((ActivateParasites(1),),)
    state = play(state, UseFaceUpTile(5), TakeResources(1, 0))
    assert state.turn.pending == () and state.players[0].crystals == 2
    placing = activate_state([])
    placing = attrs.evolve(placing, turn=attrs.evolve(placing.turn, pending=((PlaceParasites(1, activate=True),),)))
    placing = play(placing, PlaceParasite(None, None))
    assert placing.turn.pending == ((ActivateParasites(1),),) and placing.solo == Solo(parasites_beside_stack=1)
    assert play(placing, UseFaceUpTile(5), TakeResources(1, 0)).players[0].crystals == 1


def test_r72_envy_does_nothing() -> None:
    """STM-R-72 (p.35): 'Envy symbol: Nothing happens.'  A rank-2 machine lures nobody."""
    board = [{"seat": 0, "level": 6, "position": "left"}]
    seats = {0: {"crystals": 3, "machine_room": {1: "S1", 2: "capacity"}}}
    state = given(phase="flight", board=board, seats=seats, markets={6: ["M2-05", "M3-05"]})
    bought = play(state, TakeBack(6, "left"), BuyMachine(1, 1))
    assert bought.players[0].vp == 4 + 3
    assert not any(isinstance(x, EnvyParasite) for q in bought.turn.pending for x in walk(q))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# STM-R-73: the end and the rank (p.35-36)
# ---------------------------------------------------------------------------


def test_r73_a_third_removed_market_triggers_the_end_without_3_vp() -> None:
    """STM-R-73 (p.35): 'The end of the game is triggered as soon as 3 markets are empty ... If you
    triggered the end of the game by buying out the 3rd market, you receive 3 vote points.'  A 3rd
    market emptied by 'remove tiles' triggers the end and gives nothing.  'Play your turn to its end
    and then carry out your FINAL TURN'; after it the game is over."""
    state = flight(passengers={"face_up": "P01"}, markets={2: [], 3: [], 5: ["M3-05"]})
    assert state.tower_top == 2
    done = fly_home(state)
    assert done.tower_top == 3 and done.end_triggered and done.players[0].vp == 4
    final = play(done, reveal(done), EndTurn())
    assert final.final_round and final.phase is Phase.START_OF_TURN
    over = play(final, MoveArrowStones(()), SkipStep(), SkipStep(), SkipStep(), EndTurn())
    assert over.phase is Phase.OVER and GAME.winners(over) == (0,) and GAME.solo_rank(over) == "Nothing but hot air"


def test_r73_buying_out_the_3rd_market_yourself_gives_3_vp() -> None:
    """STM-R-73 (p.35): '... by buying out the 3rd market, you receive 3 vote points as in the
    multiplayer game.'  Rank 3 as a machine: 4 crystals + 1 gear, 5 VP (STM-EX-15), + 3 VP."""
    room = {1: "S1", 2: "capacity/1", 3: "capacity/1"}  # storage sides: room for 5 resources
    seats = {0: {"crystals": 4, "gears": 1, "machine_room": room}}
    board = [{"seat": 0, "level": 5, "position": "left"}]
    state = given(phase="flight", board=board, seats=seats, markets={2: [], 3: [], 5: ["M3-05"]})
    bought = play(state, TakeBack(5, "left"), BuyMachine(1, 1))
    assert bought.tower_top == 3 and bought.end_triggered and bought.players[0].vp == 4 + 5 + 3


def final_turn(vp: int) -> StmState:
    board = [{"seat": 0, "level": 3, "position": "left"}]
    triggered: dict[str, Any] = {"markets": {2: [], 3: [], 4: []}, "end_triggered": True, "final_round": True}
    return play(given(phase="start-of-turn", vp=vp, board=board, **triggered), MoveArrowStones(()))


def test_r73_final_turn_make_steam_and_fly_cost_1_vp_together() -> None:
    """STM-R-73 (p.35): 'You may choose whether you carry out the actions MAKE STEAM and FLY TO ALL
    TARGETS. If you carry them out, you lose only 1 vote point in total.'"""
    state = final_turn(5)
    state = play(state, steam(state))
    assert state.players[0].vp == 4
    state = play(state, SkipStep(), FlyToAllTargets())
    assert state.players[0].vp == 4 and districts(state, SHADOW) == ["L3-left"]
    state = fly_home(state)
    over = play(state, reveal(state), EndTurn())
    assert over.phase is Phase.OVER and over.players[0].vp == 4 and GAME.winners(over) == (0,)
    only_fly = play(final_turn(5), SkipStep(), SkipStep(), FlyToAllTargets())
    assert only_fly.players[0].vp == 4
    skipped = play(final_turn(5), SkipStep(), SkipStep(), SkipStep(), EndTurn())
    assert skipped.phase is Phase.OVER and skipped.players[0].vp == 5


def test_r73_the_final_turn_can_still_be_lost() -> None:
    """STM-R-69 with STM-R-73 (STM-AMB-28 'zero'): the final turn's 1 VP from 1 VP loses."""
    state = final_turn(1)
    lost = play(state, steam(state))
    assert lost.phase is Phase.OVER and GAME.winners(lost) == () and GAME.solo_rank(lost) == SOLO_LOST


@pytest.mark.parametrize(
    ("vp", "rank"),
    [
        (1, "Nothing but hot air"),
        (6, "Nothing but hot air"),
        (7, "Hobby mechanic"),
        (14, "Tinkerer"),
        (20, "Tinkerer"),
        (21, "Engineer"),
        (28, "Chief engineer"),
        (35, "Airship pirate"),
        (42, "Master of steam"),
        (48, "Master of steam"),
        (49, "Deus Ex Machina"),
        (60, "Deus Ex Machina"),
    ],
)
def test_r73_rank_table(vp: int, rank: str) -> None:
    """STM-R-73 (p.36): 'Compare your total score with the table': 0 VP Nothing but hot air, 7 Hobby
    mechanic, 14 Tinkerer, 21 Engineer, 28 Chief engineer, 35 Airship pirate, 42 Master of steam, 49
    Deus Ex Machina."""
    state = attrs.evolve(given(vp=vp), phase=Phase.OVER, end_triggered=True, final_turns_done=(0,))
    assert GAME.solo_rank(state) == rank and tools(GAME).facts(state)["rank"] == rank
    assert [t for t, _ in SOLO_RANKS] == [0, 7, 14, 21, 28, 35, 42, 49]


def test_r73_0_vp_ranks_only_under_below_zero() -> None:
    """STM-AMB-28 'below-zero': a game may end with 0 VP: 'Nothing but hot air'; under 'zero' 0 VP is a loss."""
    game = SteamopolisGame.configured(readings={"STM-AMB-28": "below-zero"})
    zero = attrs.evolve(given(game, vp=1), phase=Phase.OVER)
    zero = attrs.evolve(zero, players=(attrs.evolve(zero.players[0], vp=0),))
    assert game.solo_rank(zero) == "Nothing but hot air" and GAME.solo_rank(zero) == SOLO_LOST


def test_the_rank_is_for_the_solo_game_only() -> None:
    with pytest.raises(RulecraftError, match="STM-R-73"):
        GAME.solo_rank(GAME.new_game(2))
    assert tools(GAME).facts(tools(GAME).scenario_state({"players": 2}))["rank"] is None


# ---------------------------------------------------------------------------
# Whole games: generation equals the check, every invariant holds
# ---------------------------------------------------------------------------

BUSY = (BuyMachine, TakeBack, UseDistrict, SetTarget, ChannelPressure, UseRemovedTile, UseFaceUpTile, PlaceParasite)


@pytest.mark.parametrize("seed", range(6))
def test_solo_games_play_to_the_end(seed: int) -> None:
    """Seeded solo games leaning towards purchases and flights (10 VP to start): every generated action
    passes the check, a few probes the generator leaves out are refused, every invariant and step
    invariant holds, and the game ends lost or ranked."""
    game = SteamopolisGame.configured(parameters={"solo_start_vp": 10})
    rng = random.Random(seed)
    state = game.new_game(1)
    seen: Counter[str] = Counter()
    probes: list[StmAction] = [EndTurn(), LeaveParasites(), UseRemovedTile("M0-01"), UseFaceUpTile(5), SkipStep()]
    for _ in range(6000):
        if game.is_over(state):
            break
        if isinstance(game.to_move(state), Chance):
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal_actions(state)
            assert legal and all(game.check(state, a) is None for a in legal)
            for probe in probes:
                if probe not in legal and not isinstance(probe, REPRESENTATIVE):
                    assert game.check(state, probe) is not None, probe
            busy = [a for a in legal if isinstance(a, BUSY)]
            action = rng.choice(busy if busy and rng.random() < 0.8 else legal)
        before, state = state, game.apply(state, action)
        seen[action.kind] += 1
        problems = [*tools(game).violations(state), *check_step(game, before, state)]
        assert not problems, "\n".join(map(str, problems))
    assert game.is_over(state)
    assert game.winners(state) == (() if game.solo_lost(state) else (0,))
    assert seen["fly-to-all-targets"] and seen["reveal-passenger"] > 1


def test_turn_fields_of_the_solo_game() -> None:
    """TurnState's solo fields start empty every turn (STM-R-69 time pressure, STM-R-71 remove tiles)."""
    assert TurnState().time_paid is False and TurnState().removal is None and TurnState().removed == ()
    state = play(given(**EX37), FlyToAllTargets(), TakeBack(3, "left"), LetLapse(), TakeBack(5, "right"), LetLapse())
    state = play(state, reveal(state), EndTurn())
    assert state.turn == TurnState()
    assert [BoardStone(SHADOW, 3, "left"), BoardStone(SHADOW, 5, "right")] == [s for s in state.board if s.seat < 0]


def test_the_solo_turn_invariant() -> None:
    """The named invariant 'solo-turn' (STM-R-69, R-71, R-72) reports solo turn fields out of place."""
    from rulecraft.invariants.steamopolis import INVARIANTS

    check = INVARIANTS["solo-turn"].check
    multi = tools(GAME).scenario_state({"players": 2})
    assert [v.invariant for v in check(GAME, attrs.evolve(multi, turn=TurnState(time_paid=True)))] == ["solo-turn"]
    stage = removal_stage()
    assert check(GAME, stage) == []
    without_fly = attrs.evolve(stage, turn=attrs.evolve(stage.turn, flight_start=()))
    assert "without FLY" in check(GAME, without_fly)[0].message
    empty = attrs.evolve(stage, parasites=(), solo=Solo(), players=(attrs.evolve(stage.players[0], parasites_home=3),))
    assert "none lies beside the stack" in check(GAME, empty)[0].message
    boxed = attrs.evolve(stage, turn=attrs.evolve(stage.turn, removed=("M0-03",)))
    assert "still lies in play" in check(GAME, boxed)[0].message
