"""Steamopolis as a registered game: set-up (STM-R-01..13) as exact chance deals, the end
of the game (STM-R-64..67), readings the model refuses, the JSON form and the text picture.
Expected values come from the rulebook (pages cited), never from running the model."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

from rulecraft.core import CHANCE, RulecraftError
from rulecraft.model.steamopolis.actions import (
    BuildStartingRoom,
    DealCharacter,
    EndTurn,
    FlyToAllTargets,
    MakeSteam,
    MoveArrowStones,
    RevealPassenger,
    SetTarget,
    SkipStep,
)
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.readings import NOT_MODELLED, NOT_MODELLED_WHY, REGISTER
from rulecraft.model.steamopolis.setup import FIRST_GAME_REDRAW, market_slots
from rulecraft.model.steamopolis.state import BoardStone, Phase, RoomTile, StmState, TurnState
from rulecraft.registry import make_game
from rulecraft.ruleset import UnknownReading

GAME = SteamopolisGame()
MODEL = Path(__file__).resolve().parents[1] / "model" / "steamopolis"


def deal_all(game: SteamopolisGame, state: StmState, seed: int = 0) -> StmState:
    """Every chance deal of the set-up, drawn at random."""
    rng = random.Random(seed)
    while game.to_move(state) is CHANCE and state.phase is Phase.DEAL:
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def test_registered_and_configurable() -> None:
    game = make_game("stm")
    assert isinstance(game, SteamopolisGame)
    assert repr(game) == "SteamopolisGame.configured(readings={}, components=None)"
    assert eval(repr(game), {"SteamopolisGame": SteamopolisGame}).ruleset == game.ruleset


def test_player_counts_and_options_are_refused_with_the_rule() -> None:
    with pytest.raises(RulecraftError, match="STM-R-01"):
        GAME.new_game(5)
    with pytest.raises(RulecraftError, match="STM-R-01"):
        GAME.new_game(0)
    with pytest.raises(RulecraftError, match="STM-R-07"):
        GAME.new_game(3, first_seat=1)  # the lowest character starts (p.6)
    with pytest.raises(RulecraftError, match="first_game"):
        GAME.new_game(3, board="x")


def test_r01_board_side_by_player_count() -> None:
    """STM-R-01 (p.4): the 4-player side for 4 players, the 2/3-player side otherwise."""
    assert GAME.new_game(3).board_side == "2-3"
    assert GAME.new_game(4).board_side == "4"


def test_r07_characters_are_dealt_uniformly_and_the_lowest_starts() -> None:
    """STM-R-07 (p.6): each player draws 1 random character; the lowest number starts."""
    state = GAME.new_game(3)
    outcomes = GAME.chance_outcomes(state)
    numbers = [c.number for c in GAME.pack.characters]
    assert {a for a, _ in outcomes} == {DealCharacter(n) for n in numbers}
    assert {p for _, p in outcomes} == {Fraction(1, len(numbers))}
    for number in (9, 3, 13):
        state = GAME.apply(state, DealCharacter(number))
    assert state.start_player == 1 and state.to_move == 1


def test_r07_first_game_redraws_characters_5_11_15() -> None:
    """STM-R-07 (p.6): 'First game: redraw characters 5, 11 and 15'."""
    state = GAME.new_game(2, first_game=True)
    dealt = {a.number for a, _ in GAME.chance_outcomes(state) if isinstance(a, DealCharacter)}
    assert dealt.isdisjoint(FIRST_GAME_REDRAW) and dealt


def test_r03_one_tile_of_each_rank_per_market_and_the_4_player_extra_markets() -> None:
    """STM-R-03 (p.4): levels 2-8, one random tile of each rank 0-3, rank 0 face up at the far left;
    4 players: a rank-0 tile on the extra market of levels 2, 3 and 4 (no statue)."""
    assert len(market_slots(3)) == 7 * 4
    assert len(market_slots(4)) == 7 * 4 + 3
    state = deal_all(GAME, GAME.new_game(4))
    regular = [m for m in state.markets if not m.extra]
    assert [m.level for m in regular] == list(range(2, 9))
    for m in regular:
        assert [GAME.pack.machine(t).rank for t in m.tiles] == [0, 1, 2, 3] and m.statue
    extra = [m for m in state.markets if m.extra]
    assert [m.level for m in extra] == [2, 3, 4]
    assert all(len(m.tiles) == 1 and GAME.pack.machine(m.tiles[0]).rank == 0 and not m.statue for m in extra)
    used = [t for m in state.markets for t in m.tiles]
    assert len(used) == len(set(used))


def test_r05_the_first_passenger_tile_is_revealed_by_chance() -> None:
    """STM-R-05 (p.5): shuffle the 16 passenger tiles; turn the top one face up."""
    state = GAME.new_game(2)
    while not isinstance(GAME.chance_outcomes(state)[0][0], RevealPassenger):
        state = GAME.apply(state, GAME.chance_outcomes(state)[0][0])
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 16 and {p for _, p in outcomes} == {Fraction(1, 16)}
    state = GAME.apply(state, RevealPassenger("P07"))
    assert state.passengers.face_up == "P07" and len(state.passengers.stack) == 15
    assert state.phase is Phase.SETUP_ROOM and state.to_move == state.start_player


def test_r13_first_game_room_is_fixed_and_the_first_turn_follows() -> None:
    """STM-R-13 (p.6): first game: the starting machine back side up on position 1, the capacity
    tile on position 2; then the start player's first turn."""
    state = deal_all(GAME, GAME.new_game(2, first_game=True))
    while state.phase is Phase.SETUP_ROOM:
        if state.turn.pending:  # the character effect, forgone
            state = GAME.apply(state, GAME.legal_actions(state)[0])
            continue
        assert GAME.legal_actions(state) == [BuildStartingRoom(1, 1, 2, 0)]
        rejection = GAME.check(state, BuildStartingRoom(2, 1, 1, 0))
        assert rejection is not None and rejection.rule == "STM-R-13"
        state = GAME.apply(state, BuildStartingRoom(1, 1, 2, 0))
        while state.turn.storing:
            state = GAME.apply(state, GAME.legal_actions(state)[0])
    assert state.phase is Phase.START_OF_TURN and state.to_move == state.start_player
    for p in state.players:
        assert p.machine_room[0] is not None and p.machine_room[0].kind == "starting" and p.machine_room[0].side == 1
        assert p.machine_room[1] == RoomTile("capacity", "capacity", 0)


