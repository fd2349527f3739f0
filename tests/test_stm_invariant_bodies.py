"""Steamopolis invariants: the checks' own bodies, pinned to the rules digest (issue 22 part 3).

The checks in ``invariants/steamopolis.py`` are now registered by a call, so mutmut mutates their bodies.
Each test breaks one invariant in one specific way and asserts the exact message, or builds a state that
only just keeps it (a limit met exactly) and asserts silence.  States come from the hand-built
``start`` of tests/test_stm_invariants.py (the set-up as the rulebook describes it).  Digest:
/work/shared/rules/steamopolis.md (rule IDs, rulebook pages).
"""

from __future__ import annotations

import attrs
from invariant_helpers import game_with
from test_stm_invariants import PRINTED, bought_out, give, market, on_board, player, start, turn

from rulecraft.invariants.steamopolis import INVARIANTS, STEP_INVARIANTS
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Stone, gauge_of
from rulecraft.model.steamopolis.state import SHADOW, BoardStone, Market, Parasite, Phase, RoomTile, Solo, StmState


def msgs(name: str, state: StmState) -> list[str]:
    return [v.message for v in INVARIANTS[name].check(PRINTED, state)]


def step_msgs(name: str, before: StmState, after: StmState) -> list[str]:
    return [v.message for v in STEP_INVARIANTS[name].check(PRINTED, before, after)]


# -- stones-conserved (STM-R-08, STM-R-29, STM-R-70) ---------------------------------------------------------


def test_channel_phase_needs_the_channelled_stone_stm_r_29() -> None:
    """STM-R-29: channelling moves a SET stone into the machine room; phase CHANNEL without one is wrong."""
    state = attrs.evolve(start(), phase=Phase.CHANNEL)
    assert msgs("stones-conserved", state) == ["phase CHANNEL without a stone in the machine room"]


def test_all_five_shadow_stones_on_the_board_stm_r_70() -> None:
    """STM-R-68/70: the shadow colour has 5 stones; all 5 on the board in solo is allowed."""
    solo = on_board(start(1), *(BoardStone(SHADOW, level, "left") for level in range(2, 7)))
    assert msgs("stones-conserved", solo) == []


# -- gauge-items (STM-R-14) ------------------------------------------------------------------------------------


def _left_of_base(item: Stone | BonusMarker, base: int) -> Gauge:
    """A gauge with ``item`` on the base marker's own space (built past the validators)."""
    spaces = list(gauge_of([(base + 1, False), (base + 2, False)]).spaces)
    spaces[base] = item
    with attrs.validators.disabled():
        return Gauge(base, tuple(spaces))


def test_an_item_on_the_base_markers_space_stm_r_14() -> None:
    """STM-R-14/17: every item lies strictly right of the base marker; on its space is too far left, and
    the message says which kind of item it is."""
    stone = player(start(), 0, gauge=_left_of_base(Stone(), 2))
    assert msgs("gauge-items", stone) == ["seat 0: a stone on space 2, on or left of the base marker (space 2)"]
    marker = player(start(), 0, gauge=_left_of_base(BonusMarker(2), 2))
    assert msgs("gauge-items", marker) == ["seat 0: a bonus marker on space 2, on or left of the base marker (space 2)"]


# -- vp-never-decreases, end-stays-triggered (STM-R-64, STM-R-69) --------------------------------------------------


def test_every_seats_vp_is_compared_stm_r_09() -> None:
    """STM-R-09: VP only rise; seat 0 unchanged does not hide seat 1's fall."""
    before = attrs.evolve(start(), phase=Phase.ACTION)
    before = player(before, 1, vp=5)
    after = player(before, 1, vp=3)
    assert step_msgs("vp-never-decreases", before, after) == ["seat 1's VP fell from 5 to 3 (phase action -> action)"]


def test_the_solo_time_charge_does_not_hide_another_seat_stm_r_69() -> None:
    """STM-R-69: the 1-VP time charge is the solo player's; a malformed state with solo fields and two
    seats still has seat 1's fall reported after seat 0's charge."""
    before = attrs.evolve(player(player(start(2), 0, vp=4), 1, vp=4), phase=Phase.ACTION, solo=Solo())
    after = player(player(before, 0, vp=3), 1, vp=2)
    assert step_msgs("vp-never-decreases", before, after) == ["seat 1's VP fell from 4 to 2 (phase action -> action)"]