def _final_round(seat_stones: dict[int, list[tuple[int, str]]]) -> StmState:
    """Two players at the start of seat 0's final turn (start player 0)."""
    state = deal_all(GAME, GAME.new_game(2), seed=3)
    state = attrs.evolve(state, phase=Phase.START_OF_TURN, start_player=0, to_move=0, turn=TurnState())
    board = tuple(BoardStone(seat, lv, pos) for seat, where in seat_stones.items() for lv, pos in where)  # type: ignore[arg-type]
    players = list(state.players)
    for seat, where in seat_stones.items():
        p = players[seat]
        players[seat] = attrs.evolve(p, supply=p.supply[: len(p.supply) - len(where)])
    return attrs.evolve(state, board=board, players=tuple(players), end_triggered=True, final_round=True)


def test_r66_final_turn_order_and_others_stones_do_not_block() -> None:
    """STM-R-66 (p.25): arrow stones, then MAKE STEAM, SET 1 TARGET, FLY, in this order, each
    optional; a target may go on a district holding another player's stone, never your own."""
    state = _final_round({0: [(1, "left")], 1: [(1, "right")]})
    state = GAME.apply(state, MoveArrowStones(()))
    assert state.turn.final_step == "steam"
    refused = GAME.check(state, FlyToAllTargets())
    assert refused is not None and refused.rule == "STM-R-66"
    state = GAME.apply(state, SkipStep())
    assert state.turn.final_step == "target"
    gauge = state.players[0].gauge
    first = gauge.stone_spaces()[0]
    assert GAME.check(state, SetTarget(first, 1, "right")) is None  # seat 1's stone does not block
    own = GAME.check(state, SetTarget(first, 1, "left"))
    assert own is not None and own.rule == "STM-R-27"
    state = GAME.apply(state, SetTarget(first, 1, "right"))
    assert state.turn.final_step == "fly"
    state = GAME.apply(state, SkipStep())
    state = GAME.apply(state, EndTurn())
    assert state.final_turns_done == (0,) and state.to_move == 1


def test_amb17_compulsory_refuses_skipping_a_possible_action() -> None:
    game = SteamopolisGame.configured(readings={"STM-AMB-17": "compulsory"})
    state = game.apply(_final_round({}), MoveArrowStones(()))
    rejection = game.check(state, SkipStep())
    assert rejection is not None and rejection.rule == "STM-R-66"
    assert any(isinstance(a, MakeSteam) for a in game.legal_actions(state))


def test_r65_r66_after_the_trigger_the_round_ends_then_one_final_turn_each() -> None:
    """STM-R-64/65 (p.25): the round is played out; then every player takes one final turn from
    the start player; after the last final turn the game is over."""
    state = deal_all(GAME, GAME.new_game(2), seed=1)
    state = attrs.evolve(
        state, phase=Phase.END_OF_TURN, start_player=0, to_move=0, end_triggered=True, turn=TurnState()
    )
    state = GAME.apply(state, EndTurn())
    assert state.to_move == 1 and not state.final_round  # seat 1 still plays its normal turn
    state = GAME.apply(attrs.evolve(state, phase=Phase.END_OF_TURN), EndTurn())
    assert state.final_round and state.to_move == 0
    for seat in (0, 1):
        # a turn that flew from a district: 'end-turn' resets the turn (docs/protocol/stm.md), the last one too
        flown = attrs.evolve(state, phase=Phase.END_OF_TURN, turn=TurnState(activated=((3, "left"),)))
        state = GAME.apply(flown, EndTurn())
        assert state.final_turns_done[-1] == seat and state.turn == TurnState()
    assert state.phase is Phase.OVER and GAME.is_over(state)


def test_r67_ties_go_to_most_tiles_then_earlier_in_turn_order() -> None:
    """STM-R-67 (p.25): most VP; tie: most machine and banner tiles; then earlier in turn order."""
    state = deal_all(GAME, GAME.new_game(3), seed=2)
    room = (RoomTile("capacity", "capacity", 0), None, None, None, None, None, None)
    players = [attrs.evolve(p, vp=10, machine_room=room, banners=()) for p in state.players]
    state = attrs.evolve(state, players=tuple(players), start_player=1, phase=Phase.OVER)
    assert GAME.winners(state) == (1,)  # all equal: the start player is earliest
    players[0] = attrs.evolve(players[0], banners=("M0-01",))
    assert GAME.winners(attrs.evolve(state, players=tuple(players))) == (0,)
    players[2] = attrs.evolve(players[2], vp=11)
    assert GAME.winners(attrs.evolve(state, players=tuple(players))) == (2,)


def test_amb18_bought_counts_only_bought_tiles() -> None:
    game = SteamopolisGame.configured(readings={"STM-AMB-18": "bought"})
    state = deal_all(game, game.new_game(2), seed=2)
    room = (RoomTile("capacity", "capacity", 0), None, None, None, None, None, None)
    players = [attrs.evolve(p, vp=5, machine_room=room) for p in state.players]
    players[1] = attrs.evolve(players[1], machine_room=(RoomTile("machine", "M0-01"), *room[1:]))
    state = attrs.evolve(state, players=tuple(players), start_player=0, phase=Phase.OVER)
    assert GAME.winners(state) == (0,)  # 'all': one tile each, seat 0 earlier
    assert game.winners(state) == (1,)  # 'bought': only seat 1's machine counts


def test_unmodelled_readings_are_refused_with_the_reason() -> None:
    for (amb_id, key), why in NOT_MODELLED_WHY.items():
        assert key in REGISTER[amb_id].choices() and key != REGISTER[amb_id].default
        with pytest.raises(UnknownReading, match=re.escape(why[:30])):
            SteamopolisGame.configured(readings={amb_id: key})


def test_every_other_alternative_reading_is_consulted_by_the_model() -> None:
    """No reading is offered that the model silently plays as the default."""
    source = "\n".join(p.read_text("utf-8") for p in MODEL.glob("*.py") if p.name != "readings.py")
    for amb in REGISTER:
        for reading in amb.readings:
            if reading.key == amb.default or (amb.id, reading.key) in NOT_MODELLED:
                continue
            assert re.search(rf'r\("{amb.id}"\)', source), f"{amb.id}={reading.key} is offered but never consulted"