def test_a_triggered_end_stays_triggered_stm_r_64() -> None:
    before = attrs.evolve(start(), end_triggered=True)
    assert step_msgs("end-stays-triggered", before, attrs.evolve(before, end_triggered=False)) == [
        "the end was triggered before the step and is not after it"
    ]


# -- districts-occupied (STM-R-27, STM-R-66) -----------------------------------------------------------------------


def test_a_lone_stone_does_not_hide_a_shared_district_stm_r_27() -> None:
    """STM-R-27: one stone per district outside the final round; a district holding one stone is fine,
    and the next one, shared by seats 1 and 2, is reported."""
    state = on_board(start(3), BoardStone(0, 2, "left"), BoardStone(1, 3, "left"), BoardStone(2, 3, "left"))
    assert msgs("districts-occupied", state) == ["stones of seats [1, 2] share L3-left outside the final round"]


# -- resources-conserved (STM-R-21) --------------------------------------------------------------------------------


def test_an_empty_general_supply_is_allowed_stm_r_21() -> None:
    """STM-R-21: 15 crystals in all; the general supply may run out (0), never below."""
    state = start()
    all_out = give(state, 1, crystals=state.supply.crystals)
    assert all_out.supply.crystals == 0
    assert msgs("resources-conserved", all_out) == []


# -- sponsor-and-gala (STM-R-21, STM-R-57, STM-R-58) ---------------------------------------------------------------


def test_every_sponsor_and_crystal_gala_taken_empties_the_supply_stm_r_21() -> None:
    """STM-R-21/57/58: 5 sponsors and 4 crystal galas in the box; with 5 players (STM-AMB-24 '1-5') all
    5 sponsors can be held, and 4 players can hold the 4 crystal galas: an empty supply is no break."""
    state = start(4)
    galas = state
    for seat in range(4):
        galas = player(galas, seat, gala="crystal")
    galas = attrs.evolve(galas, supply=attrs.evolve(galas.supply, galas=(0, 4)))
    assert msgs("sponsor-and-gala", galas) == []
    fifth = attrs.evolve(state.players[3], character=5)
    five = attrs.evolve(state, players=(*state.players, fifth))
    for seat in range(5):
        five = player(five, seat, sponsor="crystal")
    five = attrs.evolve(five, supply=attrs.evolve(five.supply, sponsors=0))
    assert msgs("sponsor-and-gala", five) == []


# -- solo-turn (STM-R-69, STM-R-71) --------------------------------------------------------------------------------


def test_a_removal_step_in_a_multiplayer_game_stm_r_71() -> None:
    """STM-R-71: 'remove tiles' is a solo step; a 2-player turn waiting on it is reported."""
    state = turn(attrs.evolve(start(), phase=Phase.END_OF_TURN), removal="done")
    assert msgs("solo-turn", state) == ["solo turn fields in a 2-player game (time paid False, removal done)"]


def test_a_removal_step_needs_a_fly_this_turn_stm_r_71() -> None:
    """STM-R-71: the solo 'remove tiles' follows FLY TO ALL TARGETS in the same turn."""
    state = turn(attrs.evolve(start(1), phase=Phase.END_OF_TURN), removal="done")
    assert msgs("solo-turn", state) == ["'remove tiles' (done) in a turn without FLY TO ALL TARGETS"]


def _removing(phase: Phase, **changes: object) -> StmState:
    """A solo turn after FLY TO ALL TARGETS (S0 recorded) in its 'remove tiles' step (STM-R-71)."""
    state = attrs.evolve(start(1), phase=phase)
    return turn(state, flight_start=((2, "left"),), **changes)


def test_a_parasite_removal_needs_a_parasite_beside_the_stack_stm_r_72() -> None:
    """STM-R-72: 'remove tiles' waits on the parasites only while one lies beside the stack, at the end
    of the turn."""
    waiting = _removing(Phase.END_OF_TURN, removal="parasites")
    assert msgs("solo-turn", waiting) == ["'remove tiles' waits on the parasites, but none lies beside the stack"]
    late = _removing(Phase.REVEAL, removal="parasites")
    assert msgs("solo-turn", late) == [
        "'remove tiles' waits on the parasites, but none lies beside the stack",
        "'remove tiles' waits on the parasites in phase reveal",
    ]