def test_state_json_round_trip_and_bad_input() -> None:
    rng = random.Random(5)
    state = GAME.new_game(3)
    for _ in range(400):
        action = GAME.random_action(state, rng)
        if action is None:
            break
        state = GAME.apply(state, action)
        data = json.loads(json.dumps(GAME.state_to_json(state)))
        assert GAME.state_from_json(data) == state
        assert GAME.action_from_json(GAME.action_to_json(action)) == action
    bad = GAME.state_to_json(state)
    bad["markets"][0]["tiles"] = ["NOPE"]
    with pytest.raises(RulecraftError, match="NOPE"):
        GAME.state_from_json(bad)
    with pytest.raises(RulecraftError, match="kind"):
        GAME.action_from_json({"kind": "fly-to-the-moon"})


def test_text_picture_shows_gauges_and_levels() -> None:
    state = deal_all(GAME, GAME.new_game(2), seed=4)
    text = GAME.render(state)
    assert "Gauge values   1  1  2  2  3  4  5  6  7  8" in text
    assert all(f"L{level}" in text for level in range(1, 9))
    assert text.count("gauge  ") == 2


@pytest.mark.parametrize("players", [1, 4])
def test_describe_names_every_action_kind_in_words(players: int) -> None:
    rng = random.Random(9)
    state = GAME.new_game(players)
    for _ in range(600):
        action = GAME.random_action(state, rng)
        if action is None:
            break
        words = GAME.describe(state, action)
        assert words and "None" not in words and "(" not in words.split(":", 1)[1][:2]
        state = GAME.apply(state, action)


def test_r13_first_game_layout_yields_to_a_characters_own_capacity_tile() -> None:
    """Found by the campaign: character 3's set-up (reconstructed: a capacity tile) may take position 1,
    which the first-game layout wants; the two lowest free positions take its place."""
    state = deal_all(GAME, GAME.new_game(2, first_game=True))
    seat = state.to_move
    room = (RoomTile("capacity", "capacity", 1), *state.players[seat].machine_room[1:])
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], machine_room=room)
    state = attrs.evolve(state, players=tuple(players), turn=TurnState())
    assert GAME.legal_actions(state) == [BuildStartingRoom(2, 1, 3, 0)]
    rejection = GAME.check(state, BuildStartingRoom(1, 1, 2, 0))
    assert rejection is not None and rejection.rule == "STM-R-13"


def test_r06_r10_supplies_and_base_markers_at_set_up() -> None:
    """STM-R-06 (p.5): crystals and gears form the general supply, sponsors and galas lie on their
    spaces, capacity tiles beside the board (counts p.2-3: 15 + 15, 5 sponsors, 4 + 4 galas, 20
    capacity tiles); STM-R-10 (p.6): each base pressure marker on the base-pressure space g0."""
    state = GAME.new_game(3)
    supply = state.supply
    assert (supply.crystals, supply.gears, supply.sponsors, supply.galas, supply.capacity_tiles) == (
        15,
        15,
        5,
        (4, 4),
        20,
    )
    assert all(p.gauge.base == 0 for p in state.players)
    assert all(p.gauge.stone_spaces() == (1, 2, 3) for p in state.players)  # STM-R-11: values 1, 1, 2


def test_a_turn_that_would_carry_itself_on_without_end_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """settle's bound: a model bug that loops must fail with its name, not hang a run.  With the bound cut
    to 1 automatic step, a seeded game soon needs more in one turn and fails so; with the real bound the
    same game plays on."""
    from rulecraft.model.steamopolis import transitions

    def play(steps: int) -> None:
        rng = random.Random(3)
        state = GAME.new_game(2)
        for _ in range(steps):
            action = GAME.random_action(state, rng)
            if action is None:
                return
            state = GAME.apply(state, action)

    play(400)
    monkeypatch.setattr(transitions, "SETTLE_STEPS", 1)
    with pytest.raises(RuntimeError, match=r"^settle: more than 1 automatic steps in one turn"):
        play(400)