def test_a_boxed_machine_still_in_a_machine_room_stm_r_71() -> None:
    """STM-R-71: the tiles 'remove tiles' boxes leave the game; one still built in a machine room is a break."""
    state = _removing(Phase.END_OF_TURN, removal="done", removed=("M1-09",))
    built = player(
        state, 0, machine_room=(*state.players[0].machine_room[:4], RoomTile("machine", "M1-09", 0), None, None)
    )
    assert msgs("solo-turn", built) == ["machine tile M1-09 was boxed by 'remove tiles' and still lies in play"]


# -- vp-never-negative (STM-R-69, STM-AMB-28) ----------------------------------------------------------------------


def test_below_zero_stops_at_minus_one_stm_amb_28() -> None:
    """STM-AMB-28 'below-zero': the solo game is lost below 0 VP, so -1 is the lowest score; -2 is a break."""
    below = game_with("stm", Context.printed(readings={"STM-AMB-28": "below-zero"}))
    over = attrs.evolve(player(start(1), 0, vp=-1), phase=Phase.OVER)
    assert [v.message for v in INVARIANTS["vp-never-negative"].check(below, over)] == []
    lower = player(over, 0, vp=-2)
    assert [v.message for v in INVARIANTS["vp-never-negative"].check(below, lower)] == ["seat 0 has -2 VP"]


# -- seats-and-board-side (STM-R-01, STM-R-07, STM-AMB-24) ---------------------------------------------------------

NAME = PRINTED.ctx.pack.name


def test_four_players_on_the_4_player_side_and_five_only_under_1_5_stm_amb_24() -> None:
    """STM-R-01: 4 players use the 4-player side; STM-AMB-24 '1-4' (default) stops at 4 players."""
    four = start(4)
    assert msgs("seats-and-board-side", four) == []
    fifth = attrs.evolve(four.players[3], character=5)
    five = attrs.evolve(four, players=(*four.players, fifth))
    assert msgs("seats-and-board-side", five) == ["5 players; the game is for 1-4 (STM-AMB-24 '1-4')"]
    wide = game_with("stm", Context.printed(readings={"STM-AMB-24": "1-5"}))
    assert [v.message for v in INVARIANTS["seats-and-board-side"].check(wide, five)] == []


def test_the_board_side_follows_the_player_count_stm_r_01() -> None:
    assert msgs("seats-and-board-side", attrs.evolve(start(2), board_side="4")) == [
        "2 player(s) on the 4-player side; STM-R-01 gives the 2-3-player side"
    ]


def test_solo_fields_exactly_in_solo_stm_r_68() -> None:
    assert msgs("seats-and-board-side", attrs.evolve(start(2), solo=Solo())) == [
        "2 player(s) but the solo fields are set"
    ]
    assert msgs("seats-and-board-side", attrs.evolve(start(1), solo=None)) == [
        "1 player(s) but the solo fields are missing"
    ]


def test_seat_fields_in_range_stm_r_01() -> None:
    state = start(2)
    assert msgs("seats-and-board-side", attrs.evolve(state, to_move=2)) == ["to_move is seat 2, outside 0..1"]
    assert msgs("seats-and-board-side", attrs.evolve(state, start_player=-1)) == [
        "start_player is seat -1, outside 0..1"
    ]


def test_characters_are_the_packs_and_drawn_once_stm_r_07() -> None:
    """STM-R-07: each player draws one character tile; 0 means not dealt yet, only while dealing."""
    state = start(2)
    assert msgs("seats-and-board-side", player(state, 1, character=99)) == [
        f"seat 1 plays character 99, which pack {NAME} does not have"
    ]
    assert msgs("seats-and-board-side", player(state, 1, character=0)) == [
        f"seat 1 plays character 0, which pack {NAME} does not have"
    ]
    dealing = attrs.evolve(player(player(state, 0, character=0), 1, character=0), phase=Phase.DEAL)
    assert msgs("seats-and-board-side", dealing) == []
    assert msgs("seats-and-board-side", player(state, 1, character=1)) == [
        "character 1 is drawn 2 times (STM-R-07: one tile each)"
    ]
    assert msgs("seats-and-board-side", attrs.evolve(state, round=0)) == ["round 0"]


# -- resources-within-storage (STM-R-32, STM-R-39) -----------------------------------------------------------------


def test_storage_is_full_at_its_spaces_and_over_by_one_stm_r_32() -> None:
    """STM-R-32: crystals + gears fit the storage spaces; exactly full is fine, one more is not (seat 1, not
    to move)."""
    state = attrs.evolve(start(2), phase=Phase.ACTION)
    spaces = PRINTED.ctx.storage(state.players[1])
    have = state.players[1].crystals + state.players[1].gears
    full = give(state, 1, crystals=spaces - have)
    assert msgs("resources-within-storage", full) == []
    over = give(full, 1, gears=1)
    crystals, gears = over.players[1].crystals, over.players[1].gears
    assert msgs("resources-within-storage", over) == [
        f"seat 1 keeps {crystals} crystals + {gears} gears on {spaces} storage spaces"
    ]
    assert msgs("resources-within-storage", turn(over, storing=True)) == []
    assert msgs("resources-within-storage", attrs.evolve(over, phase=Phase.CHANNEL)) == []


def test_a_starting_machine_held_exempts_only_during_the_room_set_up_stm_r_13() -> None:
    """STM-R-13: the character's resources are stored once the machine room is built, so a seat still
    holding its starting machine in SETUP_ROOM is exempt; a seat that built it is not, nor is anyone
    after the set-up."""
    state = attrs.evolve(start(2), phase=Phase.ACTION)
    spaces = PRINTED.ctx.storage(state.players[1])
    over = give(state, 1, crystals=spaces + 1 - state.players[1].crystals - state.players[1].gears)
    crystals, gears = over.players[1].crystals, over.players[1].gears
    want = [f"seat 1 keeps {crystals} crystals + {gears} gears on {spaces} storage spaces"]
    setup = attrs.evolve(player(over, 0, starting="S1"), phase=Phase.SETUP_ROOM)
    assert msgs("resources-within-storage", setup) == want
    assert msgs("resources-within-storage", player(setup, 1, starting="S2")) == []
    assert msgs("resources-within-storage", player(over, 1, starting="S2")) == want


# -- bonus-markers-accounted (STM-R-04, STM-R-46, STM-AMB-13) ------------------------------------------------------


def _gauge_with(*items: tuple[int, BonusMarker], spaces: int = 11) -> Gauge:
    """A gauge holding bonus markers on the given spaces (built past the validators)."""
    out: list[Stone | BonusMarker | None] = [None] * spaces
    for space, item in items:
        out[space] = item
    with attrs.validators.disabled():
        return Gauge(0, tuple(out))


def test_a_row_out_of_printed_order_under_any_stm_amb_13() -> None:
    """STM-AMB-13 'any': any marker may leave a row, the rest keep their printed order (5, 4, 3, 2)."""
    anyone = game_with("stm", Context.printed(readings={"STM-AMB-13": "any"}))
    state = attrs.evolve(start(), bonus=attrs.evolve(start().bonus, crystal_row=(2, 5)))
    found = [v.message for v in INVARIANTS["bonus-markers-accounted"].check(anyone, state)]
    assert found == ["the crystal row holds [2, 5]; its markers are distinct numerals in printed order"]


def test_two_pink_markers_stm_r_04() -> None:
    """STM-R-04: there is one pink bonus marker (character 7's)."""
    pink = BonusMarker(3, pink=True)
    state = player(player(start(), 0, gauge=_gauge_with((5, pink))), 1, gauge=_gauge_with((5, pink)))
    assert "2 pink bonus markers on the gauges; there is 1" in msgs("bonus-markers-accounted", state)


def test_white_markers_after_a_pink_one_are_checked_stm_r_46() -> None:
    """STM-R-46: a white marker lies on a space printed with its numeral; one after the pink marker too."""
    state = start()
    items = _gauge_with((3, BonusMarker(3, pink=True)), (4, BonusMarker(5)))
    bonus = attrs.evolve(state.bonus, crystal_row=(4, 3, 2))
    found = msgs("bonus-markers-accounted", attrs.evolve(player(state, 0, gauge=items), bonus=bonus))
    assert "seat 0: bonus marker #5 on space 4, printed numeral 2" in found


def test_a_marker_past_the_printed_spaces_has_no_numeral_stm_r_46() -> None:
    """A malformed gauge longer than the layout: its marker's space prints no numeral (reported, no crash)."""
    state = start()
    bonus = attrs.evolve(state.bonus, crystal_row=(4, 3, 2))  # the foremost #5 left the row (STM-AMB-13)
    long = player(state, 0, gauge=_gauge_with((11, BonusMarker(5)), spaces=12))
    found = msgs("bonus-markers-accounted", attrs.evolve(long, bonus=bonus))
    assert found == ["seat 0: bonus marker #5 on space 11, printed numeral None"]


def test_white_markers_are_counted_per_numeral_stm_r_04() -> None:
    """STM-R-04: 2 white markers of each numeral 2-5 (one per row); a third #2, or a #7, is reported."""
    state = start()
    third = player(state, 0, gauge=_gauge_with((3, BonusMarker(2))))
    assert msgs("bonus-markers-accounted", third) == [
        "3 white #2 markers in the rows and on the gauges; there are 2 of each of 2-5"
    ]
    seventh = player(state, 0, gauge=_gauge_with((3, BonusMarker(7))))
    assert "1 white #7 markers in the rows and on the gauges; there are 2 of each of 2-5" in msgs(
        "bonus-markers-accounted", seventh
    )


# -- passengers (STM-R-05) -----------------------------------------------------------------------------------------


def test_the_banker_travels_on_levels_5_to_8_stm_r_05() -> None:
    """STM-R-05: the banker stands on levels 5-8."""
    state = start()
    on5 = attrs.evolve(state, passengers=attrs.evolve(state.passengers, banker=5))
    assert msgs("passengers", on5) == []
    on9 = attrs.evolve(state, passengers=attrs.evolve(state.passengers, banker=9))
    assert msgs("passengers", on9) == ["the banker stands on level 9; he travels on levels 5-8"]


def _aboard(state: StmState, seat: int, *who: str) -> StmState:
    """``who`` carried by ``seat`` in its flight (STM-R-36), boarded for level 8 (STM-AMB-09 'pick-up')."""
    pax = attrs.evolve(state.passengers, **{w: None for w in who})
    state = attrs.evolve(state, passengers=pax, phase=Phase.FLIGHT, to_move=seat)
    state = player(state, seat, carrying=tuple(who))
    return turn(state, boarded=tuple((w, 8) for w in who))


def test_both_passengers_fill_the_two_spaces_stm_r_36() -> None:
    """STM-R-36: 2 passenger spaces: the banker and the stoker together fit; one of them twice does not."""
    both = _aboard(start(), 0, "banker", "stoker")
    assert msgs("passengers", both) == []
    twice = player(both, 0, carrying=("banker", "banker"))
    assert "seat 0 carries ['banker', 'banker'] on 2 passenger spaces" in msgs("passengers", twice)


def test_a_passenger_transported_twice_in_a_turn_stm_r_36() -> None:
    state = turn(start(), transported=("banker", "banker"))
    assert "passengers transported more than once this turn: ['banker', 'banker']" in msgs("passengers", state)


def test_a_seat_to_move_past_the_last_is_not_looked_up_stm_r_36() -> None:
    """A malformed seat to move (seats-and-board-side reports it) must not crash this check."""
    found = msgs("passengers", attrs.evolve(start(2), to_move=2))
    assert not [m for m in found if m.startswith("the check could not run")]


def test_boarded_names_what_the_mover_carries_stm_amb_09() -> None:
    """STM-AMB-09 'pick-up': ``turn.boarded`` names exactly the passengers the player to move carries."""
    state = turn(_aboard(start(), 0, "banker"), boarded=())
    assert msgs("passengers", state) == ["turn.boarded names [], the player to move carries ['banker']"]


def test_passenger_tiles_on_the_stack_and_beside_stm_r_51() -> None:
    """STM-R-05/51: 16 passenger tiles; 1 beside seat 0's airship and 2 gone from the stack make 15."""
    state = start()
    short = player(
        attrs.evolve(state, passengers=attrs.evolve(state.passengers, stack=state.passengers.stack[2:])),
        0,
        passenger_tiles=1,
    )
    assert msgs("passengers", short) == ["passenger tiles: 14 on the stack + 1 beside the airships = 15, expected 16"]


# -- statues-and-markets (STM-R-02) --------------------------------------------------------------------------------


def test_two_statue_markets_on_one_level_stm_r_02() -> None:
    """STM-R-02: one machine market per level 2-8."""
    state = start()
    level3 = next(m for m in state.markets if m.level == 3)
    doubled = attrs.evolve(state, markets=tuple(level3 if m.level == 4 else m for m in state.markets))
    assert "2 statue markets on level 3" in msgs("statues-and-markets", doubled)


# -- end-trigger (STM-R-64, STM-R-65, STM-AMB-27) ------------------------------------------------------------------


def test_a_used_up_stack_triggers_the_end_stm_r_64() -> None:
    """STM-R-64 / STM-AMB-27 'due': no face-up tile, none in the stack, none taken: the end is triggered."""
    state = attrs.evolve(start(), phase=Phase.ACTION)
    empty = attrs.evolve(state, passengers=attrs.evolve(state.passengers, stack=(), face_up=None))
    assert msgs("end-trigger", empty) == ["the passenger stack is used up but the end is not triggered (phase action)"]


def test_the_final_round_and_the_end_need_the_trigger_stm_r_65() -> None:
    state = start()
    assert msgs("end-trigger", attrs.evolve(state, final_round=True)) == [
        "the final round before the end was triggered"
    ]
    over = msgs("end-trigger", attrs.evolve(state, phase=Phase.OVER))
    assert "the game is over but its end was never triggered" in over


def test_final_turns_are_distinct_seats_stm_r_65() -> None:
    """STM-R-65: each player has one final turn."""
    state = attrs.evolve(start(), end_triggered=True, final_round=True, final_turns_done=(1, 1), to_move=0)
    state = attrs.evolve(state, passengers=attrs.evolve(state.passengers, stack=(), face_up=None))
    assert msgs("end-trigger", state) == ["final turns done by seats [1, 1]"]


def test_two_extra_markets_on_one_level_stm_r_02() -> None:
    """STM-R-02: the 4-player side adds one extra market on each of levels 2-4, never two on one."""
    state = start(4)
    extra = Market(2, ("M0-08",), extra=True)
    assert msgs("statues-and-markets", attrs.evolve(state, markets=(*state.markets, extra))) == []
    twice = attrs.evolve(state, markets=(*state.markets, extra, Market(2, ("M0-09",), extra=True)))
    assert msgs("statues-and-markets", twice) == ["2 extra market(s) on level 2 of the 4-player side"]


def test_a_tile_not_in_the_pack_and_the_next_market_checked_stm_r_03() -> None:
    """STM-R-03: the markets hold the pack's machine tiles, rank 0 face up; an unknown tile is named, and
    the next market is still checked (ranks left to right, STM-R-45)."""
    state = start()
    markets = list(state.markets)
    markets[0] = attrs.evolve(markets[0], tiles=("ZZ-9",))
    markets[1] = attrs.evolve(markets[1], tiles=tuple(reversed(markets[1].tiles)))
    found = msgs("statues-and-markets", attrs.evolve(state, markets=tuple(markets)))
    assert found[:2] == [
        f"pack {NAME} has no machine tile ZZ-9",
        "the level-3 market holds ranks [3, 2, 1, 0]; it holds ranks [0, 1, 2, 3] from the face-up tile on",
    ]


def test_an_extra_markets_wrong_rank_names_it_extra_stm_r_02() -> None:
    """STM-R-02: the 4-player extra markets hold rank-0 tiles only."""
    state = start(4)
    wrong = attrs.evolve(state, markets=(*state.markets, Market(2, ("M1-09",), extra=True)))
    assert msgs("statues-and-markets", wrong) == [
        "the level-2 extra market holds ranks [1]; it holds ranks [0] from the face-up tile on"
    ]


def test_every_statue_kept_on_a_bought_out_market_is_counted_stm_r_71() -> None:
    """STM-R-45/71: a bought-out market shows no statue except after a solo removal; two markets and the
    level-1 market (both #2 gone, STM-AMB-26 'both-2') keeping theirs with one removal are too many."""
    state = market(market(start(1), 6, tiles=()), 7, tiles=())
    state = attrs.evolve(state, tower_top=2, solo=Solo(removed_markets=1))
    assert "2 bought-out markets still show their statue (1 solo removals recorded)" in msgs(
        "statues-and-markets", state
    )
    one = market(start(1), 6, tiles=())
    bonus = attrs.evolve(one.bonus, crystal_row=(5, 4, 3), gear_row=(5, 4, 3))
    both = attrs.evolve(one, bonus=bonus, tower_top=2, solo=Solo(removed_markets=0))
    assert "2 bought-out markets still show their statue (0 solo removals recorded)" in msgs(
        "statues-and-markets", both
    )


# -- parasites (STM-R-12, STM-R-52) ---------------------------------------------------------------------------


def _then_storage(first: Parasite) -> list[str]:
    """``first`` placed before seat 1's parasite on seat 0's storage tile (position 2), which shows no boiler."""
    state = player(start(3), 1, parasites_home=1)
    state = attrs.evolve(state, parasites=(first, Parasite(owner=1, host=0, position=2)))
    return msgs("parasites", state)


SECOND = "seat 1's parasite on the activation of capacity (seat 0), which shows no boiler"


def test_every_parasite_is_checked_after_a_broken_one_stm_r_52() -> None:
    """STM-R-52: a parasite sits on another player's occupied machine, on a boiler; each broken placement
    is reported, and the parasite after it is still checked."""
    for first, words in (
        (Parasite(owner=9, host=0, position=1), "a parasite of seat 9: no such seat"),
        (Parasite(owner=1), "seat 1's parasite lies beside the stack in a 3-player game (STM-R-72: solo only)"),
        (Parasite(owner=1, host=1, position=1), "seat 1's parasite sits on its own machine (position 1)"),
        (Parasite(owner=1, host=5, position=1), "seat 1's parasite sits on seat 5's machine: no such seat"),
        (Parasite(owner=1, host=0, position=9), "seat 1's parasite on seat 0's machine position 9: no such position"),
        (Parasite(owner=1, host=0, position=5), "seat 1's parasite on seat 0's empty machine-room position 5"),
    ):
        found = _then_storage(first)
        assert words in found, (first, found)
        assert SECOND in found, (first, found)


def test_a_parasite_on_a_machine_with_no_position_stm_r_52() -> None:
    found = _then_storage(Parasite(owner=1, host=0, position=None))
    assert "seat 1's parasite on seat 0's machine position None: no such position" in found


# -- statues-and-markets: the limits (STM-R-64) -------------------------------------------------------------


def test_a_solo_removal_may_keep_the_level_1_statue_stm_r_71() -> None:
    """STM-R-71: one recorded removal allows one bought-out market (here the level-1 one) to keep its statue."""
    state = start(1)
    bonus = attrs.evolve(state.bonus, crystal_row=(5, 4, 3), gear_row=(5, 4, 3))
    kept = attrs.evolve(state, bonus=bonus, tower_top=1, solo=Solo(removed_markets=1))
    assert not [m for m in msgs("statues-and-markets", kept) if "still show their statue" in m]


def test_three_statues_before_the_trigger_and_all_eight_after_stm_r_64() -> None:
    """STM-R-64: the 3rd statue triggers the end (at the end of the turn), so 3 may stand untriggered; there are
    8 statues, all of which may stand once the end is triggered."""
    three = bought_out(start(), 2, 3, 4)
    assert msgs("statues-and-markets", three) == []
    every = bought_out(start(), 2, 3, 4, 5, 6, 7, 8)
    bonus = attrs.evolve(every.bonus, crystal_row=(5, 4, 3), gear_row=(5, 4, 3), statue=False)
    eight = attrs.evolve(every, bonus=bonus, tower_top=8, end_triggered=True)
    assert msgs("statues-and-markets", eight) == []


def test_three_own_parasites_on_one_machine_with_two_players_stm_r_52() -> None:
    """STM-R-52 / STM-AMB-20 'per-owner': with 2 players at most 2 of one's own parasites per machine."""
    state = player(start(2), 1, parasites_home=0)
    three = attrs.evolve(state, parasites=(Parasite(1, 0, 1),) * 3)
    assert msgs("parasites", three) == [
        "3 of seat 1's parasites on seat 0's machine position 1; at most 2 with 2 players"
    ]


# -- machine-tiles-once (STM-R-03, STM-R-41) ------------------------------------------------------------------


def test_a_tile_in_a_market_and_a_machine_room_names_both_stm_r_41() -> None:
    """STM-R-41: a bought machine leaves its market for the buyer's machine room; it is never in both."""
    state = start(4)
    room = state.players[0].machine_room
    tile = state.markets[0].tiles[0]
    built = player(state, 0, machine_room=(*room[:4], RoomTile("machine", tile, 0), *room[5:]))
    assert msgs("machine-tiles-once", built) == [
        f"machine tile {tile} is in 2 places: the level-2 market, seat 0's machine room"
    ]
    extra = attrs.evolve(state, markets=(*state.markets, Market(2, ("M0-08",), extra=True)))
    both = player(extra, 0, machine_room=(*room[:4], RoomTile("machine", "M0-08", 0), *room[5:]))
    assert msgs("machine-tiles-once", both) == [
        "machine tile M0-08 is in 2 places: the level-2 extra market, seat 0's machine room"
    ]


def test_starting_machines_are_the_packs_and_one_each_stm_r_13() -> None:
    """STM-R-13: each player builds one starting machine of the pack; positions count from 1, and the
    positions after an empty one are checked too."""
    state = start(2)
    room = state.players[0].machine_room
    stranger = player(state, 0, machine_room=(None, RoomTile("starting", "S9", 0), *room[2:]))
    assert f"seat 0: starting machine S9 at position 2 is not in pack {NAME}" in msgs("machine-tiles-once", stranger)
    two = player(state, 0, machine_room=(*room[:2], RoomTile("starting", "S3", 0), *room[3:]))
    assert "seat 0 has 2 starting machines (STM-R-13: one)" in msgs("machine-tiles-once", two)


def test_tile_sides_and_capacity_supply_stm_r_59() -> None:
    """STM-R-13/59: starting machines and capacity tiles show side 0 or 1 (a bought machine has no side to
    check); the capacity-tile supply may run out (0), never below."""
    state = start(2)
    room = state.players[0].machine_room
    machine = player(state, 0, machine_room=(*room[:4], RoomTile("machine", "M1-09", 5), *room[5:]))
    assert msgs("machine-tiles-once", machine) == []
    flipped = player(state, 0, machine_room=(room[0], RoomTile("capacity", "capacity", 2), *room[2:]))
    assert msgs("machine-tiles-once", flipped) == ["seat 0: the tile at position 2 shows side 2"]
    empty = attrs.evolve(state, supply=attrs.evolve(state.supply, capacity_tiles=0))
    assert msgs("machine-tiles-once", empty) == []


def test_a_starting_machine_drawn_twice_stm_r_13() -> None:
    """STM-R-13: each starting machine is drawn once; seat 1 holding S1 while seat 0 built S1 is twice."""
    state = attrs.evolve(player(start(2), 1, starting="S1"), phase=Phase.SETUP_ROOM)
    assert "starting machine S1 is in 2 machine rooms" in msgs("machine-tiles-once", state)


def test_an_undealt_seat_does_not_hide_the_next_seats_character_stm_r_07() -> None:
    """STM-R-07: while dealing, seat 0 may have no character yet; seat 1's character is still checked."""
    dealing = attrs.evolve(player(player(start(2), 0, character=0), 1, character=99), phase=Phase.DEAL)
    assert msgs("seats-and-board-side", dealing) == [f"seat 1 plays character 99, which pack {NAME} does not have"]
